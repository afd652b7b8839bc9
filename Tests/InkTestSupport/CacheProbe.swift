import InkFreeType
import InkHit

extension ShapeCache where Key == FontGlyph {
    /// The shape this cache already holds for `placement` at `viewTolerance`, or nil when asking for it
    /// would build one. Nothing is built or stored: the builder handed to the cache only refuses.
    public func cachedShape(for placement: GlyphPlacement,
                            viewTolerance: Double = HitIndex.defaultTolerance) -> GlyphShape? {
        return try? shape(for: FontGlyph(font: placement.font, glyph: placement.glyph), viewTolerance: viewTolerance,
                          maxScale: placement.fontUnitsToView.maxScale, invalid: { _ in NotCached() }) {
            (_: Double, _: Double) throws(NotCached) -> GlyphShape in throw NotCached()
        }
    }
}

/// What `cachedShape`'s builder throws instead of building.
struct NotCached: Error {}
