import Testing
import InkGeometry
import InkTestSupport

/// The stroker against shapes whose stroke is known in closed form: a square (miter, bevel, round corners), a
/// frame with a hole, a sharp spike beyond and within the miter limit, circles made of curves. Ink is the
/// fill united with the band under the nonzero rule, counted by a crossing-number winding written here.
struct StrokingTests {
    static func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool = false) -> [PathElement] {
        let pts = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
        let ordered = clockwise ? Array(pts.reversed()) : pts
        return [.move(ordered[0])] + ordered.dropFirst().map { .line($0) } + [.close]
    }

    /// The ink of fill ∪ band at `p`: nonzero winding over the fill (flattened finely) and every piece.
    struct Ink {
        var edges: [(Point, Point)] = []
        init(_ fill: [PathElement], _ band: StrokeBand) {
            var flat = FlatteningSink(PolygonSink(), tolerance: 1e-5)
            fill.replay(into: &flat)
            for c in flat.base.result.contours { add(c) }
            for i in 0..<band.count { add(Array(band.piece(i))) }
        }
        mutating func add(_ c: [Point]) {
            for i in 0..<c.count { edges.append((c[i], c[(i + 1) % c.count])) }
        }
        /// Crossing number along +x (upward edges +1, downward −1).
        func winding(_ p: Point) -> Int {
            var w = 0
            for (a, b) in edges {
                let up = a.y <= p.y && b.y > p.y, down = b.y <= p.y && a.y > p.y
                guard up || down else { continue }
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if x > p.x { w += up ? 1 : -1 }
            }
            return w
        }
        func contains(_ p: Point) -> Bool { winding(p) != 0 }
    }

    static func ink(_ fill: [PathElement], width: Double, join: StrokeJoin, tolerance: Double = 1e-3) throws -> (Ink, StrokeBand) {
        let band = try Stroking.band(of: fill, width: width, join: join, tolerance: tolerance)
        return (Ink(fill, band), band)
    }

    @Test(arguments: [false, true])
    func mitredSquareGrowsByHalfTheWidthOnEverySide(clockwise: Bool) throws {
        let (ink, band) = try Self.ink(Self.square(0, 0, 10, 10, clockwise: clockwise), width: 2, join: .miter(limit: 4))
        #expect(band.tolerance == 0, "lines and miters are exact")
        // The stroked square is [-1, 11]²: corners included (a right angle's miter is √2 < 4).
        for x in stride(from: -2.0, through: 12, by: 0.25) {
            for y in stride(from: -2.0, through: 12, by: 0.25) where abs(abs(x - 5) - 6) > 1e-9 && abs(abs(y - 5) - 6) > 1e-9 {
                let inside = abs(x - 5) < 6 && abs(y - 5) < 6
                #expect(ink.contains(Point(x, y)) == inside, "(\(x), \(y))")
            }
        }
        #expect(ink.contains(Point(10.99, 10.99)) && !ink.contains(Point(11.01, 10.5)))
    }

    @Test func bevelledAndRoundCornersCutTheSquaresCorner() throws {
        let (bevel, _) = try Self.ink(Self.square(0, 0, 10, 10), width: 2, join: .bevel)
        // The bevel at (10, 10) joins (11, 10) and (10, 11): x + y ≤ 21.
        #expect(bevel.contains(Point(10.45, 10.45)) && !bevel.contains(Point(10.55, 10.55)))
        #expect(bevel.contains(Point(10.9, 10.05)) && !bevel.contains(Point(10.9, 10.15)))
        let (round, band) = try Self.ink(Self.square(0, 0, 10, 10), width: 2, join: .round, tolerance: 1e-3)
        #expect(band.tolerance > 0 && band.tolerance <= 1e-3)
        // Within 1 of the corner (10, 10).
        for k in 0..<64 {
            let a = Double(k) / 64 * 1.5707963267948966
            let (c, s) = (cosine(a), cosine(1.5707963267948966 - a))
            #expect(round.contains(Point(10 + 0.995 * c, 10 + 0.995 * s)), "angle \(a)")
            #expect(!round.contains(Point(10 + 1.005 * c, 10 + 1.005 * s)), "angle \(a)")
        }
    }

    @Test func aHoleShrinksByHalfTheWidth() throws {
        // A frame: outer square counter-clockwise, the hole clockwise (as fonts wind them).
        let frame = Self.square(0, 0, 10, 10) + Self.square(3, 3, 7, 7, clockwise: true)
        let (ink, _) = try Self.ink(frame, width: 2, join: .miter(limit: 4))
        // The hole [3, 7]² shrinks to [4, 6]².
        #expect(!ink.contains(Point(5, 5)) && !ink.contains(Point(4.05, 5.95)))
        #expect(ink.contains(Point(3.95, 5)) && ink.contains(Point(5, 6.05)) && ink.contains(Point(3.5, 3.5)))
        #expect(ink.contains(Point(1, 1)))
    }

    /// Pieces wound against the fill cancel it where they overlap: the orientation the stroker picks matters
    /// (this is what the test above would catch if it picked wrongly).
    @Test func piecesWoundAgainstTheFillWouldCancelIt() throws {
        let square = Self.square(0, 0, 10, 10)
        let right = try Stroking.band(of: square, width: 2, join: .miter(limit: 4), tolerance: 1e-3)
        let wrong = try Stroking.band(of: square, width: 2, join: .miter(limit: 4), tolerance: 1e-3, winding: -right.winding)
        #expect(Ink(square, right).contains(Point(0.5, 5)))
        #expect(!Ink(square, wrong).contains(Point(0.5, 5)), "fill +1 and band −1 cancel")
    }

    /// A spike of apex angle 20°: its miter is 1 / sin 10° = 5.76 widths long, beyond limit 4 (bevel) and
    /// within limit 6.
    @Test(arguments: [4.0, 6.0])
    func aSharpSpikeIsBevelledBeyondTheMiterLimit(limit: Double) throws {
        // Apex at (0, 0) pointing to −x, sides at ±10° from the +x axis, 100 long.
        let k = 0.17632698070846498          // tan 10°
        let spike: [PathElement] = [.move(Point(0, 0)), .line(Point(100, -100 * k)), .line(Point(100, 100 * k)), .close]
        let (ink, _) = try Self.ink(spike, width: 2, join: .miter(limit: limit))
        // Along the bisector (−x): the miter tip is at x = −1 / sin 10° = −5.759; a bevel's line at
        // x = −cos 80° = −0.1736.
        #expect(ink.contains(Point(-0.15, 0)))
        #expect(ink.contains(Point(-5.7, 0)) == (limit == 6))
        #expect(ink.contains(Point(-0.2, 0)) == (limit == 6))
        #expect(!ink.contains(Point(-5.8, 0)))
    }

    /// A circle of radius 10 (cubic arcs, or eight quadratics meeting smoothly) stroked 2 wide is a disc of
    /// radius 11; a ring's hole of radius 5 becomes 4. No miter spikes where the arcs meet.
    @Test(arguments: BezierCircle.allCases)
    func circlesGrowAndHolesShrinkByHalfTheWidth(kind: BezierCircle) throws {
        let outer = kind.elements(radius: 10)
        let inner = Self.reversed(kind.elements(radius: 5))
        let (ink, band) = try Self.ink(outer + inner, width: 2, join: .miter(limit: 4), tolerance: 1e-3)
        #expect(band.tolerance > 0 && band.tolerance <= 1e-3)
        let (outMin, outMax) = kind.radialRange(radius: 10), (inMin, inMax) = kind.radialRange(radius: 5)
        for k in 0..<360 {
            let a = Double(k) / 360 * 6.283185307179586
            let (c, s) = (cosine(a), cosine(1.5707963267948966 - a))
            func at(_ r: Double) -> Point { Point(r * c, r * s) }
            #expect(ink.contains(at(outMin + 1 - 0.005)), "\(kind) \(k)°")
            #expect(!ink.contains(at(outMax + 1 + 0.005)), "\(kind) \(k)°")
            #expect(ink.contains(at(inMax - 1 + 0.005)), "\(kind) \(k)°")
            #expect(!ink.contains(at(inMin - 1 - 0.005)), "\(kind) \(k)°")
        }
    }

    @Test func edgeBudgetIsCheckedBeforeTheWork() {
        let circle = BezierCircle.cubic4.elements(radius: 1000)
        #expect(throws: StrokeError.tooManyEdges(limit: 100)) {
            _ = try Stroking.band(of: circle, width: 2, join: .round, tolerance: 1e-3, maxEdges: 100)
        }
        #expect(throws: StrokeError.self) { _ = try Stroking.band(of: circle, width: .nan, join: .round, tolerance: 1e-3) }
        #expect(throws: StrokeError.self) { _ = try Stroking.band(of: circle, width: 1, join: .round, tolerance: 0) }
    }

    @Test func zeroWidthIsTheFillAlone() throws {
        let band = try Stroking.band(of: Self.square(0, 0, 1, 1), width: 0, join: .round, tolerance: 1e-3)
        #expect(band.count == 0 && band.tolerance == 0)
    }

    /// The elements of closed contours drawn backwards.
    static func reversed(_ elements: [PathElement]) -> [PathElement] {
        var out: [PathElement] = []
        var contour: [(Point, PathElement)] = []          // (start point, segment ending elsewhere)
        var start = Point.zero, at = Point.zero
        func flush() {
            guard !contour.isEmpty else { return }
            out.append(.move(at))
            for (from, seg) in contour.reversed() {
                switch seg {
                case .line: out.append(.line(from))
                case .quad(let c, _): out.append(.quad(control: c, to: from))
                case .cubic(let c1, let c2, _): out.append(.cubic(control1: c2, control2: c1, to: from))
                default: break
                }
            }
            out.append(.close)
            contour = []
        }
        for e in elements {
            switch e {
            case .move(let p): flush(); start = p; at = p
            case .line(let p), .quad(_, let p), .cubic(_, _, let p): contour.append((at, e)); at = p
            case .close:
                if at != start { contour.append((at, .line(start))); at = start }
                flush()
            }
        }
        flush()
        return out
    }
}

/// cos x by its Taylor series (the test's own; x within ±7).
func cosine(_ x: Double) -> Double {
    var term = 1.0, sum = 1.0
    for n in stride(from: 2.0, through: 60, by: 2) { term *= -x * x / ((n - 1) * n); sum += term }
    return sum
}
