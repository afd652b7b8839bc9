import InkGeometry
import InkHit

/// What Qt's FreeType font engine knows about a font it draws glyphs with — the settings a `QRawFont` (a
/// `QGlyphRun`'s font) carries — and Qt's rules for where and how `QPainter`'s raster engine (a `QImage`,
/// a widget's backing store) draws a glyph run of it, so hits follow the pixels Qt drew.
///
/// An adapter reads these fields from Qt and asks for the placements; the rules live here, for every
/// binding (C: `inkhit_qt_raw_font`, `inkhit_builder_add_qt_glyph_run`; C++: `inkhit_qt.hpp`; Python:
/// `inkhit.qt`).
///
/// ```swift
/// let sans = try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
/// let qt = QtRawFont(pixelSize: 16, hinting: .light)                  // QFont::PreferVerticalHinting
/// let painter = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)  // QPainter::scale(2, 2)
/// let drawing = try qt.drawing(of: sans, deviceTransform: painter)
/// var builder = HitIndex.Builder()
/// try builder.add(drawing.placement(of: sans.glyph(for: "H")!, at: Point(10.3, 20)), cache: .shared)
/// ```
///
/// Qt's rules (read from Qt 6.4.2, 6.8.2 and 6.11.2's `QFontEngineFT`, `QRasterPaintEngine` and
/// `QPaintEngineEx`; measured against Qt 6.4.2 and PySide6 6.12.0's pixels):
///
/// - **Cached or path.** A glyph whose device size is at most 64 px (`pixelSize² · |det| ≤ 64²` of the
///   painter's transform, `QT_MAX_CACHED_GLYPH_SIZE`) is drawn from Qt's glyph cache, unless the transform
///   shears (or projects): FreeType renders it with the transform's linear part (`FT_Set_Transform`, 16.16),
///   and the mask is put at the device origin rounded. Larger glyphs, and sheared ones, are filled as exact
///   paths (unhinted, unscaled outlines) at their exact positions.
/// - **Origins** (cached glyphs): the device position is truncated to 1/64 px (`QFixed::fromReal`), then
///   x goes to a ¼ px grid after adding 1/64 (`QFontEngine::subPixelPositionFor`) for a font hinted `none` or
///   `light`, or to the whole pixel below it (`qFloor`) for `full`; y is rounded to the nearest whole pixel
///   (`qRound`), or, with `QPainter::VerticalSubpixelPositioning`, treated as x. Glyph origins only.
/// - **Hinting**: the engine's hint style (`hinting`; see its documentation for where it comes from), off in a
///   glyph set whose transform scales or shears (`QTransform::type() ≥ TxScale` and not a pure 2D rotation):
///   a rotated painter keeps hinting. FreeType itself does not autohint a rotated glyph (a font FreeType
///   would autohint is then drawn as its driver loads it): InkHit hands FreeType the same transform, so the
///   same happens.
/// - **Synthetic bold** (`FT_GlyphSlot_Embolden`, after the transform) for a requested weight ≥ 700 of a face
///   that is not bold (`FT_STYLE_FLAG_BOLD`), not monospaced, whose own weight is below 700 (its `OS/2`
///   weight class; from Qt 6.8 the `wght` of the named instance it was opened at), at pixel sizes below 64.
/// - **Synthetic oblique** (`FT_GlyphSlot_Oblique`'s shear, 0.2126) for an italic or oblique request of a face
///   that is not italic (from Qt 6.8: an `ital` instance coordinate of 1 counts as italic): after the
///   transform and emboldening up to Qt 6.7 (6.4.2 read and measured); from 6.8 (6.8.2 and 6.11.2 read, 6.12.0
///   measured) before the transform whenever the glyph set transforms, after it otherwise.
/// - **Stretch** (`QFont::setStretch`): FreeType's x size is `stretch`% of the y size.
/// - **CFF stem darkening**: Qt turns FreeType's `cff` driver darkening on (`no-stem-darkening` off) for every
///   OpenType CFF/CFF2 font, hinted or not; Type 1 fonts are not darkened.
public struct QtRawFont: Sendable, Hashable {
    /// `QFont::Style`.
    public enum Style: Int, Sendable, Hashable, CaseIterable {
        /// `QFont::StyleNormal`.
        case normal = 0
        /// `QFont::StyleItalic`.
        case italic = 1
        /// `QFont::StyleOblique`.
        case oblique = 2
    }

