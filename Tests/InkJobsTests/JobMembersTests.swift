import Foundation
import InkFreeType
import InkJobs
import Testing

/// Unknown members of every job format are found wherever they are (oracle: the paths written here by
/// hand), known ones never are (every fixture and example job is clean), and the font entries `ink-hit
/// layout` writes read back as the style they came from.
@Suite struct JobMembersTests {
    static func unknown(_ line: String) throws -> [String] { JobMembers.unknown(in: try JSONParser.parse(line)) }

    @Test func unknownMembersAreNamedByTheirPaths() throws {
        let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        #expect(try Self.unknown(#"{"id":1,"fonts":[{"path":"\#(sans)","emboldn":1}],"size":9,"glyphs":[{"font":0,"id":3,"x":0,"y":0,"colour":1}],"radious":2,"points":[]}"#)
                == [#""radious""#, "fonts[0].emboldn", "glyphs[0].colour"])
        #expect(try Self.unknown(#"{"id":1,"text":"a","fonts":[{"path":"x"}],"size":9,"links":[{"start":0,"end":1,"tag":"t","href":"u"}],"attachments":[{"at":0,"width":1,"ascent":1,"tag":"i","alt":"x"}],"widht":4,"points":[]}"#)
                == [#""widht""#, "links[0].href", "attachments[0].alt"])
        #expect(try Self.unknown(#"{"id":1,"scene":{"id":"r","bounds":[0,0,1,1],"visible":true,"children":[{"id":"c","bounds":[0,0,1,1],"shape":{"ellipse":true,"rx":2}},{"id":"t","bounds":[0,0,1,1],"shape":{"text":{"text":"a","size":9,"color":1,"links":[{"start":0,"end":1,"tag":"t","x":1}]}}},{"id":"g","bounds":[0,0,1,1],"shape":{"glyphs":{"size":9,"glyphs":[{"font":0,"id":1,"x":0,"y":0,"z":1}],"fill":1}}},{"id":"m","bounds":[0,0,1,1],"shape":{"mask":{"width":1,"height":1,"alpha":"AA==","treshold":3}}}]},"points":[],"colour":1}"#)
                == [#""colour""#, "scene.visible", "scene.children[0].shape.rx", "scene.children[1].shape.text.color",
                    "scene.children[1].shape.text.links[0].x", "scene.children[2].shape.glyphs.fill",
                    "scene.children[2].shape.glyphs.glyphs[0].z", "scene.children[3].shape.mask.treshold"])
    }

    /// Every job the repository ships (fixtures, fuzz seeds, the C/Python examples' jobs) uses known members
    /// only, except the fixtures' documentation member `"note"`.
    @Test func theShippedJobsAreClean() throws {
        var dirs = [Fixture.dir]
        dirs.append(Fixture.dir + "/../../../Fuzz/corpus/jobs")
        var checked = 0
        for dir in dirs {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".jsonl") && !name.contains("expected")
                && !name.hasSuffix("-layout.jsonl") {      // references (answers, reference layouts), not jobs
                let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    guard let v = try? JSONParser.parse(String(line)) else { continue }
                    let found = JobMembers.unknown(in: v).filter { $0 != #""note""# }
                    #expect(found.isEmpty, "\(name): \(found)")
                    checked += 1
                }
            }
        }
        #expect(checked > 50)
    }

    /// A font entry's style survives `glyphJobJSON` exactly: only the members that differ from the plain
    /// style are written (a plain style with an alpha threshold gets no `embolden`, which would ask FreeType
    /// to embolden by 0).
    @Test(arguments: [GlyphStyle(), GlyphStyle(alphaThreshold: 1), GlyphStyle(embolden: .uniform(0.5)),
                      GlyphStyle(embolden: .strength(x: 0.25, y: 0.75), oblique: 0.2), GlyphStyle(embolden: .freeType, hinting: .full),
                      GlyphStyle(oblique: GlyphStyle.freeTypeOblique, alphaThreshold: 0.25), GlyphStyle(hinting: .light)])
    func fontEntriesReadBackAsTheirStyle(_ style: GlyphStyle) throws {
        let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let text = try TextJob(try JSONParser.parse(#"{"id":"s","text":"Hi","fonts":[{"path":"\#(sans)"}],"size":20,"points":[[1,1]]}"#))
        var job = text
        job.fonts[0].style = style
        let runner = JobRunner()
        let line = runner.glyphJobJSON(job, try runner.layout(job))
        let glyphJob = try GlyphJob(try JSONParser.parse(line))
        #expect(glyphJob.fonts[0].style == style, "\(line.prefix(200))")
        #expect(!line.contains("\"embolden\"") || style.embolden != .none)
    }

    /// A scene job's regions are held to `maxShapeBytesPerJob`, estimated before they are built.
    @Test func sceneRegionsAreHeldToTheJobsShapeBytes() throws {
        let runner = JobRunner()
        runner.limits.maxShapeBytesPerJob = 200_000
        var out: [String] = []
        let line = #"{"id":"big","scene":{"id":"r","bounds":[0,0,10,10],"children":[{"id":"e","bounds":[0,0,4000,4000],"shape":{"ellipse":true}}]},"points":[[1,1]]}"#
        #expect(!runner.run(line: line) { out.append($0) })
        #expect(out.count == 1 && out[0].contains(#"node \"e\": the scene's shapes would need more than 200000 bytes (the limit)"#), "\(out)")
        runner.limits = JobLimits()
        out = []
        #expect(runner.run(line: line) { out.append($0) }, "\(out)")
    }
}
