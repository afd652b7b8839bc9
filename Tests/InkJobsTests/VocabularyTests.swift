import Foundation
import InkJobs
import InkTestSupport
import Testing

/// The vocabulary (docs/vocabulary.md) is one set of names, read against the code in every layer: the keys the JSON
/// answers carry and the keys jobs read; the fields of the C answer structs and every C name it gives; every Swift
/// `Type.member` it gives, and every public member of the answer types; every Python name it gives, against the
/// package's own list (python/tests/api_names.txt, kept equal to what `inspect` finds by
/// python/tests/test_api_names.py), and every public attribute of the Python answer types. A name added without
/// a row, a row naming what does not exist, or a word renamed in one layer only fails here.
struct VocabularyTests {
    static let root = SourceScan.root

    /// The rows of every table in docs/vocabulary.md, or of those under the `## ` headings whose title starts with
    /// one of `sections`: each row's cells (0: the concept), header and rule rows left out.
    static func rows(_ sections: [String]? = nil) throws -> [[String]] {
        let text = try String(contentsOfFile: root + "/docs/vocabulary.md", encoding: .utf8)
        var out: [[String]] = []
        var inSection = sections == nil
        var header = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                inSection = sections.map { $0.contains { line.dropFirst(3).hasPrefix($0) } } ?? true
                header = true
                continue
            }
            guard inSection, line.hasPrefix("|") else { continue }
            if line.hasPrefix("|---") { continue }
            if header { header = false; continue }
            let cells = line.replacingOccurrences(of: "\\|", with: "¦").split(separator: "|", omittingEmptySubsequences: false)
            out.append(cells.dropFirst().dropLast().map { $0.replacingOccurrences(of: "¦", with: "|") })
        }
        return out
    }

    /// Column `column` (0: concept) of every row of the tables under `sections` (all tables: nil), joined.
    static func column(_ column: Int, sections: [String]? = nil) throws -> String {
        try rows(sections).compactMap { $0.count > column ? $0[column] : nil }.joined(separator: "\n")
    }

    /// The tables with a column per layer (concept, Swift, C, JSON, Python).
    static let layerTables = ["The answer", "Inputs", "What the renderer drew", "What a renderer said"]

    /// The old spellings of `layer` in the table of deprecated names (docs/vocabulary.md, "Spellings before 1.3").
    static func deprecated(_ layer: String) throws -> Set<String> {
        var out = Set<String>()
        for row in try rows(["Spellings before"]) where row.count >= 2 && row[0].trimmingCharacters(in: .whitespaces) == layer {
            out.formUnion(codeWords(row[1]))
        }
        return out
    }

    /// The items written in backquotes in `text`, in order.
    static func codeItems(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
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
        let json = try Self.column(3, sections: ["The answer"])
        let old = try Self.deprecated("JSON")
        for k in keys.sorted() {
            #expect(json.contains("`\"\(k)\"`") || old.contains("\"\(k)\""),
                    "the JSON column of docs/vocabulary.md lacks `\"\(k)\"`")
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
        let words = Self.codeWords(try Self.column(2, sections: Self.layerTables)), old = try Self.deprecated("C")
        for name in ["inkhit_hit", "inkhit_text_hit", "inkhit_scene_hit"] {
            let fields = try Self.fields(of: name, in: header)
            #expect(fields.count >= 4, "\(name): \(fields)")
            for f in fields {
                #expect(words.contains(f) || old.contains("\(name).\(f)"), "the C column of docs/vocabulary.md lacks \(name).\(f)")
            }
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
        // A field kept under its 1.0 name shares storage with the new one (an anonymous union, the old name marked
        // INKHIT_DEPRECATED): both names are fields.
        while let d = body.range(of: "INKHIT_DEPRECATED("), let e = body.range(of: ")", range: d.upperBound..<body.endIndex) {
            body.removeSubrange(d.lowerBound..<e.upperBound)
        }
        body = body.replacingOccurrences(of: "union {", with: "").replacingOccurrences(of: "}", with: "")
        var out: [String] = []
        for decl in body.split(separator: ";") {
            let words = decl.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" || $0 == "*" })
            guard words.count >= 2 else { continue }
            // `type a, b`: every word after the type's is a name (the type is one word in these structs).
            out += words.dropFirst().map(String.init)
        }
        return out
    }

    // MARK: - Every layer's names exist

    /// Every C name the vocabulary gives (`inkhit_…`, `INKHIT_…`, `struct.field`) is in inkhit.h: a function,
    /// type or constant by its whole word, a field among its struct's fields.
    @Test func everyCNameExistsInTheHeader() throws {
        let header = try String(contentsOfFile: Self.root + "/Sources/CInkHit/include/inkhit.h", encoding: .utf8)
        var checked = 0
        for item in Self.codeItems(try Self.column(2, sections: Self.layerTables)) {
            guard item.hasPrefix("inkhit_") || item.hasPrefix("INKHIT_"),
                  item.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { continue }
            let parts = item.split(separator: ".").map(String.init)
            if parts.count == 2 {
                #expect(try Self.fields(of: parts[0], in: header).contains(parts[1]), "inkhit.h: \(parts[0]) has no field \(parts[1])")
            } else {
                #expect(SourceScan.containsWord(item, in: header), "inkhit.h has no \(item)")
            }
            checked += 1
        }
        #expect(checked >= 60, "\(checked) C names checked")
    }

    /// Every Swift `Type.member` (and `.case`) the vocabulary gives is declared in Sources: each component a type,
    /// case, member or initializer declared somewhere (a declaration scan: `struct`, `class`, `enum`, `protocol`,
    /// `typealias`, `var`, `let`, `func`, `case`); every public member of `Hit`, `TextHit` and `SceneHit` is named,
    /// or listed as a spelling before 1.3.
    @Test func everySwiftNameExistsInTheSources() throws {
        let declared = try SourceScan.declarations(in: ["Sources"]).names
        var checked = 0
        for item in Self.codeItems(try Self.column(1, sections: Self.layerTables)) {
            var name = item
            if let paren = name.firstIndex(of: "(") { name = String(name[..<paren]) }
            guard name.contains("."), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { continue }
            for part in name.split(separator: ".") {
                #expect(declared.contains(String(part)), "\(item): nothing named \(part) is declared in Sources")
            }
            checked += 1
        }
        #expect(checked >= 50, "\(checked) Swift names checked")
        let swift = Self.codeWords(try Self.column(1, sections: Self.layerTables)), old = try Self.deprecated("Swift")
        for (type, file) in [("Hit", "InkHit/Index/HitIndex.swift"), ("TextHit", "InkText/TextLayout+Hit.swift"),
                             ("SceneHit", "InkScene/SceneSnapshot.swift")] {
            let members = try Self.publicMembers(of: type, in: Self.root + "/Sources/" + file)
            #expect(members.count >= 3, "\(type): \(members)")
            for m in members {
                #expect(swift.contains("\(type).\(m)") || old.contains("\(type).\(m)"), "the Swift column lacks \(type).\(m)")
            }
        }
    }

    /// Every Python name the vocabulary gives is one the package has (python/tests/api_names.txt): `Name`,
    /// `Name.attribute`, `"value"`, or a bare parameter or record field; every public attribute of `Hit`, `TextHit`
    /// and `SceneHit` is named, or listed as a spelling before 1.3.
    @Test func everyPythonNameExistsInThePackage() throws {
        let list = try String(contentsOfFile: Self.root + "/python/tests/api_names.txt", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let names = Set(list)
        // The last word of every name: `Index.hits(non_finite)` gives non_finite, `HIT_DTYPE.hit` gives hit.
        let words = Set(list.map { $0.split(whereSeparator: { ".()".contains($0) }).last.map(String.init) ?? $0 })
        var checked = 0
        // Python's own words the column uses (`None`, `range`, `len`, `warnings.warn`) and other packages' (skia-python's
        // `skia.Font`) are not the package's.
        let builtins: Set<String> = ["None", "True", "False", "range", "len", "warnings.warn", "skia.Font"]
        for item in Self.codeItems(try Self.column(4, sections: Self.layerTables)) where !builtins.contains(item) {
            if item.hasPrefix("\"") && item.hasSuffix("\"") && item.count > 2 {
                #expect(names.contains(item), "the Python package takes or answers no \(item)")
            } else if item.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) {
                #expect(item.contains(".") ? names.contains(item) : (names.contains(item) || words.contains(item)),
                        "the Python package has no \(item)")
            } else { continue }
            checked += 1
        }
        #expect(checked >= 50, "\(checked) Python names checked")
        let python = Self.codeWords(try Self.column(4, sections: Self.layerTables)), old = try Self.deprecated("Python")
        for type in ["Hit", "TextHit", "SceneHit"] {
            let attributes = list.filter { $0.hasPrefix(type + ".") && !$0.contains("(") }
            #expect(attributes.count >= 3, "\(type): \(attributes)")
            for a in attributes { #expect(python.contains(a) || old.contains(a), "the Python column lacks \(a)") }
        }
    }

    /// Every JSON key and value of the inputs and glyph-style tables (`"clipsChildren"`, `"roundRect"`, `"box-none"`,
    /// `"perAxis"`) is a string the job reader or the scene it builds spells in its source, or a case of the glyph
    /// style's enums the reader decodes by raw value or name (GlyphStyle.swift).
    @Test func everyJSONInputIsReadByTheJobs() throws {
        var sources = ""
        for file in SourceScan.files(under: ["Sources/InkJobs", "Sources/InkScene"], suffixes: [".swift"])
            + ["Sources/InkFreeType/Placement/GlyphStyle.swift"] {
            sources += try SourceScan.text(file)
        }
        var checked = 0
        for item in Self.codeItems(try Self.column(3, sections: ["Inputs", "What the renderer drew"]))
        where item.hasPrefix("\"") && item.hasSuffix("\"") && item.count > 2 {
            #expect(sources.contains(item) || sources.contains("case \(item.dropFirst().dropLast())"),
                    "no job reads \(item)")
            checked += 1
        }
        #expect(checked >= 20, "\(checked) JSON inputs checked")
    }

    /// The public properties of `public struct name` in `file` (its own body, not nested types'), without the
    /// deprecated ones.
    static func publicMembers(of name: String, in file: String) throws -> [String] {
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("public struct \(name):") || $0.hasPrefix("public struct \(name) ") })
        else { return [] }
        var out: [String] = []
        var depth = 0, deprecated = false
        for line in lines[start...] {
            if depth == 1 {
                let t = line.trimmingCharacters(in: .whitespaces)
                if t.hasPrefix("@available(*, deprecated") { deprecated = true }
                for prefix in ["public var ", "public let "] where t.hasPrefix(prefix) {
                    let n = t.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !deprecated { out.append(String(n)) }
                    deprecated = false
                }
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            if depth == 0 && line.contains("}") { break }
        }
        return out
    }
}
