import InkGeometry
import InkHit
import InkFreeType
import InkText

/// One `ink-hit query` glyph job, parsed and validated (the format is in the README and
/// `ink-hit query --help`).
///
/// All positions are layout px (y-down, glyph origin on the baseline); `transform` maps layout → view;
/// `radius` and `points` are view px.
public struct GlyphJob: Sendable {
    /// A font file and a face in it, the instance of a variable font, and how its glyphs are drawn.
    public struct FontRef: Sendable, Hashable {
        /// Path of the font file.
        public var path: String
        /// Face index within the file (0 for a single-face file).
        public var index: Int
        /// Design coordinates (`"variations": {"wght": 650}`), applied after `instance`; empty for the font's
        /// own.
        public var variations: [FontVariation]
        /// The named instance to start from (`"instance": "Bold"` or an index), nil for the default.
        public var instance: NamedInstanceSelector?
        /// Synthetic bold and oblique, hinting and the bitmap alpha threshold: the job's `"embolden"`,
        /// `"oblique"`, `"hinting"` and `"alphaThreshold"`, each overridden by the font entry's own.
        public var style: GlyphStyle
        /// `"skia"`: an SkFont's settings (`SkiaFont`; its `size` is each glyph's): the style of this font's
        /// glyphs is `GlyphStyle.skia(_:transform:)` at the glyph's size under the job's transform, and `style` is
        /// not used. Glyph jobs only.
        public var skia: SkiaFont?
        /// For glyphs Qt drew (`"qt"`): the raw font's settings, whose rules (`QtRawFont`) place the glyphs
        /// through the job's transform (the painter's); `style` is then unused. Nil for other renderers.
        public var qt: QtRawFont?
        /// A reference to face `index` of the file at `path`.
        public init(path: String, index: Int = 0, variations: [FontVariation] = [], instance: NamedInstanceSelector? = nil,
                    style: GlyphStyle = GlyphStyle(), skia: SkiaFont? = nil, qt: QtRawFont? = nil) {
            self.path = path; self.index = index; self.variations = variations; self.instance = instance; self.style = style
            self.skia = skia; self.qt = qt
        }
    }
    /// One glyph of the job.
    public struct Glyph: Sendable {
        /// Index into the job's `fonts`.
        public var font: Int
        /// The glyph in that font.
        public var id: GlyphID
        /// Origin on the baseline, layout px.
        public var x: Double, y: Double
        /// px per em; the job's `size` unless the glyph overrides it.
        public var size: Double
        /// How the glyph is drawn: its font entry's style, with the glyph's own `"embolden"`, `"oblique"`,
        /// `"hinting"` and `"alphaThreshold"` over it.
        public var style: GlyphStyle
    }
    /// The job's id as JSON text (string or number), echoed in every answer.
    public var idJSON: String
    /// The fonts, referenced by `glyphs[i].font`.
    public var fonts: [FontRef]
    /// The glyphs, bottom first (later glyphs lie on top).
    public var glyphs: [Glyph]
    /// Decoration strokes (underlines, strikethrough, overlines) hit as ink under the glyphs, as
    /// `ink-hit layout` writes them (`"decorations": [{"kind", "rect": [x, y, w, h], "utf16": [a, b]}]`).
    public var decorations: [TextDecoration]
    /// Layout px → view px.
    public var transform: AffineTransform
    /// Touch radius, view px (≥ 0).
    public var radius: Double
    /// Query points, view px.
    public var points: [Point]
}

