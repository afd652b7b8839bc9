import InkGeometry

/// What an `SkFont` says about how Skia draws its glyphs: the settings `GlyphStyle.skia(_:transform:)` turns
/// into the glyph style Skia's FreeType port and its CPU rasteriser draw with.
///
/// Each member is the `SkFont` getter of the same name (`getSize`, `getScaleX`, `getSkewX`, `isEmbolden`,
/// `getHinting`, `isSubpixel`, `getEdging`, `isBaselineSnap`); the defaults are `SkFont`'s. What it does not
/// hold does not change a glyph's ink: `isLinearMetrics` changes advances only (positions are given),
/// `isForceAutoHinting` is refused by `GlyphStyle.skia(_:transform:)` (not modelled), and embedded bitmaps
/// (`isEmbeddedBitmaps`, off by default) are not drawn from outlines. The typeface (its file, face and variation
/// position) is the glyphs' `Font`.
///
/// ```swift
/// var settings = SkiaFont(size: 17)          // SkFont(typeface, 17): normal hinting, antialiased
/// settings.subpixel = true
/// settings.embolden = true
/// let canvas = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)   // the canvas's total matrix
/// let style = try GlyphStyle.skia(settings, transform: canvas)
/// print(style.hinting, style.ppem, style.originRounding)   // full view x: grid 0.25 bias 0.125, y: grid 1 bias 0.5
/// ```
public struct SkiaFont: Sendable, Hashable {
    /// `SkFontHinting`, with its raw values.
    public enum Hinting: Int, Sendable, Hashable, CaseIterable {
        /// `kNone`: unhinted (`FT_LOAD_NO_HINTING`).
        case none = 0
        /// `kSlight`: `FT_LOAD_TARGET_LIGHT`.
        case slight = 1
        /// `kNormal` (`SkFont`'s default): `FT_LOAD_TARGET_NORMAL`.
        case normal = 2
        /// `kFull`: as `kNormal` unless Skia draws LCD (subpixel) masks, which InkHit does not model.
        case full = 3

        /// The name in the job format and Python: `none`, `slight`, `normal`, `full`.
        public var name: String {
            switch self { case .none: return "none"; case .slight: return "slight"; case .normal: return "normal"; case .full: return "full" }
        }
    }

    /// `SkFont::Edging`, with its raw values.
    public enum Edging: Int, Sendable, Hashable, CaseIterable {
        /// `kAlias`: 1-bit masks; Skia hints them with `FT_LOAD_TARGET_MONO` (unless hinting is `none`).
        case alias = 0
        /// `kAntiAlias` (the default): 8-bit coverage.
        case antiAlias = 1
        /// `kSubpixelAntiAlias`: LCD coverage where the surface has a pixel geometry that allows it; on other
        /// surfaces (A8, or no geometry) drawn as `antiAlias`, which is what InkHit models.
        case subpixelAntiAlias = 2

        /// The name in the job format and Python: `alias`, `antiAlias`, `subpixelAntiAlias`.
        public var name: String {
            switch self { case .alias: return "alias"; case .antiAlias: return "antiAlias"; case .subpixelAntiAlias: return "subpixelAntiAlias" }
        }
    }

    /// The text size, px per em in the canvas's local (user) space (`getSize`; finite, > 0). Default 12.
    public var size: Double
    /// Horizontal scale of the glyphs (`getScaleX`; finite, not 0). Default 1.
    public var scaleX: Double
    /// Horizontal skew, x += skewX × y in Skia's y-down space (`getSkewX`; finite, negative leans right).
    /// Default 0.
    public var skewX: Double
    /// Fake bold (`isEmbolden`): Skia strokes the outline `size × 1/24 … 1/32` wide. Default false.
    public var embolden: Bool
    /// Hinting (`getHinting`). Default `normal`.
    public var hinting: Hinting
    /// Subpixel positioning (`isSubpixel`): origins on a ¼-px grid instead of whole pixels. Default false.
    public var subpixel: Bool
    /// Edging (`getEdging`). Default `antiAlias`.
    public var edging: Edging
    /// Baseline snapping (`isBaselineSnap`): with subpixel positioning, the origin's y (x for text turned a
    /// quarter) is rounded to whole pixels while the canvas keeps text axis-aligned. Default true.
    public var baselineSnap: Bool
    /// `isForceAutoHinting`: not modelled (`GlyphStyle.skia(_:transform:)` refuses it). Default false.
    public var forceAutoHinting: Bool

