import Testing
import InkGeometry
import InkTestSupport

/// Stock sinks and adapters: SVG goldens written by hand, DecimalText.string, the normalizing and
/// transforming adapters, element replay.
struct SinkTests {
    // MARK: DecimalText

    struct NumberCase: Sendable, CustomTestStringConvertible {
        var v: Double, decimals: Int, want: String
        var testDescription: String { "\(v) @\(decimals) → \(want)" }
    }

    static let numbers: [NumberCase] = [
        NumberCase(v: 0, decimals: 3, want: "0"),
        NumberCase(v: -0.0, decimals: 3, want: "0"),
        NumberCase(v: 1.5, decimals: 3, want: "1.5"),
        NumberCase(v: 1e-4, decimals: 3, want: "0"),
        NumberCase(v: -1e-4, decimals: 3, want: "0"),
        NumberCase(v: -2.25, decimals: 3, want: "-2.25"),
        NumberCase(v: 123456.789, decimals: 2, want: "123456.79"),
        NumberCase(v: 123456.789, decimals: 3, want: "123456.789"),
        NumberCase(v: 123456.789, decimals: 0, want: "123457"),
        NumberCase(v: 10, decimals: 3, want: "10"),
        NumberCase(v: 100.5, decimals: 3, want: "100.5"),
        NumberCase(v: 0.05, decimals: 3, want: "0.05"),
        NumberCase(v: -0.007, decimals: 3, want: "-0.007"),
        NumberCase(v: 2.0004, decimals: 3, want: "2"),
        NumberCase(v: 1.9996, decimals: 3, want: "2"),
        NumberCase(v: 3.14159265, decimals: 4, want: "3.1416"),
        NumberCase(v: 0.123456789, decimals: 9, want: "0.123456789"),
        NumberCase(v: 0.123456789, decimals: 20, want: "0.123456789"),   // decimals clamped to 9
        NumberCase(v: 7.8, decimals: -2, want: "8"),                     // decimals clamped to 0
        NumberCase(v: .nan, decimals: 3, want: "nan"),
        NumberCase(v: .infinity, decimals: 3, want: "inf"),
        NumberCase(v: -.infinity, decimals: 3, want: "-inf"),
    ]

    @Test(arguments: numbers)
    func decimalTextCases(_ c: NumberCase) {
        #expect(DecimalText.string(c.v, maxFractionDigits: c.decimals) == c.want)
    }

    @Test func decimalTextDefaultsToThreeDecimals() {
        #expect(DecimalText.string(1.23456) == "1.235")
    }

    /// Regression (fixed): the doc promises "no exponent", but at |v| · 10^decimals ≥ 9e15 the
    /// function falls back to `String(v)`, which prints `1e+16`.
    @Test(arguments: [(1e16, "10000000000000000"), (-2e20, "-200000000000000000000")])
    func decimalTextNeverPrintsAnExponent(_ c: (Double, String)) {
        let s = DecimalText.string(c.0, maxFractionDigits: 0)
        #expect(!s.contains("e"), "\(s)")
        #expect(s == c.1)
    }

    // MARK: SVGPathSink goldens (hand-written)

    @Test func svgGoldenAllCommands() {
        var s = SVGPathSink()
        s.move(to: Point(0, 0))
        s.addLine(to: Point(10.5, -2.25))
        s.addQuadCurve(to: Point(3, 4), control: Point(1, 2))
        s.addCurve(to: Point(7, 8), control1: Point(1, 1), control2: Point(0.12345, 1e-5))
        s.closeSubpath()
        #expect(s.path == "M 0 0 L 10.5 -2.25 Q 1 2 3 4 C 1 1 0.123 0 7 8 Z")
    }

    @Test func svgGoldenDecimalsAndTwoContours() {
        var s = SVGPathSink(decimals: 1)
        s.move(to: Point(1.26, -0.04))
        s.addLine(to: Point(2.96, 3))
        s.closeSubpath()
        s.move(to: Point(-1, -1))
        s.addLine(to: Point(100, 0.5))
        s.closeSubpath()
        #expect(s.path == "M 1.3 0 L 3 3 Z M -1 -1 L 100 0.5 Z")
        #expect(SVGPathSink().path == "")
    }