extension GlyphJob {
    /// Parses and validates a job object. `idJSON` is read first so errors can name the job.
    ///
    /// - Throws: `JobError` naming the first member that is missing, of the wrong type, out of range or over
    ///   a limit.
    public init(_ v: JSONValue, limits: JobLimits = JobLimits()) throws(JobError) {
        guard case .object = v else { throw .notAnObject(got: v.typeName) }
        idJSON = try JobFields.id(of: v, limits: limits)
        fonts = try JobFields.fonts(of: v, limits: limits, allowsQt: true)
        if let i = fonts.firstIndex(where: { $0.qt != nil }), let m = JobMembers.style.first(where: { v[$0] != nil && v[$0] != .null }) {
            throw .invalid(field: "\"\(m)\"", problem: "would not apply to fonts[\(i)], whose \"qt\" settings decide its style: set it on the other fonts")
        }
        var size: Double? = nil
        if let sv = v["size"] { size = try JobFields.positive(sv, "size") }
        guard let gv = v["glyphs"] else { throw .missing(field: "\"glyphs\"") }
        guard case .array(let ga) = gv else { throw .wrongType(field: "\"glyphs\"", expected: "an array", got: gv.typeName) }
        guard ga.count <= limits.maxGlyphs else { throw .tooMany(what: "glyphs", limit: limits.maxGlyphs) }
        transform = try JobFields.transform(of: v)
        glyphs = []
        glyphs.reserveCapacity(ga.count)
        for (i, g) in ga.enumerated() {
            if i & 4095 == 4095 { try JobFields.checkDeadline(0, limits, "reading glyph \(i) of \(ga.count)") }
            guard case .object = g else { throw .wrongType(field: "glyphs[\(i)]", expected: "an object", got: g.typeName) }
            let font = try JobFields.int(g["font"], "glyphs[\(i)].font", default: 0)
            guard font >= 0 && font < fonts.count else {
                throw .invalid(field: "glyphs[\(i)].font", problem: "\(font) out of range (job has \(fonts.count) font(s))")
            }
            guard g["id"] != nil else { throw .missing(field: "glyphs[\(i)].id") }
            let gid = try JobFields.int(g["id"], "glyphs[\(i)].id", default: 0)
            guard gid >= 0 && gid <= Int(UInt32.max) else { throw .invalid(field: "glyphs[\(i)].id", problem: "\(gid) out of range") }
            let x = try JobFields.finite(g["x"], "glyphs[\(i)].x")
            let y = try JobFields.finite(g["y"], "glyphs[\(i)].y")
            // "cluster" (written by `ink-hit layout`) is not used by queries, but it is checked like any member.
            if let c = g["cluster"], c != .null {
                let cluster = try JobFields.int(c, "glyphs[\(i)].cluster", default: 0)
                guard cluster >= 0 else { throw .invalid(field: "glyphs[\(i)].cluster", problem: "must be ≥ 0 (got \(cluster))") }
            }
            var gs = size
            if let s = g["size"] { gs = try JobFields.positive(s, "glyphs[\(i)].size") }
            if let qt = fonts[font].qt {
                // Qt's raw font says the size and the style.
                for m in ["size"] + JobMembers.style where g[m] != nil && g[m] != .null {
                    throw .invalid(field: "glyphs[\(i)].\(m)", problem: "is decided by its font's \"qt\" settings")
                }
                gs = qt.pixelSize
            }
            guard let gsize = gs else { throw .invalid(field: "glyphs[\(i)]", problem: "has no size and the job has no \"size\"") }
            let style: GlyphStyle
            if var skia = fonts[font].skia {
                if let m = JobMembers.style.first(where: { g[$0] != nil }) {
                    throw .invalid(field: "glyphs[\(i)].\(m)", problem: "cannot be set on a glyph of a font with \"skia\" (fonts[\(font)].skia decides its style)")
                }
                skia.size = gsize
                do throws(FontError) { style = try GlyphStyle.skia(skia, transform: transform) } catch {
                    throw .invalid(field: "fonts[\(font)].skia (glyphs[\(i)])", problem: error.description)
                }
            } else {
                style = try JobFields.style(of: g, "glyphs[\(i)].", base: fonts[font].style)
            }
            glyphs.append(Glyph(font: font, id: GlyphID(UInt32(gid)), x: x, y: y, size: gsize, style: style))
        }
        decorations = try Self.decorations(of: v, glyphs: glyphs.count, limit: limits.maxGlyphs)
        (radius, points) = try JobFields.queries(of: v, limits: limits)
    }

