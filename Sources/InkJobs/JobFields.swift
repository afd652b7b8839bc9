import InkGeometry
import InkHit
import InkFreeType

/// Readers for the members glyph, text and scene jobs share: each checks the JSON type and the value, and
/// throws a `JobError` naming the member.
enum JobFields {
    /// `"id"`: a string or a number, returned as its JSON text (echoed in every answer).
    static func id(of v: JSONValue, limits: JobLimits = JobLimits()) throws(JobError) -> String {
        guard let idv = v["id"] else { throw .missing(field: "\"id\"") }
        switch idv {
        case .string(let s):
            try checkLength(s, "\"id\"", limits: limits)
            return idv.serialized
        case .number(_, let text):
            try checkLength(text, "\"id\"", limits: limits)
            return text
        default: throw .wrongType(field: "\"id\"", expected: "a string or a number", got: idv.typeName)
        }
    }

    /// `"fonts"`: a non-empty array of `{"path", "index", "variations", "instance", "embolden", "oblique",
    /// "hinting", "alphaThreshold"}`; the job's own `"embolden"`, `"oblique"`, `"hinting"` and
    /// `"alphaThreshold"` apply to fonts that do not set them.
    static func fonts(of v: JSONValue, limits: JobLimits, allowsQt: Bool = false) throws(JobError) -> [GlyphJob.FontRef] {
        let jobStyle = try style(of: v, "", base: GlyphStyle())
        guard let fv = v["fonts"] else { throw .missing(field: "\"fonts\"") }
        guard case .array(let fa) = fv else { throw .wrongType(field: "\"fonts\"", expected: "an array", got: fv.typeName) }
        guard !fa.isEmpty else { throw .invalid(field: "\"fonts\"", problem: "is empty") }
        guard fa.count <= limits.maxFonts else { throw .tooMany(what: "fonts", limit: limits.maxFonts) }
        var fonts: [GlyphJob.FontRef] = []
        for (i, f) in fa.enumerated() {
            guard case .object = f else { throw .wrongType(field: "fonts[\(i)]", expected: "an object", got: f.typeName) }
            guard case .string(let path)? = f["path"] else {
                throw .wrongType(field: "fonts[\(i)].path", expected: "a string", got: f["path"]?.typeName ?? "nothing")
            }
            try checkLength(path, "fonts[\(i)].path", limits: limits)
            var skiaFont: SkiaFont? = nil
            if let k = f["skia"], k != .null {
                // Skia's settings decide the whole style: another style member beside them would be dropped.
                if let m = JobMembers.style.first(where: { f[$0] != nil || v[$0] != nil }) {
                    throw .invalid(field: "fonts[\(i)].skia", problem: "decides the glyphs' style: \(f[m] != nil ? "fonts[\(i)]." : "the job's ")"
                                   + "\"\(m)\" cannot be set beside it")
                }
                skiaFont = try skia(k, "fonts[\(i)].skia")
            }
            var ref = GlyphJob.FontRef(path: path, index: try int(f["index"], "fonts[\(i)].index", default: 0),
                                       variations: try variations(f["variations"], "fonts[\(i)].variations", limits: limits),
                                       instance: try instance(f["instance"], "fonts[\(i)].instance", limits: limits),
                                       style: try style(of: f, "fonts[\(i)].", base: jobStyle), skia: skiaFont)
            if let q = f["qt"], q != .null {
                guard allowsQt else {
                    throw .invalid(field: "fonts[\(i)].qt", problem: "is for glyph jobs (glyphs Qt drew); text and scene jobs lay out their own text")
                }
                // One renderer's rules per font: both would decide the same style.
                if skiaFont != nil { throw .invalid(field: "fonts[\(i)].qt", problem: "cannot be set beside \"skia\" (one renderer's rules per font)") }
                ref.qt = try qt(q, "fonts[\(i)].qt", limits: limits)
                for m in JobMembers.style where f[m] != nil && f[m] != .null {
                    throw .invalid(field: "fonts[\(i)].\(m)", problem: "is decided by Qt's rules for a font with \"qt\" (give the raw font's settings there)")
                }
            }
            fonts.append(ref)
        }
        return fonts
    }

