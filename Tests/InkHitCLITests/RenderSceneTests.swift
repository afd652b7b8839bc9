import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkTestSupport

/// `ink-hit render` on scene jobs: the SVG parses as XML, holds one dot per point in the colour of the node
/// `ink-hit query` answers for it (the oracle: the other subcommand on the same file), a dark rim exactly on
/// the points hit within the radius only, a group per target and none for a hidden node, a clip path per
/// clipping node; the summary line; bad scenes' error lines; which job is "first"; the output limit.
@Suite("ink-hit render: scene jobs", .timeLimit(.minutes(10)))
struct RenderSceneTests {
    /// A clipped card holding a text leaf with a link and an ellipse that spills out of the card (clipped),
    /// a 20 × 20 button with minSize 44 × 44, an ellipse avatar, a hidden node and a transparent one (its id
    /// in need of XML escapes), under a box-none root.
    static func scene(_ id: String, radius: Double = 3, points: [(Double, Double)]) -> String {
        #"{"id":\#(Jobs.quoted(id)),"fonts":[{"path":\#(Jobs.quoted(TestFonts.sans))}],"scene":{"id":"root","bounds":[0,0,200,160],"pointerEvents":"box-none","children":[{"id":"card","bounds":[0,0,150,60],"transform":[1,0,0,1,10,10],"shape":{"roundRect":8},"children":[{"id":"label","bounds":[0,0,130,24],"transform":[1,0,0,1,8,8],"shape":{"text":{"text":"Open the link","size":16,"links":[{"start":9,"end":13,"tag":"L"}]}}},{"id":"spill","bounds":[0,0,40,40],"transform":[1,0,0,1,130,40],"shape":{"ellipse":true}}]},{"id":"button","bounds":[0,0,20,20],"transform":[1,0,0,1,30,100],"minSize":[44,44]},{"id":"avatar","bounds":[0,0,36,36],"transform":[1,0,0,1,90,92],"shape":{"ellipse":true}},{"id":"ghost","bounds":[0,0,60,20],"transform":[1,0,0,1,140,120],"hidden":true},{"id":"faded <&>","bounds":[0,0,30,20],"transform":[1,0,0,1,150,90],"alpha":0}]},"radius":\#(radius),"points":\#(Jobs.points(points))}"#
    }
    /// Off the integer grid the boxes lie on, so no point is exactly on a region's edge.
    static let grid = Jobs.grid(1.3, 1.3, step: 4, 50, 40)

    /// What the render's SVG says: each target's colour (`<g data-node>`), the points' circles in order,
    /// element counts.
    final class SceneSVG: SVGCounter {
        var nodeColors: [String: String] = [:]
        var points: [(fill: String, rimmed: Bool)] = []
        private var stack: [String] = []     // open elements' ids ("" for none)

        static func read(_ data: Data) -> SceneSVG { SceneSVG().run(data) }

        override func started(_ name: String, _ a: [String: String]) {
            if name == "g", let node = a["data-node"] { nodeColors[node] = a["fill"] }
            if name == "circle", stack.last == "points" { points.append((a["fill"] ?? "", a["stroke"] != nil)) }
            stack.append(a["id"] ?? "")
        }
        override func ended(_ name: String) { stack.removeLast() }
    }

