import InkGeometry

/// Not API: one answer in the memory layout of `inkhit_hit` (inkhit.h), so that the C interface (InkHitC)
/// writes a batch's answers straight into its caller's array, in the same loop as `unsafeHits`: 1 and 0 for
/// true and false, the placement or -1, the signed distance or NaN.
@_spi(InkInternals) public struct RawHit: Sendable {
    /// 1 on a hit, 0 on a miss.
    public var hit: Int32
    /// 1 when the point is on the placement's ink.
    public var inside: Int32
    /// The placement hit, -1 on a miss.
    public var placement: Int64
    /// Signed distance to the placement's outline, view px (NaN on a miss).
    public var distance: Double

    /// The answer for `h` (nil: a miss).
    @inline(__always) public init(_ h: Hit?) {
        if let h {
            hit = 1; inside = h.isInside ? 1 : 0; placement = Int64(h.placement); distance = h.distance
        } else {
            hit = 0; inside = 0; placement = -1; distance = .nan
        }
    }
}

extension HitIndex {
    /// Not API: `unsafeHits(for:radius:into:)` writing `RawHit`s, for the C interface's batch query. Answers
    /// the first `count` points into the same slots of `out` and returns where the first non-finite point is
    /// (-1: none) and how many there are (they are answered as misses, as always). Allocates nothing.
    ///
    /// - Precondition: `points` and `out` hold `count` elements each and do not overlap.
    @_spi(InkInternals)
    public func unsafeRawHits(for points: UnsafePointer<Point>, count: Int, radius: Double,
                              into out: UnsafeMutablePointer<RawHit>) -> (firstNonFinite: Int, nonFinite: Int) {
        let s = storage
        var first = -1, bad = 0
        // Only a miss can be a non-finite point: the check costs nothing on hits.
        @inline(__always) func note(_ h: Hit?, _ x: Double, _ y: Double, _ i: Int) {
            if h == nil && !(x.isFinite && y.isFinite) {
                if first < 0 { first = i }
                bad += 1
            }
        }
        withExtendedLifetime(s) {
            if let raster = s.raster, count > 0, radius <= s.preparedRadius {
                // The staged batches (HitIndex+Pipeline.swift), as `unsafeHits` answers.
                if radius > 0 {
                    s.nearStaged(points, count, radius: radius, raster: raster) { i, h in
                        out[i] = RawHit(h)
                        note(h, points[i].x, points[i].y, i)
                    }
                } else {
                    s.inkStaged(points, count, raster: raster, distances: true, clear: { i in
                        out[i] = RawHit(nil)
                        note(nil, points[i].x, points[i].y, i)          // every point starts as a miss, in order
                    }, emit: { i, q, d in
                        out[i] = RawHit(Hit(placement: q, distance: -d, isInside: true))
                    })
                }
            } else if radius > 0 {
                for i in 0..<count {
                    let x = points[i].x, y = points[i].y
                    let h = s.bestHit(x, y, radius: radius)
                    out[i] = RawHit(h)
                    note(h, x, y, i)
                }
            } else {
                for i in 0..<count {
                    let x = points[i].x, y = points[i].y
                    let h = s.inkHit(x, y)
                    out[i] = RawHit(h)
                    note(h, x, y, i)
                }
            }
        }
        return (first, bad)
    }
}