    /// `"skia"`: an SkFont's settings, `{"scaleX": 1, "skewX": 0, "embolden": false, "hinting": "normal",
    /// "subpixel": false, "edging": "antiAlias", "baselineSnap": true}` (each optional, SkFont's defaults; hinting
    /// `"none"`, `"slight"`, `"normal"`, `"full"`; edging `"alias"`, `"antiAlias"`, `"subpixelAntiAlias"`). The
    /// size is each glyph's.
    static func skia(_ v: JSONValue, _ name: String) throws(JobError) -> SkiaFont {
        guard case .object(let members) = v else { throw .wrongType(field: name, expected: "an object", got: v.typeName) }
        let known = ["scaleX", "skewX", "embolden", "hinting", "subpixel", "edging", "baselineSnap"]
        for m in members where !known.contains(m.key) {
            throw .invalid(field: name, problem: "has \(JSONValue.quoted(String(m.key.prefix(40)))), not one of "
                           + known.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        func flag(_ key: String, _ def: Bool) throws(JobError) -> Bool {
            guard let b = v[key], b != .null else { return def }
            guard case .bool(let value) = b else { throw .wrongType(field: name + "." + key, expected: "true or false", got: b.typeName) }
            return value
        }
        func choice<T>(_ key: String, _ names: [(String, T)], _ def: T) throws(JobError) -> T {
            guard let c = v[key], c != .null else { return def }
            guard case .string(let s) = c, let hit = names.first(where: { $0.0 == s }) else {
                throw .wrongType(field: name + "." + key, expected: names.map { "\"\($0.0)\"" }.joined(separator: ", "),
                                 got: c.serialized.prefix(40) + "")
            }
            return hit.1
        }
        var f = SkiaFont()
        if let x = v["scaleX"], x != .null { f.scaleX = try finite(x, name + ".scaleX") }
        if let k = v["skewX"], k != .null { f.skewX = try finite(k, name + ".skewX") }
        f.embolden = try flag("embolden", false)
        f.subpixel = try flag("subpixel", false)
        f.baselineSnap = try flag("baselineSnap", true)
        f.hinting = try choice("hinting", SkiaFont.Hinting.allCases.map { ($0.name, $0) }, .normal)
        f.edging = try choice("edging", SkiaFont.Edging.allCases.map { ($0.name, $0) }, .antiAlias)
        return f
    }

    /// Refuses `"skia"` on the fonts of a job kind that shapes or nests its glyphs (`kind`: "text jobs").
    static func refuseSkia(_ fonts: [GlyphJob.FontRef], _ kind: String) throws(JobError) {
        if let i = fonts.firstIndex(where: { $0.skia != nil }) {
            throw .invalid(field: "fonts[\(i)].skia", problem: "is for glyph jobs (Skia's glyphs at their positions), not \(kind)")
        }
    }

    /// `settings` as the `"skia"` member reads them back (every setting, the size left out).
    static func skiaJSON(_ f: SkiaFont) -> String {
        "{\"scaleX\":\(f.scaleX),\"skewX\":\(f.skewX),\"embolden\":\(f.embolden),\"hinting\":\"\(f.hinting.name)\","
            + "\"subpixel\":\(f.subpixel),\"edging\":\"\(f.edging.name)\",\"baselineSnap\":\(f.baselineSnap)}"
    }

    /// A font entry's `"qt"`: the `QRawFont` settings Qt drew its glyphs with (`QtRawFont`), whose rules then
    /// place them: `{"pixelSize": px (required), "hinting": "none" | "light" | "full" (or an alias, as
    /// `"hinting"`), "weight": 1…1000 (400), "style": "normal" | "italic" | "oblique", "stretch": percent (inferred from the
    /// probe, else 100),
    /// "version": "6.4.2" (the newest rules), "verticalSubpixelPositioning": false, "probe": {"glyph": id,
    /// "bounds": [minX, minY, maxX, maxY]} (`QtRawFont.probe`)}`.
    static func qt(_ v: JSONValue, _ name: String, limits: JobLimits) throws(JobError) -> QtRawFont {
        guard case .object(let members) = v else { throw .wrongType(field: name, expected: "an object", got: v.typeName) }
        let known = ["pixelSize", "hinting", "weight", "style", "stretch", "version", "verticalSubpixelPositioning", "probe"]
        for m in members where !known.contains(m.key) {
            throw .invalid(field: name, problem: "has \(JSONValue.quoted(String(m.key.prefix(40)))), not one of "
                           + known.map { JSONValue.quoted($0) }.joined(separator: ", "))
        }
        guard let px = v["pixelSize"], px != .null else { throw .missing(field: name + ".pixelSize") }
        var q = QtRawFont(pixelSize: try positive(px, name + ".pixelSize"))
        if let h = v["hinting"], h != .null {
            guard case .string(let s) = h, let hinting = GlyphStyle.Hinting(name: s) else {
                throw .wrongType(field: name + ".hinting", expected: "\"none\", \"light\" or \"full\" (or \"vertical\", \"slight\", …)",
                                 got: h.serialized.prefix(40) + "")
            }
            q.hinting = hinting
        }
        q.weight = try int(v["weight"], name + ".weight", default: 400)
        switch v["style"] {
        case nil, .null?, .string("normal")?: q.style = .normal
        case .string("italic")?: q.style = .italic
        case .string("oblique")?: q.style = .oblique
        case let s?: throw .wrongType(field: name + ".style", expected: "\"normal\", \"italic\" or \"oblique\"", got: s.serialized.prefix(40) + "")
        }
        if let st = v["stretch"], st != .null { q.stretch = try int(st, name + ".stretch", default: 100) }
        if let version = try string(v["version"], name + ".version") {
            let parts = version.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && (0...255).contains($0!) }) else {
                throw .invalid(field: name + ".version", problem: "must be a Qt version \"6.4.2\" (got \(JSONValue.quoted(String(version.prefix(40)))))")
            }
            q.qtVersion = parts[0]! << 16 | parts[1]! << 8 | (parts.count == 3 ? parts[2]! : 0)
        }
        if let b = v["verticalSubpixelPositioning"], b != .null {
            guard case .bool(let on) = b else { throw .wrongType(field: name + ".verticalSubpixelPositioning", expected: "true or false", got: b.typeName) }
            q.verticalSubpixelPositioning = on
        }
        if let p = v["probe"], p != .null {
            guard case .object(let pm) = p, pm.count == 2, let g = p["glyph"], case .array(let b)? = p["bounds"], b.count == 4 else {
                throw .wrongType(field: name + ".probe", expected: "{\"glyph\": id, \"bounds\": [minX, minY, maxX, maxY]}", got: p.serialized.prefix(60) + "")
            }
            let glyph = try int(g, name + ".probe.glyph", default: 0)
            guard (0...Int(UInt32.max)).contains(glyph) else { throw .invalid(field: name + ".probe.glyph", problem: "\(glyph) out of range") }
            let bounds = try (0..<4).map { (k) throws(JobError) in try finite(b[k], name + ".probe.bounds[\(k)]") }
            q.probe = (GlyphID(UInt32(glyph)), Rect(minX: bounds[0], minY: bounds[1], maxX: bounds[2], maxY: bounds[3]))
        }
        if let problem = q.problem { throw .invalid(field: name, problem: problem) }
        return q
    }

