import InkGeometry
import InkHit
import InkFreeType
import InkText

/// One `ink-hit query` text job, parsed and validated:
/// `{"id", "text", "fonts": [{"path", "index"}, …fallbacks in order], "size", "width"?, "origin"?: [x, y],
///   "maxLines"?, "alignment"?, "lineHeight"?, "paragraphSpacing"?, "firstLineIndent"?,
///   "runs"?: [{"start", "end", "fonts"?, "size"?, "underline"?, "strikethrough"?, "overline"?,
///   "baselineShift"?, "letterSpacing"?, "embolden"?, "oblique"?, "hinting"?, "alphaThreshold"?}],
///   "exclusions"?: [{"rect" | "ellipse": [x, y, w, h]} | {"path": "M … Z"}],
///   "links"?: [{"start", "end", "tag"}], "attachments"?: [{"at", "width",
///   "ascent", "descent", "tag", "cornerRadius"?}], "transform"?, "radius"?, "points"}` — offsets are UTF-16,
/// sizes layout px, points view px.
public struct TextJob: Sendable {
    /// The job's id as JSON text, echoed in every answer.
    public var idJSON: String
    /// The text.
    public var text: String
    /// The fallback chain, first font first.
    public var fonts: [GlyphJob.FontRef]
    /// px per em, layout px.
    public var size: Double
    /// Wrap width, alignment, line limit, origin, line height, paragraph spacing, indent, exclusions.
    public var paragraph: ParagraphStyle
    /// Styled runs (font chains index `fonts`).
    public var runs: [TextRun]
    /// Links (UTF-16 ranges and tags).
    public var links: [TextLink]
    /// Inline attachments on U+FFFC placeholders.
    public var attachments: [TextAttachment]
    /// Layout px → view px.
    public var transform: AffineTransform
    /// Touch radius, view px.
    public var radius: Double
    /// Query points, view px.
    public var points: [Point]
}

extension TextJob {
    /// Parses and validates a text job object.
    ///
    /// - Throws: `JobError` naming the first member that is missing, of the wrong type or out of range.
    public init(_ v: JSONValue, limits: JobLimits = JobLimits()) throws(JobError) {
        guard case .object = v else { throw .notAnObject(got: v.typeName) }
        idJSON = try JobFields.id(of: v, limits: limits)
        guard let tv = v["text"] else { throw .missing(field: "\"text\"") }
        guard case .string(let t) = tv else { throw .wrongType(field: "\"text\"", expected: "a string", got: tv.typeName) }
        guard t.utf16.count <= limits.maxTextLength else { throw .textLength(limit: limits.maxTextLength) }
        text = t
        fonts = try JobFields.fonts(of: v, limits: limits)
        try JobFields.refuseSkia(fonts, "text jobs")
        guard let sv = v["size"] else { throw .missing(field: "\"size\"") }
        size = try JobFields.positive(sv, "size")
        var p = ParagraphStyle()
        if let w = v["width"], w != .null { p.width = try JobFields.positive(w, "width") }
        if let o = v["origin"], o != .null {
            guard case .array(let xy) = o, xy.count == 2 else {
                throw .wrongType(field: "\"origin\"", expected: "[x, y]", got: o.typeName)
            }
            p.origin = Point(try JobFields.finite(xy[0], "origin[0]"), try JobFields.finite(xy[1], "origin[1]"))
        }
        if let m = v["maxLines"], m != .null {
            let n = try JobFields.int(m, "maxLines", default: 0)
            guard n >= 1 else { throw .invalid(field: "maxLines", problem: "must be ≥ 1 (got \(n))") }
            p.maxLines = n
        }
        if let a = try JobFields.string(v["alignment"], "\"alignment\"") {
            guard let al = ParagraphStyle.Alignment(rawValue: a) else {
                throw .invalid(field: "\"alignment\"", problem: "must be left, center or right (got \(JSONValue.quoted(a)))")
            }
            p.alignment = al
        }
        try Self.paragraphMembers(v, into: &p)
        var styleItems = 0
        runs = try Self.runs(of: v, fontCount: fonts.count, limits: limits, counted: &styleItems)
        p.exclusions = try Self.exclusions(of: v, limits: limits, counted: &styleItems)
        paragraph = p
        var linkCount = 0
        links = try Self.links(of: v, limits: limits, counted: &linkCount)
        attachments = try Self.attachments(of: v, limits: limits, counted: &linkCount)
        transform = try JobFields.transform(of: v)
        (radius, points) = try JobFields.queries(of: v, limits: limits)
    }

