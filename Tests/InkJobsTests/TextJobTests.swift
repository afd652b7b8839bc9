import Foundation
import Testing
import InkJobs

/// Text jobs: answers carry characters and links, and `ink-hit layout`'s glyph job answers the same.
struct TextJobTests {
    static let fonts = #"[{"path":"\#(Fonts.sans)"},{"path":"\#(Fonts.cjk)"}]"#

    static func points(_ w: Double, _ h: Double, step: Double) -> String {
        var p: [String] = []
        var y = 0.5
        while y < h { var x = 0.5; while x < w { p.append("[\(x),\(y)]"); x += step }; y += step }
        return "[" + p.joined(separator: ",") + "]"
    }

    static let jobs: [String] = [
        #"{"id":"latin","text":"AVATAR office Wave: tap the link, not the gap.","fonts":\#(fonts),"size":18,"width":220,"links":[{"start":27,"end":31,"tag":"L"}],"radius":0,"points":\#(points(240, 70, step: 1.7))}"#,
        #"{"id":"mixed","text":"Hello שלום 漢字テスト e\u0301 𝖠𝖡 \uFFFC end","fonts":\#(fonts),"size":20,"width":200,"attachments":[{"at":25,"width":18,"ascent":14,"descent":3,"tag":"img"}],"radius":3.5,"points":\#(points(220, 80, step: 1.9))}"#,
        #"{"id":"rot","text":"Rotated text wraps, too.","fonts":\#(fonts),"size":16,"width":120,"transform":[0.866,0.5,-0.5,0.866,60,10],"radius":2,"points":\#(points(200, 160, step: 2.3))}"#,
        #"{"id":"cut","text":"One two three four five six seven eight nine ten","fonts":\#(fonts),"size":16,"width":120,"maxLines":2,"points":\#(points(140, 50, step: 1.3))}"#,
    ]

    @Test(arguments: jobs.indices)
    func layoutGlyphJobAnswersLikeTheTextJob(_ i: Int) throws {
        let runner = JobRunner()
        var textAnswers: [[String: Any]] = []
        let ok = runner.run(line: Self.jobs[i]) { textAnswers.append(try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]) }
        #expect(ok, "\(textAnswers.first ?? [:])")
        let job = try TextJob(try JSONParser.parse(Self.jobs[i]))
        let glyphJob = runner.glyphJobJSON(job, try runner.layout(job))
        var glyphAnswers: [[String: Any]] = []
        #expect(runner.run(line: glyphJob) { glyphAnswers.append(try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]) })
        #expect(textAnswers.count == glyphAnswers.count)
        var hits = 0, compared = 0
        for (t, g) in zip(textAnswers, glyphAnswers) where t["attachment"] is NSNull || t["attachment"] == nil {
            compared += 1
            #expect(t["hit"] as? Bool == g["hit"] as? Bool, "point \(t["i"]!)")
            #expect(t["glyph"] as? Int == g["glyph"] as? Int, "point \(t["i"]!)")
            if t["hit"] as? Bool == true { hits += 1 }
        }
        #expect(hits > 20 && compared > 100)
    }

    @Test func textAnswersNameCharactersLinesAndLinks() throws {
        var out: [[String: Any]] = []
        let runner = JobRunner()
        #expect(runner.run(line: Self.jobs[0]) { out.append(try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]) })
        let linkHits = out.filter { $0["link"] as? String == "L" }
        #expect(!linkHits.isEmpty)
        for h in linkHits {
            let r = h["utf16"] as! [Int]
            #expect(r[0] >= 27 && r[1] <= 31)
        }
        // "office" is shaped with the ffi ligature: hits on it name the f, f or i under the point.
        let lig = out.filter { ($0["utf16"] as? [Int]).map { $0[0] >= 9 && $0[1] <= 12 } ?? false }
        #expect(Set(lig.compactMap { ($0["utf16"] as? [Int])?[0] }).count >= 2)
    }
}
