import InkGeometry

/// How a renderer draws a glyph beyond its font's own outline: synthetic bold (FreeType's, or a centred
/// stroke as Skia's), synthetic oblique, hinting (with the renderer's rules for transformed glyphs and
/// anisotropic sizes), CFF stem darkening, and where it snaps the glyph's origin, so hits follow the ink the
/// renderer drew. InkFreeType's article "Hitting what the renderer drew" maps each renderer's settings onto
/// these fields.
///
/// ```swift
/// let sans = try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
/// let fake = GlyphStyle(embolden: .freeType, oblique: GlyphStyle.freeTypeOblique)   // bold italic, synthesized
/// let a = GlyphPlacement(font: sans, glyph: sans.glyph(for: "a")!, size: 16, origin: Point(10, 30), style: fake)
/// var builder = HitIndex.Builder()
/// try builder.add(a, cache: .shared)      // hits follow the emboldened, slanted ink
/// ```
///
/// The order is FreeType's (and cairo's): the outline is loaded (hinted or not, darkened or not) at the
/// glyph's size, transformed by `matrix` (as `FT_Set_Transform` does inside `FT_Load_Glyph`: how cairo draws a
/// font matrix's shape, such as fontconfig's synthetic slant), emboldened (or stroked), then sheared by
/// `oblique`; the origin is then rounded in view px (`originRounding`). A plain style (`GlyphStyle()`) uses the
/// exact unscaled outline; a style that hints, emboldens or darkens uses the outline FreeType hands a renderer
/// at the glyph's size in layout px
/// (`FT_Set_Char_Size` at 72 dpi, 26.6 fixed point: points on a 1/64 px grid). Full hinting of a TrueType
/// font that asks for it (`head` flags bit 3) runs its bytecode at the size rounded to whole pixels per em
/// (a 12.5 px glyph is hinted as 13 px), as FreeType gives every renderer; unhinted and light outlines keep
/// the exact size.
public struct GlyphStyle: Sendable, Hashable {
    /// Synthetic bold: the outline grown by `FT_Outline_EmboldenXY`.
    public enum Embolden: Sendable, Hashable {
        /// Not emboldened.
        case none
        /// `FT_Outline_EmboldenXY` with these strengths, layout px at the glyph's size (rounded to 1/64 px):
        /// the ink grows by `x` in width (to the right of the origin) and `y` in height (upwards), and each
        /// stem by about that much.
        case strength(x: Double, y: Double)
        /// `FT_GlyphSlot_Embolden`'s strength: 1/24 of the size in both directions, computed as FreeType does
        /// (`FT_MulFix(units_per_EM, y_scale) / 24`). Like `strength`, the ink grows right and up only.
        case freeType

        /// The fill united with its outline stroked centred, `width` layout px wide at the glyph's size, corners
        /// joined by `join`: the ink grows `width / 2` on every side (Skia's fake bold; see
        /// `skiaFakeBold`). The stroke follows the outline FreeType hands over
        /// (hinted or not, after `matrix`) in the glyph's frame, before `oblique`; advances do not change.
        /// The stroker is InkGeometry's `Stroking` (its bound holds: within the tolerance of the exact stroke).
        /// Unlike `freeType` and `strength`, which move points right and up, the ink grows on every side.
        case stroke(width: Double, join: StrokeJoin)
        /// Skia's fake bold for a glyph whose `size` is the `SkFont`'s text size (layout px are Skia's user
        /// px): `.stroke(width: size × skiaFakeBoldRatio(size), join: .miter(limit: 4))` at the glyph's size.
        /// When layout px are device px under a canvas scale, use `skiaFakeBoldStroke(textSize:layoutPxPerTextPx:)`.
        case skiaFakeBold

        /// The same strength `px` in both directions.
        public static func uniform(_ px: Double) -> Embolden { .strength(x: px, y: px) }

        /// Skia's fake bold (`SkFont::setEmbolden` with a fill paint, `SkScalerContext`): the outline stroked
        /// `textSize × skiaFakeBoldRatio(textSize)` wide, centred, with the paint's default join (miter, limit 4).
        /// `textSize` is the `SkFont`'s size (its user-space px); `layoutPxPerTextPx` converts that width to the
        /// glyph's layout px when the placement's `size` is not the text size (a size given in device px under
        /// a canvas scale `s`: pass `s`).
        public static func skiaFakeBoldStroke(textSize: Double, layoutPxPerTextPx: Double = 1) -> Embolden {
            .stroke(width: textSize * GlyphStyle.skiaFakeBoldRatio(textSize: textSize) * layoutPxPerTextPx, join: .skiaDefault)
        }
    }

