import InkGeometry

extension GlyphShape {
    /// The sink a shape's outline is drawn into. It makes the stream well formed (a move-to only when a
    /// segment follows, open contours closed, degenerate segments dropped), flattens curves within the shape's
    /// tolerance, and writes the polygon straight into the shape's `Float` vertices.
    ///
    /// Work is bounded before it is done: each curve's segment count comes from its control polygon (Wang's
    /// bound, see `Flattening`) before a single point of it is made, and once the outline would have more than
    /// `ShapeLimits.maxEdges` edges nothing more is stored (the build then fails with `.tooManyEdges`). The
    /// time limit of `BuildDeadline` is checked every 4,096 segments.
    public struct Sink: ConicSink {
        /// The flattening tolerance, shape units.
        public let tolerance: Double
        private let maxSegments: Int
        /// Closed contours so far: x, y per vertex; each contour ends with a copy of its first vertex.
        private(set) var verts: [Float] = []
        /// Start vertex of each finished contour.
        private(set) var contourStarts: [UInt32] = []
        /// Where the open contour's vertices start in `verts` (its first vertex), -1: none open.
        private var openAt = -1
        private var start = Point.zero
        private var current = Point.zero
        private var pendingMove = true
        private var segments = 0
        /// Polyline points made (evaluated and stored) so far: the work that counting bounds
        /// (`GlyphShape+Testing.swift` shows it to tests).
        private(set) var made = 0
        private var nextCheck = 4096
        private(set) var droppedNonFinite = 0
        private(set) var cappedCurves = 0
        private(set) var outOfRange = false
        private(set) var overflow = false
        private(set) var timedOut = false
        /// The largest Hausdorff bound any curve got (0 without curves).
        private(set) var achievedTolerance = 0.0

        init(tolerance: Double, maxEdges: Int) {
            self.tolerance = tolerance
            maxSegments = maxEdges
        }

        /// A sink to draw an outline into before making its shape (`GlyphShape.init(drawn:fillRule:limits:fastDistance:)`):
        /// curves are flattened within `tolerance` shape units (finite and > 0; checked when the shape is made),
        /// and no more than `limits.maxEdges` edges are kept.
        public init(tolerance: Double, limits: ShapeLimits = .default) {
            self.init(tolerance: tolerance, maxEdges: limits.maxEdges)
        }

        /// Makes room for about `vertices` polygon vertices (a hint: an outline of n points flattens to a few n
        /// at text sizes), so the sink does not grow while it is drawn into.
        public mutating func reserveCapacity(vertices: Int) {
            verts.reserveCapacity(2 * min(max(vertices, 0), maxSegments + 64))
            contourStarts.reserveCapacity(16)
        }

        public mutating func move(to p: Point) {
            guard p.isFinite else { droppedNonFinite += 1; return }
            closeIfOpen()
            start = p; current = p; pendingMove = true
        }

        public mutating func addLine(to p: Point) {
            guard p.isFinite else { droppedNonFinite += 1; return }
            if p == current { return }
            guard reserve(1) else { current = p; return }
            beginSegment()
            append(p)
            current = p
        }

        public mutating func addQuadCurve(to p: Point, control c: Point) {
            guard p.isFinite && c.isFinite else { droppedNonFinite += 1; return }
            if p == current && c == current { return }
            record(quad(to: p, control: c, tolerance: tolerance))
        }

        /// A conic section (`Conic`, weight finite and > 0): halved into quadratics within half the
        /// tolerance, each flattened within the other half, so the polyline is within the tolerance of the
        /// conic. A weight that is not finite and > 0 is dropped and counted like a non-finite point (the
        /// shape is then refused).
        public mutating func addConic(to p: Point, control c: Point, weight w: Double) {
            guard p.isFinite && c.isFinite && w.isFinite && w > 0 else { droppedNonFinite += 1; return }
            if p == current && c == current { return }
            // Once the build has failed, no more work: a conic's halving is bounded (2^12 pieces), a path's
            // conics are not.
            if overflow || timedOut || cappedCurves > 0 { current = p; return }
            let half = tolerance / 2
            var pieces: [(control: Point, end: Point)] = []
            let conic = Conic.quads(from: current, control: c, to: p, weight: w, tolerance: half) { pieces.append(($0, $1)) }
            var worst = 0.0, capped = conic.capped
            for q in pieces {
                let sub = quad(to: q.end, control: q.control, tolerance: half)
                worst = max(worst, sub.error)
                capped = capped || sub.capped
            }
            record(capped: capped, error: conic.error + worst)
        }

