import InkGeometry
import InkHit

/// What names a font glyph's shape in a shape cache: the font's `contentID` (shared by every font over the
/// same bytes, face and design coordinates; an instance of a variable font has its own), the glyph, how its outline is rendered (exact, or hinted/emboldened at a size; for a bitmap,
/// its alpha threshold) and, for a bitmap glyph, the strike its size prefers.
public struct FontGlyph: Hashable, Sendable {
    /// `Font.contentID` of the font.
    public var font: UInt64
    /// The glyph in that font.
    public var glyph: GlyphID
    /// How the outline is made.
    public var rendering: OutlineRendering
    /// For a bitmap glyph (`GlyphInk.bitmap`), the strike preferred at the shape's size
    /// (`Font.strike(forViewPxPerEm:)`); −1 for every other glyph.
    public var strike: Int
    /// The key of `glyph` in `font`, rendered as `rendering`, from `strike` when it is a bitmap.
    public init(font: Font, glyph: GlyphID, rendering: OutlineRendering = .exact, strike: Int = -1) {
        self.font = font.contentID; self.glyph = glyph; self.rendering = rendering; self.strike = strike
    }

    /// Not API: the one key of every shape that cannot differ, for a glyph whose ink is `ink` drawn at
    /// `viewPxPerEm`: what does not apply to its kind is left out (the threshold of outlines and color layers;
    /// everything but the threshold and strike of bitmaps; everything of boxes).
    package init(font: Font, glyph: GlyphID, ink: GlyphInk, rendering: OutlineRendering, viewPxPerEm: Double) {
        self.init(font: font, glyph: glyph, rendering: rendering)
        switch ink {
        case .outline, .colorLayers, .colorPaint:
            self.rendering.alphaThreshold = OutlineRendering.defaultAlphaThreshold
        case .bitmap:
            self.rendering = .exact
            self.rendering.alphaThreshold = rendering.alphaThreshold
            self.strike = font.strike(forViewPxPerEm: viewPxPerEm) ?? -1
        case .box:
            self.rendering = .exact
        }
    }

    /// Every field, folded into four words (a cache lookup per placement hashes this: four combines instead
    /// of eight). Equal keys fold equally; `==` still compares the fields.
    public func hash(into h: inout Hasher) {
        let r = rendering
        h.combine(font)
        h.combine(UInt64(glyph.rawValue) | UInt64(UInt32(bitPattern: r.charSize64)) << 32)
        h.combine(UInt64(UInt32(bitPattern: r.emboldenX64)) | UInt64(UInt32(bitPattern: r.emboldenY64)) << 32)
        h.combine(UInt64(r.hinting.hashValueSeed &+ (r.emboldenFreeType ? 8 : 0)) | UInt64(r.alphaThreshold) << 8
                  | UInt64(UInt32(truncatingIfNeeded: strike)) << 32)
        if !r.matrix.isIdentity {
            h.combine(UInt64(UInt32(bitPattern: r.matrix.xx)) | UInt64(UInt32(bitPattern: r.matrix.xy)) << 32)
            h.combine(UInt64(UInt32(bitPattern: r.matrix.yx)) | UInt64(UInt32(bitPattern: r.matrix.yy)) << 32)
        }
        if r.ppemX64 != 0 || r.ppemY64 != 0 || r.stemDarkening {
            h.combine(UInt64(UInt32(bitPattern: r.ppemX64)) | UInt64(UInt32(bitPattern: r.ppemY64)) << 32 | (r.stemDarkening ? 1 << 63 : 0))
        }
        if r.strokeWidth != 0 {
            h.combine(r.strokeWidth)
            h.combine(r.strokeJoin)
        }
        if !r.outlineMatrix.isIdentity { h.combine(r.outlineMatrix) }
    }
}

extension GlyphStyle.Hinting {
    /// A small number per case, for `FontGlyph.hash(into:)`.
    var hashValueSeed: UInt8 {
        switch self { case .none: return 0; case .light: return 1; case .full: return 2; case .mono: return 3 }
    }
}

/// A shape cache for font glyphs: one flattened shape per (font, glyph, size class).
public typealias FontShapeCache = ShapeCache<FontGlyph>

/// The process-wide cache behind `FontShapeCache.shared`.
private let sharedFontShapes = FontShapeCache(maxBytes: 64 << 20)

extension ShapeCache where Key == FontGlyph {
    /// The process-wide cache that glyph placements and text layouts use unless given another: 64 MiB of
    /// shapes (a Latin glyph at text sizes takes a few kB), oldest evicted first. Shapes of a font outlive
    /// it here until they are evicted.
    public static var shared: FontShapeCache { sharedFontShapes }

