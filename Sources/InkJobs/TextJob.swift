import InkGeometry
import InkHit
import InkFreeType
import InkText

/// One `ink-hit query` text job, parsed and validated (issue "Text"):
/// `{"id", "text", "fonts": [{"path", "index"}, …fallbacks in order], "size", "width"?, "origin"?: [x, y],
///   "maxLines"?, "links"?: [{"start", "end", "tag"}], "attachments"?: [{"at", "width", "ascent", "descent",
///   "tag"}], "transform"?, "radius"?, "points"}` — offsets are UTF-16, sizes layout px, points view px.
public struct TextJob: Sendable {
    public var idJSON: String
    public var text: String
    public var fonts: [GlyphJob.FontRef]
    public var size: Double
    public var paragraph: ParagraphStyle
    public var links: [TextLink]
    public var attachments: [TextAttachment]
    public var transform: AffineTransform
    public var radius: Double
    public var points: [Point]
}

extension TextJob {
    public init(_ v: JSONValue, limits: JobLimits = JobLimits()) throws(JobError) {
        guard case .object = v else { throw JobError("a job must be a JSON object, got \(v.typeName)") }
        idJSON = try GlyphJob.id(of: v)
        guard case .string(let t)? = v["text"] else { throw JobError("\"text\" must be a string") }
        text = t
        fonts = try GlyphJob.fonts(of: v, limits: limits)
        guard let sv = v["size"] else { throw JobError("missing \"size\"") }
        size = try GlyphJob.positive(sv, "size")
        var p = ParagraphStyle()
        if let w = v["width"], w != .null { p.width = try GlyphJob.positive(w, "width") }
        if let o = v["origin"], o != .null {
            guard case .array(let xy) = o, xy.count == 2 else { throw JobError("\"origin\" must be [x, y]") }
            p.origin = Point(try GlyphJob.finite(xy[0], "origin[0]"), try GlyphJob.finite(xy[1], "origin[1]"))
        }
        if let m = v["maxLines"], m != .null {
            let n = try GlyphJob.int(m, "maxLines", default: 0)
            guard n >= 1 else { throw JobError("\"maxLines\" must be ≥ 1 (got \(n))") }
            p.maxLines = n
        }
        if case .string(let a)? = v["alignment"] {
            guard let al = ParagraphStyle.Alignment(rawValue: a) else { throw JobError("\"alignment\" must be left, center or right") }
            p.alignment = al
        }
        paragraph = p
        links = []
        if let lv = v["links"], lv != .null {
            guard case .array(let la) = lv else { throw JobError("\"links\" must be an array") }
            for (i, l) in la.enumerated() {
                guard case .object = l else { throw JobError("links[\(i)] must be an object") }
                let s = try GlyphJob.int(l["start"], "links[\(i)].start", default: -1)
                let e = try GlyphJob.int(l["end"], "links[\(i)].end", default: -1)
                guard s >= 0, e > s else { throw JobError("links[\(i)] needs 0 ≤ start < end (UTF-16 offsets)") }
                links.append(TextLink(range: s..<e, tag: Self.tag(l["tag"])))
            }
        }
        attachments = []
        if let av = v["attachments"], av != .null {
            guard case .array(let aa) = av else { throw JobError("\"attachments\" must be an array") }
            for (i, a) in aa.enumerated() {
                guard case .object = a else { throw JobError("attachments[\(i)] must be an object") }
                let at = try GlyphJob.int(a["at"], "attachments[\(i)].at", default: -1)
                let w = try GlyphJob.finite(a["width"], "attachments[\(i)].width")
                let asc = try GlyphJob.finite(a["ascent"], "attachments[\(i)].ascent")
                let desc = try GlyphJob.finite(a["descent"] ?? .number(0, "0"), "attachments[\(i)].descent")
                var radius = 0.0
                if let r = a["cornerRadius"], r != .null { radius = try GlyphJob.finite(r, "attachments[\(i)].cornerRadius") }
                attachments.append(TextAttachment(at: at, width: w, ascent: asc, descent: desc,
                                                  tag: Self.tag(a["tag"]), cornerRadius: radius))
            }
        }
        transform = try GlyphJob.transform(of: v)
        radius = try GlyphJob.radius(of: v)
        points = try GlyphJob.points(of: v, limits: limits)
    }

    /// Tags are strings; numbers and other JSON values are kept as their JSON text.
    static func tag(_ v: JSONValue?) -> String {
        guard let v else { return "" }
        if case .string(let s) = v { return s }
        return v.serialized
    }
}

