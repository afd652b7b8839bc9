import ArgumentParser
import InkGeometry
import InkHit
import InkFreeType
import InkText
import InkJobs

struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Write each text job as the equivalent glyph job.",
        discussion: """
        Reads text jobs (one JSON object per line, see `ink-hit query --help`) and writes, per job, the glyph
        job that places the same glyphs: fonts, size, glyphs (font, id, x, y in layout px; "cluster" = UTF-16
        offset of the glyph's cluster start), transform, radius and points. `ink-hit query` on the output gives
        the same hit and glyph answers, except for points on attachments (glyph jobs have no boxes; their
        boxes are listed under "attachments", which `query` ignores). Failed jobs get an error line.
        """
    )
    @Argument(help: "Text job file; '-' or nothing reads standard input.")
    var file: String?
    @Option(help: "Flattening tolerance in view px.")
    var tolerance: Double = HitIndex.defaultTolerance

    func run() throws {
        guard let reader = LineReader(path: file) else { printError("ink-hit: cannot open \(file ?? "-")"); throw ExitCode(2) }
        let runner = JobRunner(tolerance: tolerance)
        var out = Output()
        var failed = false
        while let line = reader.next() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            var id = "null"
            do {
                let v = try JSONParser.parse(line)
                if let i = try? GlyphJob.id(of: v) { id = i }
                let job = try TextJob(v, limits: runner.limits)
                out.line(runner.glyphJobJSON(job, try runner.layout(job)))
            } catch let e as JobError {
                out.line("{\"job\":\(id),\"error\":\(jsonQuote(e.message))}"); failed = true
            } catch let e as JSONError {
                out.line("{\"job\":null,\"error\":\(jsonQuote(e.description))}"); failed = true
            }
            out.flush()
        }
        if failed { throw ExitCode(1) }
    }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a text job: outlines, inflated region, links, attachments, line boxes and its points.",
        discussion: """
        Renders the first text job of FILE (or the job with --id) to an SVG in view space: glyph outlines, the
        region within the job's radius of the ink, link ranges (blue), attachments (purple boxes), line boxes
        (dashed), and each query point coloured by its answer (green on ink, orange within the radius, blue
        for links, purple for attachments, grey for misses).
        """
    )
    @Argument(help: "Text job file; '-' reads standard input.")
    var file: String?
    @Option(help: "Output SVG path.")
    var svg: String
    @Option(help: "Job id to render (default: the first job).")
    var id: String?

    func run() throws {
        guard let reader = LineReader(path: file) else { printError("ink-hit: cannot open \(file ?? "-")"); throw ExitCode(2) }
        let runner = JobRunner()
        while let line = reader.next() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            guard let v = try? JSONParser.parse(line) else { continue }
            if let id, (try? GlyphJob.id(of: v)) != jsonQuote(id) && (try? GlyphJob.id(of: v)) != id { continue }
            do {
                let job = try TextJob(v, limits: runner.limits)
                let layout = try runner.layout(job)
                try write(job, layout)
                print("wrote \(svg): \(layout.glyphs.count) glyphs, \(layout.lines.count) lines, \(job.points.count) points")
                return
            } catch let e as JobError {
                printError("ink-hit render: \(e.message)")
                throw ExitCode(1)
            }
        }
        printError("ink-hit render: no text job\(id.map { " with id \($0)" } ?? "") in \(file ?? "-")")
        throw ExitCode(1)
    }

    func write(_ job: TextJob, _ layout: TextLayout) throws {
        let t = layout.transform
        var bounds = Rect.empty
        for l in layout.lines { for p in corners(l.box) { bounds.add(t.apply(p)) } }
        for p in job.points where p.isFinite { bounds.add(p) }
        if bounds.isEmpty { bounds = Rect(minX: 0, minY: 0, maxX: 100, maxY: 100) }
        bounds = bounds.outsetBy(10 + job.radius)
        var doc = SVGDocument(width: bounds.width, height: bounds.height)
        doc.add("<g transform=\"translate(\(formatNumber(-bounds.minX, decimals: 2)) \(formatNumber(-bounds.minY, decimals: 2)))\">")
        // Line boxes.
        for l in layout.lines {
            doc.add("<path d=\"\(polygon(corners(l.box).map(t.apply)))\" fill=\"none\" stroke=\"#b0b8c0\" stroke-dasharray=\"3 2\" stroke-width=\"0.6\"/>")
        }
        // Outlines (all glyphs), link glyphs separately.
        var all = "", linked = ""
        for g in layout.glyphs {
            let f = layout.fonts[g.font]
            let k = g.size / Double(f.unitsPerEm)
            let gt = AffineTransform(a: k, b: 0, c: 0, d: -k, tx: g.x, ty: g.y).concatenating(t)
            var sink = TransformingSink(SVGPathSink(decimals: 2), transform: gt)
            try? f.outline(glyph: g.id, into: &sink)
            if layout.links.contains(where: { $0.range.overlaps(g.utf16) }) { linked += sink.base.path + " " } else { all += sink.base.path + " " }
        }
        let r = formatNumber(2 * job.radius)
        if job.radius > 0 {
            doc.add("<path d=\"\(all)\(linked)\" fill=\"#ffe2b0\" stroke=\"#ffe2b0\" stroke-width=\"\(r)\" stroke-linejoin=\"round\"/>")
        }
        doc.add("<path d=\"\(all)\" fill=\"#20242a\" fill-opacity=\"0.85\"/>")
        doc.add("<path d=\"\(linked)\" fill=\"#1f5fd1\" fill-opacity=\"0.9\"/>")
        for a in layout.attachments {
            doc.add("<path d=\"\(polygon(corners(a.box).map(t.apply)))\" fill=\"#b07ad8\" fill-opacity=\"0.5\" stroke=\"#7a3fb0\" stroke-width=\"0.8\"><title>\(xmlEscape(a.attachment.tag))</title></path>")
        }
        for p in job.points where p.isFinite {
            let color: String
            if let h = layout.hit(at: p, radius: job.radius) {
                color = h.attachment != nil ? "#7a3fb0" : (h.link != nil ? "#1f5fd1" : (h.kind == .ink ? "#1a9e3a" : "#e07b00"))
            } else { color = "#9aa5b1" }
            doc.add("<circle cx=\"\(formatNumber(p.x, decimals: 2))\" cy=\"\(formatNumber(p.y, decimals: 2))\" r=\"0.55\" fill=\"\(color)\"/>")
        }
        doc.add("</g>")
        try doc.write(to: svg)
    }

    func corners(_ r: Rect) -> [Point] {
        [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]
    }
    func polygon(_ ps: [Point]) -> String {
        "M " + ps.map { formatNumber($0.x, decimals: 2) + " " + formatNumber($0.y, decimals: 2) }.joined(separator: " L ") + " Z"
    }
}