    /// `"variations"`: an object of axis tags and finite numbers (`{"wght": 650, "slnt": -5}`), in the order
    /// written; empty when absent or null. Tags are checked against the font when it is loaded.
    static func variations(_ v: JSONValue?, _ name: String, limits: JobLimits) throws(JobError) -> [FontVariation] {
        guard let v, v != .null else { return [] }
        guard case .object(let members) = v else { throw .wrongType(field: name, expected: "an object of axis tags and numbers", got: v.typeName) }
        guard members.count <= 64 else { throw .tooMany(what: "variation axes in \(name)", limit: 64) }
        var out: [FontVariation] = []
        for m in members {
            let tag = m.key
            try checkLength(tag, name, limits: limits)
            let setting = FontVariation(tag, try finite(m.value, "\(name).\(tag)"))
            guard setting.tagValue != nil else {
                throw .invalid(field: "\(name) tag \(JSONValue.quoted(String(tag.prefix(16))))", problem: "is not 1 to 4 printable ASCII characters")
            }
            out.append(setting)
        }
        return out
    }

    /// `"instance"`: a named instance's name (a string) or its index (an integer ≥ 0); nil when absent or null.
    static func instance(_ v: JSONValue?, _ name: String, limits: JobLimits) throws(JobError) -> NamedInstanceSelector? {
        guard let v, v != .null else { return nil }
        if case .string(let s) = v {
            try checkLength(s, name, limits: limits)
            return .name(s)
        }
        guard case .number = v else { throw .wrongType(field: name, expected: "a string or an integer", got: v.typeName) }
        let i = try int(v, name, default: 0)
        guard i >= 0 else { throw .invalid(field: name, problem: "must be ≥ 0 (got \(i))") }
        return .index(i)
    }