    /// The font engine's pixel size, px per em in the painter's user space (`QRawFont::pixelSize()`;
    /// finite, > 0).
    public var pixelSize: Double
    /// The font engine's hint style (`QFontEngine::HintStyle`): `none` for `HintNone`, `light` for
    /// `HintLight`, `full` for `HintMedium` and `HintFull` (both load `FT_LOAD_TARGET_NORMAL`). Not always
    /// `QRawFont::hintingPreference()`: the raw fonts of a `QTextLayout`'s glyph runs say
    /// `PreferDefaultHinting` whatever their `QFont` asked. A preference maps as `hinting(preference:…)` says.
    public var hinting: GlyphStyle.Hinting
    /// The requested weight (`QRawFont::weight()`, `QFont::Weight` 1…1000): ≥ 700 on a lighter face is
    /// synthetic bold.
    public var weight: Int
    /// The requested style (`QRawFont::style()`): italic or oblique on an upright face is synthetic oblique.
    public var style: Style
    /// The stretch, percent of the normal width (`QFont::stretch()`, 1…4000; 100: none).
    public var stretch: Int
    /// The Qt version whose rules apply, as `QT_VERSION` writes it (`0x060402` for 6.4.2).
    public var qtVersion: Int
    /// True when the painter has `QPainter::VerticalSubpixelPositioning` set.
    public var verticalSubpixelPositioning: Bool
    /// The face's style name as Qt read it (`QRawFont::styleName()`: FreeType's, the named instance's for a
    /// variable font), checked against the source font (`check(source:)`); nil: not checked.
    public var styleName: String?
    /// The font's `head` table as Qt reads it (`QRawFont::fontTable("head")`), checked against the source
    /// font's (`check(source:)`): equal tables (checksum and dates) mean the same file; nil: not checked.
    public var headTable: [UInt8]?

    /// The newest Qt version whose rules InkHit has read: `0x060B02` (6.11.2). Later versions get its rules.
    public static let newestKnownVersion = 0x060B02

    /// The first Qt version that slants a transformed glyph before the transform (6.8.0; 6.4.2 does not, 6.8.2
    /// does; the versions between were not read).
    public static let slantBeforeTransformVersion = 0x060800

    /// The largest device size Qt draws from its glyph cache, px per em (`QT_MAX_CACHED_GLYPH_SIZE`).
    public static let maximumCachedGlyphSize = 64.0

    /// Settings; the defaults are a plain upright font, unhinted, with the newest rules.
    public init(pixelSize: Double, hinting: GlyphStyle.Hinting = .none, weight: Int = 400, style: Style = .normal,
                stretch: Int = 100, qtVersion: Int = QtRawFont.newestKnownVersion,
                verticalSubpixelPositioning: Bool = false, styleName: String? = nil, headTable: [UInt8]? = nil) {
        self.pixelSize = pixelSize; self.hinting = hinting; self.weight = weight; self.style = style
        self.stretch = stretch; self.qtVersion = qtVersion; self.verticalSubpixelPositioning = verticalSubpixelPositioning
        self.styleName = styleName; self.headTable = headTable
    }

