import InkGeometry

/// Shapes and transforms for differential tests.
public enum TestShapes {
    /// The axis-aligned square [x0, x1] × [y0, y1], counter-clockwise in y-up (or clockwise if `reversed`).
    public static func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, reversed: Bool = false) -> [Point] {
        let s = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
        return reversed ? s.reversed() : s
    }

    /// Square [0, outer]² with a centred square hole; `holeReversed` chooses the hole's direction
    /// (reversed: a real hole under nonzero; same direction: filled under nonzero, a hole under even-odd).
    public static func squareWithHole(outer: Double, hole: Double, holeReversed: Bool) -> Polygon {
        let m = (outer - hole) / 2
        return Polygon(contours: [square(0, 0, outer, outer), square(m, m, m + hole, m + hole, reversed: holeReversed)])
    }

    /// A random star-ish polygon (self-intersections allowed) plus up to two more overlapping contours.
    public static func randomBlob(_ rng: inout SplitMix64, size: Double) -> Polygon {
        var contours: [[Point]] = []
        for _ in 0..<(1 + rng.int(3)) {
            let n = 3 + rng.int(14)
            let cx = rng.range(0.2, 0.8) * size, cy = rng.range(0.2, 0.8) * size
            var c: [Point] = []
            for i in 0..<n {
                let ang = Double(i) / Double(n) * 6.283185307179586 + rng.range(-0.2, 0.2)
                let rad = rng.range(0.1, 0.5) * size
                c.append(Point(rad, 0).applying(.rotation(ang)) + Point(cx, cy))
            }
            if rng.int(2) == 0 { c.reverse() }
            contours.append(c)
        }
        return Polygon(contours: contours)
    }

    /// Random transforms: y-flip scale (kind 0), similarity (1), non-uniform scale (2), shear (3); all
    /// with a rotation and a translation within 200 px, scales 0.005–0.05 px per unit.
    public static func randomTransform(_ rng: inout SplitMix64, kind: Int) -> AffineTransform {
        let rot = AffineTransform.rotation(rng.range(0, 6.3))
        let s = rng.range(0.005, 0.05)
        let move = AffineTransform.translation(rng.range(0, 200), rng.range(0, 200))
        switch kind {
        case 0: return AffineTransform.scale(s, -s).concatenating(move)
        case 1: return AffineTransform.scale(s, s).concatenating(rot).concatenating(move)
        case 2: return AffineTransform.scale(s, s * rng.range(0.3, 3)).concatenating(rot).concatenating(move)
        default:
            return AffineTransform.scale(s, -s).concatenating(.shear(rng.range(-0.8, 0.8), rng.range(-0.5, 0.5)))
                .concatenating(rot).concatenating(move)
        }
    }
}