    /// Skia's fake-bold stroke per px of text size (`kStdFakeBoldInterpKeys/Values`): 1/24 up to a text size
    /// of 9, 1/32 from 36 on, linear in the size between (so 1/28 at 22.5). A size that is not finite gives
    /// NaN (refused by `validate(size:)`).
    public static func skiaFakeBoldRatio(textSize: Double) -> Double {
        guard textSize.isFinite else { return .nan }
        if textSize <= 9 { return 1.0 / 24 }
        if textSize >= 36 { return 1.0 / 32 }
        return 1.0 / 24 + (textSize - 9) / (36 - 9) * (1.0 / 32 - 1.0 / 24)
    }

    /// Hinting as FreeType applies it at the glyph's size (opt-in; for embedders whose renderer hints).
    ///
    /// Renderers name the same three FreeType loads in their own words; `init?(name:)` reads them all:
    ///
    /// | FreeType load | InkHit | cairo / fontconfig | Skia `SkFontHinting` | Qt `HintingPreference` |
    /// |---|---|---|---|---|
    /// | `FT_LOAD_NO_HINTING` | `none` | `NONE`, `hintnone` | `kNone` | `PreferNoHinting` |
    /// | `FT_LOAD_TARGET_LIGHT` | `light` | `SLIGHT`, `hintslight` | `kSlight` | `PreferVerticalHinting` |
    /// | `FT_LOAD_TARGET_NORMAL` | `full` | `MEDIUM`, `FULL`, `hintmedium`, `hintfull` (gray antialiasing) | `kNormal`, `kFull` (gray) | `PreferFullHinting` |
    /// | `FT_LOAD_TARGET_MONO` | `mono` | any hint style but NONE with `CAIRO_ANTIALIAS_NONE` | any hinting but `kNone` with `kAlias` edging | — |
    ///
    /// cairo's MEDIUM sets no load target (FreeType's default, `TARGET_NORMAL`) and its FULL asks for
    /// `TARGET_NORMAL` unless it renders subpixel (LCD) text; Skia turns `kFull` into `kNormal` unless it renders
    /// LCD text, and both load `TARGET_NORMAL`; Qt's vertical preference is its `HintLight` (`TARGET_LIGHT`).
    /// With FreeType 2.8 or later `TARGET_LIGHT` keeps a font's native hinter where it hints lightly (CFF,
    /// TrueType with the v40 interpreter) and uses the auto-hinter otherwise, for every renderer alike.
    public enum Hinting: String, Sendable, Hashable, CaseIterable {
        /// Unhinted outlines (the default).
        case none
        /// `FT_LOAD_TARGET_LIGHT`: vertical-only grid fitting, advances unchanged.
        case light
        /// `FT_LOAD_TARGET_NORMAL`: the font's own hinting (TrueType bytecode, CFF hints) or the auto-hinter.
        case full
        /// `FT_LOAD_TARGET_MONO`: the hinting FreeType gives 1-bit (aliased) rendering — TrueType bytecode in
        /// its full mode (the v40 interpreter's backward compatibility off: stems snapped along x too), the
        /// auto-hinter snapping both axes; CFF hints as `full`. What Skia loads for `kAlias` text and cairo for
        /// `CAIRO_ANTIALIAS_NONE`. The outline is still the shape: InkHit answers for its inside, where a 1-bit
        /// rasteriser lights the pixels whose centres lie inside (FreeType's dropout control may light more).
        case mono

        /// Every name `init?(name:)` reads, with its hinting: InkHit's own (`none`, `light`, `full`, `mono`), cairo's,
        /// fontconfig's and Skia's (`slight`, `medium`, `normal`, and fontconfig's `hintnone`, `hintslight`,
        /// `hintmedium`, `hintfull`) and Qt's (`vertical`).
        public static let names: [String: Hinting] = [
            "none": .none, "light": .light, "full": .full, "mono": .mono,
            "slight": .light, "vertical": .light, "medium": .full, "normal": .full,
            "hintnone": .none, "hintslight": .light, "hintmedium": .full, "hintfull": .full,
        ]

        /// The hinting a renderer's name stands for (see the table above; exact, lower-case names), or nil.
        public init?(name: String) {
            guard let h = Hinting.names[name] else { return nil }
            self = h
        }
    }

    /// When a renderer leaves hinting off because of how the glyph is transformed: a rule of the renderer,
    /// applied where the glyph's whole map is known (its `matrix` and `oblique` with the placement's
    /// layout → view transform). Hinting that is turned off leaves an unhinted outline (exact, unless the style
    /// emboldens or darkens stems).
    public enum HintingUnderTransform: String, Sendable, Hashable, CaseIterable {
        /// Hint whatever the transform (the default).
        case keep
        /// Skia's rule (`SkTypeface_FreeType::onFilterRec`): hint only while the glyph's whole linear map keeps
        /// the axes on the axes — its 2×2 part (font units → view px, y-up to y-down) has zeros off the
        /// diagonal or on it: scales, flips and quarter turns keep hinting; a rotation by any other angle, a skew
        /// (`matrix` with `xy ≠ 0`, `oblique ≠ 0`) turn it off. Entries are compared with 0 exactly.
        case offWhenNotAxisAligned
        /// Hint only while the placement's transform moves glyphs without changing them: its linear part is
        /// exactly the identity. The style's own `matrix` and `oblique` do not count. (Qt's own rule is close:
        /// a painter that scales or shears draws unhinted glyphs, one that only rotates keeps hinting;
        /// `QtRawFont` applies it exactly.)
        case offWhenScaledOrRotated
    }