    /// The glyph and text jobs' font entry for `ref`: path and index, and the variations, instance and each
    /// style member that is not the default (`styleJSON` over a plain style). The entry reads back as the
    /// same style in a job that sets no style of its own, as the glyph jobs `ink-hit layout` writes do not.
    static func fontJSON(_ ref: FontRef) -> String {
        var s = "{\"path\":" + JSONValue.quoted(ref.path) + ",\"index\":" + String(ref.index)
        if !ref.variations.isEmpty {
            s += ",\"variations\":{" + ref.variations.map { JSONValue.quoted($0.tag) + ":" + "\($0.value)" }.joined(separator: ",") + "}"
        }
        switch ref.instance {
        case .name(let n)?: s += ",\"instance\":" + JSONValue.quoted(n)
        case .index(let i)?: s += ",\"instance\":" + String(i)
        case nil: break
        }
        if let skia = ref.skia { return s + ",\"skia\":" + JobFields.skiaJSON(skia) + "}" }
        guard let q = ref.qt else { return s + styleJSON(ref.style) + "}" }
        s += ",\"qt\":{\"pixelSize\":\(q.pixelSize),\"hinting\":\"\(q.hinting.rawValue)\",\"weight\":\(q.weight),"
            + "\"style\":\"\(q.style)\",\(q.stretch.map { "\"stretch\":\($0)," } ?? "")\"version\":\"\(q.qtVersion >> 16).\((q.qtVersion >> 8) & 255)."
            + "\(q.qtVersion & 255)\",\"verticalSubpixelPositioning\":\(q.verticalSubpixelPositioning)"
        if let p = q.probe {
            s += ",\"probe\":{\"glyph\":\(p.glyph.rawValue),\"bounds\":[\(p.bounds.minX),\(p.bounds.minY),\(p.bounds.maxX),\(p.bounds.maxY)]}"
        }
        return s + "}}"
    }

    /// A style's members that differ from `base`'s (`,"embolden":…`, `,"oblique":…`, `,"hinting":…`,
    /// `,"alphaThreshold":…`, `,"matrix":…`, `,"originRounding":…`, `,"hintingUnderTransform":…`, `,"ppem":…`,
    /// `,"stemDarkening":…`), so an entry whose members go over `base` reads back as exactly `style`: a font
    /// entry's over a plain style, a glyph's over its font entry's. No emboldening is written `"none"`
    /// (`"embolden": 0` would ask FreeType to embolden by 0: its outline at the size, not the exact one);
    /// numbers in Swift's shortest form that reads back as the same `Double`.
    static func styleJSON(_ style: GlyphStyle, over base: GlyphStyle = GlyphStyle()) -> String {
        var s = ""
        if style.embolden != base.embolden {
            switch style.embolden {
            case .none: s += ",\"embolden\":\"none\""
            case .freeType: s += ",\"embolden\":\"freetype\""
            case .strength(let x, let y): s += x == y ? ",\"embolden\":\(x)" : ",\"embolden\":[\(x),\(y)]"
            case .skiaFakeBold: s += ",\"embolden\":\"skia\""
            case .stroke(let w, let join):
                switch join {
                case .miter(let limit): s += ",\"embolden\":{\"stroke\":\(w),\"join\":\"miter\",\"miterLimit\":\(limit)}"
                case .round: s += ",\"embolden\":{\"stroke\":\(w),\"join\":\"round\"}"
                case .bevel: s += ",\"embolden\":{\"stroke\":\(w),\"join\":\"bevel\"}"
                }
            }
        }
        if style.oblique != base.oblique {
            s += style.oblique == GlyphStyle.freeTypeOblique ? ",\"oblique\":\"freetype\"" : ",\"oblique\":\(style.oblique)"
        }
        if style.hinting != base.hinting { s += ",\"hinting\":\"" + style.hinting.rawValue + "\"" }
        if style.alphaThreshold != base.alphaThreshold { s += ",\"alphaThreshold\":\(style.alphaThreshold)" }
        let m = style.matrix
        if m != base.matrix { s += ",\"matrix\":[\(m.xx),\(m.xy),\(m.yx),\(m.yy)]" }
        if style.originRounding != base.originRounding {
            func axis(_ a: OriginRounding.Axis) -> String { "{\"grid\":\(a.grid),\"bias\":\(a.bias)}" }
            s += ",\"originRounding\":{\"x\":" + axis(style.originRounding.x) + ",\"y\":" + axis(style.originRounding.y) + "}"
        }
        if style.hintingUnderTransform != base.hintingUnderTransform { s += ",\"hintingUnderTransform\":\"" + style.hintingUnderTransform.rawValue + "\"" }
        if style.ppem != base.ppem { s += ",\"ppem\":\"" + style.ppem.rawValue + "\"" }
        if style.stemDarkening != base.stemDarkening { s += ",\"stemDarkening\":\(style.stemDarkening)" }
        return s
    }

    /// The placement of glyph `i` with its font loaded, and its font's Qt drawing when Qt drew it
    /// (`qtDrawings`).
    func placement(_ i: Int, font: Font, qt drawing: QtDrawing? = nil) -> GlyphPlacement {
        let g = glyphs[i]
        if let drawing { return drawing.placement(of: g.id, at: Point(g.x, g.y)) }
        return GlyphPlacement(font: font, glyph: g.id, size: g.size, origin: Point(g.x, g.y), transform: transform,
                              style: g.style)
    }

    /// For each font with `"qt"` settings, how Qt draws it through the job's transform (nil for the others).
    ///
    /// - Throws: `.invalid` naming the font entry, as `QtRawFont.drawing(of:deviceTransform:)` fails (the font
    ///   is not the face Qt drew, a transform that is not invertible).
    func qtDrawings(_ loaded: [Font]) throws(JobError) -> [QtDrawing?] {
        var out: [QtDrawing?] = []
        for (i, f) in fonts.enumerated() {
            guard let qt = f.qt else { out.append(nil); continue }
            do throws(FontError) { out.append(try qt.drawing(of: loaded[i], deviceTransform: transform)) } catch {
                throw .invalid(field: "fonts[\(i)].qt", problem: error.description)
            }
        }
        return out
    }
}
