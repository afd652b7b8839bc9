import InkGeometry
import InkHit

/// One glyph of one font at one size and origin, seen through a layout → view transform: the one place the
/// mapping from font units to view px is written.
///
/// A glyph with id `g` at size `s` (px per em) and origin `(x, y)` puts font point `(u, v)` (y-up) at layout
/// point `(x + u*s/upem, y - v*s/upem)` (px, y-down, the origin on the baseline), and `transform` takes
/// layout px to view px (CGAffineTransform order). A `style` with an oblique shear `k` first moves `(u, v)` to
/// `(u + k*v, v)` (after its `matrix`); one that hints or emboldens draws FreeType's outline at size `s` (see
/// `GlyphStyle`).
///
/// ```swift
/// let sans = try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
/// let o = GlyphPlacement(font: sans, glyph: sans.glyph(for: "o")!, size: 16, origin: Point(10, 30))
/// var builder = HitIndex.Builder()
/// try builder.add(o, cache: .shared)      // flattened once, shared by every index
/// ```
public struct GlyphPlacement: Sendable, Hashable {
    /// The font the glyph comes from.
    public var font: Font
    /// The glyph, by its id in `font`.
    public var glyph: GlyphID
    /// px per em (layout px).
    public var size: Double
    /// The glyph's origin on the baseline, layout px.
    public var origin: Point
    /// Layout px → view px.
    public var transform: AffineTransform
    /// Synthetic bold and oblique, and hinting, as the renderer draws the glyph (plain by default).
    public var style: GlyphStyle

    /// A placement; `transform` maps layout px to view px (identity: they are the same).
    public init(font: Font, glyph: GlyphID, size: Double, origin: Point = .zero, transform: AffineTransform = .identity,
                style: GlyphStyle = GlyphStyle()) {
        self.font = font; self.glyph = glyph; self.size = size; self.origin = origin; self.transform = transform
        self.style = style
    }

    /// Font units (y-up) → layout px (y-down): `style.matrix` (unless FreeType applies it:
    /// `matrixInOutline`), shear by `style.oblique`, scale by `size / unitsPerEm`, flip y, move to `origin`.
    public var fontUnitsToLayout: AffineTransform {
        let k = size / Double(font.unitsPerEm)
        let t = AffineTransform(a: k, b: 0, c: k * style.oblique, d: -k, tx: origin.x, ty: origin.y)
        return style.matrix.isIdentity || matrixInOutline ? t : style.matrix.transform.concatenating(t)
    }

    /// True when the outline FreeType hands over already carries `style.matrix`: a style that hints or
    /// emboldens, on a glyph drawn from outlines (`GlyphInk.outline` or color layers). Bitmaps and boxes
    /// take the matrix in the placement's transform.
    public var matrixInOutline: Bool {
        guard !style.matrix.isIdentity, !rendering.isExact else { return false }
        guard let ink = try? font.ink(of: glyph) else { return true }
        return ink == .outline || ink.isColorLayered
    }

    /// How the glyph's outline is made for `style` at `size` under `transform` (exact unless it hints,
    /// emboldens or darkens stems; `GlyphStyle.hintingUnderTransform` decides hinting here).
    public var rendering: OutlineRendering {
        style.rendering(size: size, transform: transform, darkensStems: font.hasPostScriptOutlines)
    }

    /// Font units (y-up) → view px: `fontUnitsToLayout` then `transform`; with `style.originRounding`, moved so
    /// that the glyph's origin lands on `viewOrigin` (the glyph's shape is unchanged).
    public var fontUnitsToView: AffineTransform {
        var t = fontUnitsToLayout.concatenating(transform)
        if !style.originRounding.isNone {
            let o = viewOrigin
            t.tx = o.x
            t.ty = o.y
        }
        return t
    }

    /// Where the glyph's origin is drawn, view px: `origin` mapped by `transform`, then rounded by
    /// `style.originRounding` (as the renderer snaps it).
    public var viewOrigin: Point { style.originRounding.rounded(origin.applying(transform)) }

    /// View px per em: the size times the transform's largest scale.
    public var viewPxPerEm: Double { size * transform.maxScale }

    /// The smallest glyph drawn, view px per em (1e-6): below it a glyph is less than a millionth of a
    /// pixel, and its flattening tolerance in font units would leave the range of a double.
    public static let minimumViewPxPerEm = 1e-6

    /// Checks what the font cannot: the size is finite and > 0, the origin finite, and the glyph drawn at
    /// `minimumViewPxPerEm` … `ViewSpace.limit` view px per em (the index's view range).
    ///
    /// - Throws: `FontError.invalidPlacement`, `.glyphOutOfRange`.
    public func validate() throws(FontError) {
        try validate(viewPxPerEm: viewPxPerEm)
    }