    /// `"embolden"` (px, `[x, y]` px, `"freetype"`, `"skia"`, `{"stroke": px, "join", "miterLimit"}`, or
    /// `"none"`: not emboldened, where a number, even 0, asks FreeType to embolden), `"oblique"` (a shear or
    /// `"freetype"`), `"hinting"` (`"none"`, `"light"`, `"full"` or a renderer's alias:
    /// `GlyphStyle.Hinting.names`), `"alphaThreshold"` (0 < t ≤ 1: the least alpha of a bitmap glyph that is
    /// ink), `"matrix"` (`[xx, xy, yx, yy]`), `"originRounding"`, `"hintingUnderTransform"`, `"ppem"` and
    /// `"stemDarkening"` of an object (the job, or a font entry whose member names start with `prefix`), each
    /// replacing `base`'s when present and not null.
    static func style(of v: JSONValue, _ prefix: String, base: GlyphStyle) throws(JobError) -> GlyphStyle {
        var style = base
        if let e = v["embolden"], e != .null {
            let name = prefix + "embolden"
            switch e {
            case .string("freetype"): style.embolden = .freeType
            case .string("skia"): style.embolden = .skiaFakeBold
            case .string("none"): style.embolden = .none
            case .number: style.embolden = .uniform(try finite(e, name))
            case .array(let xy) where xy.count == 2:
                style.embolden = .strength(x: try finite(xy[0], name + "[0]"), y: try finite(xy[1], name + "[1]"))
            case .object:
                style.embolden = try stroke(e, name)
            default:
                throw .wrongType(field: name, expected: "a number (px), [x, y] (px), \"freetype\", \"skia\", \"none\" or {\"stroke\": px}",
                                 got: e.serialized.prefix(40) + "")
            }
        }
        if let o = v["oblique"], o != .null {
            let name = prefix + "oblique"
            switch o {
            case .string("freetype"): style.oblique = GlyphStyle.freeTypeOblique
            case .number: style.oblique = try finite(o, name)
            default: throw .wrongType(field: name, expected: "a number (a shear) or \"freetype\"", got: o.serialized.prefix(40) + "")
            }
        }
        if let h = v["hinting"], h != .null {
            guard case .string(let s) = h, let hinting = GlyphStyle.Hinting(name: s) else {
                throw .wrongType(field: prefix + "hinting",
                                 expected: "\"none\", \"light\", \"full\" or \"mono\" (or \"slight\", \"vertical\", \"medium\", \"normal\")",
                                 got: h.serialized.prefix(40) + "")
            }
            style.hinting = hinting
        }
        return try rendererMembers(of: v, prefix, style)
    }

