import Foundation

/// The repository's own text, for the tests that hold documentation to the code (the vocabulary, the doc lint,
/// the length of functions): files by folder and extension, and the names Swift sources declare — a
/// declaration scan, not a parser, precise enough for "does a type or member of this name exist".
public enum SourceScan {
    /// The repository's root (this file is Tests/InkTestSupport/SourceScan.swift).
    public static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The files under the repository folders `folders` (paths relative to the root) whose names end with one of
    /// `suffixes`, skipping build folders (`.build*`), dependencies and every path containing one of `skipping`.
    public static func files(under folders: [String], suffixes: [String], skipping: [String] = []) -> [String] {
        var out: [String] = []
        for folder in folders {
            guard let walk = FileManager.default.enumerator(atPath: root + "/" + folder) else { continue }
            for case let path as String in walk {
                let full = folder + "/" + path
                if path.split(separator: "/").contains(where: { $0.hasPrefix(".build") || $0 == ".swiftpm" || $0 == "__pycache__" }) {
                    continue
                }
                guard suffixes.contains(where: { path.hasSuffix($0) }), !skipping.contains(where: { full.contains($0) }) else { continue }
                out.append(full)
            }
        }
        return out.sorted()
    }

    /// The text of the repository file at `path` (relative to the root).
    public static func text(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// What Swift sources under `folders` declare: `types` (the names after `struct`, `class`, `enum`,
    /// `protocol`, `actor`, `typealias`) and `names` (those, and the names after `var`, `let`, `func` and every
    /// name of a `case a, b(x: T)` list; `init` always).
    public static func declarations(in folders: [String]) throws -> (types: Set<String>, names: Set<String>) {
        var types = Set<String>(), names: Set<String> = ["init"]
        let typeKeywords: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        let memberKeywords: Set<Substring> = ["var", "let", "func", "case"]
        for file in files(under: folders, suffixes: [".swift"]) {
            for line in try text(file).split(separator: "\n") {
                let code = line.prefix { $0 != "/" }     // comments and what follows a slash are not declarations
                let words = code.split(whereSeparator: { " (:<{=,".contains($0) })
                for (k, w) in words.enumerated() where k + 1 < words.count {
                    let next = String(words[k + 1]).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                    if typeKeywords.contains(w) { types.insert(next); names.insert(next) }
                    if memberKeywords.contains(w) { names.insert(next) }
                }
                // `case a, b, c`: every name of the list.
                if let r = code.range(of: "case ") {
                    for item in code[r.upperBound...].split(separator: ",") {
                        let n = item.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                        if !n.isEmpty { names.insert(String(n)) }
                    }
                }
            }
        }
        return (types, names)
    }

    /// Whether `word` occurs in `text` as a whole identifier.
    public static func containsWord(_ word: String, in text: String) -> Bool {
        var from = text.startIndex
        while let r = text.range(of: word, range: from..<text.endIndex) {
            let before = r.lowerBound == text.startIndex ? " " : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? " " : text[r.upperBound]
            if !(before.isLetter || before.isNumber || before == "_") && !(after.isLetter || after.isNumber || after == "_") {
                return true
            }
            from = r.upperBound
        }
        return false
    }
}
