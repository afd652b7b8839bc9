import InkGeometry

extension HitIndex {
    /// Not API: the index's storage as an opaque pointer, not retained: for a handle registry that keeps the
    /// index alive while it answers through `unsafeHit(storage:at:radius:)` and its siblings, so a query reaches
    /// the storage with one load fewer than through the index (the C interface's single queries).
    @unsafe package var unsafeStorage: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(storage).toOpaque()
    }

    /// Not API: `hit(at:radius:)` of the index whose `unsafeStorage` is `storage`, which the caller keeps alive
    /// for the call. Allocates nothing, retains nothing: the storage is borrowed for one call of its query,
    /// `hit(at:radius:)`'s own. Inlinable, so the caller calls that query directly (one call, as a Swift caller).
    @unsafe @inlinable
    package static func unsafeHit(storage: UnsafeMutableRawPointer, at point: Point, radius: Double) -> Hit? {
        Unmanaged<Storage>.fromOpaque(storage)._withUnsafeGuaranteedRef { $0.hit(point.x, point.y, radius: radius) }
    }

    /// Not API: `topmost(at:)` (-1: none) of the index whose `unsafeStorage` is `storage`, kept alive by the caller.
    @unsafe @inlinable
    package static func unsafeTopmost(storage: UnsafeMutableRawPointer, at point: Point) -> Int {
        Unmanaged<Storage>.fromOpaque(storage)._withUnsafeGuaranteedRef { $0.topmostOutOfLine(point.x, point.y) }
    }
}

extension HitIndex.Storage {
    /// `hit(at:radius:)`'s answer, out of line: what `HitIndex.unsafeHit(storage:at:radius:)` calls on a borrowed
    /// storage (its closure stays small enough to be inlined, so nothing is retained).
    @usableFromInline @inline(never) func hit(_ x: Double, _ y: Double, radius: Double) -> Hit? {
        radius > 0 ? bestHit(x, y, radius: radius) : inkHit(x, y)
    }

    /// `topmost`, out of line (see `hit(_:_:radius:)`).
    @usableFromInline @inline(never) func topmostOutOfLine(_ x: Double, _ y: Double) -> Int { topmost(x, y) }
}