    /// How FreeType is asked for the glyph's size when `matrix` scales the axes apart (Skia's `scaleX`, Qt's
    /// stretch), for a style that hints, emboldens or darkens stems (an exact style applies `matrix` exactly
    /// either way).
    public enum PixelsPerEm: String, Sendable, Hashable, CaseIterable {
        /// `FT_Set_Char_Size(size, size)`, then the whole `matrix` after hinting (`FT_Set_Transform`), as cairo
        /// applies a font matrix (the default): stems are fitted at the em, then stretched.
        case uniform
        /// `FT_Set_Char_Size(size · sx, size · sy)` with `sx`, `sy` the axis scales of `matrix`
        /// (`GlyphMatrix.axisScales`: sx = |matrix·(1, 0)|, sy = |det| / sx), then the rest of `matrix`
        /// (`matrix · diag(1/sx, 1/sy)`, a rotation or shear, identity for a plain stretch) after hinting —
        /// Skia's `PreMatrixScale::kFull`: `scaleX 1.3` hints at an x ppem of 1.3 × size.
        case perAxis
        /// Sizes in view px, as a renderer that rasterises glyphs on the device sets them (Skia's
        /// `SkScalerContextRec::computeMatrices` with `kFull`): the glyph's whole linear map to view px
        /// (`size × matrix`, then the placement transform's linear part) is split into its axis scales
        /// (`GlyphMatrix.axisScales`: `FT_Set_Char_Size(sx, sy)`) and the rest (`FT_Set_Transform`), so hinting
        /// fits the outline to the view's pixel grid (a 2× canvas hints at twice the size; a quarter turn hints,
        /// then turns). The outline FreeType hands over is then mapped back into the glyph's frame by the inverse
        /// of the transform's linear part: an embolden stroke is applied in layout px, before the transform, as
        /// Skia strokes fake bold in user space. Each size is rounded to single precision and truncated to
        /// 1/64 px, as Skia's FreeType port sets it (`SkScalarToFDot6`). `freeType` and `strength` emboldening
        /// applies to the outline in view px. Sizes in view px must lie within 1/64 …
        /// `maximumRenderedSize` (checked with the placement, which knows the transform).
        case view
    }

    /// Synthetic bold.
    public var embolden: Embolden
    /// Synthetic oblique: the shear `x += oblique · y` in the glyph's y-up frame around its origin (0 for
    /// none; `freeTypeOblique` for FreeType's, 0.2126, about 12°), after emboldening (`FT_GlyphSlot_Oblique`,
    /// cairo's `CAIRO_FT_SYNTHESIZE_OBLIQUE`). Advances do not change.
    public var oblique: Double
    /// A 2×2 matrix about the glyph's origin in its y-up frame, before emboldening: fontconfig's `FC_MATRIX`
    /// (its synthetic slant is `GlyphMatrix(xx: 1, xy: 0.2, yx: 0, yy: 1)`), the shape part of a cairo font
    /// matrix. Identity by default. A style that hints or emboldens has FreeType apply it (`FT_Set_Transform`,
    /// entries as 16.16 fixed point truncated toward zero, as cairo converts them) after hinting and before
    /// emboldening; otherwise it is exact, part of the placement's transform. Advances do not change.
    public var matrix: GlyphMatrix
    /// Hinting.
    public var hinting: Hinting
    /// For bitmap glyphs (`GlyphInk.bitmap`: color emoji strikes), the least alpha that is ink, as a
    /// fraction of full opacity: `0 < alphaThreshold ≤ 1`, default 0.5. A pixel is ink when its alpha byte
    /// is at least `alphaThreshold · 255` rounded up (0.5: alpha ≥ 128). Other glyphs ignore it.
    public var alphaThreshold: Double
    /// How the renderer snaps the glyph's origin in view (device) px before drawing it there (`none` by
    /// default): the origin is mapped by the placement's transform, rounded by this rule, and the glyph drawn
    /// from the rounded point with its shape unchanged (`GlyphPlacement.fontUnitsToView`). Glyphs only, never
    /// decorations. See `OriginRounding` for each renderer's rule. In an InkScene node the origin is rounded in
    /// the node's frame without its translation (a node's region does not change when it moves): the device
    /// rounding whenever the node's translation lies on the grid.
    public var originRounding: OriginRounding
    /// When the renderer leaves hinting off for a transformed glyph (`keep` by default).
    public var hintingUnderTransform: HintingUnderTransform
    /// How FreeType's size follows a `matrix` that scales the axes apart (`uniform` by default).
    public var ppem: PixelsPerEm
    /// CFF stem darkening (FreeType's `FT_PARAM_TAG_STEM_DARKENING`, set on the face for this glyph's load
    /// only, never process-wide): FreeType's CFF engine thickens thin stems at small sizes, hinted or not (it
    /// darkens every scaled load: `none` hinting too), as Qt draws CFF fonts (Qt turns the CFF driver's
    /// `no-stem-darkening` off). It applies to fonts with PostScript outlines only (`Font.hasPostScriptOutlines`:
    /// CFF, CFF2, Type 1, CID); other fonts ignore it (the auto-hinter's own darkening, which FreeType ties to
    /// the same face property, is not used: Qt leaves it off). False by default (FreeType's default since 2.8).
    /// A darkened glyph is FreeType's outline at the glyph's size.
    public var stemDarkening: Bool

