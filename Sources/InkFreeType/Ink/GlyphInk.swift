import InkGeometry
import InkHit

/// What a glyph's ink is made of — what a color-capable renderer draws for it, and so what a hit follows.
///
/// Decided per glyph, in this order: color layers if the font's `COLR` table has them for the glyph (a
/// version 1 paint graph first, else version 0 layers; `COLR` needs a `CPAL` table, as in FreeType), else
/// its outline when it has at least one point, else a bitmap when one of the font's strikes has one for it
/// (CBDT/CBLC, sbix, EBDT), else a box when the font's `SVG ` table has a document for it, else its (empty)
/// outline — a space. A glyph with both an SVG document and a bitmap counts as SVG (FreeType loads SVG
/// documents first).
///
/// | ink | hit region (font units, y-up, then the placement's transform) |
/// |---|---|
/// | `outline` | the glyph's outline, nonzero (the plain case) |
/// | `colorLayers`, `colorPaint` | the union of the layer glyphs' outlines (see below) |
/// | `bitmap` | the pixels of a strike whose alpha reaches the threshold: a pixel staircase, exact |
/// | `box` | x 0 … advance, y descender … ascender |
///
/// **Color layers.** Each layer glyph's outline (as the placement's `OutlineRendering` makes it: hinted or
/// emboldened layers are), under the paint's transforms (`COLR` v1: PaintTransform, Translate, Scale,
/// Rotate, Skew and their around-center forms, nested), is flattened and turned so that its area is
/// positive; the layers are then filled together with the nonzero rule, which is their exact union when
/// each layer winds one way (every real glyph). A `COLR` v1 glyph with a clip box is clipped to it (and the
/// glyphs of PaintColrGlyph to theirs). PaintColrLayers and PaintComposite (whatever its mode) are unions;
/// what fills a PaintGlyph (a solid color, a gradient, nested paints) is taken to cover all of it, even a
/// transparent color; a fill outside any PaintGlyph covers the clip box (else the glyph's box). Variable
/// paints are read at their default values (their deltas are not applied). The signed distance inside
/// such a glyph is to the nearest layer edge, even one inside the union (where layers overlap), and a
/// layer clipped more than once along one clip edge keeps edges on it.
///
/// **Bitmaps.** Pixel `(col, row)` of a bitmap with FreeType's `bitmap_left`/`bitmap_top` from a strike of
/// `p` px per em covers font units x ∈ (left + col)·upem/p … +upem/p and y ∈ (top − row − 1)·upem/p …
/// (top − row)·upem/p: the placement scales it like an outline, so the strike appears scaled by
/// size/p. The strike is the smallest whose px per em (y) is at least the placement's view px per em (the
/// largest scale of its font units → view map × units per em), else the largest; a glyph missing from it
/// comes from the next larger strike, then the next smaller. Ink is where the pixel's alpha is at least
/// the style's `alphaThreshold` (BGRA strikes are premultiplied: the alpha byte; gray and mono strikes: the
/// gray level). Emboldening and hinting do not apply to bitmaps; oblique does (it is part of the transform).
public enum GlyphInk: String, Sendable, Hashable, CaseIterable {
    /// The glyph's own outline.
    case outline
    /// `COLR` version 0 layers: glyph outlines stacked in palette colors.
    case colorLayers
    /// A `COLR` version 1 paint graph.
    case colorPaint
    /// A bitmap from a strike (CBDT/CBLC, sbix, EBDT): no outline to draw.
    case bitmap
    /// An SVG document without an outline: hit as its box (InkHit does not render SVG).
    case box

    /// True for the kinds drawn from `COLR` data.
    public var isColorLayered: Bool { self == .colorLayers || self == .colorPaint }
}

/// One bitmap strike of a font: the size its bitmaps are drawn for.
public struct BitmapStrike: Sendable, Hashable {
    /// Horizontal px per em (FreeType's `x_ppem`).
    public var xPixelsPerEm: Double
    /// Vertical px per em (FreeType's `y_ppem`): the strike's size.
    public var yPixelsPerEm: Double
    /// A strike of these sizes.
    public init(xPixelsPerEm: Double, yPixelsPerEm: Double) {
        self.xPixelsPerEm = xPixelsPerEm; self.yPixelsPerEm = yPixelsPerEm
    }
}