    @Test func sceneDotsHaveTheColoursOfQuerysAnswers() async throws {
        let s = try Scratch()
        defer { s.remove() }
        let svg = s.path + "/scene.svg"
        let input = try s.file("scene.jsonl", Self.scene("sc", points: Self.grid) + "\n")
        let r = try await CLI.run(["render", input, "--svg", svg])
        #expect(r.status == 0 && !r.signaled, "\(r.summary)")
        try #require(r.lines.count == 1, "\(r.lines)")
        let summary = try Jobs.object(r.lines[0])
        #expect(Set(summary.keys) == ["job", "rendered", "nodes", "points"], "\(r.lines[0])")
        #expect(summary["job"] as? String == "sc" && summary["rendered"] as? String == svg)
        #expect(summary["nodes"] as? Int == 8 && summary["points"] as? Int == Self.grid.count, "\(r.lines[0])")

        let data = try Data(contentsOf: URL(fileURLWithPath: svg))
        #expect(String(decoding: data.prefix(4), as: UTF8.self) == "<svg")
        let doc = SceneSVG.read(data)
        #expect(doc.error == nil, "\(String(describing: doc.error))")
        #expect(doc.root == "svg")
        // Targets each have a group and their own colour; the nodes taken out and the box-none root have none.
        #expect(Set(doc.nodeColors.keys) == ["card", "label", "spill", "button", "avatar"], "\(doc.nodeColors)")
        #expect(Set(doc.nodeColors.values).count == doc.nodeColors.count, "colours are distinct: \(doc.nodeColors)")
        // The root and the card clip their children.
        #expect(doc.counts["clipPath"] == 2, "\(doc.counts)")
        try #require(doc.points.count == Self.grid.count, "\(doc.points.count) circles in #points")

        let q = try await CLI.run(["query", input])
        #expect(q.status == 0, "\(q.summary)")
        try #require(q.lines.count == Self.grid.count)
        var missFills = Set<String>(), byNode: [String: Int] = [:], near = 0
        for (i, line) in q.lines.enumerated() {
            let a = try Jobs.object(line)
            #expect(a["i"] as? Int == i)
            let dot = doc.points[i]
            if let node = a["node"] as? String {
                byNode[node, default: 0] += 1
                #expect(dot.fill == doc.nodeColors[node], "point \(i) hits \(node): dot \(dot.fill), node \(doc.nodeColors[node] ?? "-")")
                let distance = try #require(Jobs.number(a["distance"]))
                if abs(distance) > 1e-3 {
                    #expect(dot.rimmed == (distance > 0), "point \(i) at distance \(distance): rim \(dot.rimmed)")
                }
                if distance > 0 { near += 1 }
            } else {
                missFills.insert(dot.fill)
                #expect(!dot.rimmed, "point \(i) is a miss")
            }
        }
        // One colour for misses, no target's; every target hit; some hits by the radius only; the text's
        // link hit (through its node).
        #expect(missFills.count == 1 && !doc.nodeColors.values.contains(missFills.first ?? ""), "\(missFills)")
        #expect(Set(byNode.keys) == Set(doc.nodeColors.keys), "\(byNode)")
        #expect(byNode["ghost"] == nil && byNode["faded <&>"] == nil && near > 20, "\(near) near hits")
        #expect(q.lines.contains { $0.contains(#""link":"L""#) })
    }

