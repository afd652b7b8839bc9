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
/// Not API: shared with InkFreeType and InkText (`package`).
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Where the mutex lives (it must not move while in use).
    private let arena: Arena

    package init() {
        var layout = Arena.Layout()
        let slot = layout.reserve(pthread_mutex_t.self, count: 1)
        arena = Arena(layout)
        mutex = arena.buffer(slot, repeating: pthread_mutex_t()).baseAddress!
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
    }

    /// Runs `body` while holding the lock.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
