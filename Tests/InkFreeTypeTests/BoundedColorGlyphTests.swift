import Foundation
import InkFreeType
import InkGeometry
import InkHit
import InkTestSupport
import Testing

/// Colour and bitmap glyphs bounded before they are built, with fonts from `HostileFonts`:
/// errors come from counting, not from building, layers outside a clip box cost nothing, bitmap sizes are read
/// before FreeType decodes, and a glyph whose color data is broken is read once however often it is placed —
/// each judged by the work done (`WorkMeter`: outline points flattened, pixels decoded, paints visited), not by
/// the clock. Oracles: the documented errors; for the layers that survive a clip, the layer ring's own geometry
/// (two circles) tested here.
@Suite struct BoundedColorGlyphTests {
    static func shapeError(_ font: Font, _ glyph: UInt32, pxPerEm: Double, maxEdges: Int = 1_000_000) -> FontError? {
        do {
            _ = try font.inkRegion(of: GlyphID(glyph), viewPxPerEm: pxPerEm, tolerance: 0.01 * Double(font.unitsPerEm) / pxPerEm,
                                   maxEdges: maxEdges)
            return nil
        } catch { return error }
    }

    @Test(.timeLimit(.minutes(10))) func aTransformChainOfManyCurvesIsRefusedBeforeItIsFlattened() throws {
        let font = try Font(bytes: HostileFonts.colrTransformChain())
        let meter = WorkMeter()
        let error = meter.during { Self.shapeError(font, 2, pxPerEm: 16) }
        guard case .shape(GlyphID(2), _, .toleranceNotMet)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(meter[.outlinePoints] == 0, "counted, not flattened: \(meter[.outlinePoints]) points made")
        // A milder chain (4 × 4) at 16 px: every curve is within reach, the 32,000 of them together too many.
        let mild = try Font(bytes: HostileFonts.colrTransformChain(scale: 4))
        let mildMeter = WorkMeter()
        let mildError = mildMeter.during { Self.shapeError(mild, 2, pxPerEm: 16) }
        guard case .shape(_, _, .tooManyEdges(1_000_000))? = mildError else { Issue.record("\(String(describing: mildError))"); return }
        #expect(mildMeter[.outlinePoints] == 0, "counted, not flattened: \(mildMeter[.outlinePoints]) points made")
        // The same glyph without the chain's scale is an ordinary one.
        let plain = try Font(bytes: HostileFonts.colrTransformChain(quads: 400, scale: 1))
        #expect(Self.shapeError(plain, 2, pxPerEm: 16) == nil)
    }

    /// 9,945 layers wholly outside a 1 × 1 clip box: nothing to flatten, nothing left. With the box inside
    /// them, every layer is counted (clipped layers do their work) and the glyph is refused quickly.
    @Test(.timeLimit(.minutes(10))) func clippedLayersCostTheirWorkAndLayersOutsideTheClipNone() throws {
        let outside = try Font(bytes: HostileFonts.colrClippedLayers())
        let meter = WorkMeter()
        let region = try meter.during { try outside.inkRegion(of: GlyphID(2), viewPxPerEm: 16, tolerance: 0.625) }
        #expect(region.polygon.contours.isEmpty)
        #expect(meter[.outlinePoints] == 0, "layers outside the clip: \(meter[.outlinePoints]) points flattened")
        // Inside: the layers flattened before the refusal hold no more than the limit allows.
        let inside = try Font(bytes: HostileFonts.colrClippedLayers(clip: (500, 700, 501, 701)))
        let insideMeter = WorkMeter()
        let error = insideMeter.during { Self.shapeError(inside, 2, pxPerEm: 16) }
        guard case .shape(_, _, .tooManyEdges)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(insideMeter[.outlinePoints] <= 1_000_000, "\(insideMeter[.outlinePoints]) points flattened before the refusal")
    }