    /// `"links"`: UTF-16 ranges and tags; `counted` (links and attachments so far) is held to `maxLinks`.
    static func links(of v: JSONValue, limits: JobLimits, counted linkCount: inout Int) throws(JobError) -> [TextLink] {
        var links: [TextLink] = []
        if let lv = v["links"], lv != .null {
            guard case .array(let la) = lv else { throw .wrongType(field: "\"links\"", expected: "an array", got: lv.typeName) }
            linkCount += la.count
            guard linkCount <= limits.maxLinks else { throw .tooMany(what: "links and attachments", limit: limits.maxLinks) }
            for (i, l) in la.enumerated() {
                guard case .object = l else { throw .wrongType(field: "links[\(i)]", expected: "an object", got: l.typeName) }
                let s = try JobFields.int(l["start"], "links[\(i)].start", default: -1)
                let e = try JobFields.int(l["end"], "links[\(i)].end", default: -1)
                guard s >= 0, e > s else { throw .invalid(field: "links[\(i)]", problem: "needs 0 ≤ start < end (UTF-16 offsets)") }
                links.append(TextLink(range: s..<e, tag: try Self.tag(l["tag"], "links[\(i)].tag", limits: limits)))
            }
        }
        return links
    }

    /// `"attachments"`: placeholders' boxes and tags; `counted` (links and attachments so far) is held to
    /// `maxLinks`.
    static func attachments(of v: JSONValue, limits: JobLimits, counted linkCount: inout Int) throws(JobError) -> [TextAttachment] {
        var attachments: [TextAttachment] = []
        if let av = v["attachments"], av != .null {
            guard case .array(let aa) = av else { throw .wrongType(field: "\"attachments\"", expected: "an array", got: av.typeName) }
            linkCount += aa.count
            guard linkCount <= limits.maxLinks else { throw .tooMany(what: "links and attachments", limit: limits.maxLinks) }
            for (i, a) in aa.enumerated() {
                guard case .object = a else { throw .wrongType(field: "attachments[\(i)]", expected: "an object", got: a.typeName) }
                let at = try JobFields.int(a["at"], "attachments[\(i)].at", default: -1)
                let w = try JobFields.finite(a["width"], "attachments[\(i)].width")
                let asc = try JobFields.finite(a["ascent"], "attachments[\(i)].ascent")
                let desc = a["descent"] == nil || a["descent"] == .null ? 0 : try JobFields.finite(a["descent"], "attachments[\(i)].descent")
                var radius = 0.0
                if let r = a["cornerRadius"], r != .null { radius = try JobFields.finite(r, "attachments[\(i)].cornerRadius") }
                attachments.append(TextAttachment(at: at, width: w, ascent: asc, descent: desc,
                                                  tag: try Self.tag(a["tag"], "attachments[\(i)].tag", limits: limits),
                                                  cornerRadius: radius))
            }
        }
        return attachments
    }

    /// A link's or attachment's `"tag"`: a string (required: it is what a hit on it answers) of at most
    /// `limits.maxStringBytes` bytes.
    static func tag(_ v: JSONValue?, _ name: String, limits: JobLimits) throws(JobError) -> String {
        guard let v else { throw .missing(field: name) }
        guard case .string(let s) = v else { throw .wrongType(field: name, expected: "a string", got: v.typeName) }
        try JobFields.checkLength(s, name, limits: limits)
        return s
    }
}
