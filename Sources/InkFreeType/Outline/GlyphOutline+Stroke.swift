import InkGeometry
import InkHit

extension GlyphOutline {
    /// The band of this outline's stroke when `rendering` strokes it (`GlyphStyle.Embolden.stroke`; nil when it
    /// does not), in font units like the outline, within `tolerance` font units of the exact stroke: its pieces
    /// wound as the outline's area, so the outline and the band filled together (nonzero) are their union.
    ///
    /// - Throws: `.shape(glyph:pxPerEm:.tooManyEdges)` beyond `maxEdges` edges (counted before they are made),
    ///   `.shape(… .timeLimit)` past `BuildDeadline`, `.invalidStyle` for a width or join the stroker refuses.
    func strokeBand(_ rendering: OutlineRendering, unitsPerEm: Int, tolerance: Double, maxEdges: Int, glyph: GlyphID,
                    pxPerEm: Double) throws(FontError) -> StrokeBand? {
        guard rendering.strokeWidth > 0, !isEmpty else { return nil }
        var elements: [PathElement] = []
        elements.reserveCapacity(points.count + 2 * contourCount)
        decompose(into: &elements)
        let band: StrokeBand
        do {
            band = try Stroking.band(of: elements, width: rendering.strokeWidthInFontUnits(unitsPerEm: unitsPerEm),
                                     join: rendering.strokeJoin, tolerance: tolerance, maxEdges: maxEdges)
        } catch {
            switch error {
            case .tooManyEdges(let limit): throw .shape(glyph: glyph, pxPerEm: pxPerEm, .tooManyEdges(limit: limit))
            case .invalidArgument(let reason): throw .invalidStyle(reason: reason)
            }
        }
        if BuildDeadline.hasPassed { throw .shape(glyph: glyph, pxPerEm: pxPerEm, .timeLimit) }
        return band
    }
}
