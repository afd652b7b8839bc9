import Foundation
import InkTestSupport
import Testing

/// Comments and documents that name what does not exist fail here: a `.swift` file that is not in the
/// repository, or a backquoted `Type.member` whose type is one of this repository's and whose members are
/// declared nowhere. Read: the comments of Sources', Tests', Benchmarks' and Fuzz's Swift files (`//` and `///`),
/// their C headers and sources, and every Markdown file but the benchmarks' dated history
/// (docs/benchmark-history.md names files as they were then).
///
/// The file check knows every file of the repository by name (and by path, where a comment gives one that
/// resolves from the root). The symbol check resolves a reference `A.b.c(d:)` by its components: `A` must be a
/// type declared in the repository's Swift (else it is someone else's — `String.Index`, `FT_Outline.points` —
/// and is left alone), and `b` and `c` must each be declared somewhere in it (a declaration scan, not a type
/// checker: a member of the wrong type is not caught; a name that exists nowhere is).
struct DocLintTests {
    static let swiftFolders = ["Sources", "Tests", "Benchmarks", "Fuzz"]

    /// The documentation text of every file the lint reads: comments of Swift files, all of C and Markdown.
    static func documentation() throws -> [(file: String, line: Int, text: String)] {
        var out: [(String, Int, String)] = []
        for file in SourceScan.files(under: swiftFolders + ["docs", "scripts", "examples", "adapters", "python"],
                                     suffixes: [".swift", ".h", ".c", ".md"], skipping: ["docs/benchmark-history.md"]) {
            let isSwift = file.hasSuffix(".swift")
            for (k, line) in try SourceScan.text(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard isSwift else { out.append((file, k + 1, String(line))); continue }
                if let c = line.range(of: "//") { out.append((file, k + 1, String(line[c.upperBound...]))) }
            }
        }
        for file in ["README.md", "BENCHMARKS.md"] {
            for (k, line) in try SourceScan.text(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                out.append((file, k + 1, String(line)))
            }
        }
        return out
    }

    /// `HitIndex.swift`, `GlyphShape+Sink.swift`, `Sources/InkHit/Shape/GlyphShape.swift`: every `.swift` name in the
    /// documentation is a file of the repository.
    @Test func everySwiftFileNamedExists() throws {
        let (problems, checked) = Self.missingFiles(in: try Self.documentation())
        #expect(problems.isEmpty, "\(problems.count) names of files that do not exist:\n\(problems.joined(separator: "\n"))")
        #expect(checked >= 40, "\(checked) file names checked")
    }

    /// Backquoted `Type.member` references whose type is this repository's name members that exist.
    @Test func everyTypeMemberNamedExists() throws {
        let (problems, checked) = try Self.missingMembers(in: try Self.documentation())
        #expect(problems.isEmpty, "\(problems.count) references to nothing:\n\(problems.joined(separator: "\n"))")
        #expect(checked >= 200, "\(checked) references checked")
    }

    /// The lint fails on what it is for: a comment naming a file that was renamed away and a member that was
    /// removed (the stale comments it was written after), and passes their present names.
    @Test func theLintCatchesStaleNames() throws {
        let stale = [("Sources/InkHit/X.swift", 1, " class codes in HitIndex+Rasterize.swift"),
                     ("Sources/InkHit/X.swift", 2, " see `GlyphShape.promotion` and `HitIndex.Builder.insertGlyph(_:)`"),
                     ("docs/x.md", 3, "Sources/InkHit/Shape/NoSuchFile.swift")]
        let files = Self.missingFiles(in: stale)
        #expect(files.problems.count == 2 && files.checked == 2, "\(files)")
        let members = try Self.missingMembers(in: stale)
        #expect(members.problems.count == 2 && members.checked == 2, "\(members)")
        let fine = [("Sources/InkHit/X.swift", 1, " see ClassRaster.swift, `GlyphShape.bounds`, `HitIndex.Builder.add(_:)`,"
                     + " `String.Index` and `FT_Outline.points`")]
        #expect(Self.missingFiles(in: fine).problems.isEmpty && Self.missingFiles(in: fine).checked == 1)
        let fineMembers = try Self.missingMembers(in: fine)
        #expect(fineMembers.problems.isEmpty && fineMembers.checked == 2, "\(fineMembers)")
    }

