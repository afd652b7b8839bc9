import InkHit

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
