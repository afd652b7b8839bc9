import Foundation
import Testing
import InkGeometry
import InkHit
import InkText

/// The one rounded-rectangle builder (attachments' boxes and scene regions): its corners are circular arcs
/// within the reported tolerance, checked against the circle itself (an analytic oracle, not the builder).
@Suite struct RoundRectTests {
    @Test(arguments: [(0.01, 1.0), (0.05, 1.0), (0.01, 4.0)])
    func cornersAreArcsWithinTheTolerance(_ tolerance: Double, _ maxScale: Double) throws {
        let r = Rect(minX: 0, minY: 0, maxX: 100, maxY: 60), rad = 20.0
        let shape = try RoundRect.shape(r, radius: rad, viewTolerance: tolerance, maxScale: maxScale)
        let local = tolerance / maxScale                 // the tolerance in the rectangle's own px
        #expect(shape.tolerance > 0 && shape.tolerance <= local * (1 + 1e-9), "reported \(shape.tolerance) vs \(local)")
        // Every corner, every 3°: just inside the arc (by the tolerance plus the shape's Float rounding) is
        // inside, just outside is out.
        let centres = [Point(80, 20), Point(80, 40), Point(20, 40), Point(20, 20)]
        let starts = [-Double.pi / 2, 0, Double.pi / 2, Double.pi]
        for (c, start) in zip(centres, starts) {
            for step in 0...30 {
                let a = start + Double.pi / 2 * Double(step) / 30
                let d = Point(c.x + (rad - local - 1e-4) * cosine(a), c.y + (rad - local - 1e-4) * sine(a))
                let o = Point(c.x + (rad + 1e-4) * cosine(a), c.y + (rad + 1e-4) * sine(a))
                #expect(shape.contains(d), "\(d) is inside the arc of radius \(rad) about \(c)")
                #expect(!shape.contains(o), "\(o) is outside the arc of radius \(rad) about \(c)")
            }
        }
        // The straight edges are exact.
        #expect(shape.contains(Point(50, 0.001)) && !shape.contains(Point(50, -0.001)))
        #expect(RoundRect.edges(radius: rad, viewTolerance: tolerance, maxScale: maxScale) >= 8)
    }

    @Test func aPlainBoxIsExact() throws {
        let shape = try RoundRect.shape(Rect(minX: 1, minY: 2, maxX: 11, maxY: 7), radius: 0, viewTolerance: 0.01, maxScale: 1)
        #expect(shape.tolerance == 0)
        #expect(shape.contains(Point(1.001, 2.001)) && !shape.contains(Point(0.999, 2.001)))
        #expect(RoundRect.edges(radius: 0, viewTolerance: 0.01, maxScale: 1) == 4)
    }

    func sine(_ a: Double) -> Double { sin(a) }
    func cosine(_ a: Double) -> Double { cos(a) }
}