    /// `validate()` with `viewPxPerEm` at hand.
    func validate(viewPxPerEm em: Double) throws(FontError) {
        guard size.isFinite, size > 0 else {
            throw .invalidPlacement(reason: "size must be finite and > 0 (got \(DecimalText.short(size)))")
        }
        guard origin.isFinite else { throw .invalidPlacement(reason: "the origin must be finite") }
        try style.validate(size: size, transform: transform)
        guard Int(glyph.rawValue) < font.glyphCount else {
            throw .glyphOutOfRange(glyph: glyph, glyphCount: font.glyphCount)
        }
        guard em >= Self.minimumViewPxPerEm else {
            throw .invalidPlacement(reason: "\(DecimalText.short(em)) view px per em (size × transform scale) is too small "
                                    + "(the least is \(DecimalText.short(Self.minimumViewPxPerEm)))")
        }
        guard em <= ViewSpace.limit else {
            throw .invalidPlacement(reason: "\(DecimalText.short(em)) view px per em (size × transform scale) is beyond "
                                    + "the \(ViewSpace.limitText) view range")
        }
    }

    /// Drives `sink` with the glyph's outline in view px (as `style` renders it; curves kept). A stroked style
    /// (`GlyphStyle.Embolden.stroke`) adds its stroke's band after the outline, as polygons within
    /// `viewTolerance` view px of the exact stroke (fill both with the nonzero rule). On error the sink sees
    /// nothing.
    ///
    /// - Throws: as `Font.outline(glyph:maxPoints:)`, and `.invalidStyle`; `.shape` when the band would have
    ///   too many edges.
    public func outline<S: OutlineSink>(into sink: inout S, viewTolerance: Double = HitIndex.defaultTolerance) throws(FontError) {
        try style.validate(size: size, transform: transform)
        let r = rendering, t = fontUnitsToView
        let o = try font.outline(glyph: glyph, rendering: r)
        let scale = t.maxScale
        let band = try o.strokeBand(r, unitsPerEm: font.unitsPerEm, tolerance: viewTolerance / scale, maxEdges: ShapeLimits.default.maxEdges,
                                    glyph: glyph, pxPerEm: scale * Double(font.unitsPerEm))
        var ts = TransformingSink(sink, transform: t)
        o.decompose(into: &ts)
        band?.draw(into: &ts)
        sink = ts.base
    }

    /// Drives `sink` with the glyph's ink in view px, whatever its kind (`ink`): an outline glyph's outline as
    /// `outline(into:)` draws it (curves kept); for color layers, a bitmap or an SVG box, the region its hit
    /// shape is made of (`Font.inkRegion(of:rendering:viewPxPerEm:tolerance:maxEdges:)`: the layers' union
    /// flattened within `viewTolerance` view px, the pixel staircase, the box), as closed polygons. Filled
    /// with the nonzero rule. On error the sink sees nothing.
    ///
    /// - Throws: as `outline(into:)` and `Font.inkRegion(of:rendering:viewPxPerEm:tolerance:maxEdges:)`.
    public func inkOutline<S: OutlineSink>(into sink: inout S, viewTolerance: Double = HitIndex.defaultTolerance) throws(FontError) {
        try style.validate(size: size, transform: transform)
        let t = fontUnitsToView
        guard try ink != .outline else { return try outline(into: &sink, viewTolerance: viewTolerance) }
        let scale = t.maxScale
        let region = try font.inkRegion(of: glyph, rendering: rendering, viewPxPerEm: scale * Double(font.unitsPerEm),
                                        tolerance: viewTolerance / scale)
        for c in region.polygon.contours where c.count >= 2 {
            sink.move(to: c[0].applying(t))
            for p in c.dropFirst() { sink.addLine(to: p.applying(t)) }
            sink.closeSubpath()
        }
    }

    /// A box in view px that holds the glyph's ink, whatever its kind (`ink`): an outline glyph's control
    /// box (outline points, control points included) mapped to view px; for color layers, the bounds of
    /// their flattened union grown by the flattening bound; for a bitmap, its hit pixels (from the strike
    /// this placement's size picks); for an SVG box, the box. Empty for a glyph without ink.
    ///
    /// - Throws: as `Font.controlBox(glyph:)` and `Font.inkRegion(of:rendering:viewPxPerEm:tolerance:maxEdges:)`,
    ///   and `.invalidStyle`.
    public func viewBounds() throws(FontError) -> Rect {
        try style.validate(size: size, transform: transform)
        let t = fontUnitsToView
        let ink = try self.ink
        guard ink != .outline else {
            // A stroke reaches beyond the outline by at most half its width (times the miter limit at corners).
            let r = rendering
            let box = try font.controlBox(glyph: glyph, rendering: r)
            return (r.strokeWidth > 0 && !box.isEmpty ? box.outsetBy(r.strokeReachInFontUnits(unitsPerEm: font.unitsPerEm)) : box).applying(t)
        }
        let region = try font.inkRegion(of: glyph, rendering: rendering, viewPxPerEm: t.maxScale * Double(font.unitsPerEm),
                                        tolerance: Double(font.unitsPerEm) / 1024)
        let box = region.polygon.bounds
        return box.isEmpty ? .empty : box.outsetBy(region.tolerance).applying(t)
    }
}