    /// `style`'s `"matrix"`, `"originRounding"`, `"hintingUnderTransform"`, `"ppem"`, `"stemDarkening"` and
    /// `"alphaThreshold"` from `v` (see `style(of:_:base:)`).
    static func rendererMembers(of v: JSONValue, _ prefix: String, _ base: GlyphStyle) throws(JobError) -> GlyphStyle {
        var style = base
        if let m = v["matrix"], m != .null {
            let name = prefix + "matrix"
            guard case .array(let a) = m, a.count == 4 else {
                throw .wrongType(field: name, expected: "[xx, xy, yx, yy]", got: m.serialized.prefix(40) + "")
            }
            style.matrix = GlyphMatrix(xx: try finite(a[0], name + "[0]"), xy: try finite(a[1], name + "[1]"),
                                       yx: try finite(a[2], name + "[2]"), yy: try finite(a[3], name + "[3]"))
        }
        if let o = v["originRounding"], o != .null { style.originRounding = try originRounding(o, prefix + "originRounding") }
        if let h = v["hintingUnderTransform"], h != .null {
            guard case .string(let s) = h, let rule = GlyphStyle.HintingUnderTransform(rawValue: s) else {
                throw .wrongType(field: prefix + "hintingUnderTransform",
                                 expected: "\"keep\", \"offWhenNotAxisAligned\" or \"offWhenScaledOrRotated\"", got: h.serialized.prefix(40) + "")
            }
            style.hintingUnderTransform = rule
        }
        if let p = v["ppem"], p != .null {
            guard case .string(let s) = p, let ppem = GlyphStyle.PixelsPerEm(rawValue: s) else {
                throw .wrongType(field: prefix + "ppem", expected: "\"uniform\", \"perAxis\" or \"view\"", got: p.serialized.prefix(40) + "")
            }
            style.ppem = ppem
        }
        if let d = v["stemDarkening"], d != .null {
            guard case .bool(let b) = d else { throw .wrongType(field: prefix + "stemDarkening", expected: "true or false", got: d.typeName) }
            style.stemDarkening = b
        }
        if let t = v["alphaThreshold"], t != .null {
            let name = prefix + "alphaThreshold"
            let value = try finite(t, name)
            guard value > 0, value <= 1 else { throw .invalid(field: name, problem: "must be > 0 and ≤ 1 (got \(DecimalText.short(value)))") }
            style.alphaThreshold = value
        }
        return style
    }

    /// An `"embolden"` object: `{"stroke": px (≥ 0), "join": "miter" | "round" | "bevel" (default "miter"),
    /// "miterLimit": number (default 4)}`.
    static func stroke(_ e: JSONValue, _ name: String) throws(JobError) -> GlyphStyle.Embolden {
        guard case .object(let members) = e else { throw .wrongType(field: name, expected: "an object", got: e.typeName) }
        for m in members where !["stroke", "join", "miterLimit"].contains(m.key) {
            throw .invalid(field: name, problem: "has \(JSONValue.quoted(String(m.key.prefix(40)))), not one of \"stroke\", \"join\", \"miterLimit\"")
        }
        guard let w = e["stroke"], w != .null else { throw .missing(field: name + ".stroke") }
        let width = try finite(w, name + ".stroke")
        let limit = try e["miterLimit"].map { (l) throws(JobError) in try finite(l, name + ".miterLimit") } ?? 4
        let join: StrokeJoin
        switch e["join"] {
        case nil, .null?, .string("miter")?: join = .miter(limit: limit)
        case .string("round")?: join = .round
        case .string("bevel")?: join = .bevel
        case let j?: throw .wrongType(field: name + ".join", expected: "\"miter\", \"round\" or \"bevel\"", got: j.serialized.prefix(40) + "")
        }
        return .stroke(width: width, join: join)
    }

    /// `"originRounding"`: `"none"`, `"wholePixels"`, `"quarterPixelX"`, or `{"x": axis, "y": axis}` where an axis
    /// is `"exact"`, `"wholePixel"`, `"quarterPixel"` or `{"grid": px, "bias": px}` (a missing axis is exact).
    static func originRounding(_ v: JSONValue, _ name: String) throws(JobError) -> OriginRounding {
        func axis(_ a: JSONValue?, _ name: String) throws(JobError) -> OriginRounding.Axis {
            switch a {
            case nil, .null?, .string("exact")?: return .exact
            case .string("wholePixel")?: return .wholePixel
            case .string("quarterPixel")?: return .quarterPixel
            case .object(let members)?:
                for m in members where m.key != "grid" && m.key != "bias" {
                    throw .invalid(field: name, problem: "has \(JSONValue.quoted(String(m.key.prefix(40)))), not \"grid\" or \"bias\"")
                }
                return OriginRounding.Axis(grid: try finite(a?["grid"], name + ".grid"), bias: try finite(a?["bias"] ?? .number(0, "0"), name + ".bias"))
            case let a?:
                throw .wrongType(field: name, expected: "\"exact\", \"wholePixel\", \"quarterPixel\" or {\"grid\": px, \"bias\": px}",
                                 got: a.serialized.prefix(40) + "")
            }
        }
        let rule: OriginRounding
        switch v {
        case .string("none"): rule = .none
        case .string("wholePixels"): rule = .wholePixels
        case .string("quarterPixelX"): rule = .quarterPixelX
        case .object(let members):
            for m in members where m.key != "x" && m.key != "y" {
                throw .invalid(field: name, problem: "has \(JSONValue.quoted(String(m.key.prefix(40)))), not \"x\" or \"y\"")
            }
            rule = OriginRounding(x: try axis(v["x"], name + ".x"), y: try axis(v["y"], name + ".y"))
        default:
            throw .wrongType(field: name, expected: "\"none\", \"wholePixels\", \"quarterPixelX\" or {\"x\": …, \"y\": …}",
                             got: v.serialized.prefix(40) + "")
        }
        if let problem = rule.problem { throw .invalid(field: name, problem: problem) }
        return rule
    }