    @Test func replayIntoSVGAndRecordingRoundTrips() {
        let elements: [PathElement] = [
            .move(Point(1, 2)), .line(Point(3, 4)), .quad(control: Point(5, 6), to: Point(7, 8)),
            .cubic(control1: Point(9, 10), control2: Point(11, 12), to: Point(13, 14)), .close,
        ]
        var svg = SVGPathSink()
        elements.replay(into: &svg)
        #expect(svg.path == "M 1 2 L 3 4 Q 5 6 7 8 C 9 10 11 12 13 14 Z")
        var rec = RecordingSink()
        elements.replay(into: &rec)
        #expect(rec.elements == elements)
        var arr: [PathElement] = []
        elements.replay(into: &arr)
        #expect(arr == elements)
    }

    @Test func transformingSinkAppliesTheTransformToEveryPoint() {
        // Scale by 2 then translate by (1, -1); y-flip afterwards with height 10.
        let t = AffineTransform.scale(2, 2).concatenating(.translation(1, -1)).concatenating(.yFlip(height: 10))
        var s = TransformingSink(SVGPathSink(), transform: t)
        s.move(to: Point(0, 0))                                   // → (1, -1) → (1, 11)
        s.addLine(to: Point(1, 0))                                // → (3, -1) → (3, 11)
        s.addQuadCurve(to: Point(2, 2), control: Point(1, 1))    // c → (3, 1) → (3, 9); p → (5, 3) → (5, 7)
        s.addCurve(to: Point(0, 3), control1: Point(0.5, 0), control2: Point(0, 0.25))
        // c1 → (2, -1) → (2, 11); c2 → (1, -0.5) → (1, 10.5); p → (1, 5) → (1, 5)
        s.closeSubpath()
        #expect(s.base.path == "M 1 11 L 3 11 Q 3 9 5 7 C 2 11 1 10.5 1 5 Z")
    }

    // MARK: NormalizingSink

    static func normalized(_ body: (inout NormalizingSink<RecordingSink>) -> Void) -> (elements: [PathElement], dropped: Int) {
        var n = NormalizingSink(RecordingSink())
        body(&n)
        n.finish()
        return (n.base.elements, n.droppedNonFinite)
    }

    @Test func moveIsEmittedLazilyAndLoneMovesVanish() {
        let a = Point(0, 0), b = Point(5, 5), c = Point(6, 5)
        let r1 = Self.normalized { s in s.move(to: a); s.move(to: b); s.addLine(to: c) }
        #expect(r1.elements == [.move(b), .line(c), .line(b), .close])
        let r2 = Self.normalized { s in s.move(to: a); s.move(to: b) }
        #expect(r2.elements == [])
        let r3 = Self.normalized { s in s.move(to: a); s.closeSubpath(); s.closeSubpath() }
        #expect(r3.elements == [])
    }

