import InkGeometry

/// How a renderer draws a glyph beyond its font's own outline: synthetic bold, synthetic oblique and
/// hinting, with FreeType's semantics, so hits follow the ink the renderer drew.
///
/// ```swift
/// let sans = try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
/// let fake = GlyphStyle(embolden: .freeType, oblique: GlyphStyle.freeTypeOblique)   // bold italic, synthesized
/// let a = GlyphPlacement(font: sans, glyph: sans.glyph(for: "a")!, size: 16, origin: Point(10, 30), style: fake)
/// var builder = HitIndex.Builder()
/// try builder.add(a, cache: .shared)      // hits follow the emboldened, slanted ink
/// ```
///
/// The order is FreeType's (and cairo's): the outline is loaded (hinted or not) at the glyph's size,
/// transformed by `matrix` (as `FT_Set_Transform` does inside `FT_Load_Glyph`: how cairo draws a font
/// matrix's shape, such as fontconfig's synthetic slant), emboldened, then sheared by `oblique`. A plain style (`GlyphStyle()`) uses the exact unscaled outline; a style that
/// hints or emboldens uses the outline FreeType hands a renderer at the glyph's size in layout px
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
        /// (`FT_MulFix(units_per_EM, y_scale) / 24`).
        case freeType

        /// The same strength `px` in both directions.
        public static func uniform(_ px: Double) -> Embolden { .strength(x: px, y: px) }
    }

    /// Hinting as FreeType applies it at the glyph's size (opt-in; for embedders whose renderer hints).
    public enum Hinting: String, Sendable, Hashable, CaseIterable {
        /// Unhinted outlines (the default).
        case none
        /// `FT_LOAD_TARGET_LIGHT`: vertical-only grid fitting, advances unchanged.
        case light
        /// `FT_LOAD_TARGET_NORMAL`: the font's own hinting (TrueType bytecode, CFF hints) or the auto-hinter.
        case full
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

    /// `FT_GlyphSlot_Oblique`'s shear: `0x0366A / 65536` ≈ 0.2126 (12°).
    public static let freeTypeOblique = Double(0x0366A) / 65536

    /// The most synthetic shear: 4 (76°).
    public static let maximumOblique = 4.0

    /// The largest size of a glyph drawn hinted or emboldened: 16,384 px per em (FreeType's own bound on a
    /// char size is 65,535 px per em; larger synthetic sizes are more than any screen draws).
    public static let maximumRenderedSize = 16_384.0

    /// The default `alphaThreshold`: 0.5 (alpha ≥ 128).
    public static let defaultAlphaThreshold = 0.5

    /// A style; the defaults draw the font's own outline, unhinted (and bitmaps where alpha ≥ 128).
    public init(embolden: Embolden = .none, oblique: Double = 0, hinting: Hinting = .none,
                alphaThreshold: Double = GlyphStyle.defaultAlphaThreshold, matrix: GlyphMatrix = .identity) {
        self.embolden = embolden; self.oblique = oblique; self.hinting = hinting; self.alphaThreshold = alphaThreshold
        self.matrix = matrix
    }

    /// True for the default style: the font's exact outline, as it is.
    public var isPlain: Bool {
        embolden == .none && oblique == 0 && hinting == .none && alphaThreshold == GlyphStyle.defaultAlphaThreshold
            && matrix.isIdentity
    }

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
        if embolden != .none || hinting != .none {
            guard size >= 1.0 / 64, size <= GlyphStyle.maximumRenderedSize else {
                throw .invalidStyle(reason: "a hinted or emboldened glyph is drawn at 1/64 to "
                                    + "\(DecimalText.short(GlyphStyle.maximumRenderedSize)) px per em (got \(DecimalText.short(size)))")
            }
        }
    }

    /// How the outline of a glyph of this style at `size` px per em is made (oblique aside: it is part of
    /// the placement's transform), with the bitmap threshold (`alphaThresholdByte`). Exact (`isExact`) when
    /// the style neither hints nor emboldens. Call `validate(size:)` first.
    public func rendering(size: Double) -> OutlineRendering {
        guard embolden != .none || hinting != .none else {
            var r = OutlineRendering.exact
            r.alphaThreshold = alphaThresholdByte
            return r
        }
        var r = OutlineRendering(charSize64: Int32((size * 64).rounded()), hinting: hinting)
        r.alphaThreshold = alphaThresholdByte
        r.matrix = matrix.fixed16
        switch embolden {
        case .none: break
        case .freeType: r.emboldenFreeType = true
        case .strength(let x, let y):
            r.emboldenX64 = Int32((x * 64).rounded())
            r.emboldenY64 = Int32((y * 64).rounded())
        }
        return r
    }

    /// How much the style widens an advance of a glyph of `font` at `size` px per em, in layout px: the
    /// embolden strength in x, as `FT_GlyphSlot_Embolden` grows `advance.x` (0 without emboldening; glyphs
    /// with a zero advance, such as marks, keep it).
    public func advanceGrowth(font: Font, size: Double) -> Double {
        switch embolden {
        case .none: return 0
        case .strength(let x, _): return (x * 64).rounded() / 64
        case .freeType: return font.face.freeTypeEmboldenStrength(charSize64: Int32((size * 64).rounded()))
        }
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
    /// The matrix FreeType applies after hinting (`FT_Set_Transform`), 16.16 fixed point: `GlyphStyle.matrix`.
    public var matrix: GlyphMatrix.Fixed = .identity

    /// The default `alphaThreshold`: 128 (`GlyphStyle.defaultAlphaThreshold` 0.5).
    public static let defaultAlphaThreshold: UInt8 = 128

    /// The exact unscaled, unhinted outline in font units.
    public static let exact = OutlineRendering(charSize64: 0, hinting: .none)

    /// True for `exact`.
    public var isExact: Bool { charSize64 == 0 }
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

    /// The matrix as a transform of font units (y-up): `a = xx, b = yx, c = xy, d = yy`.
    public var transform: AffineTransform { AffineTransform(a: xx, b: yx, c: xy, d: yy, tx: 0, ty: 0) }

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