    /// Six layers 20 units apart under a clip box that the first three lie wholly outside of (skipped) and
    /// the others cross: the glyph hits the union of the layers' outlines inside the box, by the layer oracle
    /// of `ColorGlyphTests` (outlines sampled at 32 chords per curve, winding, clip).
    @Test func layersAcrossTheClipAreKept() throws {
        let font = try Font(bytes: HostileFonts.colrClippedLayers(layers: 6, clip: (950, 200, 1400, 600), spread: 20))
        let placement = GlyphPlacement(font: font, glyph: GlyphID(2), size: 64, origin: Point(0, 80))
        let layers = (0..<6).map { k in (GlyphID(1), ColorGlyphTests.translate(Double(20 * k), 0)) }
        let oracle = try ColorGlyphTests.LayerOracle(font: font, layers: layers, clip: Rect(minX: 950, minY: 200, maxX: 1400, maxY: 600),
                                                     placement: placement)
        var builder = HitIndex.Builder()
        try builder.add(placement, cache: FontShapeCache())
        let index = builder.build()
        var checked = 0, inside = 0
        var wrong: [String] = []
        let box = oracle.clip.map { ring in ring.reduce(Rect.empty) { var r = $0; r.expand(toInclude: $1); return r } } ?? .empty
        var y = box.minY - 1
        while y <= box.maxY + 1 {
            var x = box.minX - 1
            while x <= box.maxX + 1 {
                let p = Point(x, y)
                x += 1.0
                guard oracle.margin(p) >= 0.05 else { continue }
                checked += 1
                let want = oracle.inside(p)
                if want { inside += 1 }
                if (index.hit(at: p) != nil) != want { wrong.append("\(p): want \(want)") }
            }
            y += 1.0
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(checked): \(wrong.prefix(5))")
        #expect(inside > 25 && checked - inside > 25, "\(inside) inside of \(checked)")
    }

    /// The PNG's size is read from its header: a 32767 × 32767 image is refused without FreeType decoding it
    /// (which takes seconds and gigabytes), also when ten strikes share it.
    @Test(.timeLimit(.minutes(10))) func hugeSbixImagesAreRefusedBeforeTheyAreDecoded() throws {
        for strikes in [1, 10] {
            let font = try Font(bytes: HostileFonts.sbixHuge(strikes: strikes))
            #expect(font.bitmapStrikes.count == strikes)
            #expect(try font.ink(of: GlyphID(1)) == .bitmap)
            let meter = WorkMeter()
            #expect(throws: FontError.brokenBitmap(glyph: GlyphID(1), reason: "its 32767 × 32767 px bitmap is larger than 16 Mpx")) {
                _ = try meter.during { try font.inkRegion(of: GlyphID(1), viewPxPerEm: 16, tolerance: 1) }
            }
            #expect(meter[.bitmapPixels] == 0, "\(strikes) strike(s): \(meter[.bitmapPixels]) pixels decoded")
        }
        // An image within the bound is decoded and hit by its pixels: rows alternately opaque and clear.
        let rows = try Font(bytes: HostileFonts.sbixPattern(.rows, size: 64))
        let meter = WorkMeter()
        let region = try meter.during { try rows.inkRegion(of: GlyphID(1), viewPxPerEm: 64, tolerance: 1) }
        #expect(region.polygon.contours.count == 32 && region.polygon.contours.allSatisfy { $0.count == 4 })
        #expect(meter[.bitmapPixels] == 64 * 64, "the meter counts a decoded image: \(meter[.bitmapPixels]) pixels")
    }

    /// A color glyph whose paint graph is broken is walked once: placing it a thousand times visits no paint
    /// again, and every placement gets the same error.
    @Test(.timeLimit(.minutes(10))) func aBrokenColorGlyphIsReadOnce() throws {
        // 255 × 255 × 255 paint visits without a glyph: refused at 100,000 visits.
        let deep = try Font(bytes: ColorFont.colrFont([.empty, .empty, .empty, .empty], colr: ColorFont.colrV1(
            base: [(1, 0)], layers: Array(repeating: 1, count: 255) + Array(repeating: 2, count: 255) + Array(repeating: 3, count: 255),
            paints: [ColorFont.layers(255, first: 0), ColorFont.layers(255, first: 255), ColorFont.layers(255, first: 510),
                     ColorFont.translate(4), ColorFont.colrGlyph(3)])))
        let meter = WorkMeter()
        let first = meter.during { Self.shapeError(deep, 1, pxPerEm: 16) }
        #expect(first == .colorGlyphTooComplex(glyph: GlyphID(1), what: "paint tables visited", limit: Font.maximumColorPaints))
        let once = meter[.paintsVisited]
        #expect(once > Font.maximumColorPaints, "the walk that found the error visited \(once) paints")
        meter.during {
            for _ in 0..<1000 {
                #expect(throws: first!) { _ = try GlyphPlacement(font: deep, glyph: GlyphID(1), size: 16).viewBounds() }
            }
        }
        #expect(meter[.paintsVisited] == once, "1,000 placements visited \(meter[.paintsVisited] - once) paints after the first walk")
    }
}
