import Foundation
import Testing

/// Every C entry point that looks a handle up with `lookup` or `lookupHot` (which leave the handle protected by the calling
/// thread's hazard) ends that protection on every path: `defer { ihr_unprotect_in(thread) }` or
/// `defer { unprotect() }` before its first `lookup(`. A function that forgets makes every later release of that
/// handle wait forever (as `inkhit_layout_hit_decoration` once did), so this is checked on the source text of
/// Sources/InkHitC, where a new function is added.
struct HazardLintTests {
    /// The functions of `source` (split at each `func `) that call `lookup(` without a protection-ending
    /// `defer` before the call. `Handles.swift`'s own definitions are not calls and are skipped by the caller.
    static func forgetfulFunctions(in source: String) -> [String] {
        var result: [String] = []
        let pieces = source.components(separatedBy: "func ").dropFirst()
        for piece in pieces {
            let name = String(piece.prefix { $0 != "(" && $0 != "<" })
            guard let call = piece.range(of: "lookup(") ?? piece.range(of: "lookupHot(") else { continue }
            let before = piece[..<call.lowerBound]
            let ends = ["defer { ihr_unprotect_in(thread) }", "defer { unprotect() }"]
            if !ends.contains(where: { before.contains($0) }) { result.append(name) }
        }
        return result
    }

    @Test func everyLookupIsFollowedByItsUnprotect() throws {
        let folder = Header.repository + "/Sources/InkHitC"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        var checked = 0
        var forgetful: [String] = []
        for file in files where file != "Handles.swift" {
            let source = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            checked += source.components(separatedBy: "lookup(").count - 1 + source.components(separatedBy: "lookupHot(").count - 1
            forgetful += Self.forgetfulFunctions(in: source).map { "\(file): \($0)" }
        }
        #expect(forgetful.isEmpty, "functions that never end the protection `lookup` gives: \(forgetful)")
        #expect(checked >= 9, "the hot queries of indexes, layouts and snapshots use lookup: \(checked) calls found")
        // `resolve` (every other call's way to a handle) ends its own protection.
        let handles = try String(contentsOfFile: folder + "/Handles.swift", encoding: .utf8)
        #expect(Self.forgetfulFunctions(in: handles).filter { $0 == "resolve" }.isEmpty)
    }

    /// The lint finds what it is for: a lookup with no defer, a defer after the lookup, and another
    /// function's defer do not count.
    @Test func theLintFindsAForgottenUnprotect() {
        let missing = """
            public func inkhit_a(_ h: OpaquePointer?) -> inkhit_status {
                let thread = ihr_current()
                guard let box = lookup(h, .index, as: IndexBox.self, in: thread) else { return 1 }
                return 0
            }
            func inkhit_b(_ h: OpaquePointer?) {
                guard let box = lookup(h, .layout, as: LayoutBox.self, in: thread) else { return }
                defer { ihr_unprotect_in(thread) }
            }
            func inkhit_c() { defer { unprotect() } }
            func inkhit_d(_ h: OpaquePointer?) { _ = lookup(h, .snapshot, as: SnapshotBox.self) }
            func inkhit_e(_ h: OpaquePointer?) {
                defer { unprotect() }
                _ = lookup(h, .snapshot, as: SnapshotBox.self)
            }
            """
        #expect(Self.forgetfulFunctions(in: missing) == ["inkhit_a", "inkhit_b", "inkhit_d"])
    }
}
