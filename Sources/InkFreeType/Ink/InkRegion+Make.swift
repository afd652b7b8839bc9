import InkGeometry
import InkHit

extension InkRegion {
    /// The region of `glyph`, whose ink is `ink` (see `Font.inkRegion(of:rendering:viewPxPerEm:tolerance:maxEdges:)`).
    static func make(font: Font, glyph: GlyphID, ink: GlyphInk, rendering: OutlineRendering, viewPxPerEm: Double,
                     tolerance: Double, maxEdges: Int) throws(FontError) -> InkRegion {
        func shapeError(_ e: ShapeError) -> FontError { .shape(glyph: glyph, pxPerEm: viewPxPerEm, e) }
        switch ink {
        case .outline, .colorLayers, .colorPaint:
            guard tolerance.isFinite, tolerance > 0, tolerance.isNormal else { throw shapeError(.invalidTolerance(tolerance)) }
            let pieces = ink == .outline
                ? [ColorPiece(source: .glyph(glyph), transform: .identity, clips: [])]
                : try font.face.colorPieces(glyph, ink: ink)
            var union = LayerUnion(font: font, glyph: glyph, ink: ink, rendering: rendering, viewPxPerEm: viewPxPerEm,
                                   tolerance: tolerance, maxEdges: maxEdges)
            return try union.region(pieces)

        case .bitmap:
            let order = FreeTypeFace.strikeOrder(font.face.strikes, viewPxPerEm: viewPxPerEm)
            guard let bitmap = try font.face.bitmap(glyph, order: order) else {
                throw .brokenBitmap(glyph: glyph, reason: "no strike could load its bitmap")
            }
            let strike = font.face.strikes[bitmap.strike]
            let threshold = rendering.alphaThreshold
            let pixels: Polygon
            do {
                // Bounded by the rows' runs before the staircase is built; the deadline checked as it goes.
                pixels = try Polygon.pixelOutline(width: bitmap.width, height: bitmap.height, maxEdges: maxEdges,
                                                  shouldStop: { BuildDeadline.hasPassed }) {
                    bitmap.alpha[$1 * bitmap.width + $0] >= threshold
                }
            } catch {
                switch error {
                case .tooManyEdges: throw shapeError(.tooManyEdges(limit: maxEdges))
                case .stopped: throw shapeError(.timeLimit)
                }
            }
            // Pixel corner (x, y) (x right, y down from the bitmap's top left) → font units.
            let upem = Double(font.unitsPerEm)
            let sx = upem / strike.xPixelsPerEm, sy = upem / strike.yPixelsPerEm
            let left = Double(bitmap.left), top = Double(bitmap.top)
            let contours = pixels.contours.map { c in c.map { Point((left + $0.x) * sx, (top - $0.y) * sy) } }
            return InkRegion(polygon: Polygon(contours: contours), tolerance: 0, ink: .bitmap, strike: bitmap.strike)

        case .box:
            let r = Rect(minX: 0, minY: Double(font.descender), maxX: try font.advance(of: glyph), maxY: Double(font.ascender))
            let contours = r.width > 0 && r.height > 0 ? [ColrV1.quad(r, .identity)] : []
            return InkRegion(polygon: Polygon(contours: contours), tolerance: 0, ink: .box)
        }
    }

    /// The signed area of a ring (positive counter-clockwise, y-up).
    static func signedArea(_ v: [Point]) -> Double {
        guard v.count >= 3 else { return 0 }
        var a = 0.0
        var p = v[v.count - 1]
        for q in v { a += p.x * q.y - q.x * p.y; p = q }
        return a / 2
    }

    /// `ring` clipped to the convex counter-clockwise polygon `quad` (Sutherland–Hodgman): the part of the
    /// ring inside, in its own direction (so its winding inside the clip is kept).
    static func clip(_ ring: [Point], to quad: [Point]) -> [Point] {
        var out = ring
        for i in quad.indices {
            guard let last = out.last else { break }
            let a = quad[i], b = quad[(i + 1) % quad.count]
            let input = out
            out = []
            out.reserveCapacity(input.count + 4)
            var prev = last
            var sp = (b - a).cross(prev - a)
            for cur in input {
                let sc = (b - a).cross(cur - a)
                if sc >= 0 {
                    if sp < 0 { out.append(prev.lerp(cur, sp / (sp - sc))) }
                    out.append(cur)
                } else if sp >= 0 {
                    out.append(prev.lerp(cur, sp / (sp - sc)))
                }
                prev = cur; sp = sc
            }
        }
        return out
    }
}