    /// The hint style Qt's fontconfig database gives a font (`defaultHintStyleFromMatch`): the preference
    /// when it names one (`PreferNoHinting` 1 → `none`, `PreferVerticalHinting` 2 → `light`,
    /// `PreferFullHinting` 3 → `full`); for `PreferDefaultHinting` (0), `none` under high-DPI scaling, else
    /// fontconfig's `hintstyle` for the font (`FC_HINT_NONE` 0 → `none`, `SLIGHT` 1 → `light`, `MEDIUM` 2 and
    /// `FULL` 3 → `full`), and `full` when fontconfig has none (`fontconfigHintStyle` nil). Nil for a value
    /// that is not one of these.
    public static func hinting(preference: Int, fontconfigHintStyle: Int?, highDPIScaling: Bool = false) -> GlyphStyle.Hinting? {
        switch preference {
        case 1: return GlyphStyle.Hinting.none
        case 2: return .light
        case 3: return .full
        case 0:
            if highDPIScaling { return GlyphStyle.Hinting.none }
            switch fontconfigHintStyle {
            case nil: return .full
            case 0: return GlyphStyle.Hinting.none
            case 1: return .light
            case 2, 3: return .full
            default: return nil
            }
        default: return nil
        }
    }

    /// Why the settings cannot be used (a sentence), or nil.
    public var problem: String? {
        guard pixelSize.isFinite, pixelSize > 0, pixelSize <= GlyphStyle.maximumRenderedSize else {
            return "pixelSize must be finite, > 0 and at most \(DecimalText.short(GlyphStyle.maximumRenderedSize)) "
                + "(got \(DecimalText.short(pixelSize)))"
        }
        guard (1...1000).contains(weight) else { return "weight must be 1 … 1000 (QFont::Weight; got \(weight))" }
        guard (1...4000).contains(stretch) else { return "stretch must be 1 … 4000 percent (got \(stretch))" }
        guard (0x06_00_00...0x0F_FF_FF).contains(qtVersion) else {
            return "qtVersion must be a Qt 6 version as QT_VERSION writes it (0x060402 for 6.4.2; got 0x\(String(qtVersion, radix: 16)))"
        }
        return nil
    }
}

// MARK: The source font

extension QtRawFont {
    /// The style name Qt gives `font`'s face: its named instance's (a variable font opened at one), else
    /// FreeType's style name.
    static func qtStyleName(of font: Font) -> String? {
        if let i = font.namedInstanceIndex, i < font.namedInstances.count, let name = font.namedInstances[i].name { return name }
        return font.styleName
    }

    /// Checks that `source` is the face Qt drew from, as far as the settings say: the same `head` table
    /// (the same file), and the same style name (for a variable font, the named instance: Qt opens a
    /// variable font's instances as their own faces, and `QRawFont(path)` opens the first instance, not the
    /// defaults). A variable `source` at the coordinates of the instance Qt names passes.
    ///
    /// - Throws: `FontError.notTheDrawnFont`, saying what differs and what would match.
    public func check(source font: Font) throws(FontError) {
        if let head = headTable, let own = font.face.sfntTable(0x6865_6164), head != own {
            throw .notTheDrawnFont(reason: "Qt's font has another head table than \(font.familyName ?? "the source") "
                                   + "\(Self.qtStyleName(of: font) ?? "") (another file: give the file Qt loaded)")
        }
        guard let qtName = styleName, let ownName = Self.qtStyleName(of: font), qtName != ownName else { return }
        if let instance = font.namedInstances.firstIndex(where: { $0.name == qtName }) {
            if font.namedInstances[instance].coordinates == font.variationCoordinates.map(\.value) { return }
            let axes = zip(font.variationAxes, font.namedInstances[instance].coordinates)
                .map { "\($0.tag)=\(DecimalText.short($1))" }.joined(separator: " ")
            throw .notTheDrawnFont(reason: "Qt drew the named instance \"\(qtName)\" (\(axes)) and the source is at "
                                   + font.variationCoordinates.map(\.description).joined(separator: " ")
                                   + ": open the source at that instance")
        }
        throw .notTheDrawnFont(reason: "Qt drew the face \"\(qtName)\" and the source is \"\(ownName)\" "
                               + "(\(font.familyName ?? "unnamed family")): give the file and face Qt loaded")
    }

