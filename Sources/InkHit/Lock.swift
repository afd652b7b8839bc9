#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock over a pthread mutex (available on every platform the package builds on,
/// unlike `Synchronization.Mutex`, which needs macOS 15). ThreadSanitizer sees the ordering a pthread
/// mutex gives, but not that of `Mutex`, whose futex lives in the (uninstrumented) standard library.
///
/// Not API: shared with InkFreeType and InkText through `@_spi(InkInternals)`.
@_spi(InkInternals) public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
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
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