    /// `"transform"`: optional, 6 finite numbers, invertible (identity when absent or null).
    static func transform(of v: JSONValue) throws(JobError) -> AffineTransform {
        guard let tv = v["transform"], tv != .null else { return .identity }
        guard case .array(let ta) = tv, ta.count == 6 else {
            throw .wrongType(field: "\"transform\"", expected: "an array of 6 numbers", got: tv.typeName)
        }
        var m: [Double] = []
        for (i, e) in ta.enumerated() { m.append(try finite(e, "transform[\(i)]")) }
        let t = AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
        let sv = t.singularValues
        let text = "[" + m.map(DecimalText.short).joined(separator: ", ") + "]"
        guard sv.max.isFinite, sv.isMaxWithinScaleRange, sv.isMinWithinScaleRange || !sv.isPlaceable,
              ViewSpace.contains(t.tx), ViewSpace.contains(t.ty) else {
            throw .invalid(field: "\"transform\" \(text)",
                           problem: "is out of range (scales must lie within 1e-30 … 1e30 and translations within \(ViewSpace.limitText))")
        }
        guard t.inverted(singularValues: sv) != nil else {
            throw .invalid(field: "\"transform\" \(text)", problem: "is singular: it collapses the text to a line or point")
        }
        return t
    }

    /// The queries every job kind ends with: `"radius"` then `"points"` (see `radius(of:)`, `points(of:limits:)`),
    /// read in that order by the glyph, text and scene parsers alike.
    static func queries(of v: JSONValue, limits: JobLimits) throws(JobError) -> (radius: Double, points: [Point]) {
        let radius = try radius(of: v)
        return (radius, try points(of: v, limits: limits))
    }

    /// `"radius"`: optional, finite and ≥ 0 (0 when absent or null).
    static func radius(of v: JSONValue) throws(JobError) -> Double {
        guard let rv = v["radius"], rv != .null else { return 0 }
        let r = try finite(rv, "radius")
        guard r >= 0 else { throw .invalid(field: "radius", problem: "must be ≥ 0 (got \(DecimalText.short(r)))") }
        return r
    }

    /// `"points"`: `[x, y]` pairs of numbers. JSON numbers beyond Double's range parse as ±∞: such a point
    /// is a miss.
    static func points(of v: JSONValue, limits: JobLimits) throws(JobError) -> [Point] {
        guard let pv = v["points"] else { throw .missing(field: "\"points\"") }
        guard case .array(let pa) = pv else { throw .wrongType(field: "\"points\"", expected: "an array", got: pv.typeName) }
        guard pa.count <= limits.maxPoints else { throw .tooMany(what: "points", limit: limits.maxPoints) }
        var points: [Point] = []
        points.reserveCapacity(pa.count)
        for (i, p) in pa.enumerated() {
            if i & 0xFFFF == 0xFFFF { try checkDeadline(0, limits, "reading point \(i) of \(pa.count)") }
            guard case .array(let xy) = p, xy.count == 2,
                  case .number(let x, _) = xy[0], case .number(let y, _) = xy[1] else {
                throw .wrongType(field: "points[\(i)]", expected: "[x, y] with two numbers", got: p.serialized.prefix(40) + "")
            }
            points.append(Point(x, y))
        }
        return points
    }