    /// `FT_GlyphSlot_Oblique`'s shear: `0x0366A / 65536` ≈ 0.2126 (12°).
    public static let freeTypeOblique = Double(0x0366A) / 65536

    /// The most synthetic shear: 4 (76°).
    public static let maximumOblique = 4.0

    /// The largest size of a glyph drawn hinted or emboldened: 16,384 px per em (FreeType's own bound on a
    /// char size is 65,535 px per em; larger synthetic sizes are more than any screen draws).
    public static let maximumRenderedSize = 16_384.0

    /// The default `alphaThreshold`: 0.5 (alpha ≥ 128).
    public static let defaultAlphaThreshold = 0.5

    /// A style; the defaults draw the font's own outline, unhinted, at the origin given (and bitmaps where
    /// alpha ≥ 128).
    public init(embolden: Embolden = .none, oblique: Double = 0, hinting: Hinting = .none,
                alphaThreshold: Double = GlyphStyle.defaultAlphaThreshold, matrix: GlyphMatrix = .identity,
                originRounding: OriginRounding = .none, hintingUnderTransform: HintingUnderTransform = .keep,
                ppem: PixelsPerEm = .uniform, stemDarkening: Bool = false) {
        self.embolden = embolden; self.oblique = oblique; self.hinting = hinting; self.alphaThreshold = alphaThreshold
        self.matrix = matrix; self.originRounding = originRounding; self.hintingUnderTransform = hintingUnderTransform
        self.ppem = ppem; self.stemDarkening = stemDarkening
    }

    /// True for the default style: the font's exact outline, as it is, where it is placed.
    public var isPlain: Bool {
        embolden == .none && oblique == 0 && hinting == .none && alphaThreshold == GlyphStyle.defaultAlphaThreshold
            && matrix.isIdentity && originRounding.isNone && hintingUnderTransform == .keep && ppem == .uniform
            && !stemDarkening
    }

    /// The largest miter limit of a stroke: 1,000 (Skia accepts any; the miter of a turn that sharp is
    /// longer than any glyph).
    public static let maximumMiterLimit = 1000.0

    /// The largest magnitude of a `matrix` entry: 1,024 (FreeType's 16.16 matrices hold ±32,767).
    public static let maximumMatrixEntry = 1024.0

    /// `alphaThreshold` as the least alpha byte that is ink: `⌈alphaThreshold · 255⌉` in 1…255 (128 for 0.5).
    public var alphaThresholdByte: UInt8 {
        guard alphaThreshold.isFinite else { return OutlineRendering.defaultAlphaThreshold }
        return UInt8(max(1, min(255, (alphaThreshold * 255 - 1e-9).rounded(.up))))
    }

    /// The shear of `oblique` in font units (y-up): `x' = x + oblique · y`.
    public var obliqueTransform: AffineTransform { AffineTransform(a: 1, b: 0, c: oblique, d: 1, tx: 0, ty: 0) }

