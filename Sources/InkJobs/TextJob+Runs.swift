import InkGeometry
import InkFreeType
import InkText

// The rich-text members of text jobs (and scene text shapes): "runs", "exclusions", "lineHeight",
// "paragraphSpacing", "firstLineIndent".

extension TextJob {
    /// Reads `"lineHeight"` (> 0), `"paragraphSpacing"` (≥ 0) and `"firstLineIndent"` (finite) into `p`;
    /// absent or null members keep `p`'s.
    static func paragraphMembers(_ v: JSONValue, into p: inout ParagraphStyle) throws(JobError) {
        if let h = v["lineHeight"], h != .null { p.lineHeight = try JobFields.positive(h, "lineHeight") }
        if let s = v["paragraphSpacing"], s != .null {
            let d = try JobFields.finite(s, "paragraphSpacing")
            guard d >= 0 else { throw .invalid(field: "paragraphSpacing", problem: "must be ≥ 0 (got \(DecimalText.short(d)))") }
            p.paragraphSpacing = d
        }
        if let i = v["firstLineIndent"], i != .null { p.firstLineIndent = try JobFields.finite(i, "firstLineIndent") }
    }

    /// `"runs"`: `[{"start", "end", "fonts"?, "size"?, "underline"?, "strikethrough"?, "overline"?,
    /// "baselineShift"?, "letterSpacing"?, "embolden"?, "oblique"?, "hinting"?, "alphaThreshold"?}]`, in
    /// order; empty when absent or null. A run's glyph-style members (over the job's own) replace each font
    /// entry's style for its characters.
    static func runs(of v: JSONValue, fontCount: Int, limits: JobLimits, counted: inout Int) throws(JobError) -> [TextRun] {
        guard let rv = v["runs"], rv != .null else { return [] }
        guard case .array(let ra) = rv else { throw .wrongType(field: "\"runs\"", expected: "an array", got: rv.typeName) }
        counted += ra.count
        guard counted <= limits.maxRunsAndExclusions else { throw .tooMany(what: "runs and exclusions", limit: limits.maxRunsAndExclusions) }
        let jobStyle = try JobFields.style(of: v, "", base: GlyphStyle())
        var runs: [TextRun] = []
        runs.reserveCapacity(ra.count)
        for (i, r) in ra.enumerated() {
            runs.append(try run(r, "runs[\(i)]", fontCount: fontCount, jobStyle: jobStyle))
        }
        return runs
    }

    static func run(_ r: JSONValue, _ name: String, fontCount: Int, jobStyle: GlyphStyle) throws(JobError) -> TextRun {
        guard case .object = r else { throw .wrongType(field: name, expected: "an object", got: r.typeName) }
        let s = try JobFields.int(r["start"], name + ".start", default: -1)
        let e = try JobFields.int(r["end"], name + ".end", default: -1)
        guard r["start"] != nil, r["end"] != nil else { throw .missing(field: name + ".start and .end") }
        guard s >= 0, e > s else { throw .invalid(field: name, problem: "needs 0 ≤ start < end (UTF-16 offsets), got \(s) ..< \(e)") }
        var run = TextRun(range: s..<e)
        if let f = r["fonts"], f != .null {
            guard case .array(let fa) = f, !fa.isEmpty else {
                throw .wrongType(field: name + ".fonts", expected: "a non-empty array of font indexes", got: f.typeName)
            }
            guard fa.count <= 4096 else { throw .tooMany(what: "fonts in \(name).fonts", limit: 4096) }
            var chain: [Int] = []
            for (k, x) in fa.enumerated() {
                let fi = try JobFields.int(x, "\(name).fonts[\(k)]", default: -1)
                guard fi >= 0, fi < fontCount else {
                    throw .invalid(field: "\(name).fonts[\(k)]", problem: "\(fi) is not a font of the job (it has \(fontCount))")
                }
                chain.append(fi)
            }
            run.fonts = chain
        }
        if let z = r["size"], z != .null { run.size = try JobFields.positive(z, name + ".size") }
        if let u = r["underline"], u != .null {
            switch u {
            case .string("single"): run.underline = .single
            case .string("double"): run.underline = .double
            case .bool(false): run.underline = TextRun.Underline.none
            default: throw .wrongType(field: name + ".underline", expected: "\"single\", \"double\" or false", got: u.serialized.prefix(40) + "")
            }
        }
        run.strikethrough = try bool(r["strikethrough"], name + ".strikethrough")
        run.overline = try bool(r["overline"], name + ".overline")
        if let b = r["baselineShift"], b != .null { run.baselineShift = try JobFields.finite(b, name + ".baselineShift") }
        if let l = r["letterSpacing"], l != .null { run.letterSpacing = try JobFields.finite(l, name + ".letterSpacing") }
        if JobMembers.style.contains(where: { r[$0] != nil && r[$0] != .null }) {
            run.glyphStyle = try JobFields.style(of: r, name + ".", base: jobStyle)
        }
        return run
    }