    /// The face's own weight as Qt reads it: the `wght` of the named instance it was opened at (from 6.8),
    /// else its `OS/2` weight class (700 without an `OS/2` table).
    func actualWeight(of font: Font) -> Double {
        if qtVersion >= QtRawFont.slantBeforeTransformVersion, let i = font.namedInstanceIndex, i < font.namedInstances.count,
           let axis = font.variationAxes.firstIndex(where: { $0.tag == "wght" }) {
            return font.namedInstances[i].coordinates[axis].rounded(.towardZero)
        }
        return Double(font.face.weightClass ?? 700)
    }

    /// True when Qt emboldens `font` (synthetic bold).
    public func synthesizesBold(_ font: Font) -> Bool {
        weight >= 700 && !font.face.isBoldFace && !font.face.isFixedPitch && !colorBlocksSynthesis(font)
            && actualWeight(of: font) < 700 && pixelSize < QtRawFont.maximumCachedGlyphSize
    }

    /// True when Qt slants `font` (synthetic oblique).
    public func synthesizesOblique(_ font: Font) -> Bool {
        guard style != .normal, !colorBlocksSynthesis(font) else { return false }
        if qtVersion >= QtRawFont.slantBeforeTransformVersion, let i = font.namedInstanceIndex, i < font.namedInstances.count,
           let axis = font.variationAxes.firstIndex(where: { $0.tag == "ital" }) {
            return font.namedInstances[i].coordinates[axis].rounded(.towardZero) != 1
        }
        return !font.face.isItalicFace
    }

    /// From Qt 6.8 a face with color glyphs gets no synthetic style.
    private func colorBlocksSynthesis(_ font: Font) -> Bool {
        qtVersion >= QtRawFont.slantBeforeTransformVersion && font.face.hasColorGlyphs
    }
}

// MARK: Drawing

/// How Qt draws glyphs of one font through one painter transform: the glyph style and whether they come
/// from the glyph cache or are filled as paths (`QtRawFont.drawing(of:deviceTransform:)`).
public struct QtDrawing: Sendable, Hashable {
    /// The font the glyphs come from.
    public let font: Font
    /// The settings.
    public let qt: QtRawFont
    /// The painter's transform, user space → device px.
    public let deviceTransform: AffineTransform
    /// True when the glyphs come from Qt's glyph cache (device size ≤ 64 px, no shear): placed at rounded
    /// device origins with `style`, which carries the transform's linear part in its `matrix`. False: filled
    /// as exact paths, placed through `deviceTransform`.
    public let isCached: Bool
    /// The style of each placement.
    public let style: GlyphStyle

    /// The placement of `glyph` that Qt draws at `position` (the painter's user space: a `QGlyphRun`'s
    /// position plus the point given to `drawGlyphRun`). Cached glyphs: at the device origin truncated to
    /// 1/64 px, rounded by `style.originRounding`, with an identity transform (layout px are device px).
    /// Paths: at the position truncated to 1/64 px, through `deviceTransform` (with the stretch about the
    /// origin).
    public func placement(of glyph: GlyphID, at position: Point) -> GlyphPlacement {
        if isCached {
            let d = QtRawFont.map(position, deviceTransform)
            return GlyphPlacement(font: font, glyph: glyph, size: qt.pixelSize, origin: QtRawFont.fixed(d), style: style)
        }
        let o = QtRawFont.fixed(position)
        var t = deviceTransform
        if qt.stretch != 100 {
            let s = Double(qt.stretch) / 100
            t = AffineTransform(a: s, b: 0, c: 0, d: 1, tx: o.x - s * o.x, ty: 0).concatenating(deviceTransform)
        }
        return GlyphPlacement(font: font, glyph: glyph, size: qt.pixelSize, origin: o, transform: t, style: style)
    }
}

