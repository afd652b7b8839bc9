import Foundation
import InkJobs
import InkTestSupport

enum Fixture {
    static let dir: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Fixtures"
    }()
    static func lines(_ name: String) throws -> [String] {
        let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

typealias Fonts = TestFonts

/// Runs job lines through a fresh runner; returns (output objects, per-job success flags).
func runJobs(_ lines: [String], tolerance: Double = 0.01) throws -> ([[String: Any]], [Bool]) {
    let runner = try JobRunner(tolerance: tolerance)
    var out: [[String: Any]] = []
    var ok: [Bool] = []
    for l in lines {
        ok.append(runner.run(line: l) { s in
            let obj = try? JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any]
            out.append(obj ?? ["unparseable": s])
        })
    }
    return (out, ok)
}