    /// A finite number.
    static func finite(_ v: JSONValue?, _ name: String) throws(JobError) -> Double {
        guard let v else { throw .missing(field: name) }
        guard case .number(let d, let text) = v else { throw .wrongType(field: name, expected: "a number", got: v.typeName) }
        guard d.isFinite else { throw .invalid(field: name, problem: "\(short(text)) is out of range") }
        return d
    }

    /// A finite number > 0.
    static func positive(_ v: JSONValue, _ name: String) throws(JobError) -> Double {
        let d = try finite(v, name)
        guard d > 0 else { throw .invalid(field: name, problem: "must be > 0 (got \(DecimalText.short(d)))") }
        return d
    }

    /// An integer (a JSON number with no fraction, below 9e15 in magnitude); `def` when absent or null.
    static func int(_ v: JSONValue?, _ name: String, default def: Int) throws(JobError) -> Int {
        guard let v, v != .null else { return def }
        guard case .number(let d, let text) = v else { throw .wrongType(field: name, expected: "an integer", got: v.typeName) }
        guard d == d.rounded() else { throw .invalid(field: name, problem: "must be an integer (got \(short(text)))") }
        guard abs(d) < 9e15 else { throw .invalid(field: name, problem: "\(short(text)) is out of range") }
        return Int(d)
    }

    /// Throws `.timeLimit` when the job's build deadline (`BuildDeadline`, set by the job loop) has passed,
    /// asking the clock when `k` is a multiple of 64: for loops over a job's parts while it is read.
    static func checkDeadline(_ k: Int, _ limits: JobLimits, _ during: @autoclosure () -> String) throws(JobError) {
        if k & 63 == 0 && BuildDeadline.hasPassed { throw .timeLimit(seconds: limits.maxSecondsPerJob, during: during()) }
    }

    /// Standard base64 (RFC 4648, `=` padding optional, no line breaks) decoded; nil when a character is not
    /// of the alphabet or the length cannot be a whole number of bytes. The job's deadline is checked every
    /// 64 KiB of text.
    static func base64(_ s: String, limits: JobLimits = JobLimits()) throws(JobError) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count * 3 / 4)
        var acc: UInt32 = 0, bits = 0, count = 0, padding = 0
        for c in s.utf8 {
            if count & 0xFFFF == 0xFFFF {
                try checkDeadline(0, limits, "decoding base64 (\(count) characters read)")
            }
            let v: UInt32
            switch c {
            case 0x41...0x5A: v = UInt32(c - 0x41)
            case 0x61...0x7A: v = UInt32(c - 0x61 + 26)
            case 0x30...0x39: v = UInt32(c - 0x30 + 52)
            case 0x2B: v = 62
            case 0x2F: v = 63
            case 0x3D: padding += 1; continue
            default: return nil
            }
            guard padding == 0 else { return nil }            // data after padding
            acc = (acc << 6) | v
            bits += 6
            count += 1
            if bits >= 8 { bits -= 8; out.append(UInt8((acc >> UInt32(bits)) & 0xFF)) }
        }
        guard count % 4 != 1, padding <= 2 else { return nil }
        return out
    }

    /// A number's source text for a message: as written when short, else its first digits and its length.
    static func short(_ text: String) -> String {
        text.utf8.count <= 24 ? text : String(text.prefix(12)) + "… (\(text.utf8.count) characters)"
    }

    /// Throws `.stringTooLong` when `s` has more than `limits.maxStringBytes` bytes of UTF-8.
    static func checkLength(_ s: String, _ name: String, limits: JobLimits) throws(JobError) {
        let n = s.utf8.count
        guard n <= limits.maxStringBytes else { throw .stringTooLong(field: name, bytes: n, limit: limits.maxStringBytes) }
    }

    /// A string, or nil when absent or null.
    static func string(_ v: JSONValue?, _ name: String) throws(JobError) -> String? {
        guard let v, v != .null else { return nil }
        guard case .string(let s) = v else { throw .wrongType(field: name, expected: "a string", got: v.typeName) }
        return s
    }
}