extension QtRawFont {
    /// How Qt draws glyphs of `font` (the face it drew from: see `check(source:)`) through a painter whose
    /// transform is `deviceTransform` (user space → device px; `QPainter::transform()` or
    /// `combinedTransform()`).
    ///
    /// - Throws: `.invalidPlacement` for settings out of range (`problem`) or a transform that is not finite
    ///   or not invertible; `.invalidStyle` for a painter that scales beyond `GlyphStyle.maximumMatrixEntry`;
    ///   `.notTheDrawnFont` from `check(source:)`.
    public func drawing(of font: Font, deviceTransform t: AffineTransform) throws(FontError) -> QtDrawing {
        if let problem { throw .invalidPlacement(reason: "QtRawFont: " + problem) }
        guard t.isFinite, t.singularValues.isPlaceable else {
            throw .invalidPlacement(reason: "the painter's transform \(t) must be finite and invertible")
        }
        try check(source: font)
        let kind = QtRawFont.kind(t)
        let cached = kind != .shear && pixelSize * pixelSize * abs(QtRawFont.determinant(t))
            <= QtRawFont.maximumCachedGlyphSize * QtRawFont.maximumCachedGlyphSize
        var style = GlyphStyle()
        if synthesizesBold(font) { style.embolden = .freeType }
        let slant = synthesizesOblique(font)
        let stretch = GlyphMatrix(xx: Double(self.stretch) / 100, xy: 0, yx: 0, yy: 1)
        guard cached else {
            // QPaintEngineEx fills the outline of QFontEngineFT::addGlyphsToPath: unscaled (exact), emboldened,
            // slanted, then scaled by the (stretched) size and the painter's transform.
            if slant { style.oblique = GlyphStyle.freeTypeOblique }
            return QtDrawing(font: font, qt: self, deviceTransform: t, isCached: false, style: style)
        }
        // The glyph set's FreeType matrix (QTransformToFTMatrix: y-up, entries truncated to 16.16).
        let linear = GlyphMatrix(xx: t.a, xy: -t.c, yx: -t.b, yy: t.d)
        guard linear.maxMagnitude <= GlyphStyle.maximumMatrixEntry else {
            throw .invalidStyle(reason: "the painter's transform \(t) scales beyond \(DecimalText.short(GlyphStyle.maximumMatrixEntry))")
        }
        let transforms = !linear.fixed16.isIdentity
        var matrix = linear
        if slant {
            if transforms && qtVersion >= QtRawFont.slantBeforeTransformVersion {
                matrix = linear.times(GlyphMatrix(xx: 1, xy: GlyphStyle.freeTypeOblique, yx: 0, yy: 1))
            } else {
                style.oblique = GlyphStyle.freeTypeOblique
            }
        }
        matrix = matrix.times(stretch)
        // QFontEngineFT::loadGlyphFor: no hinting in a glyph set that scales or shears.
        let keepsHinting = kind == .none || kind == .translate || QtRawFont.isRotation(t)
        style.hinting = keepsHinting ? hinting : .none
        style.matrix = matrix.isIdentity ? .identity : matrix
        // FreeType's x size is stretched; the rest of the matrix (a rotation) after hinting.
        if self.stretch != 100 && style.hinting != .none { style.ppem = .perAxis }
        style.stemDarkening = font.face.format == "CFF"
        let subpixel = hinting != .full
        let quarter = OriginRounding.Axis(grid: 0.25, bias: 1.0 / 64)
        style.originRounding = OriginRounding(x: subpixel ? quarter : OriginRounding.Axis(grid: 1, bias: 0),
                                              y: subpixel && verticalSubpixelPositioning ? quarter : .wholePixel)
        return QtDrawing(font: font, qt: self, deviceTransform: t, isCached: true, style: style)
    }

    // MARK: Qt's arithmetic

    /// `QTransform::type()` for an affine transform.
    enum Kind: Int, Comparable {
        case none = 0, translate, scale, rotate, shear
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// `qFuzzyIsNull` for doubles.
    static func fuzzyIsNull(_ v: Double) -> Bool { abs(v) <= 0.000000000001 }

    /// `qFuzzyCompare` for doubles.
    static func fuzzyCompare(_ p: Double, _ q: Double) -> Bool { abs(p - q) * 1000000000000 <= min(abs(p), abs(q)) }

