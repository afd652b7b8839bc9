import InkGeometry

extension GlyphOutline {
    /// Drives `sink` with the outline's contours, in font units (y-up), following the TrueType and CFF rules:
    /// the same segments, in the same order, as FreeType's `FT_Outline_Decompose`, except that implied
    /// points are computed in floating point and a zero-length closing line is left out.
    ///
    /// For each contour: one `move`, its segments, a line back to the start point if the last segment does
    /// not end there, then `closeSubpath`. So every contour the sink sees is closed, also geometrically.
    /// - Between two consecutive quadratic control points lies an implied on-curve point, their exact
    ///   midpoint (computed in `Double`, so `(3 + 4) / 2 = 3.5` stays `3.5`; `FT_Outline_Decompose`
    ///   truncates it to whole font units).
    /// - A contour that starts with a quadratic control point starts at its last point if that is on the
    ///   curve, otherwise at the midpoint of its last and first points.
    /// - Cubic control points come in pairs (see *Guarantees* on the type) and make one cubic segment.
    /// - A one-point contour yields only `move` and `closeSubpath`, which sinks ignore as harmless.
    ///
    /// Pure Swift; never fails on a valid `GlyphOutline` (and every value is valid by construction).
    public func decompose<S: OutlineSink>(into sink: inout S) {
        OutlineWalk(source: self).all(contourEnds: contourEnds, into: &sink)
    }

    /// Convenience: the decomposed outline as recorded elements, in font units (y-up).
    public var elements: [PathElement] {
        var recorded: [PathElement] = []
        decompose(into: &recorded)
        return recorded
    }
}

/// Points and tags an outline walk reads: a `GlyphOutline`'s arrays, or FreeType's own in place.
protocol OutlinePointSource {
    /// Point `i`, font units (y-up).
    func point(_ i: Int) -> Point
    /// Tag `i`: `GlyphOutline.onCurveBit`, `.cubicBit`.
    func tag(_ i: Int) -> UInt8
}

extension GlyphOutline: OutlinePointSource {
    @inline(__always) func point(_ i: Int) -> Point { points[i] }
    @inline(__always) func tag(_ i: Int) -> UInt8 { tags[i] }
}

/// The TrueType / CFF contour rules of `GlyphOutline.decompose(into:)` over any point source (one walk for
/// copied outlines and for FreeType's arrays read in place).
struct OutlineWalk<Source: OutlinePointSource> {
    let source: Source

    @inline(__always) private func isOn(_ i: Int) -> Bool { source.tag(i) & GlyphOutline.onCurveBit != 0 }
    @inline(__always) private func isCubic(_ i: Int) -> Bool {
        source.tag(i) & (GlyphOutline.onCurveBit | GlyphOutline.cubicBit) == GlyphOutline.cubicBit
    }
    @inline(__always) private static func midpoint(_ a: Point, _ b: Point) -> Point {
        Point((a.x + b.x) * 0.5, (a.y + b.y) * 0.5)
    }

    /// Every contour (`contourEnds`: the index of each one's last point).
    @inline(__always) func all<S: OutlineSink>(contourEnds: some Collection<Int>, into sink: inout S) {
        var first = 0
        for end in contourEnds {
            defer { first = end + 1 }
            let count = end - first + 1
            guard count > 0 else { continue }
            if count == 1 {
                sink.move(to: source.point(first))
                sink.closeSubpath()
                continue
            }
            contour(first: first, count: count, into: &sink)
        }
    }

    /// One contour of `count >= 2` points starting at index `first`.
    func contour<S: OutlineSink>(first: Int, count: Int, into sink: inout S) {
        let last = first + count - 1
        // Where the contour starts, which point (as an offset `rotation`) is visited first, and
        // how many points are visited after the start.
        let start: Point
        let rotation: Int
        let visits: Int
        if isOn(first) {
            start = source.point(first); rotation = 1; visits = count - 1
        } else if isOn(last) {
            start = source.point(last); rotation = 0; visits = count - 1
        } else if !isCubic(first) && !isCubic(last) {
            start = Self.midpoint(source.point(last), source.point(first)); rotation = 0; visits = count
        } else {
            // Both seam points are cubic controls (a pair split by the contour's seam; FreeType would
            // reject this): start at the first on-curve point, which validation guarantees exists.
            var k = 0
            while k < count && !isOn(first + k) { k += 1 }
            guard k < count else { return }
            start = source.point(first + k); rotation = k + 1; visits = count - 1
        }

        sink.move(to: start)
        var current = start
        var conic: Point? = nil              // pending quadratic control point
        var cubic1: Point? = nil, cubic2: Point? = nil   // pending cubic control points

        // Visits every point after the start, then the start itself as the closing on-curve point.
        var i = first + rotation
        for v in 0...visits {
            let isClosing = v == visits
            if i > last { i -= count }
            let p = isClosing ? start : source.point(i)
            if isClosing || isOn(i) {
                if let c = conic {
                    sink.addQuadCurve(to: p, control: c)
                } else if let c1 = cubic1 {
                    sink.addCurve(to: p, control1: c1, control2: cubic2 ?? c1)
                } else if !isClosing || current != p {
                    sink.addLine(to: p)
                }
                conic = nil; cubic1 = nil; cubic2 = nil
                current = p
            } else if isCubic(i) {
                if cubic1 == nil { cubic1 = p } else { cubic2 = p }
            } else {
                if let c = conic {
                    let implied = Self.midpoint(c, p)
                    sink.addQuadCurve(to: implied, control: c)
                    current = implied
                }
                conic = p
            }
            i += 1
        }
        sink.closeSubpath()
    }
}
