import Testing
import InkGeometry
import InkHit
import InkTestSupport
import InkFreeType

/// Qt's raster-engine rules (QtRawFont) against hand-worked arithmetic from Qt's sources (QFixed's truncation,
/// subPixelPositionFor's +1/64 and quarter floor, qRound, qFloor, QTransform::type, the 64 px cache bound), the
/// fonts' own flags (OS/2 weight, style flags, monospace, CFF), and FreeType's outline boxes for the probe.
/// The pixels Qt draws are the oracle of scripts/c-tests/qt_raster_test.cpp (Debian's Qt) and
/// python/tests/test_qt.py (PySide6).
struct QtRawFontTests {
    let rotation30 = AffineTransform(a: 0.8660254037844387, b: 0.5, c: -0.5, d: 0.8660254037844387, tx: 7, ty: 3)

    // MARK: Origins

    /// x: truncated to 1/64 toward zero, + 1/64, down to the quarter; full hinting: down to the whole px; y rounded.
    @Test func originsAsQtPutsThem() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let h = try #require(font.glyph(for: "H"))
        func origin(_ qt: QtRawFont, _ p: Point, _ t: AffineTransform = .identity) throws -> Point {
            try qt.drawing(of: font, deviceTransform: t).placement(of: h, at: p).viewOrigin
        }
        let light = QtRawFont(pixelSize: 16, hinting: .light)
        // 10.3 → 659/64 = 10.296875; + 1/64 = 10.3125; quarter below: 10.25. y 20.5 → 21.
        #expect(try origin(light, Point(10.3, 20.5)) == Point(10.25, 21))
        // 10.235 → 655/64 = 10.234375; + 1/64 = 10.25 reaches the quarter.
        #expect(try origin(light, Point(10.235, 20.49)) == Point(10.25, 20))
        // Below zero QFixed truncates toward zero: -0.3 → -19/64; + 1/64 = -18/64 = -0.28125; quarter below: -0.5.
        #expect(try origin(light, Point(-0.3, -0.3)) == Point(-0.5, 0))
        let full = QtRawFont(pixelSize: 16, hinting: .full)
        #expect(try origin(full, Point(10.99, 20.5)) == Point(10, 21))
        // VerticalSubpixelPositioning: y as x (not with full hinting).
        var vertical = light
        vertical.verticalSubpixelPositioning = true
        #expect(try origin(vertical, Point(10.3, 20.3)) == Point(10.25, 20.25))
        vertical.hinting = .full
        #expect(try origin(vertical, Point(10.3, 20.3)) == Point(10, 20))
        // Under a 2x painter the device position is rounded: (10.3, 20.3) → (20.6, 40.6) → (20.5, 41).
        #expect(try origin(light, Point(10.3, 20.3), .scale(2, 2)) == Point(20.5, 41))
        // Paths (64 px and more on the device): at the position truncated to 1/64, through the transform.
        let big = try QtRawFont(pixelSize: 40, hinting: .full).drawing(of: font, deviceTransform: .scale(2, 2))
        #expect(!big.isCached)
        let p = big.placement(of: h, at: Point(10.3, 20.3))
        #expect(p.origin == Point(659.0 / 64, 1299.0 / 64) && p.transform == .scale(2, 2) && p.style.originRounding.isNone)
    }

    /// `pixelSize² · |det| ≤ 64²`: cached; above: a path. Shears are cached too (QFontEngineFT caches internally).
    @Test func theGlyphCacheBound() throws {
        let font = try TestFonts.load(TestFonts.sans)
        func cached(_ size: Double, _ t: AffineTransform) throws -> Bool {
            try QtRawFont(pixelSize: size).drawing(of: font, deviceTransform: t).isCached
        }
        #expect(try cached(64, .identity))
        #expect(try !cached(64.5, .identity))
        #expect(try cached(32, .scale(2, 2)))
        #expect(try !cached(33, .scale(2, 2)))
        #expect(try cached(64, rotation30))
        #expect(try cached(30, AffineTransform(a: 1, b: 0, c: 0.3, d: 1, tx: 0, ty: 0)))
        #expect(try cached(100, .scale(0.5, 0.5)))
    }

    // MARK: Hinting

    /// Hinting stays for translations and pure rotations, and goes for any scale or shear
    /// (QFontEngineFT::loadGlyphFor: `t.type() >= TxScale && !is2dRotation(t)`).
    @Test func hintingUnderThePaintersTransform() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let qt = QtRawFont(pixelSize: 16, hinting: .full)
        func hinting(_ t: AffineTransform) throws -> GlyphStyle.Hinting { try qt.drawing(of: font, deviceTransform: t).style.hinting }
        #expect(try hinting(.identity) == .full)
        #expect(try hinting(.translation(3.5, 2)) == .full)
        #expect(try hinting(rotation30) == .full)
        #expect(try hinting(.scale(2, 2)) == GlyphStyle.Hinting.none)
        #expect(try hinting(.scale(1.0000001, 1)) == GlyphStyle.Hinting.none)
        #expect(try hinting(AffineTransform(a: 1, b: 0, c: 0.3, d: 1, tx: 0, ty: 0)) == GlyphStyle.Hinting.none)
        #expect(try hinting(.scale(-1, 1)) == GlyphStyle.Hinting.none)        // a mirror is not a rotation
        // The glyph set's FreeType matrix is the painter's linear part, y-up: [a, -c; -b, d].
        let style = try qt.drawing(of: font, deviceTransform: rotation30).style
        #expect(style.matrix == GlyphMatrix(xx: 0.8660254037844387, xy: 0.5, yx: -0.5, yy: 0.8660254037844387))
    }

    /// Qt's fontconfig database: a preference names a style; the default is fontconfig's, none under high DPI.
    @Test func hintingFromAPreference() {
        #expect(QtRawFont.hinting(preference: 1, fontconfigHintStyle: 3) == GlyphStyle.Hinting.none)
        #expect(QtRawFont.hinting(preference: 2, fontconfigHintStyle: 0) == .light)
        #expect(QtRawFont.hinting(preference: 3, fontconfigHintStyle: 1) == .full)
        #expect(QtRawFont.hinting(preference: 0, fontconfigHintStyle: 1) == .light)
        #expect(QtRawFont.hinting(preference: 0, fontconfigHintStyle: 2) == .full)
        #expect(QtRawFont.hinting(preference: 0, fontconfigHintStyle: nil) == .full)
        #expect(QtRawFont.hinting(preference: 0, fontconfigHintStyle: 1, highDPIScaling: true) == GlyphStyle.Hinting.none)
        #expect(QtRawFont.hinting(preference: 4, fontconfigHintStyle: 1) == nil)
        #expect(QtRawFont.hinting(preference: 0, fontconfigHintStyle: 7) == nil)
    }

    // MARK: Synthesis

    /// Bold for a weight ≥ 700 on a face that is not bold, not monospaced, below 700 in OS/2, under 64 px.
    @Test func syntheticBold() throws {
        let sans = try TestFonts.load(TestFonts.sans), bold = try TestFonts.load(TestFonts.sansBold)
        let mono = try TestFonts.load(TestFonts.mono)
        #expect(QtRawFont(pixelSize: 16, weight: 700).synthesizesBold(sans))
        #expect(!QtRawFont(pixelSize: 16, weight: 600).synthesizesBold(sans))
        #expect(!QtRawFont(pixelSize: 64, weight: 700).synthesizesBold(sans))
        #expect(QtRawFont(pixelSize: 63.9, weight: 700).synthesizesBold(sans))
        #expect(!QtRawFont(pixelSize: 16, weight: 700).synthesizesBold(bold))
        #expect(!QtRawFont(pixelSize: 16, weight: 900).synthesizesBold(mono))
        #expect(try QtRawFont(pixelSize: 16, weight: 700).drawing(of: sans, deviceTransform: .identity).style.embolden == .freeType)
    }

    /// Oblique for an italic request on an upright face: after the transform up to Qt 6.7, before it from 6.8.
    @Test func syntheticObliqueAndItsOrder() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let oblique = try TestFonts.load("/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf")
        #expect(QtRawFont(pixelSize: 16, style: .italic).synthesizesOblique(sans))
        #expect(QtRawFont(pixelSize: 16, style: .oblique).synthesizesOblique(sans))
        #expect(!QtRawFont(pixelSize: 16, style: .italic).synthesizesOblique(oblique))
        #expect(!QtRawFont(pixelSize: 16).synthesizesOblique(sans))
        let k = GlyphStyle.freeTypeOblique
        let old = try QtRawFont(pixelSize: 16, style: .italic, qtVersion: 0x060402).drawing(of: sans, deviceTransform: rotation30).style
        #expect(old.oblique == k && old.matrix == GlyphMatrix(xx: 0.8660254037844387, xy: 0.5, yx: -0.5, yy: 0.8660254037844387))
        let new = try QtRawFont(pixelSize: 16, style: .italic, qtVersion: 0x060C00).drawing(of: sans, deviceTransform: rotation30).style
        // R · [1 k; 0 1] = [c, c·k + s; -s, -s·k + c].
        let c = 0.8660254037844387, s = 0.5
        #expect(new.oblique == 0)
        #expect(isClose(new.matrix.xx, c, within: 1e-15) && isClose(new.matrix.xy, c * k + s, within: 1e-15))
        #expect(isClose(new.matrix.yx, -s, within: 1e-15) && isClose(new.matrix.yy, -s * k + c, within: 1e-15))
        // Without a transform both slant after emboldening (FT_GlyphSlot_Oblique).
        let plain = try QtRawFont(pixelSize: 16, style: .italic).drawing(of: sans, deviceTransform: .translation(2, 3)).style
        #expect(plain.oblique == k && plain.matrix.isIdentity)
    }

    /// CFF fonts are darkened, hinted or not; TrueType fonts are not; paths are exact.
    @Test func stemDarkeningForCFF() throws {
        let cff = try TestFonts.load(TestFonts.cantarell), tt = try TestFonts.load(TestFonts.sans)
        #expect(try QtRawFont(pixelSize: 12).drawing(of: cff, deviceTransform: .identity).style.stemDarkening)
        #expect(try QtRawFont(pixelSize: 12, hinting: .full).drawing(of: cff, deviceTransform: .identity).style.stemDarkening)
        #expect(try !QtRawFont(pixelSize: 12).drawing(of: tt, deviceTransform: .identity).style.stemDarkening)
        #expect(try !QtRawFont(pixelSize: 80).drawing(of: cff, deviceTransform: .identity).style.stemDarkening)
    }

    // MARK: The source

    /// The head table tells the file; the probe's box the coordinates and weight; the stretch is inferred from it.
    @Test func theSourceIsCheckedAndTheStretchInferred() throws {
        let sans = try TestFonts.load(TestFonts.sans), serif = try TestFonts.load(TestFonts.serif)
        let h = try #require(sans.glyph(for: "H"))
        // DejaVu Sans's "H" is straight lines: its exact box is its control box, FreeType's, scaled to 20 px.
        let cbox = try sans.controlBox(glyph: h)
        let k = 20.0 / Double(sans.unitsPerEm)
        let box = Rect(minX: cbox.minX * k, minY: -cbox.maxY * k, maxX: cbox.maxX * k, maxY: -cbox.minY * k)
        var qt = QtRawFont(pixelSize: 20)
        qt.probe = (h, box)
        #expect(try qt.resolved(for: sans).stretch == 100)
        qt.probe = (h, Rect(minX: box.minX * 1.25, minY: box.minY, maxX: box.maxX * 1.25, maxY: box.maxY))
        let stretched = try qt.resolved(for: sans)
        #expect(stretched.stretch == 125)
        let d = try stretched.drawing(of: sans, deviceTransform: .identity)
        #expect(d.style.matrix == GlyphMatrix(xx: 1.25, xy: 0, yx: 0, yy: 1))
        // Another weight's box (the glyph 1 px wider) is refused.
        qt.probe = (h, Rect(minX: box.minX, minY: box.minY, maxX: box.maxX + 1, maxY: box.maxY))
        qt.stretch = 100
        #expect(throws: FontError.self) { try qt.check(source: sans) }
        // Another file: the head tables differ.
        qt.probe = nil
        qt.headTable = Array(repeating: 0, count: 54)
        do {
            try qt.check(source: serif)
            Issue.record("another file's head table passed")
        } catch {
            guard case .notTheDrawnFont(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("head table"))
        }
    }

    /// Qt's `QRawFont(path)` of a variable font is its first named instance (Thin): the defaults are refused,
    /// the instance passes.
    @Test func aVariableFontsInstance() throws {
        let inter = try TestFonts.load(TestFonts.interVariable)
        let thin = try inter.withVariations([], instance: .name("Thin"))
        let h = try #require(inter.glyph(for: "H"))
        let qtBox = try QtRawFont(pixelSize: 30).pathBounds(of: h, font: thin)
        var qt = QtRawFont(pixelSize: 30, stretch: 100)
        qt.probe = (h, qtBox)
        try qt.check(source: thin)
        #expect(throws: FontError.self) { try qt.check(source: inter) }
    }

    /// Settings out of range and transforms that cannot be drawn are typed errors.
    @Test func badSettings() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        for bad in [QtRawFont(pixelSize: 0), QtRawFont(pixelSize: .nan), QtRawFont(pixelSize: 16, weight: 0),
                    QtRawFont(pixelSize: 16, stretch: 0), QtRawFont(pixelSize: 16, qtVersion: 0x050F00)] {
            #expect(throws: FontError.self) { try bad.drawing(of: sans, deviceTransform: .identity) }
        }
        let qt = QtRawFont(pixelSize: 16)
        #expect(throws: FontError.self) { try qt.drawing(of: sans, deviceTransform: .scale(0, 1)) }
        #expect(throws: FontError.self) { try qt.drawing(of: sans, deviceTransform: AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)) }
        // A glyph set whose FreeType matrix would scale beyond 1,024 (0.02 px x 2000 is cached: 40 px on the device).
        #expect(throws: FontError.self) { try QtRawFont(pixelSize: 0.02).drawing(of: sans, deviceTransform: .scale(2000, 2000)) }
        #expect(try !qt.drawing(of: sans, deviceTransform: .scale(2000, 2000)).isCached)     // 32,000 px: a path
        var builder = HitIndex.Builder()
        #expect(throws: FontError.self) { try builder.addQtGlyphRun([GlyphID(3)], positions: [], font: sans, qt: qt) }
        let added = try builder.addQtGlyphRun([GlyphID(3), GlyphID(43)], positions: [Point(0, 10), Point(5, 10)],
                                              origin: Point(0.3, 0.3), layoutDraw: true, font: sans, qt: qt)
        #expect(added == 0..<2 && builder.count == 2)
    }
}
