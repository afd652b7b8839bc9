import Foundation
import Testing
import InkGeometry
import InkHit
import InkFreeType
import InkText
import InkScene
import InkJobs
import InkTestSupport

/// Scene jobs: a card with a text label, an enlarged close button and a star path, answered as worked out
/// by hand from the boxes; the same scene built through the library answers every point of a grid alike;
/// bad scenes get an error line naming the node, and the next job runs.
@Suite struct SceneJobTests {
    static func number(_ v: Any?) -> Double? { jsonNumber(v) }

    static let card = #"{"id":"s1","fonts":[{"path":"\#(Fonts.sans)"}],"scene":{"id":"screen","bounds":[0,0,320,200],"pointerEvents":"box-none","children":[{"id":"card","bounds":[0,0,300,120],"transform":[1,0,0,1,10,40],"shape":{"roundRect":12},"children":[{"id":"label","bounds":[0,0,200,30],"transform":[1,0,0,1,12,12],"shape":{"text":{"text":"Tap the link","size":20,"links":[{"start":8,"end":12,"tag":"url"}]}}},{"id":"close","bounds":[0,0,16,16],"transform":[1,0,0,1,276,8],"minSize":[44,44]},{"id":"star","bounds":[0,0,20,20],"transform":[1,0,0,1,250,80],"shape":{"path":"M10 0 L13 7 L20 7 L14 12 L16 20 L10 15 L4 20 L6 12 L0 7 L7 7 Z"}}]}]},"radius":4,"points":[[280,70],[30,62],[5,5],[270,130],[150,150],[11,41]]}"#

    @Test func answersFollowTheRule() throws {
        let (out, ok) = try runJobs([Self.card])
        #expect(ok == [true])
        try #require(out.count == 6)
        // (280, 70): card-local (270, 30), close-local (−6, 22): the 16 px button grown to 44 (−14…30).
        #expect(out[0]["node"] as? String == "close" && out[0]["path"] as? [String] == ["screen", "card", "close"])
        #expect(Self.number(out[0]["distance"]) == -8, "8 px inside the grown box's left edge")
        // (30, 62): on the card, 20 px from its left edge.
        #expect(out[1]["node"] as? String == "card" && Self.number(out[1]["distance"]) == -20)
        #expect(out[2]["hit"] as? Bool == false, "the screen is box-none")
        // (270, 130): the star's centre, local (10, 10).
        #expect(out[3]["node"] as? String == "star" && out[3]["local"] as? [Double] == [10, 10])
        #expect(out[4]["node"] as? String == "card")
        // (11, 41): card-local (1, 1), in the rounded corner's cut (radius 12), 4 px from the arc: the card by distance.
        #expect(out[5]["node"] as? String == "card" && (Self.number(out[5]["distance"]) ?? 0) > 0)
    }

    /// A scene's glyph nodes take their shapes from the runner's cache (bounded by the runner), not from
    /// `FontShapeCache.shared`: the runner's own fresh cache holds the glyphs' shapes after the job, and a
    /// point on the glyphs' ink hits the glyph node.
    @Test func glyphNodesUseTheRunnersCache() throws {
        let cache = FontShapeCache(maxBytes: 8 << 20)
        let runner = try JobRunner(tolerance: HitIndex.defaultTolerance, cache: cache)
        #expect(cache.count == 0)
        // Two "H"s of 100 px, drawn with their ink (the default hole policy); (15, -30) is on the left stem.
        let hID = try #require(try TestFonts.load(TestFonts.sans).glyph(for: "H")).rawValue
        let job = #"{"id":"g1","fonts":[{"path":"\#(Fonts.sans)"}],"scene":{"id":"root","bounds":[-10,-120,400,200],"pointerEvents":"box-none","children":[{"id":"word","bounds":[0,-100,200,120],"shape":{"glyphs":{"size":100,"glyphs":[{"font":0,"id":\#(hID),"x":0,"y":0},{"font":0,"id":\#(hID),"x":90,"y":0}]}}}]},"points":[[-5,-110]],"radius":0}"#
        var lines: [String] = []
        #expect(runner.run(line: job) { lines.append($0) }, "\(lines)")
        #expect(cache.count >= 1, "the glyph node's shape is in the runner's cache")
        #expect(cache.byteCount > 0 && cache.byteCount <= 8 << 20)
    }