    /// Checks the style for a glyph drawn at `size` px per em.
    ///
    /// - Throws: `FontError.invalidStyle` for strengths or shears that are not finite, a strength beyond
    ///   one em, a shear beyond `maximumOblique`, a singular or non-finite `matrix` (or an entry beyond
    ///   `maximumMatrixEntry`), a hinted or emboldened glyph outside 1/64 …
    ///   `maximumRenderedSize` px per em, or an `alphaThreshold` outside 0 < t ≤ 1.
    public func validate(size: Double) throws(FontError) {
        guard alphaThreshold.isFinite, alphaThreshold > 0, alphaThreshold <= 1 else {
            throw .invalidStyle(reason: "alphaThreshold must be > 0 and ≤ 1 (got \(DecimalText.short(alphaThreshold)))")
        }
        guard oblique.isFinite, abs(oblique) <= GlyphStyle.maximumOblique else {
            throw .invalidStyle(reason: "oblique must be a finite shear of at most \(DecimalText.short(GlyphStyle.maximumOblique)) "
                                + "in magnitude (got \(DecimalText.short(oblique)))")
        }
        guard matrix.isFinite, matrix.maxMagnitude <= GlyphStyle.maximumMatrixEntry, abs(matrix.determinant) >= 1e-9 else {
            throw .invalidStyle(reason: "the matrix \(matrix) must have finite entries of at most "
                                + "\(DecimalText.short(GlyphStyle.maximumMatrixEntry)) in magnitude and must not be singular")
        }
        if case .strength(let x, let y) = embolden {
            guard x.isFinite, y.isFinite, abs(x) <= size, abs(y) <= size else {
                throw .invalidStyle(reason: "embolden strengths must be finite and at most one em (\(DecimalText.short(size)) px) "
                                    + "in magnitude (got \(DecimalText.short(x)), \(DecimalText.short(y)))")
            }
        }
        if case .stroke(let w, let join) = resolvedEmbolden(size: size) {
            guard w.isFinite, w >= 0, w <= size else {
                throw .invalidStyle(reason: "the embolden stroke width must be finite, ≥ 0 and at most one em "
                                    + "(\(DecimalText.short(size)) px; got \(DecimalText.short(w)))")
            }
            if case .miter(let limit) = join, !(limit >= 0 && limit <= GlyphStyle.maximumMiterLimit) {
                throw .invalidStyle(reason: "the miter limit must be 0 … \(DecimalText.short(GlyphStyle.maximumMiterLimit)) "
                                    + "(got \(DecimalText.short(limit)))")
            }
        }
        if let problem = originRounding.problem { throw .invalidStyle(reason: "originRounding: " + problem) }
        if embolden != .none || hinting != .none || stemDarkening {
            guard size >= 1.0 / 64, size <= GlyphStyle.maximumRenderedSize else {
                throw .invalidStyle(reason: "a hinted, emboldened or darkened glyph is drawn at 1/64 to "
                                    + "\(DecimalText.short(GlyphStyle.maximumRenderedSize)) px per em (got \(DecimalText.short(size)))")
            }
            if ppem == .perAxis {
                let s = matrix.axisScales
                for (axis, v) in [("x", size * s.x), ("y", size * s.y)] where !(v >= 1.0 / 64 && v <= GlyphStyle.maximumRenderedSize) {
                    throw .invalidStyle(reason: "with ppem perAxis the \(axis) size (size × the matrix's \(axis) scale) must be "
                                        + "1/64 to \(DecimalText.short(GlyphStyle.maximumRenderedSize)) px per em (got \(DecimalText.short(v)))")
                }
            }
        }
    }

    /// `validate(size:)`, and for `ppem` `view` the sizes FreeType is set to under the placement's layout → view
    /// `transform` (`viewSizes(size:transform:)`): 1/64 … `maximumRenderedSize` px per em on each axis, when the
    /// glyph is drawn by FreeType at all (hinted under the transform, emboldened or darkened).
    ///
    /// - Throws: as `validate(size:)`; `FontError.invalidStyle` for view sizes out of range.
    public func validate(size: Double, transform: AffineTransform) throws(FontError) {
        try validate(size: size)
        guard ppem == .view, embolden != .none || stemDarkening || effectiveHinting(under: transform) != .none else { return }
        let v = viewSizes(size: size, transform: transform)
        for (axis, px) in [("x", v.x), ("y", v.y)] where !(px >= 1.0 / 64 && px <= GlyphStyle.maximumRenderedSize) {
            throw .invalidStyle(reason: "with ppem view the \(axis) size in view px (size × matrix × transform) must be "
                                + "1/64 to \(DecimalText.short(GlyphStyle.maximumRenderedSize)) px per em (got \(DecimalText.short(px)))")
        }
    }

    /// How the outline of a glyph of this style at `size` px per em is made (oblique aside: it is part of
    /// the placement's transform), with the bitmap threshold (`alphaThresholdByte`), for a placement whose
    /// layout → view transform is `transform` (it decides `hintingUnderTransform`; the default, identity,
    /// keeps hinting). Exact (`isExact`) when the style neither hints (after that rule), emboldens nor darkens
    /// stems. Call `validate(size:)` first.
    public func rendering(size: Double, transform: AffineTransform = .identity) -> OutlineRendering {
        rendering(size: size, transform: transform, darkensStems: true)
    }

