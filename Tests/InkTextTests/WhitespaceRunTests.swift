import Testing
import InkGeometry
import InkFreeType
import InkText
import InkTestSupport

/// Runs of whitespace are laid out in linear work. A run of spaces is one break opportunity, after its last
/// space; line filling keeps the width without trailing spaces as it goes instead of walking back over them.
/// When every space of a run was a break and each break walked back over the run (the regression), a run
/// of n spaces cost n²/2 steps: 100,000 spaces took 3.5 s, 1,000,000 did not end in a minute.
///
/// The work is counted (`TextLayout.lineFillingWork`: a step per line, per cluster line filling visits and
/// per trailing space it hangs), not timed: doubling the run doubles it, and it stays within a few steps per UTF-16 unit.
@Suite("Whitespace runs: linear layout and one break after the run")
struct WhitespaceRunTests {
    /// (name, the unit repeated): spaces, tabs, ideographic spaces, newlines (a paragraph each), and all four
    /// mixed.
    static let runs: [(String, String)] = [("spaces", " "), ("tabs", "\t"), ("ideographic spaces", "\u{3000}"),
                                           ("newlines", "\n"), ("mixed", " \t\u{3000}\n")]

    static func layout(_ text: String, width: Double? = 300) throws -> TextLayout {
        let sans = try TestFonts.load(TestFonts.sans)
        return try TextLayout(text: text, style: TextStyle(fonts: [sans], size: 16), paragraph: ParagraphStyle(width: width),
                              cache: FontShapeCache())
    }

    /// "a", the run repeated to n UTF-16 units, "b", wrapped at 300 px: doubling n doubles the work (a ratio
    /// of 2 within 10 %; quadratic work gives 4), and the work stays within 3 steps per unit.
    @Test(arguments: runs.indices)
    func doublingTheRunDoublesTheWork(_ k: Int) throws {
        let (name, unit) = Self.runs[k]
        func work(_ n: Int) throws -> Int {
            let text = "a" + String(repeating: unit, count: n / unit.utf16.count) + "b"
            let layout = try Self.layout(text)
            #expect(layout.lineFillingWork <= 3 * text.utf16.count + 10, "\(name), n = \(n): \(layout.lineFillingWork) steps")
            return layout.lineFillingWork
        }
        let small = try work(20_000), large = try work(40_000)
        let ratio = Double(large) / Double(max(small, 1))
        #expect(ratio > 1.8 && ratio < 2.2, "\(name): \(small) steps for 20,000 units, \(large) for 40,000 (ratio \(ratio))")
    }

    /// A run of spaces wider than the line: the line breaks after the whole run, which hangs (the content is
    /// the "a" alone), and "b" starts the next line. No line starts with a space.
    @Test(arguments: [" ", "\t", "\u{3000}"])
    func aRunIsOneOpportunityAfterItsLastSpace(_ space: String) throws {
        let n = 2_000
        let l = try Self.layout("a" + String(repeating: space, count: n) + "b")
        #expect(l.lines.map(\.utf16) == [0..<(n + 1), (n + 1)..<(n + 2)])
        let a = try #require(l.glyphs.first { $0.utf16 == 0..<1 })
        #expect(isClose(l.lines[0].contentBox.width, a.advance, within: 1e-9),
                "trailing spaces hang: content \(l.lines[0].contentBox.width), the a \(a.advance)")
        let b = try #require(l.glyphs.first { $0.utf16 == (n + 1)..<(n + 2) })
        #expect(b.line == 1 && isClose(b.x, 0, within: 1e-9))
    }

    /// Words separated by runs of two and three spaces break where they did when every space was a break:
    /// after the run, the next word starting the line.
    @Test func wordsBetweenRunsOfSpacesWrapAfterTheRuns() throws {
        let text = String(repeating: "word  other   ", count: 40)
        let l = try Self.layout(text, width: 130)
        let u = Array(text.utf16)
        #expect(l.lines.count > 10)
        for line in l.lines.dropFirst() {
            #expect(u[line.utf16.lowerBound] != 0x20, "line \(line.utf16) starts with a space")
            #expect(u[line.utf16.lowerBound - 1] == 0x20, "line \(line.utf16) does not start after a run of spaces")
        }
        for line in l.lines { #expect(line.contentBox.width <= 130 + 1e-9, "line \(line.utf16) is \(line.contentBox.width) wide") }
    }

    /// Line filling checks the deadline inside a line: stopped at successive deadline checks (the budget's
    /// `checksBeforeDeadline` hook), a layout of "a" and 50,000 spaces stops at some check while filling its one
    /// line ("breaking lines (cluster k …)" with 0 < k < 50,000), between shaping and placing. Stages come in
    /// order, so the first check inside line filling is found by bisection over the check count.
    @Test func theDeadlineIsCheckedInsideLineFilling() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let text = "a" + String(repeating: " ", count: 50_000)
        // In the order they come: the paragraph, its line (from its first cluster), inside line filling.
        let stages = ["shaping", "finding line breaks", "breaking lines at", "breaking lines (cluster", "placing"]
        /// Where the layout stopped after `n` checks: the stage's index (`stages.count` when it was not stopped) and the message.
        func stop(after n: Int) throws -> (Int, String) {
            var budget = LayoutBudget()
            budget.checksBeforeDeadline = n
            let result = Result { () throws(TextError) -> TextLayout in
                try TextLayout(text: text, style: TextStyle(fonts: [sans], size: 16), paragraph: ParagraphStyle(width: 300),
                               cache: FontShapeCache(), budget: budget)
            }
            guard case .failure(let error) = result else { return (stages.count, "") }
            guard case .pastDeadline(let during) = error else { throw error }
            return (stages.firstIndex { during.hasPrefix($0) } ?? -1, during)
        }
        var lo = 0, hi = 10_000                   // stop(lo) is before line filling, stop(hi) is not
        #expect(try stop(after: lo).0 < 3)
        #expect(try stop(after: hi).0 == stages.count, "a layout done within 10,000 checks")
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if try stop(after: mid).0 < 3 { lo = mid } else { hi = mid }
        }
        let (stage, during) = try stop(after: hi)
        #expect(stage == 3, "the first stop after the line was started: \(during)")
        let cluster = during.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } ?? -1
        #expect(during.hasPrefix("breaking lines (cluster ") && cluster > 0 && cluster < 50_000, "\(during)")
    }
}
