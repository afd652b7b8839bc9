// The invariants every job line must keep, shared by the job and scene fuzzers: every output line is valid
// JSON; a failed job's last line is its {"job":…,"error":…} line, after answers numbered from 0 (a job stopped
// while writing); a good job emits one answer per point, in order. A text job is also laid out as `ink-hit
// layout` does: the glyph job written is valid, fits the line limit or is refused, and `query` answers it; its
// lines, glyphs and answers lie inside the text, and line filling stays linear in it.

import InkGeometry
import InkHit
import InkJobs
import InkText

enum JobChecks {
    /// Layouts of more glyphs skip the `ink-hit layout` round trip (its glyph job is parsed and answered
    /// again: seconds for 100,000 glyphs under AddressSanitizer); their other invariants are checked.
    nonisolated(unsafe) static var maxRoundTripGlyphs = Int.max

    /// `ink-hit layout`: the glyph job of a text job parses as a glyph job with the layout's glyphs, and
    /// `query` answers it (it has no attachments' boxes, so only the number of answers is compared). The
    /// layout's lines and glyphs, and the job's `answers` (UTF-16 ranges, lines), lie inside the text; line
    /// filling (`TextLayout.lineFillingWork`) takes at most 6 steps per UTF-16 unit without exclusions (each
    /// planned line holds a cluster or is an empty paragraph, each cluster is visited at most twice — its word
    /// may spill from the line before — and each trailing space hung once).
    static func checkLayout(_ runner: JobRunner, _ text: TextJob, answers: [JSONValue] = []) {
        let layout: TextLayout
        do { layout = try runner.layout(text) } catch {
            // Laid out again under the job's limit: a machine busier now than for the run may stop it there.
            if case .timeLimit = error { return }
            violated("a text job answered but not laid out: \(error)")
        }
        let n = text.text.utf16.count
        for l in layout.lines where l.utf16.lowerBound < 0 || l.utf16.upperBound > n {
            violated("line \(l.utf16) outside the text (\(n) units)")
        }
        for g in layout.glyphs where g.utf16.upperBound > n || g.line < 0 || g.line >= layout.lines.count || !g.x.isFinite || !g.y.isFinite {
            violated("glyph \(g) outside the text (\(n) units) or its \(layout.lines.count) lines")
        }
        if text.paragraph.exclusions.isEmpty && layout.lineFillingWork > 6 * (n + 1) {
            violated("line filling took \(layout.lineFillingWork) steps for \(n) units")
        }
        for a in answers {
            guard case .bool(true)? = a["hit"] else { continue }
            guard case .array(let r)? = a["utf16"], r.count == 2, case .number(let lo, _) = r[0], case .number(let hi, _) = r[1],
                  case .number(let line, _)? = a["line"] else { violated("a text hit without its range and line: \(a.serialized)") }
            if lo < 0 || hi > Double(n) || lo > hi || line < 0 || line >= Double(layout.lines.count) {
                violated("a hit outside the text (\(n) units, \(layout.lines.count) lines): \(a.serialized)")
            }
        }
        guard layout.glyphs.count <= maxRoundTripGlyphs else { return }
        let line = runner.glyphJobJSON(text, layout)
        guard line.utf8.count <= runner.limits.maxLineBytes else { return }      // `layout` refuses it
        guard let value = try? JSONParser.parse(line) else { violated("layout wrote invalid JSON: \(line.prefix(200))") }
        let glyphJob: GlyphJob
        do { glyphJob = try GlyphJob(value, limits: runner.limits) } catch {
            violated("layout wrote a glyph job query refuses: \(error) in \(line.prefix(200))")
        }
        if glyphJob.glyphs.count != layout.glyphs.count { violated("layout wrote \(glyphJob.glyphs.count) of \(layout.glyphs.count) glyphs") }
        var answers = 0
        if !runner.run(line: line, emit: { _ in answers += 1 }) || answers != text.points.count {
            violated("query did not answer the glyph job layout wrote (\(answers) of \(text.points.count) answers)")
        }
    }

