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
///   painter's transform, `QT_MAX_CACHED_GLYPH_SIZE`) is drawn from the font engine's glyph cache, whatever
///   the (affine) transform — rotated and sheared too: FreeType renders it with the transform's linear part
///   (`FT_Set_Transform`, 16.16), and the mask is put at the device origin rounded. Larger glyphs are filled
///   as exact paths (unhinted, unscaled outlines) at their exact positions.
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
///   that is not bold (`FT_STYLE_FLAG_BOLD`), not monospaced, whose `OS/2` weight class is below 700, at pixel
///   sizes below 64 (a variable font's Bold instance is emboldened again: its `OS/2` says 400).
/// - **Synthetic oblique** (`FT_GlyphSlot_Oblique`'s shear, 0.2126) for an italic or oblique request of a face
///   that is not italic: after the transform and emboldening up to Qt 6.7 (6.4.2 read and measured); from 6.8
///   (6.8.2 and 6.11.2 read, 6.12.0 measured) before the transform whenever the glyph set transforms, after it
///   otherwise.
/// - From Qt 6.8, a face with color glyphs is not synthesized.
/// - **Stretch** (`QFont::setStretch`, when no face of that width matched): FreeType's x size is `stretch`% of
///   the y size; in a path, the x scale after emboldening and slanting.
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
    /// The stretch Qt synthesizes, percent of the normal width (1…4000; 100: none). A `QRawFont` does not say
    /// it (a `QFont`'s stretch is synthesized only when no face of that width matched): nil infers it from the
    /// probe (`probe`: Qt's outline box is that much wider than the source's), 100 without one.
    public var stretch: Int?
    /// The Qt version whose rules apply, as `QT_VERSION` writes it (`0x060402` for 6.4.2).
    public var qtVersion: Int
    /// True when the painter has `QPainter::VerticalSubpixelPositioning` set.
    public var verticalSubpixelPositioning: Bool
    /// A glyph of the run and the exact box of its outline as Qt makes it (`QRawFont::pathForGlyph(glyph)
    /// .boundingRect()`: px at `pixelSize`, y-down, origin at (0, 0), synthetic bold, oblique and stretch
    /// applied), checked against the source font's (`check(source:)`); nil: not checked. What Qt draws is
    /// what this box is measured from, so it catches a source at other design coordinates, another weight or
    /// file, and a synthesis the rules did not expect.
    public var probe: (glyph: GlyphID, bounds: Rect)? {
        get { probeGlyph.map { ($0, probeBounds) } }
        set { probeGlyph = newValue?.glyph; probeBounds = newValue?.bounds ?? .empty }
    }
    var probeGlyph: GlyphID?
    var probeBounds = Rect.empty
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
                stretch: Int? = nil, qtVersion: Int = QtRawFont.newestKnownVersion,
                verticalSubpixelPositioning: Bool = false, probe: (glyph: GlyphID, bounds: Rect)? = nil, headTable: [UInt8]? = nil) {
        self.pixelSize = pixelSize; self.hinting = hinting; self.weight = weight; self.style = style
        self.stretch = stretch; self.qtVersion = qtVersion; self.verticalSubpixelPositioning = verticalSubpixelPositioning
        self.probe = probe; self.headTable = headTable
    }

    /// Equal settings (the probe compared by glyph and box).
    public static func == (a: QtRawFont, b: QtRawFont) -> Bool {
        a.pixelSize == b.pixelSize && a.hinting == b.hinting && a.weight == b.weight && a.style == b.style && a.stretch == b.stretch
            && a.qtVersion == b.qtVersion && a.verticalSubpixelPositioning == b.verticalSubpixelPositioning
            && a.probeGlyph == b.probeGlyph && (a.probeGlyph == nil || a.probeBounds == b.probeBounds) && a.headTable == b.headTable
    }

    /// Hashes the settings.
    public func hash(into h: inout Hasher) {
        h.combine(pixelSize); h.combine(hinting); h.combine(weight); h.combine(style); h.combine(stretch); h.combine(qtVersion)
        h.combine(verticalSubpixelPositioning); h.combine(probeGlyph); h.combine(headTable)
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
        if let stretch, !(1...4000).contains(stretch) { return "stretch must be 1 … 4000 percent (got \(stretch))" }
        guard (0x06_00_00...0x0F_FF_FF).contains(qtVersion) else {
            return "qtVersion must be a Qt 6 version as QT_VERSION writes it (0x060402 for 6.4.2; got 0x\(String(qtVersion, radix: 16)))"
        }
        return nil
    }
}

