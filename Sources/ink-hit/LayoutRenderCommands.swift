import ArgumentParser
import InkGeometry
import InkText
import InkJobs

struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Write each text job as the equivalent glyph job.",
        discussion: """
        Reads text jobs (one JSON object per line, see `ink-hit query --help`) and writes, per job, the glyph
        job that places the same glyphs: fonts, size, glyphs (font, id, x, y in layout px, size, and the glyph
        style where a run changed it; "cluster" = UTF-16 offset of the glyph's cluster start), decorations
        ({"kind", "rect": [x, y, w, h], "utf16": [a, b]}, hit as ink under the glyphs), transform, radius and
        points. `ink-hit query` on the output gives the same hit, glyph and decoration answers, except for
        points on attachments (glyph jobs have no boxes; their boxes are listed under "attachments", which
        `query` ignores). A glyph job, or any job that cannot be
        laid out, gets an error line; the exit status is 1 if any job failed.
        """
    )
    @OptionGroup var options: JobOptions

    func run() throws {
        let runner = try options.runner()
        try options.run(limits: runner.limits) { (line, emit) throws(JobError) in
            guard line.kind == .text else { throw .wrongKind("ink-hit layout takes text jobs (with \"text\"), not glyph or scene jobs") }
            try runner.checkMembers(line)
            let job = try TextJob(line.value, limits: runner.limits)
            let glyphJob = runner.glyphJobJSON(job, try runner.layout(job, for: line))
            // What `layout` writes must be a line `query` reads (with the same --max-line-bytes).
            let bytes = glyphJob.utf8.count
            guard bytes <= runner.limits.maxLineBytes else {
                throw .invalid(field: "the glyph job", problem: "would have \(bytes) bytes, more than the line limit of "
                               + "\(runner.limits.maxLineBytes) that `ink-hit query` reads; lay out less text per job")
            }
            emit(glyphJob)
        }
    }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a text or scene job and its points coloured by their answers.",
        discussion: """
        Renders one job of FILE to an SVG in view (root) px: the job with --id, or else the first text or \
        scene job that can be drawn (a glyph job, or a job that fails, gets its error line and the next one \
        is tried).

        A text job: glyph outlines and decorations (underlines, strikethrough, overlines), the region within \
        the job's radius of the ink, link ranges (blue), attachments (purple boxes), line boxes (dashed), the \
        exclusions the lines flow around (dashed red outlines), and each query point coloured by its answer \
        (green on ink, orange within the radius, blue for links, purple for attachments, grey for misses).

        A scene job: every node in pre-order (parents under children), through its transforms to the root. \
        Each node that may be the answer gets a colour (a hash of its id into a palette): boxes, round rects, \
        ellipses and paths filled lightly, text and glyph leaves by their ink whatever their hole policy \
        (links underlined), masks by their hit pixels; an enlarged hit box (slop, minSize) dashed and \
        lighter; the hit box of a clipping node dark and dashed, with what lies below it clipped to it; nodes \
        taken out (hidden, not interactive, alpha < 0.01, pointerEvents none, or below a box-only node) as a \
        dotted grey outline, box-none nodes as a thin grey one. Each point is a dot in the colour of the node it hits (grey for a \
        miss, a dark rim when it hits within the radius only); a legend names the colours and the radius.

        Every line of FILE gets one output line: {"job": ..., "rendered": "OUT.svg", "glyphs": N, "lines": L, \
        "points": P} for a text job drawn, {"job": ..., "rendered": "OUT.svg", "nodes": N, "points": P} for a \
        scene job drawn, {"job": ..., "skipped": "..."} for the others, or an error line. The SVG is written \
        as it is made and held to --max-output-bytes (a larger one is removed and the job fails). The exit \
        status is 1 if a job failed or no job was drawn.
        """
    )
    @OptionGroup var options: JobOptions
    @Option(help: "Output SVG path.")
    var svg: String
    @Option(help: "Id of the job to render (a string id, or a number as written in the job).")
    var id: String?

    func run() throws {
        let runner = try options.runner()
        var drawn = false
        var failure: Error?
        do {
            try options.run(limits: runner.limits) { (line, emit) throws(JobError) in
                let wanted = id.map { line.idJSON == $0 || line.idJSON == JSONValue.quoted($0) } ?? !drawn
                guard wanted, !drawn else {
                    emit("{\"job\":\(line.idJSON),\"skipped\":" + JSONValue.quoted(
                        drawn ? "one job per picture: \(svg) already holds a job" : "not the job asked for (--id \(id ?? ""))") + "}")
                    return
                }
                try runner.checkMembers(line)
                switch line.kind {
                case .scene: emit(try drawScene(line, runner))
                case .text: emit(try drawText(line, runner))
                case .glyph: throw .wrongKind("ink-hit render draws text jobs and scene jobs, not glyph jobs")
                }
                drawn = true
            }
        } catch {
            failure = error
        }
        if !drawn {
            printError("ink-hit render: no text or scene job\(id.map { " with id \($0)" } ?? "") was drawn")
            throw ExitCode(failure == nil ? 1 : (failure as? ExitCode)?.rawValue ?? 1)
        }
        if let failure { throw failure }
    }

    /// Draws a text job; returns its summary line.
    func drawText(_ line: JobLine, _ runner: JobRunner) throws(JobError) -> String {
        let job = try TextJob(line.value, limits: runner.limits)
        let layout = try runner.layout(job, for: line)
        var picture = LayoutPicture(layout: layout, radius: job.radius)
        picture.samples.reserveCapacity(job.points.count)
        for (k, p) in job.points.enumerated() {
            if k & 255 == 255 && line.isPastDeadline {
                throw .timeLimit(seconds: runner.limits.maxSecondsPerJob, during: "answering point \(k) of \(job.points.count)")
            }
            picture.samples.append((p, LayoutPicture.color(layout.hit(at: p, radius: job.radius))))
        }
        try write(runner) { () throws(SVGFile.Failure) in
            try picture.write(to: svg, maxBytes: runner.limits.maxOutputBytesPerJob) { line.isPastDeadline }
        }
        return "{\"job\":\(job.idJSON),\"rendered\":\(JSONValue.quoted(svg)),\"glyphs\":\(layout.glyphs.count),"
            + "\"lines\":\(layout.lines.count),\"points\":\(job.points.count)}"
    }

    /// Draws a scene job (its answers from the snapshot `query` answers with); returns its summary line.
    func drawScene(_ line: JobLine, _ runner: JobRunner) throws(JobError) -> String {
        let job = try SceneJob(line.value, limits: runner.limits)
        let snapshot = try runner.snapshot(job, for: line)
        var picture = try ScenePicture(job, runner: runner, line: line)
        picture.samples.reserveCapacity(job.points.count)
        for (k, p) in job.points.enumerated() {
            if k & 255 == 255 && line.isPastDeadline {
                throw .timeLimit(seconds: runner.limits.maxSecondsPerJob, during: "answering point \(k) of \(job.points.count)")
            }
            let h = snapshot.hit(at: p, radius: job.radius)
            picture.samples.append(ScenePicture.Sample(point: p, node: h?.node, inside: h?.isInside ?? false))
        }
        try write(runner) { () throws(SVGFile.Failure) in
            try picture.write(to: svg, maxBytes: runner.limits.maxOutputBytesPerJob) { line.isPastDeadline }
        }
        return "{\"job\":\(job.idJSON),\"rendered\":\(JSONValue.quoted(svg)),\"nodes\":\(job.items.count),"
            + "\"points\":\(job.points.count)}"
    }

    /// Runs `write`, turning a picture's failure into the job's error.
    func write(_ runner: JobRunner, _ write: () throws(SVGFile.Failure) -> Void) throws(JobError) {
        do throws(SVGFile.Failure) {
            try write()
        } catch {
            switch error {
            case .pastDeadline:
                throw .timeLimit(seconds: runner.limits.maxSecondsPerJob, during: "writing \(svg) (removed)")
            case .tooLarge(let limit):
                throw .invalid(field: "the picture", problem: "would be more than \(limit) bytes (the output limit; \(svg) removed)")
            case .io(let message):
                throw .io(message)
            }
        }
    }
}