extension JobRunner {
    /// Lays out a text job.
    public func layout(_ job: TextJob) throws(JobError) -> TextLayout {
        var fonts: [Font] = []
        for f in job.fonts { fonts.append(try font(f)) }
        do {
            return try TextLayout(text: job.text, style: TextStyle(fonts: fonts, size: job.size), paragraph: job.paragraph,
                                  links: job.links, attachments: job.attachments, transform: job.transform,
                                  tolerance: tolerance, cache: cache)
        } catch let e as TextError {
            throw JobError(e.description)
        } catch {
            throw JobError("\(error)")
        }
    }

    /// Answers a text job: one line per point, written only once every point is answered within
    /// `limits.maxSecondsPerJob` (checked between chunks of points).
    func runText(_ value: JSONValue, deadline: Deadline, emit: (String) -> Void) throws(JobError) {
        let job = try TextJob(value, limits: limits)
        guard job.text.utf16.count <= limits.maxGlyphs else {
            throw JobError("the text has more than \(limits.maxGlyphs) UTF-16 code units (the limit)")
        }
        let layout = try layout(job)
        var hits: [TextHit?] = []
        hits.reserveCapacity(job.points.count)
        for (i, p) in job.points.enumerated() {
            if i & 15 == 0 && deadline.isPast {
                throw JobError("the job took more than \(formatNumber(limits.maxSecondsPerJob)) s (the limit) "
                               + "while answering point \(i) of \(job.points.count)")
            }
            hits.append(layout.hit(at: p, radius: job.radius))
        }
        let prefix = "{\"job\":" + job.idJSON + ",\"i\":"
        for (i, hit) in hits.enumerated() {
            guard let h = hit else {
                emit(prefix + String(i) + ",\"hit\":false,\"glyph\":null,\"utf16\":null,\"char\":null,\"line\":null,\"link\":null,\"attachment\":null,\"distance\":null}")
                continue
            }
            var s = prefix + String(i) + ",\"hit\":true,\"glyph\":" + (h.glyph.map(String.init) ?? "null")
            s += ",\"utf16\":[" + String(h.utf16.lowerBound) + "," + String(h.utf16.upperBound) + "]"
            s += ",\"char\":" + String(h.character) + ",\"line\":" + String(h.line)
            s += ",\"link\":" + (h.link.map(jsonQuote) ?? "null")
            s += ",\"attachment\":" + (h.attachment.map(jsonQuote) ?? "null")
            s += ",\"distance\":" + formatNumber(h.distance, decimals: 4) + "}"
            emit(s)
        }
    }

    /// The glyph job equivalent to a text job (DESIGN.md format; each glyph's `cluster` is the UTF-16 offset
    /// of its cluster start). `ink-hit query` on it gives the same hit/glyph answers for points that are
    /// not on attachments (glyph jobs have no boxes; the attachments are listed under "attachments" for
    /// reference and ignored by `query`).
    public func glyphJobJSON(_ job: TextJob, _ layout: TextLayout) -> String {
        var fontRefs: [String] = []
        for f in job.fonts { fontRefs.append("{\"path\":" + jsonQuote(f.path) + ",\"index\":" + String(f.index) + "}") }
        var gl: [String] = []
        gl.reserveCapacity(layout.glyphs.count)
        for g in layout.glyphs {
            gl.append("{\"font\":\(g.font),\"id\":\(g.id),\"x\":\(formatNumber(g.x, decimals: 6)),\"y\":\(formatNumber(g.y, decimals: 6)),\"cluster\":\(g.utf16.lowerBound)}")
        }
        let t = layout.transform
        let tr = [t.a, t.b, t.c, t.d, t.tx, t.ty].map { formatNumber($0, decimals: 12) }.joined(separator: ",")
        let pts = job.points.map { "[" + formatNumber($0.x, decimals: 9) + "," + formatNumber($0.y, decimals: 9) + "]" }.joined(separator: ",")
        let atts = layout.attachments.map {
            "{\"at\":\($0.attachment.at),\"tag\":\(jsonQuote($0.attachment.tag)),\"box\":[\(formatNumber($0.box.minX, decimals: 6)),\(formatNumber($0.box.minY, decimals: 6)),\(formatNumber($0.box.maxX, decimals: 6)),\(formatNumber($0.box.maxY, decimals: 6))]}"
        }.joined(separator: ",")
        return "{\"id\":" + job.idJSON + ",\"fonts\":[" + fontRefs.joined(separator: ",") + "],\"size\":" + formatNumber(job.size, decimals: 9)
            + ",\"glyphs\":[" + gl.joined(separator: ",") + "],\"transform\":[" + tr + "],\"radius\":" + formatNumber(job.radius, decimals: 9)
            + ",\"points\":[" + pts + "],\"attachments\":[" + atts + "]}"
    }
}
