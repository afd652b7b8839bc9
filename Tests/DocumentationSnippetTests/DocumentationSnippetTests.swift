import Foundation
import Testing

/// Every Swift block of the README, of the DocC articles and of the doc comments in Sources (```swift fences
/// in `///` lines) compiles and runs: `Snippets.generated.swift`
/// holds each block as a function (imports hoisted), and this test checks that it holds exactly the blocks
/// the documents have now, then runs them. After editing a block, regenerate the file with
/// `./inkhit snippets` (`INKHIT_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests`) and build
/// again. Blocks that are package manifests (`// swift-tools-version` first) are checked against
/// Package.swift instead: the products they name exist. A doc comment's block imports its own module and
/// InkGeometry implicitly, as code next to the symbol would.
struct DocumentationSnippetTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)                                  // Tests/DocumentationSnippetTests/<file>
        return parts.joined(separator: "/")
    }()

    struct Block: Equatable {
        var file: String
        var index: Int
        var source: String
        var isManifest: Bool { source.hasPrefix("// swift-tools-version") }
    }

    /// The Swift blocks of README.md, Sources/*/*.docc/*.md and the `///` comments of Sources/*/**.swift, in a
    /// stable order.
    static func extract() throws -> [Block] {
        try documentBlocks() + docCommentBlocks()
    }

    /// The ```swift blocks among `lines`, numbered from 1 in `file`.
    static func blocks(in lines: [String], file: String, prefix: String = "") -> [Block] {
        var blocks: [Block] = []
        var current: [String]? = nil
        var index = 0
        for line in lines {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if let c = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                index += 1
                blocks.append(Block(file: file, index: index,
                                    source: ((prefix.isEmpty ? [] : [prefix]) + c).joined(separator: "\n")))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The `///` lines of a Swift file, without the marker and its one following space; other lines end a
    /// comment and become empty lines, so that a fence never spans two comments.
    static func docCommentLines(_ text: String) -> [String] {
        text.components(separatedBy: "\n").map { line in
            let t = line.drop { $0 == " " }
            guard t.hasPrefix("///") else { return "" }
            let body = t.dropFirst(3)
            return String(body.hasPrefix(" ") ? body.dropFirst() : body)
        }
    }

    /// The Swift blocks of the doc comments in Sources/<module>/**/*.swift, with `import <module>` and
    /// `import InkGeometry` first.
    static func docCommentBlocks() throws -> [Block] {
        let sources = root + "/Sources"
        var blocks: [Block] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            guard let walk = FileManager.default.enumerator(atPath: sources + "/" + module) else { continue }
            let files = walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
            for file in files {
                let text = try String(contentsOfFile: sources + "/" + module + "/" + file, encoding: .utf8)
                guard text.contains("```swift") else { continue }
                let imports = Set(["InkGeometry", module]).sorted().map { "import \($0)" }.joined(separator: "\n")
                blocks += Self.blocks(in: docCommentLines(text), file: "Sources/\(module)/\(file)", prefix: imports)
            }
        }
        return blocks
    }

    /// The Swift blocks of README.md and Sources/*/*.docc/*.md, in a stable order.
    static func documentBlocks() throws -> [Block] {
        var files = ["README.md"]
        let sources = root + "/Sources"
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            let dir = sources + "/" + module
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where entry.hasSuffix(".docc") {
                for article in try FileManager.default.contentsOfDirectory(atPath: dir + "/" + entry).sorted()
                    where article.hasSuffix(".md") {
                    files.append("Sources/\(module)/\(entry)/\(article)")
                }
            }
        }
        var blocks: [Block] = []
        for file in files {
            let lines = try String(contentsOfFile: root + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            blocks += Self.blocks(in: lines, file: file)
        }
        return blocks
    }

    static func functionName(_ b: Block) -> String {
        let base = b.file.replacingOccurrences(of: "Sources/", with: "").replacingOccurrences(of: ".docc", with: "")
            .replacingOccurrences(of: ".md", with: "").replacingOccurrences(of: ".swift", with: "")
        return base.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() + "_\(b.index)"
    }

    /// The generated file for `blocks`.
    static func generate(_ blocks: [Block]) -> String {
        var imports = Set<String>()
        var functions = "", table = ""
        for b in blocks where !b.isManifest {
            var body: [String] = []
            for line in b.source.components(separatedBy: "\n") {
                if line.hasPrefix("import ") { imports.insert(line) } else { body.append(line) }
            }
            let name = functionName(b)
            functions += "\n    /// \(b.file), Swift block \(b.index).\n    @Sendable static func \(name)() throws {\n"
            functions += body.map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n") + "\n    }\n"
            table += "        Snippet(file: \"\(b.file)\", index: \(b.index), source: ##\"\"\"\n\(b.source)\n\"\"\"##, run: \(name)),\n"
        }
        return """
        // Generated by DocumentationSnippetTests from the Swift blocks of README.md, the DocC articles and the doc
        // comments in Sources: do not
        // edit. After changing a block, run `./inkhit snippets` and build again.
        \(imports.sorted().joined(separator: "\n"))

        enum Snippets {
            struct Snippet: Sendable {
                let file: String
                let index: Int
                let source: String
                let run: @Sendable () throws -> Void
            }

            static let all: [Snippet] = [
        \(table)    ]
        \(functions)}

        """
    }

    @Test func generatedFileHoldsTheDocumentsBlocks() throws {
        let blocks = try Self.extract()
        #expect(blocks.filter { $0.file == "README.md" && !$0.isManifest }.count >= 3, "the README shows Swift code")
        let path = Self.root + "/Tests/DocumentationSnippetTests/Snippets.generated.swift"
        let fresh = Self.generate(blocks)
        if ProcessInfo.processInfo.environment["INKHIT_UPDATE_SNIPPETS"] == "1" {
            try fresh.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let current = try String(contentsOfFile: path, encoding: .utf8)
        #expect(current == fresh, "Snippets.generated.swift is stale: run ./inkhit snippets, then build again")
        let compiled = Snippets.all.map { Block(file: $0.file, index: $0.index, source: $0.source) }
        #expect(compiled == blocks.filter { !$0.isManifest }, "the compiled snippets are not the documents' blocks")
    }

    @Test func everySnippetRuns() throws {
        #expect(!Snippets.all.isEmpty)
        for s in Snippets.all {
            do { try s.run() } catch { Issue.record("\(s.file) block \(s.index) threw: \(error)") }
        }
    }

    /// Manifest blocks name products that Package.swift declares, and the platforms it declares.
    @Test func manifestBlocksNameRealProducts() throws {
        let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        let manifests = try Self.extract().filter(\.isManifest)
        #expect(!manifests.isEmpty, "a Package.swift snippet shows how to depend on the package")
        for m in manifests {
            for piece in m.source.components(separatedBy: ".product(name: \"").dropFirst() {
                let name = String(piece.prefix { $0 != "\"" })
                #expect(manifest.contains(".library(name: \"\(name)\""), "\(m.file): product \(name) is not in Package.swift")
            }
            #expect(m.source.contains("platforms: [.macOS(.v13)]") == manifest.contains("platforms: [.macOS(.v13)]"))
        }
    }
}
