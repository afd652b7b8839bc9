import Foundation
import Testing
import InkJobs
import InkTestSupport

/// The fidelity fields of jobs: clamping is reported, `ink-hit layout` carries every field into the glyph job
/// it writes (the glyph job answers as the text job does), and the fields change the answers.
struct FidelityJobTests {
    static let text = #"{"id":"t","text":"Wave office","size":18,"fonts":[{"path":"\#(Fonts.interVariable)","variations":{"wght":780,"slnt":-6},"embolden":[1,0.5]},{"path":"\#(Fonts.sans)"}],"oblique":"freetype","hinting":"light","embolden":"freetype","radius":1,"points":[]}"#

    /// A grid of points over the text's first line.
    static func withPoints(_ job: String) -> String {
        var pts: [String] = []
        for y in stride(from: 2.0, through: 24, by: 0.7) { for x in stride(from: 0.0, through: 130, by: 0.9) { pts.append("[\(x),\(y)]") } }
        return job.replacingOccurrences(of: #""points":[]"#, with: #""points":["# + pts.joined(separator: ",") + "]")
    }

    @Test func clampedCoordinatesAreReported() throws {
        let runner = JobRunner()
        var warnings: [String] = []
        runner.warn = { warnings.append($0) }
        let job = #"{"id":"w","fonts":[{"path":"\#(Fonts.interVariable)","variations":{"wght":1200,"slnt":-4}}],"size":20,"glyphs":[{"font":0,"id":723,"x":0,"y":20}],"points":[[1,10]]}"#
        #expect(runner.run(line: job) { _ in })
        #expect(warnings == [#"job "w": fonts[0].variations: wght 1200 clamped to 900 (the axis range)"#])
    }

    @Test func layoutCarriesEveryFieldIntoTheGlyphJob() throws {
        let line = Self.withPoints(Self.text)
        let runner = JobRunner()
        var layoutJSON = ""
        let job = try TextJob(JSONParser.parse(line))
        layoutJSON = runner.glyphJobJSON(job, try runner.layout(job))
        #expect(layoutJSON.contains(#""variations":{"wght":780.0,"slnt":-6.0},"embolden":[1.0,0.5],"oblique":"freetype","hinting":"light""#))
        #expect(layoutJSON.contains(#""embolden":"freetype","oblique":"freetype","hinting":"light""#))
        let (textAnswers, _) = try runJobs([line])
        let (glyphAnswers, ok) = try runJobs([layoutJSON])
        #expect(ok == [true])
        try #require(textAnswers.count == glyphAnswers.count && textAnswers.count > 1000)
        var hits = 0
        for (t, g) in zip(textAnswers, glyphAnswers) {
            #expect(t["hit"] as? Bool == g["hit"] as? Bool && t["glyph"] as? Int == g["glyph"] as? Int, "point \(t["i"]!)")
            if t["hit"] as? Bool == true { hits += 1 }
        }
        #expect(hits > 100)
        // Every field changes the answers: the same text drawn plain differs.
        let plain = line.replacingOccurrences(of: #","variations":{"wght":780,"slnt":-6},"embolden":[1,0.5]"#, with: "")
            .replacingOccurrences(of: #""oblique":"freetype","hinting":"light","embolden":"freetype","#, with: "")
        #expect(plain != line)
        let (plainAnswers, _) = try runJobs([plain])
        let differing = zip(plainAnswers, textAnswers).filter { $0["hit"] as? Bool != $1["hit"] as? Bool }.count
        #expect(differing > 100, "\(differing)")
    }
}