// MARK: The source font

extension QtRawFont {
    /// How far Qt's outline box of the probe glyph may be from InkHit's, px: 1/32 px plus 0.2 % of the pixel
    /// size (FreeType's 26.6 rounding at two sizes; a weight or instance apart moves an edge by several %).
    func probeTolerance() -> Double { 1.0 / 32 + 0.002 * pixelSize }

    /// The exact bounds of `glyph`'s outline as Qt makes a path of it (`QFontEngineFT::addGlyphsToPath`, which
    /// `QRawFont::pathForGlyph` and large glyphs use; Qt's `QPainterPath::boundingRect()`): px at `pixelSize`,
    /// y-down, the origin at (0, 0); empty for a glyph without points.
    ///
    /// - Throws: as `GlyphPlacement.outline(into:viewTolerance:)`.
    public func pathBounds(of glyph: GlyphID, font: Font) throws(FontError) -> Rect {
        var style = GlyphStyle()
        if synthesizesBold(font) { style.embolden = .freeType }
        if synthesizesOblique(font) { style.oblique = GlyphStyle.freeTypeOblique }
        let t = AffineTransform(a: Double(stretch ?? 100) / 100, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        var sink = CurveBoundsSink()
        try GlyphPlacement(font: font, glyph: glyph, size: pixelSize, transform: t, style: style).outline(into: &sink)
        return sink.bounds
    }

    /// Checks that `font` is the face Qt drew from, as far as the settings say: the same `head` table (the same
    /// file), and the probe glyph's outline box within `probeTolerance()` of the one these rules make from
    /// `font` (the same design coordinates and weight, and the same synthesis: Qt names a variable font's
    /// instances from fontconfig, and may draw an instance it calls "Italic" at the default coordinates with a
    /// synthetic slant; `QRawFont(path)` opens a variable font's first named instance).
    ///
    /// - Throws: `FontError.notTheDrawnFont`, saying what differs.
    public func check(source font: Font) throws(FontError) { _ = try resolved(for: font) }

    /// These settings for `font`, checked (`check(source:)`), with the stretch inferred when it is nil: the
    /// probe's width over the width of the source's box unstretched, in whole percent (100 without a probe).
    ///
    /// - Throws: as `check(source:)`.
    public func resolved(for font: Font) throws(FontError) -> QtRawFont {
        var q = self
        let name = [font.familyName, font.styleName].compactMap { $0 }.joined(separator: " ")
        if let head = headTable, let own = font.face.sfntTable(0x6865_6164), head != own {
            throw .notTheDrawnFont(reason: "Qt's font has another head table than \(name) (another file: give the file Qt loaded)")
        }
        guard let glyph = probeGlyph else {
            q.stretch = stretch ?? 100
            return q
        }
        guard Int(glyph.rawValue) < font.glyphCount else {
            throw .notTheDrawnFont(reason: "Qt's font has glyph \(glyph), \(name) has \(font.glyphCount) glyphs (another font)")
        }
        // Qt's box of an empty path is (0, 0, 0, 0).
        let qt = probeBounds.width == 0 && probeBounds.height == 0 ? Rect.empty : probeBounds
        if q.stretch == nil {
            q.stretch = 100
            let plain = try q.pathBounds(of: glyph, font: font)
            if !qt.isEmpty, plain.width > 1e-9 {
                q.stretch = max(1, min(4000, Int((100 * qt.width / plain.width).rounded())))
            }
        }
        try q.compareProbe(glyph, qt, font: font, name: name)
        return q
    }

    /// Throws when the probe's box `qt` is not the one `font` makes.
    private func compareProbe(_ glyph: GlyphID, _ qt: Rect, font: Font, name: String) throws(FontError) {
        let own = try pathBounds(of: glyph, font: font)
        if own.isEmpty && qt.isEmpty { return }
        let tolerance = probeTolerance()
        let apart = own.isEmpty || qt.isEmpty ? Double.infinity
            : max(abs(own.minX - qt.minX), abs(own.minY - qt.minY), abs(own.maxX - qt.maxX), abs(own.maxY - qt.maxY))
        guard apart > tolerance else { return }
        func box(_ r: Rect) -> String {
            r.isEmpty ? "empty" : "(\(DecimalText.short(r.minX)), \(DecimalText.short(r.minY))) … (\(DecimalText.short(r.maxX)), \(DecimalText.short(r.maxY)))"
        }
        let coordinates = font.variationCoordinates.isEmpty ? ""
            : " at " + font.variationCoordinates.map(\.description).joined(separator: " ")
        throw .notTheDrawnFont(reason: "Qt's outline of glyph \(glyph) spans \(box(qt)) px and \(name)\(coordinates)'s, with Qt's "
                               + "synthesis (bold \(synthesizesBold(font)), oblique \(synthesizesOblique(font)), stretch \(stretch ?? 100) %), "
                               + "spans \(box(own)): Qt drew another file, instance or weight")
    }

    /// The face's own weight as Qt reads it: its `OS/2` weight class (700 without an `OS/2` table). Qt 6.8 and
    /// later read a named instance's `wght` instead when FreeType reports the face as a named instance; with
    /// FreeType 2.12 (Debian 12) PySide6 6.12.0 emboldens Inter's Bold instance (`OS/2` 400), so InkHit
    /// follows what was measured (the probe check sees it when a build differs).
    func actualWeight(of font: Font) -> Double { Double(font.face.weightClass ?? 700) }

    /// True when Qt emboldens `font` (synthetic bold).
    public func synthesizesBold(_ font: Font) -> Bool {
        weight >= 700 && !font.face.isBoldFace && !font.face.isFixedPitch && !colorBlocksSynthesis(font)
            && actualWeight(of: font) < 700 && pixelSize < QtRawFont.maximumCachedGlyphSize
    }

    /// True when Qt slants `font` (synthetic oblique): an italic or oblique request of a face FreeType does not
    /// call italic (as for the weight, Qt 6.8's reading of a named instance's `ital` is not what was measured).
    public func synthesizesOblique(_ font: Font) -> Bool {
        style != .normal && !colorBlocksSynthesis(font) && !font.face.isItalicFace
    }

    /// From Qt 6.8 a face with color glyphs gets no synthetic style.
    private func colorBlocksSynthesis(_ font: Font) -> Bool {
        qtVersion >= QtRawFont.slantBeforeTransformVersion && font.face.hasColorGlyphs
    }
}

/// The exact bounds of the curves handed over (their extrema, not their control points).
struct CurveBoundsSink: OutlineSink {
    var bounds = Rect.empty
    var current = Point.zero
    mutating func move(to p: Point) { bounds.expand(toInclude: p); current = p }
    mutating func addLine(to p: Point) { bounds.expand(toInclude: p); current = p }
    mutating func addQuadCurve(to p: Point, control c: Point) {
        let p0 = current
        for (a, b, e) in [(p0.x, c.x, p.x), (p0.y, c.y, p.y)] {
            // B'(t) = 0 at t = (a - b) / (a - 2b + e).
            let d = a - 2 * b + e
            guard d != 0 else { continue }
            let t = (a - b) / d
            guard t > 0, t < 1 else { continue }
            let u = 1 - t
            bounds.expand(toInclude: Point(u * u * p0.x + 2 * u * t * c.x + t * t * p.x, u * u * p0.y + 2 * u * t * c.y + t * t * p.y))
        }
        addLine(to: p)
    }
    mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        let p0 = current
        func at(_ t: Double) -> Point {
            let u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return Point(a * p0.x + b * c1.x + c * c2.x + d * p.x, a * p0.y + b * c1.y + c * c2.y + d * p.y)
        }
        for (v0, v1, v2, v3) in [(p0.x, c1.x, c2.x, p.x), (p0.y, c1.y, c2.y, p.y)] {
            // B'(t)/3 = a t² + b t + c.
            let a = -v0 + 3 * v1 - 3 * v2 + v3, b = 2 * (v0 - 2 * v1 + v2), c = v1 - v0
            var roots: [Double] = []
            if abs(a) < 1e-12 * (abs(b) + abs(c) + 1) {
                if b != 0 { roots.append(-c / b) }
            } else {
                let disc = b * b - 4 * a * c
                if disc >= 0 {
                    let r = disc.squareRoot()
                    roots += [(-b + r) / (2 * a), (-b - r) / (2 * a)]
                }
            }
            for t in roots where t > 0 && t < 1 { bounds.expand(toInclude: at(t)) }
        }
        addLine(to: p)
    }
    mutating func closeSubpath() {}
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
    /// True when the glyphs come from Qt's glyph cache (device size ≤ 64 px): placed at rounded
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
        if let stretch = qt.stretch, stretch != 100 {
            let s = Double(stretch) / 100
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
        return try resolved(for: font).resolvedDrawing(of: font, deviceTransform: t)
    }