    @Test func theLibraryAnswersTheSameEverywhere() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let label = try TextLayout(text: "Tap the link", style: TextStyle(fonts: [sans], size: 20),
                                   links: [TextLink(range: 8..<12, tag: "url")])
        var scene = Scene(root: Node(id: "screen", bounds: Rect(minX: 0, minY: 0, maxX: 320, maxY: 200), pointerEvents: .boxNone))
        try scene.add(Node(id: "card", bounds: Rect(minX: 0, minY: 0, maxX: 300, maxY: 120), transform: .translation(10, 40),
                           shape: .roundRect(radius: 12)), to: "screen")
        try scene.add(Node(id: "label", bounds: Rect(minX: 0, minY: 0, maxX: 200, maxY: 30), transform: .translation(12, 12),
                           shape: .text(label)), to: "card")
        try scene.add(Node(id: "close", bounds: Rect(minX: 0, minY: 0, maxX: 16, maxY: 16), transform: .translation(276, 8),
                           minSize: (44, 44)), to: "card")
        let star = try SVGPathData.elements("M10 0 L13 7 L20 7 L14 12 L16 20 L10 15 L4 20 L6 12 L0 7 L7 7 Z")
        try scene.add(Node(id: "star", bounds: Rect(minX: 0, minY: 0, maxX: 20, maxY: 20), transform: .translation(250, 80),
                           shape: .path(star, fillRule: .nonZero)), to: "card")
        let snapshot = try scene.snapshot()
        var points: [String] = []
        var grid: [Point] = []
        for y in stride(from: 0.5, to: 200, by: 3.7) { for x in stride(from: 0.5, to: 320, by: 3.7) { grid.append(Point(x, y)); points.append("[\(x),\(y)]") } }
        let job = Self.card.replacingOccurrences(of: #""points":[[280,70],[30,62],[5,5],[270,130],[150,150],[11,41]]"#,
                                                 with: #""points":[\#(points.joined(separator: ","))]"#)
        let (out, ok) = try runJobs([job])
        #expect(ok == [true] && out.count == grid.count)
        var labelHits = 0
        for (k, p) in grid.enumerated() {
            let want = snapshot.hit(at: p, radius: 4)
            #expect(out[k]["node"] as? String == want?.node, "point \(p)")
            #expect(out[k]["link"] as? String == want?.text?.link, "point \(p)")
            if want?.node == "label" { labelHits += 1 }
        }
        #expect(labelHits > 20, "the grid crosses the label's ink")
    }

