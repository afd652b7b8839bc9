import InkGeometry
import InkHit
import InkFreeType
import InkText

extension JobRunner {
    /// Lays out a text job with the runner's fonts, tolerance and shape cache.
    ///
    /// - Throws: `JobError.textLength`, `.font` for a font that cannot be loaded, `.text` when the layout
    ///   refuses the job.
    public func layout(_ job: TextJob) throws(JobError) -> TextLayout {
        try layout(job, deadline: Deadline(seconds: limits.maxSecondsPerJob))
    }

    /// `layout(_:)` for the job `line` holds, within its deadline (the one its answers are held to).
    public func layout(_ job: TextJob, for line: JobLine) throws(JobError) -> TextLayout {
        try layout(job, deadline: line.deadline)
    }

    func layout(_ job: TextJob, deadline: Deadline) throws(JobError) -> TextLayout {
        guard job.text.utf16.count <= limits.maxTextLength else { throw .textLength(limit: limits.maxTextLength) }
        let fonts = try loadFonts(job.fonts, job: job.idJSON)
        let layout: TextLayout
        do {
            layout = try TextLayout(text: job.text, style: TextStyle(fonts: fonts, size: job.size, glyphStyles: job.fonts.map(\.style)),
                                    runs: job.runs, paragraph: job.paragraph,
                                    links: job.links, attachments: job.attachments, transform: job.transform,
                                    tolerance: tolerance, cache: cache,
                                    budget: LayoutBudget(maxShapeBytes: limits.maxShapeBytesPerJob, deadline: deadline.instant),
                                    // The text's length bounds its distinct glyphs.
                                    shapeForms: Self.shapeForms(points: job.points.count, shapes: min(job.text.utf16.count, 512)))
        } catch .pastDeadline(let during) {
            throw .timeLimit(seconds: limits.maxSecondsPerJob, during: during)
        } catch .glyph(let g, _, .shape(_, _, .timeLimit)) {
            throw .timeLimit(seconds: limits.maxSecondsPerJob, during: "building the shape of glyph \(g) of the layout")
        } catch {
            throw .text(error)
        }
        guard layout.glyphs.count <= limits.maxGlyphs else { throw .tooMany(what: "glyphs in the layout", limit: limits.maxGlyphs) }
        return layout
    }

    /// Answers a text job: one line per point, a chunk of points at a time (see `answerInChunks`).
    func answerText(_ job: TextJob, line: JobLine, emit: (String) -> Void) throws(JobError) {
        let layout = try layout(job, deadline: line.deadline)
        try Self.answerInChunks(job.points, line: line, seconds: limits.maxSecondsPerJob, emit: emit) { points, results in
            for k in points.indices { results[k] = layout.hit(at: points[k], radius: job.radius) }
        } line: { hit in
            guard let h = hit else {
                return ",\"hit\":false" + Self.placementFields(nil) + Self.characterFields(nil) + Self.insideField(false)
                    + ",\"distance\":null}"
            }
            let ink = h.placement.flatMap { try? layout.placement(of: $0).ink }
            return ",\"hit\":true" + Self.placementFields(h.placement) + Self.inkField(ink) + Self.decorationField(h.decoration)
                + Self.characterFields(h) + Self.insideField(h.kind != .radius)
                + ",\"distance\":" + DecimalText.string(h.distance, maxFractionDigits: 4) + "}"
        }
    }

    /// `,"decoration":"underline"` (or `strikethrough`, `overline`) on a hit on a decoration; nothing otherwise.
    static func decorationField(_ d: TextDecoration.Kind?) -> String {
        d.map { ",\"decoration\":\"" + $0.rawValue + "\"" } ?? ""
    }