    /// `QTransform::type()` (m11 = a, m12 = b, m21 = c, m22 = d).
    static func kind(_ t: AffineTransform) -> Kind {
        if !fuzzyIsNull(t.b) || !fuzzyIsNull(t.c) {
            return fuzzyIsNull(t.a * t.c + t.b * t.d) ? .rotate : .shear
        }
        if !fuzzyIsNull(t.a - 1) || !fuzzyIsNull(t.d - 1) { return .scale }
        if !fuzzyIsNull(t.tx) || !fuzzyIsNull(t.ty) { return .translate }
        return .none
    }

    /// `is2dRotation` of qfontengine_ft.cpp: a rotation without scale or mirror (a translation too).
    static func isRotation(_ t: AffineTransform) -> Bool {
        fuzzyCompare(t.a, t.d) && fuzzyCompare(t.b, -t.c) && fuzzyCompare(t.a * t.d - t.b * t.c, 1)
    }

    /// `QTransform::determinant()` for an affine transform.
    static func determinant(_ t: AffineTransform) -> Double { t.a * t.d - t.b * t.c }

    /// `QTransform::map(QPointF)`, with Qt's arithmetic for each kind of transform.
    static func map(_ p: Point, _ t: AffineTransform) -> Point {
        switch kind(t) {
        case .none: return p
        case .translate: return Point(p.x + t.tx, p.y + t.ty)
        case .scale: return Point(t.a * p.x + t.tx, t.d * p.y + t.ty)
        case .rotate, .shear: return Point(t.a * p.x + t.c * p.y + t.tx, t.b * p.x + t.d * p.y + t.ty)
        }
    }

    /// `QFixedPoint::fromPointF`: each coordinate truncated toward zero to 1/64 px.
    static func fixed(_ p: Point) -> Point {
        Point((p.x * 64).rounded(.towardZero) / 64, (p.y * 64).rounded(.towardZero) / 64)
    }
}

extension GlyphMatrix {
    /// `self · other`: `other` first, then `self` (as `FT_Matrix_Multiply(other, self)` leaves it in `self`).
    func times(_ o: GlyphMatrix) -> GlyphMatrix {
        GlyphMatrix(xx: xx * o.xx + xy * o.yx, xy: xx * o.xy + xy * o.yy, yx: yx * o.xx + yy * o.yx, yy: yx * o.xy + yy * o.yy)
    }
}

extension HitIndex.Builder {
    /// Adds a glyph run as Qt's raster engine draws it (`QPainter::drawGlyphRun`, `QTextLayout::draw`): glyph
    /// `glyphs[i]` at `positions[i]` (user space) plus `origin` (the point given to `drawGlyphRun`), of
    /// `font` as `qt` says, through the painter's `deviceTransform`. Returns the placements' indexes.
    ///
    /// - Throws: as `QtRawFont.drawing(of:deviceTransform:)` and `add(_:cache:)`; `.invalidPlacement` when the
    ///   counts differ. Placements added before a failure stay.
    @discardableResult
    public mutating func addQtGlyphRun(_ glyphs: [GlyphID], positions: [Point], origin: Point = .zero, font: Font,
                                       qt: QtRawFont, deviceTransform: AffineTransform = .identity,
                                       cache: FontShapeCache = .shared) throws(FontError) -> Range<Int> {
        guard glyphs.count == positions.count else {
            throw .invalidPlacement(reason: "\(glyphs.count) glyphs and \(positions.count) positions")
        }
        let drawing = try qt.drawing(of: font, deviceTransform: deviceTransform)
        var first: Int?, last = 0
        for (g, p) in zip(glyphs, positions) {
            let at = Point(origin.x + p.x, origin.y + p.y)
            guard at.isFinite else { throw .invalidPlacement(reason: "a glyph position is not finite") }
            last = try add(drawing.placement(of: g, at: at), cache: cache)
            if first == nil { first = last }
        }
        return first.map { $0..<(last + 1) } ?? count..<count
    }
}
