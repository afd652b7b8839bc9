import Foundation
import InkJobs
import InkTestSupport
import Testing

/// The vocabulary table (docs/vocabulary.md) names every key the JSON answers carry and every field of the C
/// answer structs: a key or field added without a row (or a row's word renamed) fails here.
struct VocabularyTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// Column `column` (0: concept) of every row of every table in docs/vocabulary.md.
    static func column(_ column: Int) throws -> String {
        let text = try String(contentsOfFile: root + "/docs/vocabulary.md", encoding: .utf8)
        var cells: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("|") && !line.hasPrefix("|---") {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            if parts.count > column + 1 { cells.append(parts[column + 1]) }
        }
        return cells.joined(separator: "\n")
    }

    /// The words written in backquotes in `text`, and each dotted word's last part (`inkhit_hit.inside` →
    /// `inside`).
    static func codeWords(_ text: String) -> Set<String> {
        var out = Set<String>()
        for (i, piece) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() where i % 2 == 1 {
            out.insert(String(piece))
            if let last = piece.split(separator: ".").last { out.insert(String(last)) }
        }
        return out
    }

    /// One job of each kind: glyphs with a decoration, text with a link, an attachment and an underline, a
    /// scene with a text node; points on a grid over all of them (hits, misses, radius-only hits); and a job
    /// with a negative radius (an error line).
    static var jobs: [String] {
        let fonts = #"[{"path":"\#(TestFonts.sans)"}]"#
        func grid(_ w: Int, _ h: Int, step: Double) -> String {
            var pts: [String] = []
            for j in 0..<h { for i in 0..<w { pts.append("[\(Double(i) * step),\(Double(j) * step)]") } }
            return "[" + pts.joined(separator: ",") + "]"
        }
        let glyph = #"{"id":"g","fonts":\#(fonts),"size":40,"glyphs":[{"font":0,"id":82,"x":0,"y":40},{"font":0,"id":43,"x":30,"y":40}],"#
            + #""decorations":[{"kind":"underline","rect":[0,44,60,3]}],"radius":2,"points":\#(grid(32, 26, step: 2))}"#
        let text = #"{"id":"t","text":"Tap \#u{FFFC} the link","fonts":\#(fonts),"size":20,"#
            + #""links":[{"start":10,"end":14,"tag":"url"}],"attachments":[{"at":4,"width":20,"ascent":16,"descent":4,"tag":"img"}],"#
            + #""runs":[{"start":0,"end":3,"underline":"single"}],"radius":1.5,"points":\#(grid(80, 15, step: 2))}"#
        let scene = #"{"id":"s","fonts":\#(fonts),"scene":{"id":"root","bounds":[0,0,200,60],"pointerEvents":"box-none","#
            + #""children":[{"id":"label","bounds":[0,0,150,30],"shape":{"text":{"text":"Tap the link","size":20,"#
            + #""links":[{"start":8,"end":12,"tag":"url"}]}}},{"id":"dot","bounds":[160,10,20,20],"shape":{"ellipse":true}}]},"#
            + #""radius":1,"points":\#(grid(50, 15, step: 4))}"#
        let failing = #"{"id":"bad","fonts":\#(fonts),"size":40,"glyphs":[],"radius":-1,"points":[[0,0]]}"#
        return [glyph, text, scene, failing]
    }

    @Test func everyJSONAnswerKeyIsInTheTable() throws {
        let (out, ok) = try runJobs(Self.jobs)
        #expect(ok == [true, true, true, false], "\(out.filter { $0["error"] != nil })")
        var keys = Set<String>()
        for line in out { keys.formUnion(line.keys) }
        // The keys the table must cover include the new ones, and the grid reaches every kind of answer.
        for k in ["job", "i", "hit", "glyph", "placement", "inside", "distance", "decoration", "utf16", "char", "line",
                  "link", "attachment", "node", "path", "local", "error"] {
            #expect(keys.contains(k), "no answer carried \"\(k)\"")
        }
        let json = try Self.column(3)
        for k in keys.sorted() {
            #expect(json.contains("`\"\(k)\"`"), "the JSON column of docs/vocabulary.md lacks `\"\(k)\"`")
        }
    }

    /// `"placement"` repeats `"glyph"`; `"inside"` agrees with the sign of `"distance"` (away from 0) and is
    /// false on a miss.
    @Test func placementAndInsideAgreeWithGlyphAndDistance() throws {
        let (out, _) = try runJobs(Self.jobs)
        var inside = 0, near = 0
        for a in out where a["error"] == nil {
            #expect((a["placement"] as? NSNumber) == (a["glyph"] as? NSNumber), "\(a)")
            #expect((a["placement"] is NSNull) == (a["glyph"] is NSNull), "\(a)")
            guard a["hit"] as? Bool == true else {
                #expect(a["inside"] as? Bool == false, "\(a)")
                continue
            }
            let d = try #require(a["distance"] as? Double)
            if abs(d) > 1e-3 { #expect(a["inside"] as? Bool == (d < 0), "\(a)") }
            if a["inside"] as? Bool == true { inside += 1 } else { near += 1 }
        }
        #expect(inside > 20 && near > 20, "the grid reaches the ink and the radius (\(inside), \(near))")
    }

    /// Every field of the C answer structs, read from inkhit.h's text, is named in the C column.
    @Test func everyCAnswerFieldIsInTheTable() throws {
        let header = try String(contentsOfFile: Self.root + "/Sources/CInkHit/include/inkhit.h", encoding: .utf8)
        let words = Self.codeWords(try Self.column(2))
        for name in ["inkhit_hit", "inkhit_text_hit", "inkhit_scene_hit"] {
            let fields = try Self.fields(of: name, in: header)
            #expect(fields.count >= 4, "\(name): \(fields)")
            for f in fields { #expect(words.contains(f), "the C column of docs/vocabulary.md lacks \(name).\(f)") }
        }
    }

    /// The member names of `typedef struct name { … } name;` in `header` (comments dropped).
    static func fields(of name: String, in header: String) throws -> [String] {
        let start = try #require(header.range(of: "typedef struct \(name) {"))
        let end = try #require(header.range(of: "} \(name);", range: start.upperBound..<header.endIndex))
        var body = String(header[start.upperBound..<end.lowerBound])
        while let c = body.range(of: "/*"), let e = body.range(of: "*/", range: c.upperBound..<body.endIndex) {
            body.removeSubrange(c.lowerBound..<e.upperBound)
        }
        var out: [String] = []
        for decl in body.split(separator: ";") {
            let words = decl.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" || $0 == "*" })
            guard words.count >= 2 else { continue }
            // `type a, b`: every word after the type's is a name (the type is one word in these structs).
            out += words.dropFirst().map(String.init)
        }
        return out
    }
}