    /// `drawing(of:deviceTransform:)` with the settings checked and the stretch known.
    private func resolvedDrawing(of font: Font, deviceTransform t: AffineTransform) throws(FontError) -> QtDrawing {
        let stretchPercent = stretch ?? 100
        let kind = QtRawFont.kind(t)
        // QRasterPaintEngine::shouldDrawCachedGlyphs: QFontEngineFT caches internally, so a sheared painter's glyphs
        // are cached too (only a projective transform, which an AffineTransform cannot be, is filled as paths).
        let cached = pixelSize * pixelSize * abs(QtRawFont.determinant(t))
            <= QtRawFont.maximumCachedGlyphSize * QtRawFont.maximumCachedGlyphSize
        var style = GlyphStyle()
        if synthesizesBold(font) { style.embolden = .freeType }
        let slant = synthesizesOblique(font)
        let stretch = GlyphMatrix(xx: Double(stretchPercent) / 100, xy: 0, yx: 0, yy: 1)
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
        if stretchPercent != 100 && style.hinting != .none { style.ppem = .perAxis }
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
    package static func fixed(_ p: Point) -> Point {
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
    /// `glyphs[i]` at `positions[i]` (user space) plus `origin` (the point given to `drawGlyphRun`; with
    /// `layoutDraw`, the point given to `QTextLayout::draw`, which Qt truncates to 1/64 px toward zero first),
    /// of `font` as `qt` says, through the painter's `deviceTransform`. Returns the placements' indexes.
    ///
    /// - Throws: as `QtRawFont.drawing(of:deviceTransform:)` and `add(_:cache:)`; `.invalidPlacement` when the
    ///   counts differ. Placements added before a failure stay.
    @discardableResult
    public mutating func addQtGlyphRun(_ glyphs: [GlyphID], positions: [Point], origin: Point = .zero, layoutDraw: Bool = false,
                                       font: Font, qt: QtRawFont, deviceTransform: AffineTransform = .identity,
                                       cache: FontShapeCache = .shared) throws(FontError) -> Range<Int> {
        guard glyphs.count == positions.count else {
            throw .invalidPlacement(reason: "\(glyphs.count) glyphs and \(positions.count) positions")
        }
        guard origin.isFinite else { throw .invalidPlacement(reason: "the origin must be finite") }
        let origin = layoutDraw ? QtRawFont.fixed(origin) : origin
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