    @Test func openContoursAreClosedAtTheNextMoveAndAtFinish() {
        let a = Point(0, 0), b = Point(4, 0), c = Point(4, 4), d = Point(10, 10), e = Point(12, 10)
        let r = Self.normalized { s in
            s.move(to: a); s.addLine(to: b); s.addLine(to: c)
            s.move(to: d); s.addLine(to: e)
        }
        #expect(r.elements == [.move(a), .line(b), .line(c), .line(a), .close,
                               .move(d), .line(e), .line(d), .close])
    }

    @Test func contourEndingAtItsStartGetsNoExtraLine() {
        let a = Point(0, 0), b = Point(4, 0), c = Point(4, 4)
        let r = Self.normalized { s in
            s.move(to: a); s.addLine(to: b); s.addQuadCurve(to: a, control: c); s.closeSubpath()
        }
        #expect(r.elements == [.move(a), .line(b), .quad(control: c, to: a), .close])
    }

    @Test func zeroLengthSegmentsAreDropped() {
        let a = Point(1, 1), b = Point(3, 1)
        let r = Self.normalized { s in
            s.move(to: a)
            s.addLine(to: a)
            s.addQuadCurve(to: a, control: a)
            s.addCurve(to: a, control1: a, control2: a)
            s.addLine(to: b)
            s.addLine(to: b)
            s.addQuadCurve(to: b, control: b)
            s.addCurve(to: b, control1: b, control2: b)
        }
        #expect(r.elements == [.move(a), .line(b), .line(a), .close])
        #expect(r.dropped == 0, "zero-length segments are not non-finite")
    }

    @Test func curveReturningToItsStartIsNotDegenerate() {
        let a = Point(0, 0), c = Point(5, 5)
        let r = Self.normalized { s in s.move(to: a); s.addQuadCurve(to: a, control: c) }
        #expect(r.elements == [.move(a), .quad(control: c, to: a), .close])
    }

    @Test func nonFiniteSegmentsAreDroppedAndCounted() {
        let a = Point(0, 0), b = Point(4, 0), c = Point(4, 4)
        let r = Self.normalized { s in
            s.move(to: a)
            s.addLine(to: Point(.nan, 1))
            s.addLine(to: b)
            s.addQuadCurve(to: c, control: Point(1, .infinity))
            s.addCurve(to: c, control1: Point(0, 0), control2: Point(-.infinity, 0))
            s.addCurve(to: Point(.nan, .nan), control1: Point(1, 1), control2: Point(2, 2))
            s.addLine(to: c)
            s.move(to: Point(.infinity, 0))
        }
        #expect(r.dropped == 5)
        #expect(r.elements == [.move(a), .line(b), .line(c), .line(a), .close])
    }

    @Test func segmentBeforeAnyMoveStartsAtTheOrigin() {
        let r = Self.normalized { s in s.addLine(to: Point(5, 0)); s.addLine(to: Point(5, 5)) }
        #expect(r.elements == [.move(.zero), .line(Point(5, 0)), .line(Point(5, 5)), .line(.zero), .close])
    }

    @Test func segmentAfterCloseStartsAtThePreviousContourStart() {
        let a = Point(2, 2), b = Point(6, 2), c = Point(6, 6)
        let r = Self.normalized { s in
            s.move(to: a); s.addLine(to: b); s.closeSubpath()
            s.addLine(to: c)
        }
        #expect(r.elements == [.move(a), .line(b), .line(a), .close, .move(a), .line(c), .line(a), .close])
    }

    @Test func outputIsAlwaysWellFormed() {
        // Random junk streams: the output must be (move, segment+, close)* with finite points only.
        var rng = SplitMix64(seed: 2024)
        for _ in 0..<200 {
            var n = NormalizingSink(RecordingSink())
            for _ in 0..<30 {
                func pt() -> Point {
                    switch rng.next() % 10 {
                    case 0: return Point(.nan, 0)
                    case 1: return Point(1, 1)          // repeated on purpose
                    default: return Point(Double(rng.next() % 5), Double(rng.next() % 5))
                    }
                }
                switch rng.next() % 5 {
                case 0: n.move(to: pt())
                case 1: n.addLine(to: pt())
                case 2: n.addQuadCurve(to: pt(), control: pt())
                case 3: n.addCurve(to: pt(), control1: pt(), control2: pt())
                default: n.closeSubpath()
                }
            }
            n.finish()
            var state = 0   // 0: expect move, 1: after move (need segment), 2: in contour
            var start = Point.zero, last = Point.zero
            for e in n.base.elements {
                switch e {
                case .move(let p):
                    #expect(state == 0 && p.isFinite); state = 1; start = p; last = p
                case .line(let p):
                    #expect(state != 0 && p.isFinite && p != last, "lines are finite and not zero-length")
                    state = 2; last = p
                case .quad(let c, let p):
                    #expect(state != 0 && p.isFinite && c.isFinite && !(p == last && c == last))
                    state = 2; last = p
                case .cubic(let c1, let c2, let p):
                    #expect(state != 0 && p.isFinite && c1.isFinite && c2.isFinite && !(p == last && c1 == last && c2 == last))
                    state = 2; last = p
                case .close:
                    #expect(state == 2 && last == start, "closed contours end at their start"); state = 0
                }
            }
            #expect(state == 0)
        }
    }
}