    /// `rendering(size:transform:)` for a font whose outlines stem darkening applies to (`darkensStems`,
    /// `Font.hasPostScriptOutlines`) or not (then `stemDarkening` is ignored).
    public func rendering(size: Double, transform: AffineTransform, darkensStems: Bool) -> OutlineRendering {
        let hinting = effectiveHinting(under: transform)
        let stemDarkening = self.stemDarkening && darkensStems
        guard embolden != .none || hinting != .none || stemDarkening else {
            var r = OutlineRendering.exact
            r.alphaThreshold = alphaThresholdByte
            return r
        }
        var r = OutlineRendering(charSize64: Int32((size * 64).rounded()), hinting: hinting)
        r.alphaThreshold = alphaThresholdByte
        r.stemDarkening = stemDarkening
        if ppem == .view {
            let v = viewSizes(size: size, transform: transform)
            r.ppemX64 = GlyphStyle.fixed26Dot6Truncated(v.x)
            r.ppemY64 = GlyphStyle.fixed26Dot6Truncated(v.y)
            r.matrix = v.remaining.fixed16
            r.outlineMatrix = v.back
        } else if ppem == .perAxis && !matrix.isIdentity {
            let s = matrix.axisScales
            r.ppemX64 = Int32((size * s.x * 64).rounded())
            r.ppemY64 = Int32((size * s.y * 64).rounded())
            r.matrix = s.remaining.fixed16
        } else {
            r.matrix = matrix.fixed16
        }
        switch resolvedEmbolden(size: size) {
        case .none, .skiaFakeBold: break
        case .freeType: r.emboldenFreeType = true
        case .strength(let x, let y):
            r.emboldenX64 = Int32((x * 64).rounded())
            r.emboldenY64 = Int32((y * 64).rounded())
        case .stroke(let width, let join):
            r.strokeWidth = width
            r.strokeJoin = join
        }
        return r
    }

    /// For `ppem` `view`: FreeType's x and y sizes in view px (`x`, `y`), the rest of the glyph's map to view px
    /// that FreeType applies after hinting (`remaining`), and the map from the view's y-up frame back to the
    /// glyph's (`back`, the inverse of the transform's linear part seen y-up), for a glyph of `size` px per em
    /// under `transform`.
    public func viewSizes(size: Double, transform: AffineTransform) -> (x: Double, y: Double, remaining: GlyphMatrix, back: GlyphMatrix) {
        // The transform's linear part in y-up frames: y-down [a c; b d] seen with y flipped is [a −c; −b d].
        let up = GlyphMatrix(xx: transform.a, xy: -transform.c, yx: -transform.b, yy: transform.d)
        let whole = up.concatenating(matrix.scaled(by: size))
        let s = whole.axisScales
        return (s.x, s.y, s.remaining, up.inverse)
    }

    /// `v` px as 26.6 fixed point the way Skia's FreeType port converts it: rounded to single precision, then
    /// truncated toward zero (`SkScalarToFDot6`).
    static func fixed26Dot6Truncated(_ v: Double) -> Int32 {
        let f = Double(Float(v)) * 64
        guard f.isFinite, abs(f) < Double(Int32.max) else { return f < 0 ? Int32.min : Int32.max }
        return Int32(f.rounded(.towardZero))
    }

    /// The hinting a glyph of this style gets under the layout → view `transform` (`hintingUnderTransform`):
    /// `hinting`, or `none` where the rule turns it off.
    public func effectiveHinting(under transform: AffineTransform) -> Hinting {
        guard hinting != .none else { return .none }
        switch hintingUnderTransform {
        case .keep:
            return hinting
        case .offWhenScaledOrRotated:
            return transform.a == 1 && transform.b == 0 && transform.c == 0 && transform.d == 1 ? hinting : .none
        case .offWhenNotAxisAligned:
            // The glyph's linear map, font frame (y-up) → view: matrix, oblique, the flip to y-down, the
            // transform's linear part (the size, a positive scale, changes no zero).
            let glyph = matrix.transform.concatenating(obliqueTransform)
                .concatenating(AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 0)).concatenating(transform.linearPart)
            let aligned = (glyph.b == 0 && glyph.c == 0) || (glyph.a == 0 && glyph.d == 0)
            return aligned ? hinting : .none
        }
    }

    /// How much the style widens an advance of a glyph of `font` at `size` px per em, in layout px: the
    /// embolden strength in x, as `FT_GlyphSlot_Embolden` grows `advance.x` (0 without emboldening; glyphs
    /// with a zero advance, such as marks, keep it).
    public func advanceGrowth(font: Font, size: Double) -> Double {
        switch embolden {
        case .none: return 0
        case .strength(let x, _): return (x * 64).rounded() / 64
        case .freeType:
            // FT_GlyphSlot_Embolden's strength comes from the y size FreeType was set to.
            let r = rendering(size: size)
            return font.face.freeTypeEmboldenStrength(charSize64: r.ppemY64 > 0 ? r.ppemY64 : r.charSize64)
        case .stroke, .skiaFakeBold: return 0
        }
    }

    /// `embolden` at a glyph size of `size` px per em: `skiaFakeBold` as the stroke it stands for, the rest as
    /// they are.
    public func resolvedEmbolden(size: Double) -> Embolden {
        guard case .skiaFakeBold = embolden else { return embolden }
        return .stroke(width: size * GlyphStyle.skiaFakeBoldRatio(textSize: size), join: .skiaDefault)
    }
}