    /// `true` or `false`; nil when absent or null.
    static func bool(_ v: JSONValue?, _ name: String) throws(JobError) -> Bool? {
        guard let v, v != .null else { return nil }
        guard case .bool(let b) = v else { throw .wrongType(field: name, expected: "true or false", got: v.typeName) }
        return b
    }

    /// `"exclusions"`: `[{"rect": [x, y, w, h]} | {"ellipse": [x, y, w, h]} | {"path": "M … Z"}]` in layout px;
    /// empty when absent or null.
    static func exclusions(of v: JSONValue, limits: JobLimits, counted: inout Int) throws(JobError) -> [TextExclusion] {
        guard let ev = v["exclusions"], ev != .null else { return [] }
        guard case .array(let ea) = ev else { throw .wrongType(field: "\"exclusions\"", expected: "an array", got: ev.typeName) }
        counted += ea.count
        guard counted <= limits.maxRunsAndExclusions else { throw .tooMany(what: "runs and exclusions", limit: limits.maxRunsAndExclusions) }
        var out: [TextExclusion] = []
        for (i, e) in ea.enumerated() { out.append(try exclusion(e, "exclusions[\(i)]", limits: limits)) }
        return out
    }

    static func exclusion(_ e: JSONValue, _ name: String, limits: JobLimits) throws(JobError) -> TextExclusion {
        guard case .object(let members) = e, members.count == 1, let m = members.first else {
            throw .wrongType(field: name, expected: "one of {\"rect\": [x, y, w, h]}, {\"ellipse\": [x, y, w, h]}, {\"path\": \"M … Z\"}",
                             got: e.serialized.prefix(60) + "")
        }
        switch m.key {
        case "rect", "ellipse":
            guard case .array(let xs) = m.value, xs.count == 4 else {
                throw .wrongType(field: "\(name).\(m.key)", expected: "[x, y, width, height]", got: m.value.typeName)
            }
            var n: [Double] = []
            for (k, x) in xs.enumerated() { n.append(try JobFields.finite(x, "\(name).\(m.key)[\(k)]")) }
            guard n[2] >= 0, n[3] >= 0 else {
                throw .invalid(field: "\(name).\(m.key)", problem: "width and height must be ≥ 0 (got \(DecimalText.short(n[2])), \(DecimalText.short(n[3])))")
            }
            guard n.allSatisfy(ViewSpace.contains) else { throw .invalid(field: "\(name).\(m.key)", problem: "is out of range (\(ViewSpace.limitText))") }
            let r = Rect(minX: n[0], minY: n[1], maxX: n[0] + n[2], maxY: n[1] + n[3])
            return m.key == "rect" ? .rect(r) : .ellipse(r)
        case "path":
            guard case .string(let d) = m.value else { throw .wrongType(field: name + ".path", expected: "SVG path data (a string)", got: m.value.typeName) }
            guard d.utf8.count <= limits.maxLineBytes else { throw .invalid(field: name + ".path", problem: "is too long") }
            do { return .path(try SVGPathData.elements(d)) } catch { throw .invalid(field: name + ".path", problem: error.description) }
        default:
            throw .invalid(field: name, problem: "has no known shape (rect, ellipse, path): \(JSONValue.quoted(String(m.key.prefix(40))))")
        }
    }
}