extension Font {
    /// The deepest a `COLR` v1 paint graph may nest (paints within paints): 64. Deeper graphs are
    /// `FontError.colorGlyphTooComplex`.
    public static let maximumColorPaintDepth = 64
    /// The most paint tables one `COLR` v1 glyph may visit (a graph that reuses paints visits them each
    /// time): 100,000.
    public static let maximumColorPaints = 100_000
    /// The most layers (glyph outlines and fills) one color glyph may have: 10,000.
    public static let maximumColorLayers = 10_000

    /// The font's bitmap strikes, in its own order; empty when it has none.
    public var bitmapStrikes: [BitmapStrike] { face.strikes }

    /// The strike a bitmap glyph drawn at `viewPxPerEm` comes from: the smallest whose `yPixelsPerEm` is at
    /// least `viewPxPerEm`, else the largest; nil for a font without strikes. (A glyph the strike lacks comes
    /// from the next strike that has it; see `GlyphInk`.)
    public func strike(forViewPxPerEm viewPxPerEm: Double) -> Int? {
        FreeTypeFace.strikeOrder(face.strikes, viewPxPerEm: viewPxPerEm).first
    }

    /// What `glyph`'s ink is made of (see `GlyphInk` for the order). Decided once per glyph and remembered.
    ///
    /// - Throws: `.glyphOutOfRange`; `.noOutline` for a glyph of a face without outlines that has no bitmap
    ///   either; `.freeType` when the glyph cannot be loaded at all.
    public func ink(of glyph: GlyphID) throws(FontError) -> GlyphInk {
        try face.ink(of: glyph)
    }

    /// The region `glyph`'s hit shape is built from, in font units (y-up), for a glyph drawn at
    /// `viewPxPerEm` (which picks the bitmap strike) as `rendering` says: the outline (or each color layer)
    /// flattened within `tolerance` font units, or the exact pixel staircase of a bitmap, or a box. Filled
    /// with the nonzero rule. `tolerance` of the result is the Hausdorff bound achieved (0 when exact).
    ///
    /// - Throws: as `ink(of:)` and `outline(glyph:rendering:maxPoints:)`; for color glyphs
    ///   `.brokenColorGlyph`, `.colorPaintCycle`, `.colorGlyphTooComplex`; for bitmaps `.brokenBitmap`;
    ///   `.shape` when a curve cannot be flattened within `tolerance` or the layers have more than
    ///   `maxEdges` edges.
    public func inkRegion(of glyph: GlyphID, rendering: OutlineRendering = .exact, viewPxPerEm: Double,
                          tolerance: Double, maxEdges: Int = ShapeLimits.default.maxEdges) throws(FontError) -> InkRegion {
        try InkRegion.make(font: self, glyph: glyph, ink: try ink(of: glyph), rendering: rendering,
                           viewPxPerEm: viewPxPerEm, tolerance: tolerance, maxEdges: maxEdges)
    }
}

/// A glyph's ink as polygons in font units (y-up), with the nonzero rule: what its hit shape is built from.
public struct InkRegion: Sendable, Hashable {
    /// The contours, font units.
    public var polygon: Polygon
    /// The Hausdorff distance between `polygon` and the true region, font units (0: exact).
    public var tolerance: Double
    /// What the glyph's ink is made of.
    public var ink: GlyphInk
    /// For a bitmap, the strike it came from (an index into `Font.bitmapStrikes`); nil otherwise.
    public var strike: Int?

    /// A region.
    public init(polygon: Polygon, tolerance: Double, ink: GlyphInk, strike: Int? = nil) {
        self.polygon = polygon; self.tolerance = tolerance; self.ink = ink; self.strike = strike
    }
}

extension GlyphPlacement {
    /// What the glyph's ink is made of (`Font.ink(of:)`).
    ///
    /// - Throws: as `Font.ink(of:)`.
    public var ink: GlyphInk {
        get throws(FontError) { try font.ink(of: glyph) }
    }
}
