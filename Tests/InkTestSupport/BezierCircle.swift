import InkGeometry

/// A circle of radius R around the origin, counter-clockwise (y-up), as Bézier arcs.
public enum BezierCircle: String, CaseIterable, CustomStringConvertible, Sendable {
    /// Four cubic quarter arcs with the classic k = 0.5522847498 (midpoints exactly on the circle).
    case cubic4
    /// Eight quadratic 45° arcs, control point on the bisector at R / cos(22.5°) (tangent at both ends).
    case quad8

    public var description: String { rawValue }

    public static let k = 0.5522847498

    /// The arcs as elements, starting with a move to (R, 0) and ending with a close.
    public func elements(radius r: Double) -> [PathElement] {
        var out: [PathElement] = [.move(Point(r, 0))]
        switch self {
        case .cubic4:
            let k = Self.k * r
            out += [
                .cubic(control1: Point(r, k), control2: Point(k, r), to: Point(0, r)),
                .cubic(control1: Point(-k, r), control2: Point(-r, k), to: Point(-r, 0)),
                .cubic(control1: Point(-r, -k), control2: Point(-k, -r), to: Point(0, -r)),
                .cubic(control1: Point(k, -r), control2: Point(r, -k), to: Point(r, 0)),
            ]
        case .quad8:
            // Exact values of cos/sin at multiples of 22.5°, written out (no trigonometry under test).
            let c45 = 0.70710678118654752440, rc = r / 0.92387953251128675613 // R / cos 22.5°
            let ends: [(Double, Double)] = [(1, 0), (c45, c45), (0, 1), (-c45, c45), (-1, 0), (-c45, -c45), (0, -1), (c45, -c45), (1, 0)]
            let mids: [(Double, Double)] = [
                (0.92387953251128675613, 0.38268343236508977173), (0.38268343236508977173, 0.92387953251128675613),
                (-0.38268343236508977173, 0.92387953251128675613), (-0.92387953251128675613, 0.38268343236508977173),
                (-0.92387953251128675613, -0.38268343236508977173), (-0.38268343236508977173, -0.92387953251128675613),
                (0.38268343236508977173, -0.92387953251128675613), (0.92387953251128675613, -0.38268343236508977173),
            ]
            for i in 0..<8 {
                out.append(.quad(control: Point(rc * mids[i].0, rc * mids[i].1), to: Point(r * ends[i + 1].0, r * ends[i + 1].1)))
            }
        }
        out.append(.close)
        return out
    }

    /// Every arc as its control polygon: [p0, c, p1] (quadratic) or [p0, c1, c2, p1] (cubic).
    public func arcs(radius r: Double) -> [[Point]] {
        var out: [[Point]] = []
        var cur = Point(r, 0)
        for e in elements(radius: r) {
            switch e {
            case .quad(let c, let p): out.append([cur, c, p]); cur = p
            case .cubic(let c1, let c2, let p): out.append([cur, c1, c2, p]); cur = p
            default: break
            }
        }
        return out
    }

    /// Dense samples of one arc (de Casteljau, not the code under test).
    public static func sample(_ arc: [Point], _ n: Int) -> [Point] {
        (0...n).map { BezierDistance.evaluate(arc, Double($0) / Double(n)) }
    }

    /// Distance from `p` to the true Bézier curve (all arcs), to ~1e-12 of the radius.
    public func distance(from p: Point, radius r: Double) -> Double {
        // Nearest arcs first; an arc whose control box is farther than the best so far cannot be nearer.
        let arcs = arcs(radius: r).map { (BezierDistance.boxDistance(from: p, to: $0), $0) }.sorted { $0.0 < $1.0 }
        var best = Double.infinity
        for (bound, arc) in arcs where bound < best { best = min(best, BezierDistance.distance(from: p, to: arc)) }
        return best
    }

    /// Smallest and largest distance from the origin of the true Bézier curve, by dense sampling.
    public func radialRange(radius r: Double) -> (min: Double, max: Double) {
        var lo = Double.infinity, hi = 0.0
        for arc in arcs(radius: r) {
            for p in Self.sample(arc, 4000) {
                let d = (p.x * p.x + p.y * p.y).squareRoot()
                lo = min(lo, d); hi = max(hi, d)
            }
        }
        return (lo, hi)
    }
}
