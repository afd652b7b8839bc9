import Foundation
import Testing
import InkJobs
import InkTestSupport

/// The styled text jobs (Fixtures/styled-*.jsonl, made by scripts/curve_exact/make_styled_jobs.py from an
/// independent Python layout: uharfbuzz per run, fontTools for the post, OS/2 and hhea tables, reference.py's
/// exact outlines and hit rule): runs, decorations, line height, paragraph spacing, indent and links, at
/// three transforms and radii 0, 2 and 3.5.
struct StyledFixtureTests {
    static func objects(_ name: String) throws -> [[String: Any]] {
        try Fixture.lines(name).map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    /// The layout is the reference's: every glyph (font, id, size, cluster, position), every decoration
    /// rectangle and every baseline.
    @Test func layoutMatchesTheReference() throws {
        let jobs = try Fixture.lines("styled-jobs.jsonl"), layouts = try Self.objects("styled-layout.jsonl")
        try #require(jobs.count == layouts.count && jobs.count == 6)
        let runner = JobRunner()
        for (line, expected) in zip(jobs, layouts) {
            let job = try TextJob(try JSONParser.parse(line))
            let l = try runner.layout(job)
            let eg = expected["glyphs"] as! [[String: Any]], ed = expected["decorations"] as! [[String: Any]]
            try #require(l.glyphs.count == eg.count, "\(job.idJSON): \(l.glyphs.count) glyphs vs \(eg.count)")
            for (g, e) in zip(l.glyphs, eg) {
                let u = e["utf16"] as! [Int]
                #expect(g.font == e["font"] as! Int && Int(g.id.rawValue) == e["id"] as! Int && g.size == e["size"] as! Double
                        && g.utf16 == u[0]..<u[1], "\(job.idJSON) glyph at \(u)")
                #expect(isClose(g.x, (e["x"] as! Double), within: 1e-6) && isClose(g.y, (e["y"] as! Double), within: 1e-6),
                        "\(job.idJSON) glyph at \(u): (\(g.x), \(g.y)) vs (\(e["x"]!), \(e["y"]!))")
            }
            try #require(l.decorations.count == ed.count, "\(job.idJSON): \(l.decorations.count) decorations vs \(ed.count)")
            for (d, e) in zip(l.decorations, ed) {
                let r = e["rect"] as! [Double], u = e["utf16"] as! [Int]
                #expect(d.kind.rawValue == e["kind"] as! String && d.utf16 == u[0]..<u[1] && d.line == e["line"] as! Int)
                for (a, b) in [(d.rect.minX, r[0]), (d.rect.minY, r[1]), (d.rect.width, r[2]), (d.rect.height, r[3])] {
                    #expect(isClose(a, b, within: 1e-6), "\(job.idJSON) \(d.kind) at \(u): \(d.rect) vs \(r)")
                }
            }
            for (line, e) in zip(l.lines, expected["lines"] as! [[String: Any]]) {
                #expect(isClose(line.baseline, (e["baseline"] as! Double), within: 1e-6) && isClose(line.box.minY, (e["top"] as! Double), within: 1e-6))
            }
        }
    }

    /// Every point at least 0.05 px from a deciding boundary gets the reference's answer: hit, glyph,
    /// decoration, character, line and link; and the glyph job `ink-hit layout` writes answers the same.
    @Test func answersMatchCurveExactOnes() throws {
        let jobs = try Fixture.lines("styled-jobs.jsonl")
        let expected = try Self.objects("styled-expected.jsonl")
        let (got, ok) = try runJobs(jobs)
        #expect(ok.allSatisfy { $0 })
        try #require(got.count == expected.count)
        let runner = JobRunner()
        let glyphJobs = try jobs.map { line in
            let job = try TextJob(try JSONParser.parse(line))
            return runner.glyphJobJSON(job, try runner.layout(job))
        }
        let (viaGlyphJobs, ok2) = try runJobs(glyphJobs)
        #expect(ok2.allSatisfy { $0 } && viaGlyphJobs.count == expected.count)
        var checked = 0, decorations = 0, links = 0
        for ((g, e), v) in zip(zip(got, expected), viaGlyphJobs) {
            guard (e["boundary_margin"] as! Double) >= 0.05 else { continue }
            checked += 1
            let at = "job \(e["job"]!) point \(e["i"]!)"
            #expect(g["hit"] as? Bool == e["hit"] as? Bool, "\(at)")
            #expect(g["glyph"] as? Int == e["glyph"] as? Int, "\(at)")
            #expect(g["decoration"] as? String == e["decoration"] as? String, "\(at)")
            #expect(g["utf16"] as? [Int] == e["utf16"] as? [Int] && g["char"] as? Int == e["char"] as? Int, "\(at)")
            #expect(g["line"] as? Int == e["line"] as? Int && g["link"] as? String == e["link"] as? String, "\(at)")
            #expect(v["hit"] as? Bool == e["hit"] as? Bool && v["glyph"] as? Int == e["glyph"] as? Int
                    && v["decoration"] as? String == e["decoration"] as? String, "glyph job, \(at)")
            if let d = g["distance"] as? Double, let od = e["outline_distance"] as? Double, !(e["inside"] as! Bool) {
                #expect(isClose(d, od, within: 0.0111), "distance, \(at)")
            }
            if e["decoration"] is String { decorations += 1 }
            if e["decoration"] is String && e["link"] is String { links += 1 }
        }
        // Of 4,200 points: those with margin ≥ 0.05, those on decorations, those on link underlines.
        #expect(checked > 3000 && decorations > 300 && links > 30, "\(checked) \(decorations) \(links)")
    }
}