    /// The shape of `glyph` in `font`, fine enough that placements whose font-units → view transform has
    /// largest scale at most `maxScale` meet `viewTolerance` view px: its ink as `GlyphInk` says — its
    /// outline, the union of its color layers, the pixel staircase of its bitmap from the strike
    /// `maxScale × unitsPerEm` view px per em prefers (exact), or its box.
    ///
    /// - Throws: `FontError` from the font (glyph out of range, no outline, broken outline, broken color data
    ///   or bitmap, …), or `FontError.shape` when the outline cannot be flattened (a tolerance that cannot
    ///   be met, too many edges, …).
    /// `rendering` says how the outline is made (`GlyphStyle.rendering(size:)`).
    public func shape(font: Font, glyph: GlyphID, rendering: OutlineRendering = .exact,
                      viewTolerance: Double = HitIndex.defaultTolerance, maxScale: Double) throws(FontError) -> GlyphShape {
        let pxPerEm = maxScale * Double(font.unitsPerEm)
        let invalid = { (t: Double) in FontError.shape(glyph: glyph, pxPerEm: pxPerEm, .invalidTolerance(t)) }
        if let ink = font.face.knownInk(of: glyph), ink != .outline {
            return try regionShape(font: font, glyph: glyph, ink: ink, rendering: rendering, viewTolerance: viewTolerance,
                                   maxScale: maxScale)
        }
        // An outline glyph, or a glyph not seen yet: the outline route, whose load also decides a new glyph's ink
        // (an outline's key does not depend on the size).
        let key = FontGlyph(font: font, glyph: glyph, ink: .outline, rendering: rendering, viewPxPerEm: pxPerEm)
        var otherInk: GlyphInk? = nil
        let shape = try shapeIfMade(for: key, viewTolerance: viewTolerance, maxScale: maxScale, invalid: invalid) {
            (tolerance, fastDistance) throws(FontError) -> GlyphShape? in
            switch try outlineShape(font: font, glyph: glyph, rendering: rendering, tolerance: tolerance,
                                    fastDistance: fastDistance, pxPerEm: pxPerEm) {
            case .shape(let shape): return shape
            case .other(let ink): otherInk = ink; return nil
            }
        }
        if let shape { return shape }
        // First sight of a glyph whose ink is not an outline (`otherInk` is then set).
        return try regionShape(font: font, glyph: glyph, ink: otherInk ?? .outline, rendering: rendering,
                               viewTolerance: viewTolerance, maxScale: maxScale)
    }

    /// What the outline route made: a shape, or nothing for a glyph whose ink turned out to be another kind.
    private enum OutlineRoute {
        case shape(GlyphShape)
        case other(GlyphInk)
    }

    /// The outline route, the one way from FreeType to a polygon: the glyph's outline loaded as `rendering`
    /// says and drawn into the shape's sink in place (`FreeTypeFace.drawOutline`), flattened within `tolerance`
    /// font units; a stroked style (fake bold as Skia draws it) adds its stroke's band, filled together with the
    /// outline.
    private func outlineShape(font: Font, glyph: GlyphID, rendering: OutlineRendering, tolerance: Double,
                              fastDistance: Double, pxPerEm: Double) throws(FontError) -> OutlineRoute {
        var sink = GlyphShape.Sink(tolerance: tolerance, limits: limits)
        let drawn = try font.face.drawOutline(glyph: glyph, rendering: rendering, maxPoints: Font.defaultMaximumPoints,
                                              copy: rendering.strokeWidth > 0, into: &sink)
        guard drawn.ink == .outline else { return .other(drawn.ink) }
        if let outline = drawn.outline,
           let band = try outline.strokeBand(rendering, unitsPerEm: font.unitsPerEm, tolerance: tolerance,
                                             maxEdges: limits.maxEdges, glyph: glyph, pxPerEm: pxPerEm) {
            band.draw(into: &sink)
            sink.noteApproximation(within: band.tolerance)
        }
        do throws(ShapeError) {
            return .shape(try GlyphShape(drawn: sink, limits: limits, fastDistance: fastDistance))
        } catch {
            throw .shape(glyph: glyph, pxPerEm: pxPerEm, error)
        }
    }

    /// The shape of a glyph whose ink is not an outline (`GlyphInk`): the union of its color layers, the pixel
    /// staircase of its bitmap from the strike `maxScale × unitsPerEm` view px per em prefers (exact), or its box.
    private func regionShape(font: Font, glyph: GlyphID, ink: GlyphInk, rendering: OutlineRendering,
                             viewTolerance: Double, maxScale: Double) throws(FontError) -> GlyphShape {
        let pxPerEm = maxScale * Double(font.unitsPerEm)
        let key = FontGlyph(font: font, glyph: glyph, ink: ink, rendering: rendering, viewPxPerEm: pxPerEm)
        let r = key.rendering
        return try shape(for: key, viewTolerance: viewTolerance, maxScale: maxScale,
                         invalid: { FontError.shape(glyph: glyph, pxPerEm: pxPerEm, .invalidTolerance($0)) }) {
            (tolerance, fastDistance) throws(FontError) -> GlyphShape in
            let region = try InkRegion.make(font: font, glyph: glyph, ink: ink, rendering: r, viewPxPerEm: pxPerEm,
                                            tolerance: tolerance, maxEdges: limits.maxEdges)
            do throws(ShapeError) {
                return try GlyphShape(polygon: region.polygon, tolerance: region.tolerance, fillRule: .nonZero,
                                      limits: limits, fastDistance: fastDistance)
            } catch {
                throw .shape(glyph: glyph, pxPerEm: pxPerEm, error)
            }
        }
    }

    /// The shape `placement` needs to meet `viewTolerance` view px.
    ///
    /// - Throws: as `shape(font:glyph:viewTolerance:maxScale:)`.
    public func shape(for placement: GlyphPlacement, viewTolerance: Double = HitIndex.defaultTolerance) throws(FontError) -> GlyphShape {
        try placement.style.validate(size: placement.size)
        return try shape(font: placement.font, glyph: placement.glyph, rendering: placement.rendering,
                         viewTolerance: viewTolerance, maxScale: placement.fontUnitsToView.maxScale)
    }
}