    /// Settings with `SkFont`'s defaults and this size.
    public init(size: Double = 12, scaleX: Double = 1, skewX: Double = 0, embolden: Bool = false, hinting: Hinting = .normal,
                subpixel: Bool = false, edging: Edging = .antiAlias, baselineSnap: Bool = true, forceAutoHinting: Bool = false) {
        self.size = size; self.scaleX = scaleX; self.skewX = skewX; self.embolden = embolden; self.hinting = hinting
        self.subpixel = subpixel; self.edging = edging; self.baselineSnap = baselineSnap; self.forceAutoHinting = forceAutoHinting
    }

    /// Skia's largest glyph drawn from a mask: a glyph whose em is more than 256 device px along either text
    /// axis is drawn as a path (`SkStrikeSpec::ShouldDrawAsPath`).
    public static let maximumMaskSize = 256.0

    /// Skia's size of the paths it draws large glyphs from (`kCanonicalTextSizeForPaths`): fake bold is
    /// stroked there, `64 × 1/32` wide, then scaled.
    public static let canonicalPathSize = 64.0

    /// Why the settings cannot be used with the canvas matrix `transform` (a sentence), or nil.
    public func problem(transform: AffineTransform) -> String? {
        guard size.isFinite, size > 0, size <= GlyphStyle.maximumRenderedSize else {
            return "size must be finite, > 0 and at most \(DecimalText.short(GlyphStyle.maximumRenderedSize)) (got \(DecimalText.short(size)))"
        }
        guard scaleX.isFinite, scaleX != 0, abs(scaleX) <= GlyphStyle.maximumMatrixEntry else {
            return "scaleX must be finite, not 0 and at most \(DecimalText.short(GlyphStyle.maximumMatrixEntry)) in magnitude "
                + "(got \(DecimalText.short(scaleX)))"
        }
        guard skewX.isFinite, abs(skewX) <= GlyphStyle.maximumMatrixEntry else {
            return "skewX must be finite and at most \(DecimalText.short(GlyphStyle.maximumMatrixEntry)) in magnitude "
                + "(got \(DecimalText.short(skewX)))"
        }
        if forceAutoHinting { return "forceAutoHinting (FT_LOAD_FORCE_AUTOHINT) is not modelled" }
        let t = transform
        guard t.a.isFinite, t.b.isFinite, t.c.isFinite, t.d.isFinite, t.tx.isFinite, t.ty.isFinite,
              t.a * t.d - t.b * t.c != 0 else {
            return "the canvas matrix must be finite and invertible"
        }
        return nil
    }

    /// Skia's text matrix composed with the canvas's linear part: font em (Skia's y-down units) → device px,
    /// `[size·scaleX, size·skewX; 0, size]` then `transform`'s 2×2.
    func deviceMatrix(_ transform: AffineTransform) -> AffineTransform {
        AffineTransform(a: size * scaleX, b: 0, c: size * skewX, d: size, tx: 0, ty: 0).concatenating(transform.linearPart)
    }

    /// True when Skia draws these glyphs under `transform` as paths (`SkStrikeSpec::ShouldDrawAsPath`): either
    /// text axis longer than `maximumMaskSize` device px per em.
    public func drawsAsPaths(transform: AffineTransform) -> Bool {
        let m = deviceMatrix(transform)
        let limit = SkiaFont.maximumMaskSize * SkiaFont.maximumMaskSize
        return m.a * m.a + m.b * m.b > limit || m.c * m.c + m.d * m.d > limit
    }
}

