// Every public symbol of the library modules has a doc comment.
//
// Usage: swift scripts/doc-coverage.swift SYMBOLGRAPH_DIR [MODULE ...]
//
// Reads the symbol graphs `swift package dump-symbol-graph` writes (MODULE.symbols.json and the extension
// graphs MODULE@Other.symbols.json) and lists public symbols without a doc comment. A symbol implementing a
// requirement of a documented protocol (an `OutlineSink` method, `description`, `==`, `hash(into:)`) counts
// as documented: DocC shows the requirement's documentation for it. Exits 1 when anything is missing.
import Foundation

let stdlibRequirements: Set<String> = ["description", "==(_:_:)", "hash(into:)", "<(_:_:)", "next()", "init(rawValue:)",
                                       "rawValue", "init(integerLiteral:)", "distance(to:)", "advanced(by:)", "id"]
let args = CommandLine.arguments.dropFirst()
guard let directory = args.first else { print("usage: doc-coverage.swift SYMBOLGRAPH_DIR [MODULE ...]"); exit(2) }
let modules = args.count > 1 ? Array(args.dropFirst()) : ["InkGeometry", "InkHit", "InkFreeType", "InkText", "InkJobs"]
let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
var missing = Set<String>()
var total = 0
for module in modules {
    var symbols: [String: [String: Any]] = [:]
    var relationships: [[String: Any]] = []
    for f in files where f.hasSuffix(".symbols.json") && String(f.split(separator: ".")[0].split(separator: "@")[0]) == module {
        guard let data = FileManager.default.contents(atPath: directory + "/" + f),
              let graph = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
        for s in graph["symbols"] as? [[String: Any]] ?? [] {
            if let usr = (s["identifier"] as? [String: Any])?["precise"] as? String { symbols[usr] = s }
        }
        relationships += graph["relationships"] as? [[String: Any]] ?? []
    }
    guard !symbols.isEmpty else { print("no symbol graph for \(module) in \(directory)"); exit(2) }
    func hasDocs(_ s: [String: Any]) -> Bool {
        let lines = ((s["docComment"] as? [String: Any])?["lines"] as? [[String: Any]]) ?? []
        return lines.contains { (($0["text"] as? String) ?? "").contains { !$0.isWhitespace } }
    }
    func title(_ s: [String: Any]) -> String { ((s["names"] as? [String: Any])?["title"] as? String) ?? "?" }
    var documentedRequirements = stdlibRequirements
    for r in relationships where ["requirementOf", "optionalRequirementOf"].contains(r["kind"] as? String ?? "") {
        if let s = symbols[r["source"] as? String ?? ""], hasDocs(s) { documentedRequirements.insert(title(s)) }
    }
    for (usr, s) in symbols {
        guard ["public", "open"].contains(s["accessLevel"] as? String ?? ""), !usr.contains("::SYNTHESIZED::") else { continue }
        total += 1
        if hasDocs(s) || documentedRequirements.contains(title(s)) { continue }
        let path = (s["pathComponents"] as? [String] ?? []).joined(separator: ".")
        let kind = ((s["kind"] as? [String: Any])?["displayName"] as? String) ?? "?"
        var where_ = "?"
        if let loc = s["location"] as? [String: Any], let uri = loc["uri"] as? String {
            let line = ((loc["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
            where_ = uri.replacingOccurrences(of: "file://" + FileManager.default.currentDirectoryPath + "/", with: "") + ":\(line)"
        }
        missing.insert("\(module): \(path) (\(kind)) at \(where_)")
    }
}
for m in missing.sorted() { print(m) }
print("\(missing.count) of \(total) public symbols have no documentation")
exit(missing.isEmpty ? 0 : 1)