/// How a glyph's outline is obtained: the exact unscaled outline (`exact`), or the outline FreeType hands
/// a renderer at one size, hinted and/or emboldened; and, for a bitmap glyph, which alpha is ink. Part of
/// the key of a cached shape (`FontGlyph`).
///
/// Outlines of every rendering are given in font units (y-up): a rendered outline's 26.6 px points are
/// scaled back by `unitsPerEm / (charSize64 / 64)`, so one placement transform serves them all. Color
/// layers (`GlyphInk.colorLayers`, `.colorPaint`) are each rendered so; bitmaps ignore everything but
/// `alphaThreshold`.
public struct OutlineRendering: Sendable, Hashable {
    /// The size FreeType scales to, in 1/64 px per em (`FT_Set_Char_Size` at 72 dpi); 0 for `exact`.
    public var charSize64: Int32
    /// Hinting at that size.
    public var hinting: GlyphStyle.Hinting
    /// `FT_Outline_EmboldenXY` strengths, 1/64 px.
    public var emboldenX64: Int32 = 0
    /// `FT_Outline_EmboldenXY` strengths, 1/64 px.
    public var emboldenY64: Int32 = 0
    /// True for `FT_GlyphSlot_Embolden` (its strength, from the size FreeType set).
    public var emboldenFreeType = false
    /// For a bitmap glyph, the least alpha byte that is ink (1…255; `GlyphStyle.alphaThresholdByte`).
    public var alphaThreshold: UInt8 = OutlineRendering.defaultAlphaThreshold
    /// The matrix FreeType applies after hinting (`FT_Set_Transform`), 16.16 fixed point: `GlyphStyle.matrix`
    /// (with `ppem` `perAxis`, what is left of it once its axis scales went into the size).
    public var matrix: GlyphMatrix.Fixed = .identity
    /// The size FreeType scales x to, 1/64 px per em (`FT_Set_Char_Size`'s width), when it differs from
    /// `charSize64` (`GlyphStyle.PixelsPerEm.perAxis`); 0: `charSize64`. Outlines are still scaled back to font
    /// units by `charSize64`, so the axis scales stay in them.
    public var ppemX64: Int32 = 0
    /// The size FreeType scales y to (`FT_Set_Char_Size`'s height), as `ppemX64`; 0: `charSize64`.
    public var ppemY64: Int32 = 0
    /// CFF stem darkening for this load (`GlyphStyle.stemDarkening`).
    public var stemDarkening = false
    /// For `GlyphStyle.Embolden.stroke`: the stroke's width, layout px at `charSize64` (0: none); InkHit
    /// strokes the outline FreeType hands over when it makes the shape.
    public var strokeWidth = 0.0
    /// For `strokeWidth > 0`: how the stroke's corners are joined.
    public var strokeJoin = StrokeJoin.skiaDefault
    /// Maps the outline FreeType hands over (px, y-up) into the glyph's frame before it is scaled back to font
    /// units: the identity, or for `GlyphStyle.PixelsPerEm.view` the inverse of the placement transform's linear
    /// part seen y-up (FreeType drew the glyph in view px).
    public var outlineMatrix = GlyphMatrix.identity

    /// The default `alphaThreshold`: 128 (`GlyphStyle.defaultAlphaThreshold` 0.5).
    public static let defaultAlphaThreshold: UInt8 = 128

    /// The exact unscaled, unhinted outline in font units.
    public static let exact = OutlineRendering(charSize64: 0, hinting: .none)

    /// True for `exact`.
    public var isExact: Bool { charSize64 == 0 }

    /// `strokeWidth` in font units (the outline's), for an outline of `unitsPerEm`.
    public func strokeWidthInFontUnits(unitsPerEm: Int) -> Double {
        charSize64 > 0 ? strokeWidth * Double(unitsPerEm) * 64 / Double(charSize64) : 0
    }

    /// How far the stroke reaches beyond the outline at most, font units: half the width, times the miter
    /// limit for mitred corners (a miter's tip lies within `limit × width / 2` of its corner).
    public func strokeReachInFontUnits(unitsPerEm: Int) -> Double {
        let r = strokeWidthInFontUnits(unitsPerEm: unitsPerEm) / 2
        if case .miter(let limit) = strokeJoin { return r * max(1, limit) }
        return r
    }
}

/// A 2×2 matrix in a glyph's y-up font frame, about its origin: `x' = xx·x + xy·y`, `y' = yx·x + yy·y` —
/// the convention of FreeType's `FT_Matrix` and fontconfig's `FcMatrix` (`FC_MATRIX`).
///
/// A cairo font matrix (y-down, `cairo_matrix_t` with entries `xx, yx, xy, yy`) of a font of size `s`
/// corresponds to `GlyphMatrix(xx: m.xx / s, xy: -m.xy / s, yx: -m.yx / s, yy: m.yy / s)`.
public struct GlyphMatrix: Sendable, Hashable, CustomStringConvertible {
    /// `x' = xx·x + xy·y`.
    public var xx: Double
    /// `x' = xx·x + xy·y`.
    public var xy: Double
    /// `y' = yx·x + yy·y`.
    public var yx: Double
    /// `y' = yx·x + yy·y`.
    public var yy: Double