extension GlyphStyle {
    /// The glyph style Skia draws glyphs of `font` with on a canvas whose total matrix is `transform` (the
    /// canvas's local space → device px; give the same transform to the placements): a run's `size` is
    /// `font.size`, its positions are the canvas-local ones given to `SkTextBlobBuilder::allocRunPos`, and
    /// its transform is `transform`. Skia's rules, from its source (`SkScalerContext`, `SkStrikeSpec`,
    /// `SkTypeface_FreeType::onFilterRec`, `SkScalerContext_FreeType`, `SkGlyphPositionRoundingSpec`) and
    /// measured against its pixels:
    ///
    /// - `matrix` `[scaleX, −skewX; 0, 1]` (y-up) and `ppem` `view`: FreeType sizes are the device sizes of the
    ///   text axes (x ppem = scaleX × size × the canvas's x scale), truncated to 1/64 px.
    /// - Hinting: `none` unless the text stays axis-aligned (skewX 0 and a canvas without rotation other than
    ///   quarter turns and flips); `kSlight` → `light`, `kNormal` and `kFull` → `full`; with `alias` edging every
    ///   hinting but `kNone` → `mono`. `hintingUnderTransform` is `offWhenNotAxisAligned`.
    /// - Fake bold: a stroke `size × skiaFakeBoldRatio(size)` wide (user px), miter join, limit 4, in the canvas's
    ///   local space.
    /// - Origins (device px): whole pixels, ties up; with subpixel positioning ¼ px (`OriginRounding.quarterPixel`)
    ///   along x while the text's x axis stays horizontal on the device, along y while it is vertical (a quarter
    ///   turn), and on both axes otherwise or without baseline snapping; the other axis whole pixels.
    /// - Glyphs larger than `SkiaFont.maximumMaskSize` device px per em are drawn as paths: unhinted, at exact
    ///   origins, fake bold `size / 32` wide, `ppem` `perAxis`.
    ///
    /// - Throws: `FontError.invalidStyle` naming the setting (`SkiaFont.problem(transform:)`).
    public static func skia(_ font: SkiaFont, transform: AffineTransform) throws(FontError) -> GlyphStyle {
        if let problem = font.problem(transform: transform) { throw .invalidStyle(reason: "skia: " + problem) }
        var style = GlyphStyle()
        style.matrix = GlyphMatrix(xx: font.scaleX, xy: -font.skewX, yx: 0, yy: 1)
        style.hintingUnderTransform = .offWhenNotAxisAligned
        let miter = StrokeJoin.miter(limit: 4)
        if font.drawsAsPaths(transform: transform) {
            // SkStrikeSpec::MakePath: the canonical size, no hinting, no rounding; the stroke scales with the size.
            style.ppem = .perAxis
            if font.embolden {
                let ratio = GlyphStyle.skiaFakeBoldRatio(textSize: SkiaFont.canonicalPathSize)
                style.embolden = .stroke(width: font.size * ratio, join: miter)
            }
            return style
        }
        let t = transform
        let m = font.deviceMatrix(t)
        let x = (m.a * m.a + m.b * m.b).squareRoot()
        guard abs(m.a * m.d - m.b * m.c) / x >= 1.0 / 64, x >= 1.0 / 64 else {
            // Below 1/64 device px per em FreeType draws nothing Skia could show; InkHit keeps the user-space
            // outline (unhinted) rather than refuse the run.
            style.ppem = .perAxis
            if font.embolden {
                style.embolden = .stroke(width: font.size * GlyphStyle.skiaFakeBoldRatio(textSize: font.size), join: miter)
            }
            return style
        }
        style.ppem = .view
        // SkTypeface_FreeType::onFilterRec: hint only text that is axis-aligned on the device.
        let axisAligned = font.skewX == 0 && ((t.b == 0 && t.c == 0) || (t.a == 0 && t.d == 0))
        if axisAligned {
            switch (font.hinting, font.edging) {
            case (.none, _): style.hinting = .none
            case (_, .alias): style.hinting = .mono
            case (.slight, _): style.hinting = .light
            case (.normal, _), (.full, _): style.hinting = .full
            }
        }
        if font.embolden {
            style.embolden = .stroke(width: font.size * GlyphStyle.skiaFakeBoldRatio(textSize: font.size), join: miter)
        }
        style.originRounding = skiaOriginRounding(font, transform: transform)
        return style
    }

    /// Skia's origin rounding for glyphs of `font` under `transform` (device px; see `skia(_:transform:)`).
    static func skiaOriginRounding(_ font: SkiaFont, transform t: AffineTransform) -> OriginRounding {
        guard font.subpixel else { return .wholePixels }
        // SkScalerContextRec::computeAxisAlignmentForHText: where the text's x axis lands on the device.
        guard font.baselineSnap else { return OriginRounding(x: .quarterPixel, y: .quarterPixel) }
        if t.b == 0 { return OriginRounding(x: .quarterPixel, y: .wholePixel) }
        if t.a == 0 { return OriginRounding(x: .wholePixel, y: .quarterPixel) }
        return OriginRounding(x: .quarterPixel, y: .quarterPixel)
    }
}