        /// Records that what was drawn is within `bound` shape units (Hausdorff) of the outline it stands for,
        /// where the sink cannot see it (lines made from an arc or an offset curve elsewhere): the shape's
        /// `tolerance` is then at least `bound`, so it is never reused at a scale where that would exceed the
        /// view tolerance. A bound that is not finite or is negative counts as a curve beyond the tolerance.
        public mutating func noteApproximation(within bound: Double) {
            record(capped: !(bound >= 0 && bound <= tolerance * (1 + 1e-9)), error: bound.isFinite ? max(bound, 0) : .infinity)
        }

        /// Flattens a quadratic from the current point within `t`; returns how (nothing recorded). A curve
        /// beyond `Flattening.maxSegmentsPerCurve` is not made: its caller records it, which refuses the shape.
        private mutating func quad(to p: Point, control c: Point, tolerance t: Double) -> Flattening.Subdivision {
            let sub = Flattening.segmentCount(quad: current, c, p, tolerance: t)
            guard !sub.capped, reserve(sub.count) else { current = p; return sub }
            beginSegment()
            let p0 = current, n = sub.count, inv = 1.0 / Double(n)
            for i in 1..<n { append(Flattening.evalQuad(p0, c, p, Double(i) * inv)) }
            append(p)
            current = p
            return sub
        }

        public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
            guard p.isFinite && c1.isFinite && c2.isFinite else { droppedNonFinite += 1; return }
            if p == current && c1 == current && c2 == current { return }
            let sub = Flattening.segmentCount(cubic: current, c1, c2, p, tolerance: tolerance)
            record(sub)
            guard reserve(sub.count) else { current = p; return }
            beginSegment()
            let p0 = current, n = sub.count, inv = 1.0 / Double(n)
            for i in 1..<n { append(Flattening.evalCubic(p0, c1, c2, p, Double(i) * inv)) }
            append(p)
            current = p
        }

        public mutating func closeSubpath() {
            closeIfOpen()
            current = start
            pendingMove = true
        }

        /// The vertices and contours drawn, and the Hausdorff bound the curves achieved.
        mutating func finish() throws(ShapeError) -> (verts: [Float], contourStarts: [UInt32], tolerance: Double) {
            closeIfOpen()
            if droppedNonFinite > 0 { throw .nonFiniteCoordinate }
            if timedOut { throw .timeLimit }
            if overflow { throw .tooManyEdges(limit: maxSegments) }
            if cappedCurves > 0 { throw .toleranceNotMet(curves: cappedCurves) }
            if outOfRange { throw .coordinateOutOfRange }
            return (verts, contourStarts, achievedTolerance)
        }

        private mutating func record(_ sub: Flattening.Subdivision) { record(capped: sub.capped, error: sub.error) }

        private mutating func record(capped: Bool, error: Double) {
            if capped { cappedCurves += 1 }
            if !(error <= achievedTolerance) { achievedTolerance = error }
        }

        /// Counts `n` more segments against the edge limit and the deadline; false once either is passed
        /// (nothing more is stored from then on).
        private mutating func reserve(_ n: Int) -> Bool {
            if overflow || timedOut || cappedCurves > 0 { return false }
            segments += n
            if segments > maxSegments { overflow = true; return false }
            if segments >= nextCheck {
                nextCheck = segments + 4096
                if BuildDeadline.hasPassed { timedOut = true; return false }
            }
            return true
        }

        private mutating func beginSegment() {
            guard pendingMove else { return }
            pendingMove = false
            openAt = verts.count
            append(start)
        }

        @inline(__always) private mutating func append(_ p: Point) {
            let x = Float(p.x), y = Float(p.y)
            made &+= 1
            if !(x.isFinite && y.isFinite) { outOfRange = true }
            verts.append(x); verts.append(y)
        }

        /// Ends the open contour: the polygon's vertices in `Float`, consecutive equal ones (zero-length edges)
        /// merged, closed by a copy of its first vertex; a contour left with fewer than two distinct vertices
        /// has no edges and is dropped.
        private mutating func closeIfOpen() {
            guard openAt >= 0 else { return }
            let first = openAt
            openAt = -1
            // The contour's points are in verts[first...]; the closing line back to `start` is implied.
            let n = verts.count
            let w = verts.withUnsafeMutableBufferPointer { v -> Int in
                var w = first + 2                               // write position (after the first vertex)
                var r = first + 2
                while r < n {
                    if v[r] != v[w - 2] || v[r + 1] != v[w - 1] {
                        v[w] = v[r]; v[w + 1] = v[r + 1]; w += 2
                    }
                    r += 2
                }
                // Drop trailing vertices equal to the first (the closing edge would have zero length).
                while w - 2 > first && v[w - 2] == v[first] && v[w - 1] == v[first + 1] { w -= 2 }
                return w
            }
            if w - first < 4 {                                  // one distinct vertex: no edge
                verts.removeLast(n - first)
                return
            }
            verts.removeLast(n - w)
            verts.append(verts[first]); verts.append(verts[first + 1])
            contourStarts.append(UInt32(first / 2))
        }
    }
}
