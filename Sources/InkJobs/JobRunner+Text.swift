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
        guard job.text.utf16.count <= limits.maxGlyphs else { throw .textLength(limit: limits.maxGlyphs) }
        var fonts: [Font] = []
        for f in job.fonts { fonts.append(try font(f)) }
        do {
            return try TextLayout(text: job.text, style: TextStyle(fonts: fonts, size: job.size), paragraph: job.paragraph,
                                  links: job.links, attachments: job.attachments, transform: job.transform,
                                  tolerance: tolerance, cache: cache)
        } catch {
            throw .text(error)
        }
    }

    /// Answers a text job: one line per point, written only once every point is answered within
    /// `limits.maxSecondsPerJob` (checked between chunks of points).
    func answerText(_ value: JSONValue, deadline: Deadline, emit: (String) -> Void) throws(JobError) {
        let job = try TextJob(value, limits: limits)
        let layout = try layout(job)
        var hits: [TextHit?] = []
        hits.reserveCapacity(job.points.count)
        for (i, p) in job.points.enumerated() {
            if i & 15 == 0 && deadline.isPast {
                throw .timeLimit(seconds: limits.maxSecondsPerJob, during: "answering point \(i) of \(job.points.count)")
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
            s += ",\"link\":" + (h.link.map(JSONValue.quoted) ?? "null")
            s += ",\"attachment\":" + (h.attachment.map(JSONValue.quoted) ?? "null")
            s += ",\"distance\":" + DecimalText.string(h.distance, maxFractionDigits: 4) + "}"
            emit(s)
        }
    }

    /// The glyph job equivalent to a text job (each glyph's `cluster` is the UTF-16 offset of its cluster
    /// start). `ink-hit query` on it gives the same hit/glyph answers for points that are not on attachments
    /// (glyph jobs have no boxes; the attachments are listed under "attachments" for reference and ignored
    /// by `query`).
    public func glyphJobJSON(_ job: TextJob, _ layout: TextLayout) -> String {
        func num(_ v: Double, _ digits: Int) -> String { DecimalText.string(v, maxFractionDigits: digits) }
        var fontRefs: [String] = []
        for f in job.fonts { fontRefs.append("{\"path\":" + JSONValue.quoted(f.path) + ",\"index\":" + String(f.index) + "}") }
        var gl: [String] = []
        gl.reserveCapacity(layout.glyphs.count)
        for g in layout.glyphs {
            gl.append("{\"font\":\(g.font),\"id\":\(g.id),\"x\":\(num(g.x, 6)),\"y\":\(num(g.y, 6)),\"cluster\":\(g.utf16.lowerBound)}")
        }
        let t = layout.transform
        let tr = [t.a, t.b, t.c, t.d, t.tx, t.ty].map { num($0, 12) }.joined(separator: ",")
        let pts = job.points.map { "[" + num($0.x, 9) + "," + num($0.y, 9) + "]" }.joined(separator: ",")
        let atts = layout.attachments.map {
            "{\"at\":\($0.attachment.at),\"tag\":\(JSONValue.quoted($0.attachment.tag)),\"box\":[\(num($0.box.minX, 6)),\(num($0.box.minY, 6)),\(num($0.box.maxX, 6)),\(num($0.box.maxY, 6))]}"
        }.joined(separator: ",")
        return "{\"id\":" + job.idJSON + ",\"fonts\":[" + fontRefs.joined(separator: ",") + "],\"size\":" + num(job.size, 9)
            + ",\"glyphs\":[" + gl.joined(separator: ",") + "],\"transform\":[" + tr + "],\"radius\":" + num(job.radius, 9)
            + ",\"points\":[" + pts + "],\"attachments\":[" + atts + "]}"
    }
}