    /// Runs `line` and checks its output; returns how long the run itself took (wall clock, and CPU seconds of
    /// the process), without the checks after it, which parse the line again with no deadline.
    @discardableResult
    static func runLine(_ runner: JobRunner, _ line: String) -> (wall: Duration, cpu: Double) {
        var out: [String] = []
        let start = ContinuousClock.now, cpuStart = processCPUSeconds()
        let ok = runner.run(line: line) { out.append($0) }
        let took = (wall: ContinuousClock.now - start, cpu: processCPUSeconds() - cpuStart)
        check(runner, line, ok: ok, out: out)
        return took
    }

    /// The invariants of one line's output `out` (`ok`: the runner's result).
    static func check(_ runner: JobRunner, _ line: String, ok: Bool, out: [String]) {
        var parsed: [JSONValue] = []
        for o in out {
            do { parsed.append(try JSONParser.parse(o)) } catch { violated("output is not JSON: \(o) (\(error))") }
        }
        if !ok {
            guard let last = parsed.last, case .string(let message)? = last["error"], !message.isEmpty, last["job"] != nil else {
                violated("a failed job must end with an error line, got \(out.suffix(2))")
            }
            for (i, a) in parsed.dropLast().enumerated() {
                guard case .number(let n, _)? = a["i"], n == Double(i), a["error"] == nil else {
                    violated("before a failed job's error line only its answers from 0: \(out[i])")
                }
            }
            return
        }
        // A good job: as many answers as points, numbered 0…n-1, each with the job id.
        guard let value = try? JSONParser.parse(line) else { violated("the runner accepted invalid JSON: \(line.prefix(200))") }
        if value["scene"] != nil {
            guard let scene = try? SceneJob(value, limits: runner.limits) else {
                violated("the runner accepted a scene job the parser refuses: \(line.prefix(200))")
            }
            if parsed.count != scene.points.count { violated("\(scene.points.count) points but \(parsed.count) answers") }
            for (i, a) in parsed.enumerated() {
                guard case .number(let n, _)? = a["i"], n == Double(i), a["job"]?.serialized == scene.idJSON,
                      case .bool(let hit)? = a["hit"] else { violated("bad answer line \(out[i])") }
                if hit, case .number(let d, _)? = a["distance"], d > scene.radius + 1e-3 { violated("hit beyond the radius: \(out[i])") }
                if hit, case .string(let node)? = a["node"], !scene.items.contains(where: { $0.node.id == node }) {
                    violated("answer names a node the scene does not have: \(out[i])")
                }
            }
            return
        }
        if value["glyphs"] == nil, let text = try? TextJob(value, limits: runner.limits) {
            if parsed.count != text.points.count { violated("\(text.points.count) points but \(parsed.count) answers") }
            for (i, a) in parsed.enumerated() {
                guard case .number(let n, _)? = a["i"], n == Double(i), a["job"]?.serialized == text.idJSON,
                      case .bool? = a["hit"] else { violated("bad answer line \(out[i])") }
            }
            checkLayout(runner, text, answers: parsed)
            return
        }
        guard let job = try? GlyphJob(value, limits: runner.limits) else {
            violated("the runner accepted a job the parser refuses: \(line.prefix(200))")
        }
        if parsed.count != job.points.count { violated("\(job.points.count) points but \(parsed.count) answers") }
        for (i, a) in parsed.enumerated() {
            guard case .number(let n, _)? = a["i"], n == Double(i), a["job"]?.serialized == job.idJSON,
                  case .bool(let hit)? = a["hit"] else { violated("bad answer line \(out[i])") }
            switch (hit, a["glyph"], a["distance"]) {
            case (false, .null?, .null?): break
            case (true, .number(let g, _)?, .number(let d, _)?):
                if g < 0 || g >= Double(job.glyphs.count) || !d.isFinite { violated("bad hit \(out[i])") }
                if d > job.radius + 1e-3 { violated("hit beyond the radius: \(out[i]), radius \(job.radius)") }
            case (true, .null?, .number(let d, _)?):
                // A hit on a decoration: no glyph, and the kind of one of the job's decorations.
                guard case .string(let kind)? = a["decoration"],
                      job.decorations.contains(where: { $0.kind.rawValue == kind }), d.isFinite else {
                    violated("bad decoration hit \(out[i])")
                }
                if d > job.radius + 1e-3 { violated("hit beyond the radius: \(out[i]), radius \(job.radius)") }
            default: violated("bad answer line \(out[i])")
            }
            if !job.points[i].isFinite && hit { violated("non-finite point hit: \(out[i])") }
        }
    }
}