    /// A matrix of these entries.
    public init(xx: Double, xy: Double, yx: Double, yy: Double) {
        self.xx = xx; self.xy = xy; self.yx = yx; self.yy = yy
    }

    /// The identity: the glyph as the font draws it.
    public static let identity = GlyphMatrix(xx: 1, xy: 0, yx: 0, yy: 1)

    /// fontconfig's synthetic slant for a font without an italic (`FC_MATRIX` of `[1 0.2; 0 1]`): a shear
    /// `x' = x + 0.2·y`.
    public static let fontconfigSlant = GlyphMatrix(xx: 1, xy: 0.2, yx: 0, yy: 1)

    /// True for the identity.
    public var isIdentity: Bool { xx == 1 && xy == 0 && yx == 0 && yy == 1 }
    /// True when every entry is finite.
    public var isFinite: Bool { xx.isFinite && xy.isFinite && yx.isFinite && yy.isFinite }
    /// `xx·yy − xy·yx`.
    public var determinant: Double { xx * yy - xy * yx }
    /// The largest entry's magnitude.
    public var maxMagnitude: Double { max(abs(xx), abs(xy), abs(yx), abs(yy)) }

    /// `self · m`: `m` first, then this matrix.
    public func concatenating(_ m: GlyphMatrix) -> GlyphMatrix {
        GlyphMatrix(xx: xx * m.xx + xy * m.yx, xy: xx * m.xy + xy * m.yy,
                    yx: yx * m.xx + yy * m.yx, yy: yx * m.xy + yy * m.yy)
    }

    /// Every entry times `k`.
    public func scaled(by k: Double) -> GlyphMatrix { GlyphMatrix(xx: xx * k, xy: xy * k, yx: yx * k, yy: yy * k) }

    /// The inverse (entries not finite for a singular matrix).
    public var inverse: GlyphMatrix {
        let d = determinant
        return GlyphMatrix(xx: yy / d, xy: -xy / d, yx: -yx / d, yy: xx / d)
    }

    /// The matrix as a transform of font units (y-up): `a = xx, b = yx, c = xy, d = yy`.
    public var transform: AffineTransform { AffineTransform(a: xx, b: yx, c: xy, d: yy, tx: 0, ty: 0) }

    /// The matrix's scale along each axis and what is left of it (Skia's `computeMatrices` with
    /// `PreMatrixScale::kFull`: a QR decomposition by a rotation): `x = |matrix · (1, 0)| = hypot(xx, yx)`,
    /// `y = |det| / x`, `remaining = matrix · diag(1/x, 1/y)` — the identity for a stretch `[sx 0; 0 sy]` with
    /// sx, sy > 0, a rotation or shear otherwise. Call on a non-singular matrix.
    public var axisScales: (x: Double, y: Double, remaining: GlyphMatrix) {
        let sx = (xx * xx + yx * yx).squareRoot()
        let sy = abs(determinant) / sx
        if xy == 0 && yx == 0 && xx > 0 && yy > 0 { return (xx, yy, .identity) }
        return (sx, sy, GlyphMatrix(xx: xx / sx, xy: xy / sy, yx: yx / sx, yy: yy / sy))
    }

    /// `[xx xy; yx yy]`.
    public var description: String {
        "[\(DecimalText.short(xx)) \(DecimalText.short(xy)); \(DecimalText.short(yx)) \(DecimalText.short(yy))]"
    }

    /// The entries in 16.16 fixed point, each truncated toward zero (cairo's `DOUBLE_TO_16_16`), as
    /// `FT_Set_Transform` takes them. Call on a validated matrix (entries within ±`GlyphStyle.maximumMatrixEntry`).
    public var fixed16: Fixed {
        Fixed(xx: Int32(xx * 65536), xy: Int32(xy * 65536), yx: Int32(yx * 65536), yy: Int32(yy * 65536))
    }

    /// A matrix in FreeType's 16.16 fixed point (`FT_Matrix`).
    public struct Fixed: Sendable, Hashable {
        /// `xx` in 16.16.
        public var xx: Int32
        /// `xy` in 16.16.
        public var xy: Int32
        /// `yx` in 16.16.
        public var yx: Int32
        /// `yy` in 16.16.
        public var yy: Int32
        /// A matrix of these 16.16 entries.
        public init(xx: Int32, xy: Int32, yx: Int32, yy: Int32) { self.xx = xx; self.xy = xy; self.yx = yx; self.yy = yy }
        /// The identity (65536 on the diagonal).
        public static let identity = Fixed(xx: 65536, xy: 0, yx: 0, yy: 65536)
        /// True for the identity.
        public var isIdentity: Bool { self == .identity }
    }
}
