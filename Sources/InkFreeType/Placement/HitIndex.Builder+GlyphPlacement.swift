import InkGeometry
import InkHit

// A font glyph into an index: the builder's font-side `add` (documented with the builder, InkHit's
// HitIndex+Builder.swift), declared here because InkHit does not know fonts.

extension HitIndex.Builder {
    /// Adds `placement`: its glyph's shape from `cache` (flattened there once per font, glyph and size class)
    /// placed by `placement.fontUnitsToView`. Returns the placement's index. A glyph without ink (a space)
    /// is added too, and never hit.
    ///
    /// Color, bitmap and SVG glyphs are added by their ink (`GlyphInk`).
    ///
    /// - Throws: `FontError` — the placement's own checks (`validate()`), the font's (a broken outline,
    ///   broken color data or bitmap, `.noOutline` for a glyph with no ink source at all, …), `.shape` when
    ///   its outline cannot be flattened for this scale, `.placement` when the index refuses it.
    @discardableResult
    public mutating func add(_ placement: GlyphPlacement, cache: FontShapeCache = .shared) throws(FontError) -> Int {
        let (shape, t, sv) = try placement.shape(cache: cache, viewTolerance: tolerance)
        do { return try add(shape, transform: t, singularValues: sv) } catch { throw .placement(error) }
    }
}

extension GlyphPlacement {
    /// Not API: validates the placement and gets its shape, with the font-units → view transform and its
    /// singular values worked out once (they decide the shape's size class and the index checks them), for
    /// `HitIndex.Builder.add(_:transform:singularValues:)`.
    package func shape(cache: FontShapeCache, viewTolerance: Double) throws(FontError) -> (GlyphShape, AffineTransform, SingularValues) {
        let t = fontUnitsToView
        let sv = t.singularValues
        try validate(viewPxPerEm: sv.max * Double(font.unitsPerEm))
        let shape = try cache.shape(font: font, glyph: glyph, rendering: rendering, viewTolerance: viewTolerance, maxScale: sv.max)
        return (shape, t, sv)
    }
}