    /// A bad scene gets one error line naming its node and the next scene job is drawn; status 1.
    @Test func badScenesGetAnErrorLineNamingTheNode() async throws {
        let s = try Scratch()
        defer { s.remove() }
        let svg = s.path + "/scene.svg"
        let good = Self.scene("good", points: [(20, 20), (199, 1)])
        for (bad, fragment) in [
            (#"{"id":"dup","scene":{"id":"a","bounds":[0,0,10,10],"children":[{"id":"a","bounds":[0,0,1,1]}]},"points":[[1,1]]}"#,
             #"node \"a\": \"id\" is used by another node"#),
            (#"{"id":"neg","scene":{"id":"a","bounds":[0,0,10,10],"children":[{"id":"b","bounds":[0,0,-1,5]}]},"points":[[1,1]]}"#,
             #"node \"b\": \"bounds\" width and height must be ≥ 0"#),
            (#"{"id":"shape","scene":{"id":"a","bounds":[0,0,10,10],"children":[{"id":"c","bounds":[0,0,1,1],"shape":{"star":5}}]},"points":[[1,1]]}"#,
             #"node \"c\": \"shape\" has no known shape"#),
            (#"{"id":"b64","scene":{"id":"m","bounds":[0,0,10,10],"shape":{"mask":{"width":2,"height":1,"alpha":"!!"}}},"points":[[1,1]]}"#,
             #"node \"m\": shape.mask.alpha is not valid base64"#),
            (#"{"id":"inf","scene":{"id":"t","bounds":[0,0,10,10],"transform":[1,0,0,1,1e400,0]},"points":[[1,1]]}"#,
             #"node \"t\""#),
        ] {
            try? FileManager.default.removeItem(atPath: svg)
            let r = try await CLI.run(["render", try s.file("bad.jsonl", bad + "\n" + good + "\n"), "--svg", svg])
            #expect(r.status == 1 && !r.signaled, "\(bad): \(r.summary)")
            try #require(r.lines.count == 2, "\(r.lines)")
            let e = try Jobs.object(r.lines[0])
            #expect(e.count == 2 && (e["error"] as? String)?.contains(fragment.replacingOccurrences(of: "\\\"", with: "\"")) == true,
                    "\(r.lines[0]) should contain \(fragment)")
            #expect(try Jobs.object(r.lines[1])["rendered"] as? String == svg)
            #expect(SceneSVG.read(try Data(contentsOf: URL(fileURLWithPath: svg))).points.count == 2)
        }
        // Only a bad scene: nothing drawn, no file, status 1.
        try? FileManager.default.removeItem(atPath: svg)
        let bad = #"{"id":"dup","scene":{"id":"a","bounds":[0,0,10,10],"children":[{"id":"a","bounds":[0,0,1,1]}]},"points":[[1,1]]}"#
        let r = try await CLI.run(["render", try s.file("only.jsonl", bad + "\n"), "--svg", svg])
        #expect(r.status == 1 && r.lines.count == 1 && r.err.contains("no text or scene job"), "\(r.summary)")
        #expect(!FileManager.default.fileExists(atPath: svg))
    }

    /// Without --id the first text or scene job is drawn (a glyph job before it gets its error line); with
    /// --id a scene job among text jobs; a picture over --max-output-bytes is refused and removed.
    @Test func firstJobIdAndOutputLimit() async throws {
        let s = try Scratch()
        defer { s.remove() }
        let svg = s.path + "/pic.svg"
        let input = try s.file("mixed.jsonl", [
            Jobs.glyph("g", points: [(1, 1)]),
            Self.scene("s", points: Jobs.grid(2, 2, step: 10, 5, 4)),
            Jobs.text("t", points: [(2, 2)]),
        ].joined(separator: "\n") + "\n")
        let first = try await CLI.run(["render", input, "--svg", svg])
        #expect(first.status == 1, "the glyph job failed: \(first.summary)")
        try #require(first.lines.count == 3, "\(first.lines)")
        #expect((try Jobs.object(first.lines[0])["error"] as? String)?.contains("not glyph jobs") == true, "\(first.lines[0])")
        #expect(try Jobs.object(first.lines[1])["nodes"] as? Int == 8, "\(first.lines[1])")
        #expect(first.lines[2].contains("\"skipped\""), "\(first.lines[2])")
        #expect(SceneSVG.read(try Data(contentsOf: URL(fileURLWithPath: svg))).points.count == 20)

        let textFirst = try s.file("textfirst.jsonl", Jobs.text("t", points: [(2, 2)]) + "\n" + Self.scene("s", points: [(3, 3)]) + "\n")
        let byId = try await CLI.run(["render", textFirst, "--svg", svg, "--id", "s"])
        #expect(byId.status == 0, "\(byId.summary)")
        try #require(byId.lines.count == 2)
        #expect(byId.lines[0].contains("\"skipped\""), "\(byId.lines[0])")
        #expect(try Jobs.object(byId.lines[1])["nodes"] as? Int == 8, "\(byId.lines[1])")

        try? FileManager.default.removeItem(atPath: svg)
        let big = try s.file("big.jsonl", Self.scene("big", points: Self.grid) + "\n")
        let limited = try await CLI.run(["render", big, "--svg", svg, "--max-output-bytes", "20000"])
        #expect(limited.status == 1 && limited.lines.count == 1, "\(limited.summary)")
        #expect(limited.lines.first?.contains("would be more than 20000 bytes") == true, "\(limited.lines)")
        #expect(!FileManager.default.fileExists(atPath: svg), "a refused picture is removed")
    }
}