    static let badScenes: [(String, String, String)] = [
        ("duplicate id", #"{"id":"b","scene":{"id":"a","bounds":[0,0,10,10],"children":[{"id":"a","bounds":[0,0,1,1]}]},"points":[[1,1]]}"#, #"node "a": "id" is used by another node"#),
        ("negative size", #"{"id":"b","scene":{"id":"a","bounds":[0,0,10,-1]},"points":[[1,1]]}"#, #"node "a": "bounds" width and height must be ≥ 0"#),
        ("missing bounds", #"{"id":"b","scene":{"id":"a","children":[]},"points":[[1,1]]}"#, #"node "a": missing "bounds""#),
        ("node without id", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"children":[{"bounds":[0,0,1,1]}]},"points":[]}"#, "a.children[0].id must be a string, got nothing"),
        ("unknown shape", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"shape":{"star":5}},"points":[]}"#, "has no known shape"),
        ("arc in a path", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"shape":{"path":"M0 0 A 1 1 0 0 0 5 5"}},"points":[]}"#, "arcs (A) are not supported"),
        ("bad path", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"shape":{"path":"L 5 5"}},"points":[]}"#, "must start with a move"),
        ("bad pointerEvents", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"pointerEvents":"sometimes"},"points":[]}"#, "must be auto, none, box-none or box-only"),
        ("alpha above 1", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"alpha":2},"points":[]}"#, "must be in 0…1"),
        ("singular transform", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"transform":[0,0,0,0,1,1]},"points":[]}"#, "is singular"),
        ("huge bounds", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1e300,1]},"points":[]}"#, "bounds[2] 1e+300 is out of range"),
        ("text without fonts", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"shape":{"text":{"text":"hi","size":10}}},"points":[]}"#, "missing \"fonts\""),
        ("bad holes", #"{"id":"b","fonts":[{"path":"\#(Fonts.sans)"}],"scene":{"id":"a","bounds":[0,0,1,1],"shape":{"text":{"text":"hi","size":10,"holes":"some"}}},"points":[]}"#, "must be ink, filledCounters or wordHull"),
        ("mask without size", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"shape":{"mask":{}}},"points":[]}"#, "width and height must be ≥ 1"),
        ("mask with bad base64", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"shape":{"mask":{"width":2,"height":1,"alpha":"A*8="}}},"points":[]}"#, "shape.mask.alpha is not valid base64"),
        ("mask of the wrong size", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"shape":{"mask":{"width":2,"height":2,"alpha":"AP8="}}},"points":[]}"#, "has 2 bytes, not width × height = 4"),
        ("mask threshold 0", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"shape":{"mask":{"width":2,"height":1,"alpha":"AP8=","threshold":0}}},"points":[]}"#, "must be 1…255"),
        ("children not an array", #"{"id":"b","scene":{"id":"a","bounds":[0,0,1,1],"children":{}},"points":[]}"#, #""children" must be an array"#),
    ]

    @Test(arguments: badScenes.indices)
    func badScenesNameTheNodeAndTheNextJobRuns(_ i: Int) throws {
        let (name, line, fragment) = Self.badScenes[i]
        let (out, ok) = try runJobs([line, BadJobTests.good])
        #expect(ok == [false, true], "\(name)")
        let err = out.first?["error"] as? String ?? ""
        #expect(err.contains(fragment), "\(name): \(err)")
        #expect(out.count == 3, "\(name): one error line, then the good job's two answers")
    }

    /// A mask of two pixels, transparent then opaque ("AP8=" is 0x00 0xFF), stretched over 100 × 40: the
    /// right half is hit, the left half is not, and 3 px left of the middle is 3 px from the mask.
    @Test func maskJob() throws {
        let line = #"{"id":"m","scene":{"id":"a","bounds":[0,0,100,40],"shape":{"mask":{"width":2,"height":1,"alpha":"AP8="}}},"radius":5,"points":[[75,20],[25,20],[47,20]]}"#
        let (out, ok) = try runJobs([line])
        #expect(ok == [true] && out.count == 3)
        #expect(out[0]["node"] as? String == "a" && (Self.number(out[0]["distance"]) ?? 0) < 0)
        #expect(out[1]["hit"] as? Bool == false)
        #expect(out[2]["node"] as? String == "a" && Self.number(out[2]["distance"]) == 3)
    }

    /// The node limit counts every node before any is built.
    @Test func nodeLimit() throws {
        let runner = JobRunner()
        runner.limits.maxNodes = 2
        var out: [String] = []
        let line = #"{"id":"n","scene":{"id":"a","bounds":[0,0,9,9],"children":[{"id":"b","bounds":[0,0,1,1]},{"id":"c","bounds":[0,0,1,1]}]},"points":[[1,1]]}"#
        #expect(!runner.run(line: line) { out.append($0) })
        #expect(out.count == 1 && out[0].contains("more than 2 scene nodes"), "\(out)")
    }
}

/// `SVGPathData`: commands absolute and relative, implicit repeats, reflected controls, and errors.
@Suite struct SVGPathDataTests {
    @Test func commands() throws {
        let e = try SVGPathData.elements("M1,2 l3 0 h2 v-1 V5 H0 z m10 10 20 0 Q 1 1 2 2 T 4 4 C 1 1 2 2 3 3 S 5 5 6 6 c1e1-1 .5.5 1,1 Z")
        #expect(e == [.move(Point(1, 2)), .line(Point(4, 2)), .line(Point(6, 2)), .line(Point(6, 1)), .line(Point(6, 5)),
                      .line(Point(0, 5)), .close, .move(Point(11, 12)), .line(Point(31, 12)),
                      .quad(control: Point(1, 1), to: Point(2, 2)), .quad(control: Point(3, 3), to: Point(4, 4)),
                      .cubic(control1: Point(1, 1), control2: Point(2, 2), to: Point(3, 3)),
                      .cubic(control1: Point(4, 4), control2: Point(5, 5), to: Point(6, 6)),
                      .cubic(control1: Point(16, 5), control2: Point(6.5, 6.5), to: Point(7, 7)), .close])
    }

    @Test(arguments: [("", 0), ("L1 1", 0), ("M1", 2), ("M1 1 X", 5), ("M1 1 Z 3", 7), ("M 1e999 1", 2), ("M1 1 a1 1 0 0 0 2 2", 5)])
    func errors(_ d: String, _ offset: Int) throws {
        if d.isEmpty { #expect(try SVGPathData.elements(d).isEmpty); return }
        let e = #expect(throws: SVGPathError.self) { try SVGPathData.elements(d) }
        #expect(e?.offset == offset, "\(d): \(String(describing: e))")
    }
}