    /// The `.swift` names in `lines` that are no file of the repository, and how many names were checked.
    static func missingFiles(in lines: [(file: String, line: Int, text: String)]) -> (problems: [String], checked: Int) {
        let all = SourceScan.files(under: Self.swiftFolders + ["scripts", "examples", "python"], suffixes: [".swift"])
        let names = Set(all.map { String($0.split(separator: "/").last!) })
        var problems: [String] = [], checked = 0
        for (file, line, text) in lines {
            for mention in Self.swiftFileMentions(in: text) where !Self.namedElsewhere.contains(mention) {
                let base = String(mention.split(separator: "/").last!)
                let exists = FileManager.default.fileExists(atPath: SourceScan.root + "/" + mention) || names.contains(base)
                if !exists { problems.append("\(file):\(line) names \(mention), which is not in the repository") }
                checked += 1
            }
        }
        return (problems, checked)
    }

    /// The backquoted references in `lines` whose type is this repository's and some member of which is declared
    /// nowhere, and how many such references were checked.
    static func missingMembers(in lines: [(file: String, line: Int, text: String)]) throws -> (problems: [String], checked: Int) {
        let (types, names) = try Self.knownNames
        var problems: [String] = [], checked = 0
        for (file, line, text) in lines {
            for reference in Self.references(in: text) {
                let parts = reference.split(separator: ".").map(String.init)
                guard parts.count >= 2, types.contains(parts[0]) else { continue }
                for part in parts.dropFirst() where !names.contains(part) {
                    problems.append("\(file):\(line) names `\(reference)`: nothing named \(part) is declared")
                }
                checked += 1
            }
        }
        return (problems, checked)
    }

    /// The repository's Swift types, and every name a member reference may resolve to: what its Swift declares,
    /// and — because the same words name the Python binding's classes (`Builder.add_glyph`, `Node.clips_children`)
    /// and C's structs — the Python package's names (python/tests/api_names.txt) and inkhit.h's words.
    static var knownNames: (types: Set<String>, names: Set<String>) {
        get throws {
            let (types, swiftNames) = try SourceScan.declarations(in: Self.swiftFolders)
            var names = swiftNames
            for line in try SourceScan.text("python/tests/api_names.txt").split(separator: "\n") {
                names.formUnion(line.split(whereSeparator: { ".()\"".contains($0) }).map(String.init))
            }
            let header = try SourceScan.text("Sources/CInkHit/include/inkhit.h")
            names.formUnion(header.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
            return (types, names)
        }
    }

    /// Files a comment may name that are not this repository's: other projects' (the models the code follows) and
    /// the naming patterns themselves.
    static let namedElsewhere: Set<String> = ["Deque+Codable.swift", "Deque._UnsafeHandle.swift", "Heap+Invariants.swift",
                                              "Deque+Testing.swift", "CubicBezier+Flattening.swift", "Type+Concern.swift",
                                              "Type+Testing.swift"]

    /// The `.swift` file names in `text` (with the path before them, when one is written).
    static func swiftFileMentions(in text: String) -> [String] {
        var out: [String] = []
        var from = text.startIndex
        while let r = text.range(of: ".swift", range: from..<text.endIndex) {
            from = r.upperBound
            if r.upperBound < text.endIndex, text[r.upperBound].isLetter || text[r.upperBound].isNumber { continue }
            var start = r.lowerBound
            while start > text.startIndex {
                let c = text[text.index(before: start)]
                guard c.isLetter || c.isNumber || "_+-./".contains(c) else { break }
                start = text.index(before: start)
            }
            var name = String(text[start..<r.upperBound])
            while name.hasPrefix(".") || name.hasPrefix("/") { name.removeFirst() }
            if name.count > ".swift".count, !name.hasPrefix("swift") { out.append(name) }
        }
        return out
    }

    /// The backquoted references `A.b` or `A.b.c(d:)` in `text`, the call's labels dropped: identifiers joined by
    /// dots, the first one capitalized.
    static func references(in text: String) -> [String] {
        var out: [String] = []
        for (k, piece) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() where k % 2 == 1 {
            var item = Substring(piece)
            if let paren = item.firstIndex(of: "(") { item = item[..<paren] }
            guard item.contains("."), item.first?.isUppercase == true,
                  item.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }),
                  !item.hasSuffix("."), !item.contains(".."),
                  !["swift", "md", "h", "c", "py", "json", "jsonl", "txt", "sh"].contains(item.split(separator: ".").last!)
            else { continue }     // a file name, not a member
            out.append(String(item))
        }
        return out
    }
}
