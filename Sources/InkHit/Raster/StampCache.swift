import InkGeometry

/// The stamps of one shape, per (linear map, cell, radius) and phase bucket; filled by the indexes that need
/// them. Bounded: at most `maxSets` linear maps per shape (the oldest set is dropped for a new one), and a
/// stamp is never larger than `ClassRaster.maxStampCells` cells.
final class StampCache: @unchecked Sendable {
    static let maxSets = 4

    struct Key: Hashable {
        var a: UInt64, b: UInt64, c: UInt64, d: UInt64, cell: UInt64, radius: UInt64
    }

    private final class Entry {
        let key: Key
        var stamps: [Stamp?]
        var made: [Bool]
        init(key: Key, buckets: Int) {
            self.key = key
            stamps = [Stamp?](repeating: nil, count: buckets)
            made = [Bool](repeating: false, count: buckets)
        }
    }

    private let lock = Lock()
    private var entries: [Entry] = []

    /// The stamp for `key` and `bucket`, made by `make` (outside the lock) the first time. Nil when `make`
    /// returned nil (the footprint is too large).
    func stamp(_ key: Key, bucket: Int, buckets: Int, make: () -> Stamp?) -> Stamp? {
        let found: (Bool, Stamp?) = lock.withLock {
            if let e = entries.first(where: { $0.key == key }), e.made[bucket] { return (true, e.stamps[bucket]) }
            return (false, nil)
        }
        if found.0 { return found.1 }
        let s = make()
        return lock.withLock {
            let e: Entry
            if let old = entries.first(where: { $0.key == key }) { e = old } else {
                e = Entry(key: key, buckets: buckets)
                if entries.count >= Self.maxSets { entries.removeFirst() }
                entries.append(e)
            }
            if !e.made[bucket] { e.stamps[bucket] = s; e.made[bucket] = true }
            return e.stamps[bucket]
        }
    }

    /// The stamps made so far for `key`, into `stamps[0..<buckets]` with `made` set for each (one lock).
    func copy(_ key: Key, buckets: Int, into stamps: UnsafeMutablePointer<Stamp?>, made: UnsafeMutablePointer<Bool>) {
        lock.withLock {
            guard let e = entries.first(where: { $0.key == key }) else { return }
            for b in 0..<buckets where e.made[b] { stamps[b] = e.stamps[b]; made[b] = true }
        }
    }

    /// Number of linear maps with stamps.
    var setCount: Int { lock.withLock { entries.count } }

    /// Bytes of the cached stamps.
    var byteCount: Int {
        lock.withLock { entries.reduce(0) { $0 + $1.stamps.reduce(0) { $0 + ($1?.byteCount ?? 0) } } }
    }
}
