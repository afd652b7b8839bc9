import Testing
import InkGeometry

/// Conics against circles (a quarter circle is the conic of weight cos 45°, exactly) and against the rational
/// formula evaluated here; verbs with start points checked against the current point.
struct ConicTests {
    static let quarter = 0.7071067811865476          // cos 45°

    /// Every quadratic the conversion makes, densely sampled, lies within the tolerance of the unit circle
    /// (the exact curve): the bound holds against the true shape.
    @Test(arguments: [1e-1, 1e-3, 1e-6])
    func quarterCircleQuadsStayWithinTheToleranceOfTheCircle(tolerance: Double) {
        var worst = 0.0, quads = 0
        var start = Point(1, 0)
        let sub = Conic.quads(from: start, control: Point(1, 1), to: Point(0, 1), weight: Self.quarter, tolerance: tolerance) { c, e in
            for k in 0...200 {
                let t = Double(k) / 200, u = 1 - t
                let q = Point(u * u * start.x + 2 * u * t * c.x + t * t * e.x, u * u * start.y + 2 * u * t * c.y + t * t * e.y)
                worst = max(worst, abs((q.x * q.x + q.y * q.y).squareRoot() - 1))
            }
            quads += 1
            start = e
        }
        #expect(start == Point(0, 1), "the last quadratic ends at the conic's end")
        #expect(!sub.capped && sub.count == quads)
        #expect(worst <= tolerance, "worst radial error \(worst)")
        #expect(sub.error <= tolerance)
        // The bound is not wildly pessimistic: halving once more would not have been needed by more than 8×.
        #expect(worst > tolerance / 512 || quads == 1)
    }

    @Test func theBoundHoldsForEllipsesParabolasAndHyperbolas() {
        for w in [0.05, 0.5, 1.0, 2.0, 50.0] {
            let p0 = Point(0, 0), c = Point(3, 7), p1 = Point(10, -2)
            let bound = Conic.quadError(from: p0, control: c, to: p1, weight: w)
            var worst = 0.0
            for k in 0...1000 {
                let t = Double(k) / 1000, u = 1 - t
                let d = u * u + 2 * w * u * t + t * t
                let conic = Point((u * u * p0.x + 2 * w * u * t * c.x + t * t * p1.x) / d, (u * u * p0.y + 2 * w * u * t * c.y + t * t * p1.y) / d)
                let quad = Point(u * u * p0.x + 2 * u * t * c.x + t * t * p1.x, u * u * p0.y + 2 * u * t * c.y + t * t * p1.y)
                worst = max(worst, (conic - quad).length)
            }
            #expect(worst <= bound * (1 + 1e-12) + 1e-12, "w \(w): \(worst) > \(bound)")
            if w == 1 { #expect(bound == 0) }
        }
    }

    @Test func halvesMeetOnTheConicAndKeepItsShape() {
        let p0 = Point(1, 0), c = Point(1, 1), p1 = Point(0, 1)
        let (l, r) = Conic.halves(from: p0, control: c, to: p1, weight: Self.quarter)
        #expect(l.2 == r.0)
        #expect(abs(l.2.length - 1) < 1e-15, "the midpoint is on the circle")
        #expect(abs(l.3 - 0.9238795325112867) < 1e-15, "an eighth circle's weight is cos 22.5°")
        for t in stride(from: 0.0, through: 1, by: 0.125) {
            let q = Conic.point(from: l.0, control: l.1, to: l.2, weight: l.3, at: t)
            #expect(abs(q.length - 1) < 1e-14)
        }
    }

    @Test func verbsMustStartWhereThePathIs() {
        let ok: [PathVerb] = [.move(Point(0, 0)), .line(from: Point(0, 0), to: Point(1, 0)),
                              .quad(from: Point(1, 0), control: Point(1, 1), to: Point(0, 1)), .close,
                              .line(from: Point(0, 0), to: Point(-1, 0))]
        #expect(throws: Never.self) { try ok.check() }
        var rec = ConicToQuadSink(RecordingSink(), tolerance: 0.1)
        #expect(throws: Never.self) { try ok.replay(into: &rec) }
        #expect(rec.base.elements == [.move(Point(0, 0)), .line(Point(1, 0)), .quad(control: Point(1, 1), to: Point(0, 1)), .close,
                                      .line(Point(-1, 0))])
        let wrong: [PathVerb] = [.move(Point(0, 0)), .line(from: Point(0, 0), to: Point(1, 0)), .line(from: Point(1, 0.5), to: Point(2, 0))]
        #expect(throws: PathVerbError(verb: 2, message: "starts at (1.0, 0.5), but the current point is (1.0, 0.0)")) { try wrong.check() }
        var untouched = ConicToQuadSink(RecordingSink(), tolerance: 0.1)
        _ = try? wrong.replay(into: &untouched)
        #expect(untouched.base.elements.isEmpty, "nothing is drawn from verbs that fail")
        // Before any move the path is at (0, 0); after a close at the contour's start.
        #expect(throws: PathVerbError.self) { try [PathVerb.line(from: Point(1, 1), to: Point(2, 2))].check() }
        #expect(throws: PathVerbError.self) {
            try [PathVerb.move(Point(5, 5)), .line(from: Point(5, 5), to: Point(6, 5)), .close, .line(from: Point(6, 5), to: Point(0, 0))].check()
        }
        for w in [0.0, -1, .nan, .infinity] {
            #expect(throws: PathVerbError.self) { try [PathVerb.conic(from: .zero, control: Point(1, 1), to: Point(2, 0), weight: w)].check() }
        }
        #expect(throws: PathVerbError.self) { try [PathVerb.move(Point(.nan, 0))].check() }
    }
}
