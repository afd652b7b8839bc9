#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock over a pthread mutex (available on every platform the package builds on,
/// unlike `Synchronization.Mutex`, which needs macOS 15).
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock.
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// Hands out `Font` ids: 1, 2, 3, … in the order fonts are loaded, unique for the life of the process.
enum FontIDs {
    private final class Counter: @unchecked Sendable {
        let lock = Lock()
        var last: UInt64 = 0              // guarded by `lock`
    }
    private static let counter = Counter()

    static func next() -> UInt64 {
        counter.lock.withLock {
            counter.last &+= 1
            return counter.last
        }
    }
}
