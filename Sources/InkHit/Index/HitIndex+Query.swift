import InkGeometry

extension HitIndex {
    /// Whether `point` (view px) is on the ink of any placement. Non-finite points are a miss.
    /// Allocates nothing.
    public func contains(_ point: Point) -> Bool {
        let s = storage
        return withExtendedLifetime(s) { s.topmost(point.x, point.y) >= 0 }
    }

    /// The topmost placement whose ink contains `point` (view px): the placement `hit(at:radius:)` answers
    /// with `isInside` true, without measuring its distance. Nil when the point is on no ink (or not
    /// finite). The containment is exact for the stored polygons, as `hit(at:radius:)`'s.
    ///
    /// Most points are answered by one lookup in the index's class raster (see "How the index works");
    /// the others by the winding test of the one placement the raster names, or of the placements listed in
    /// the point's page cell. Allocates nothing; safe from any number of threads.
    public func topmost(at point: Point) -> Int? {
        let s = storage
        let p = withExtendedLifetime(s) { s.topmost(point.x, point.y) }
        return p >= 0 ? p : nil
    }

    /// The answer at `point` (view px) within `radius` (view px), by the hit rule (see ``HitIndex``):
    /// the topmost placement whose ink contains the point; otherwise the placement whose outline is nearest,
    /// if it is within `radius` (ties → topmost). Nil on a miss.
    ///
    /// `distance` in the result is the exact signed distance (view px) to that placement's outline.
    /// A negative or NaN radius counts as 0; a non-finite point is a miss; `+∞` finds the nearest
    /// placement anywhere. Allocates nothing.
    public func hit(at point: Point, radius: Double = 0) -> Hit? {
        let s = storage
        // r = 0 (and NaN or negative) goes straight to the inlined ink test.
        return withExtendedLifetime(s) { radius > 0 ? s.bestHit(point.x, point.y, radius: radius) : s.inkHit(point.x, point.y) }
    }

    /// Every placement at one point: those whose ink contains `point` (view px) and, for `radius` > 0,
    /// those whose outline is within `radius` view px of it, sorted by signed distance (most inside first;
    /// equal distances → topmost first). At radius 0 only placements whose ink contains the point (the
    /// containment test `hit(at:radius:)` uses). A negative or NaN radius counts as 0. Allocates the
    /// returned array.
    public func allHits(at point: Point, radius: Double = 0) -> [Hit] {
        var out: [Hit] = []
        allHits(at: point, radius: radius, into: &out)
        return out
    }

    /// Not API: calls `body` with every placement `allHits(at:radius:)` would list, in no particular order,
    /// without allocating (for InkScene, which filters them by its own rules).
    package func forEachHit(at point: Point, radius: Double, _ body: (Hit) -> Void) {
        let s = storage
        withExtendedLifetime(s) { s.forEachHit(point.x, point.y, radius: radius, body) }
    }

    /// Like `allHits(at:radius:)`, writing into `out` (cleared first). Reuses `out`'s capacity, so a caller
    /// that keeps one buffer allocates only when it must grow. A negative or NaN radius counts as 0.
    public func allHits(at point: Point, radius: Double = 0, into out: inout [Hit]) {
        out.removeAll(keepingCapacity: true)
        let s = storage
        withExtendedLifetime(s) { s.allHits(point.x, point.y, radius: radius, into: &out) }
        out.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.placement > $1.placement }
    }
}