    /// `,"utf16":[a,b],"char":c,"line":l,"link":…,"attachment":…` of a text answer (all null without one).
    static func characterFields(_ h: TextHit?) -> String {
        guard let h else { return ",\"utf16\":null,\"char\":null,\"line\":null,\"link\":null,\"attachment\":null" }
        return ",\"utf16\":[" + String(h.utf16.lowerBound) + "," + String(h.utf16.upperBound) + "],\"char\":" + String(h.character)
            + ",\"line\":" + String(h.line) + ",\"link\":" + (h.link.map(JSONValue.quoted) ?? "null")
            + ",\"attachment\":" + (h.attachment.map(JSONValue.quoted) ?? "null")
    }

    /// The glyph job equivalent to a text job (each glyph's `cluster` is the UTF-16 offset of its cluster
    /// start, its `size`, and its style where a run changed it; the decorations as `"decorations"`). `ink-hit query` on it gives the same hit/glyph answers for points that are not on attachments
    /// (glyph jobs have no boxes; the attachments are listed under "attachments" for reference and ignored
    /// by `query`).
    public func glyphJobJSON(_ job: TextJob, _ layout: TextLayout) -> String {
        // Numbers given by the job go back exactly (Swift's shortest round-trip form is valid JSON for finite
        // values); glyph positions, computed by the layout, get 6 decimals more than the transform's scale
        // magnifies (at most 9): off by at most 5e-7 view px at scale 1, 5e-4 px at scale 1e6.
        func exact(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)" }
        let scale = layout.transform.maxScale
        var digits = 6, magnified = scale
        while magnified > 1 && digits < 9 { magnified /= 10; digits += 1 }
        func num(_ v: Double, _ digits: Int) -> String { DecimalText.string(v, maxFractionDigits: digits) }
        var fontRefs: [String] = []
        for f in job.fonts { fontRefs.append(GlyphJob.fontJSON(f)) }
        var gl: [String] = []
        gl.reserveCapacity(layout.glyphs.count)
        for (gi, g) in layout.glyphs.enumerated() {
            // The glyph's size, and the members of its style a run changed from its font entry's (read back
            // over the entry's: the same style exactly).
            let style = GlyphJob.styleJSON(layout.glyphStyle(of: gi), over: job.fonts[g.font].style)
            gl.append("{\"font\":\(g.font),\"id\":\(g.id),\"x\":\(num(g.x, digits)),\"y\":\(num(g.y, digits)),\"size\":\(exact(g.size))"
                      + style + ",\"cluster\":\(g.utf16.lowerBound)}")
        }
        let decorations = layout.decorations.map { d in
            "{\"kind\":\"\(d.kind.rawValue)\",\"rect\":[\(num(d.rect.minX, digits)),\(num(d.rect.minY, digits)),"
                + "\(num(d.rect.width, digits)),\(num(d.rect.height, digits))],\"utf16\":[\(d.utf16.lowerBound),\(d.utf16.upperBound)]}"
        }
        let t = layout.transform
        let tr = [t.a, t.b, t.c, t.d, t.tx, t.ty].map(exact).joined(separator: ",")
        let pts = job.points.map { "[" + exact($0.x) + "," + exact($0.y) + "]" }.joined(separator: ",")
        let atts = layout.attachments.map {
            "{\"at\":\($0.attachment.at),\"tag\":\(JSONValue.quoted($0.attachment.tag)),\"box\":[\(num($0.box.minX, 6)),\(num($0.box.minY, 6)),\(num($0.box.maxX, 6)),\(num($0.box.maxY, 6))]}"
        }.joined(separator: ",")
        return "{\"id\":" + job.idJSON + ",\"fonts\":[" + fontRefs.joined(separator: ",") + "],\"size\":" + exact(job.size)
            + ",\"glyphs\":[" + gl.joined(separator: ",") + "]"
            + (decorations.isEmpty ? "" : ",\"decorations\":[" + decorations.joined(separator: ",") + "]")
            + ",\"transform\":[" + tr + "],\"radius\":" + exact(job.radius)
            + ",\"points\":[" + pts + "],\"attachments\":[" + atts + "]}"
    }
}
