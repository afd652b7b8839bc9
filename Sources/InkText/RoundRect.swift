#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry
import InkHit

/// Not API: the one builder of rounded rectangles (attachments' boxes here, scene regions' `.roundRect`
/// shapes in InkScene): each corner a circular arc flattened into chords, as many as the tolerance needs, so
/// the polygon lies within the tolerance of the exact arc (the chords are inside it; the shape reports how far).
package enum RoundRect {
    /// Chords for an arc of `angle` radians and `radius` view px so that no point of the arc is farther
    /// than `tolerance` view px from them: the count (at least one per quarter turn, at most 100,000) and the
    /// largest distance they leave (the sagitta, ≤ `tolerance`; the radius itself when the radius is within
    /// the tolerance).
    package static func arcSegments(radius: Double, angle: Double, tolerance tol: Double) -> (count: Int, achieved: Double) {
        guard radius > tol else { return (max(1, Int((angle / (Double.pi / 2)).rounded(.up))), radius) }
        let theta = 4 * asin((tol / radius / 2).squareRoot())
        let count = (angle / theta).rounded(.up)
        let n = count.isFinite && count < 100_000 ? max(1, Int(count)) : 100_000
        let half = angle / Double(n) / 2
        let achieved = 2 * radius * sin(half / 2) * sin(half / 2)
        return (n, achieved)
    }

    /// The edges of the polygon `shape` builds (4 for a plain box), from the radius alone: a bound to check
    /// before building.
    package static func edges(radius rad: Double, viewTolerance: Double, maxScale: Double) -> Int {
        rad > 0 ? 4 * (arcSegments(radius: rad * maxScale, angle: .pi / 2, tolerance: viewTolerance).count + 1) : 4
    }

    /// The rectangle `r` (local px) with corners of radius `rad` (≤ half its width and height), as a shape
    /// flattened within `viewTolerance` view px under a map of largest scale `maxScale`; a plain box (`rad`
    /// 0) is exact. `fastDistance`: the shape's distance margin, local px (nil: its default).
    ///
    /// - Throws: `ShapeError` beyond `limits` or for coordinates the index cannot hold.
    package static func shape(_ r: Rect, radius rad: Double, viewTolerance: Double, maxScale: Double,
                             limits: ShapeLimits = .default, fastDistance: Double? = nil) throws(ShapeError) -> GlyphShape {
        guard rad > 0 else {
            return try GlyphShape(polygon: Polygon(contours: [[Point(r.minX, r.minY), Point(r.maxX, r.minY),
                                                               Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]]), limits: limits)
        }
        let (n, achieved) = arcSegments(radius: rad * maxScale, angle: .pi / 2, tolerance: viewTolerance)
        var ring: [Point] = []
        ring.reserveCapacity(4 * (n + 1))
        // Corners clockwise in y-down: top-right, bottom-right, bottom-left, top-left.
        let corners = [(r.maxX - rad, r.minY + rad, -Double.pi / 2), (r.maxX - rad, r.maxY - rad, 0.0),
                       (r.minX + rad, r.maxY - rad, Double.pi / 2), (r.minX + rad, r.minY + rad, Double.pi)]
        for (cx, cy, start) in corners {
            for k in 0...n {
                let a = start + Double.pi / 2 * Double(k) / Double(n)
                ring.append(Point(cx + rad * cos(a), cy + rad * sin(a)))
            }
        }
        return try GlyphShape(polygon: Polygon(contours: [ring]), tolerance: achieved / maxScale, limits: limits,
                              fastDistance: fastDistance)
    }
}
