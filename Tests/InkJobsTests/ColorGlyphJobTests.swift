import Foundation
import Testing
import InkJobs
import InkTestSupport

/// Glyph and text jobs say what a hit glyph's ink is made of when it is not a plain outline, and read
/// `"alphaThreshold"` (job and font entry).
struct ColorGlyphJobTests {
    static let sans = TestFonts.sans, emoji = TestFonts.emoji
    static let colorFont: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Fonts/InkColorTest.ttf"
    }()

    /// Raw answer lines of one job.
    static func answers(_ line: String) throws -> [String] {
        let runner = try JobRunner(tolerance: 0.01)
        var out: [String] = []
        runner.run(line: line) { out.append($0) }
        return out
    }

    @Test func glyphJobAnswersNameTheInkOfColorBitmapAndSVGGlyphs() throws {
        // Glyph 0: "H" of DejaVu Sans; 1: 😀 of Noto Color Emoji (glyph 883); 2: colr0.Ox (12), 3: svg.box (22)
        // of the color test font. Size 32 (bitmap strike px = 32/109 view px); each point on its glyph's ink.
        let job = """
        {"id":"c","fonts":[{"path":"\(Self.sans)"},{"path":"\(Self.emoji)"},{"path":"\(Self.colorFont)"}],"size":32,\
        "glyphs":[{"font":0,"id":43,"x":0,"y":40},{"font":1,"id":883,"x":40,"y":40},{"font":2,"id":12,"x":90,"y":40},\
        {"font":2,"id":22,"x":140,"y":40}],"points":[[4.5,30],[60,29],[93,30],[160,30],[1,1]]}
        """
        let lines = try Self.answers(job)
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix(#"{"job":"c","i":0,"hit":true,"glyph":0,"placement":0,"inside":"#))
        #expect(lines[1].hasPrefix(#"{"job":"c","i":1,"hit":true,"glyph":1,"placement":1,"ink":"bitmap","inside":true,"distance":-"#))
        #expect(lines[2].hasPrefix(#"{"job":"c","i":2,"hit":true,"glyph":2,"placement":2,"ink":"colorLayers","inside":true,"distance":-"#))
        #expect(lines[3].hasPrefix(#"{"job":"c","i":3,"hit":true,"glyph":3,"placement":3,"ink":"box","inside":true,"distance":-"#))
        #expect(lines[4] == #"{"job":"c","i":4,"hit":false,"glyph":null,"placement":null,"inside":false,"distance":null}"#)
    }

    @Test func textJobAnswersNameTheInkOfAFallbackEmoji() throws {
        let job = """
        {"id":"t","text":"Hi 🍕 there","fonts":[{"path":"\(Self.sans)"},{"path":"\(Self.emoji)"}],"size":32,\
        "points":[[63,17],[2,2]]}
        """
        let lines = try Self.answers(job)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"job":"t","i":0,"hit":true,"glyph":3,"placement":3,"ink":"bitmap","utf16":[3,5],"char":3,"#), "\(lines[0])")
        #expect(lines[1].hasPrefix(#"{"job":"t","i":1,"hit":false,"glyph":null,"placement":null,"utf16":null"#))
    }

    /// A point on a half-transparent pixel rim: hit at alpha ≥ 0.5 of opaque only if its alpha reaches it;
    /// a threshold of 1 keeps only fully opaque pixels, so the set of hits can only shrink, and the job's
    /// threshold applies to fonts without their own.
    @Test func alphaThresholdIsReadFromTheJobAndTheFontEntry() throws {
        func hits(_ jobThreshold: String, _ fontThreshold: String) throws -> Int {
            var points: [String] = []
            for i in 0..<60 { for j in 0..<60 { points.append("[\(40 + Double(i) * 0.66),\(8 + Double(j) * 0.66)]") } }
            let job = """
            {"id":1,"fonts":[{"path":"\(Self.emoji)"\(fontThreshold)}],"size":32\(jobThreshold),\
            "glyphs":[{"font":0,"id":883,"x":40,"y":40}],"points":[\(points.joined(separator: ","))]}
            """
            return try Self.answers(job).filter { $0.contains(#""hit":true"#) }.count
        }
        let half = try hits("", ""), opaque = try hits(#","alphaThreshold":1"#, ""), faint = try hits("", #","alphaThreshold":0.01"#)
        #expect(opaque < half && half < faint, "\(opaque) \(half) \(faint)")
        #expect(try hits(#","alphaThreshold":1"#, #","alphaThreshold":0.5"#) == half)
        for bad in ["0", "1.5", "-1", #""x""#] {
            let line = #"{"id":2,"fonts":[{"path":"\#(Self.emoji)"}],"size":32,"alphaThreshold":\#(bad),"glyphs":[],"points":[]}"#
            let out = try Self.answers(line)
            #expect(out.count == 1 && out[0].contains("alphaThreshold"), "\(out)")
        }
    }
}

extension ColorGlyphJobTests {
    /// A scene's text leaf hits an emoji by its ink under every hole policy: its opaque middle hits the
    /// emoji's character; a transparent corner of its box misses (under `ink` and `filledCounters`; the
    /// corner is outside the hull of "a🍕b" too, but that is the hull's business).
    @Test(arguments: ["ink", "filledCounters", "wordHull"])
    func sceneTextLeavesHitEmojiByTheirInk(_ holes: String) throws {
        // Layout at size 32: "a" advances 19.5 px, the emoji's origin is at x ≈ 19.5, its baseline at ≈ 29.7;
        // strike px (68, 64) is its middle, (2, 2) a transparent corner (see InkTextTests.ColorEmojiTextTests).
        let k = 32.0 / 109
        let job = """
        {"id":"s","fonts":[{"path":"\(Self.sans)"},{"path":"\(Self.emoji)"}],\
        "scene":{"id":"root","bounds":[0,0,200,60],"pointerEvents":"box-none","children":[\
        {"id":"label","bounds":[0,0,200,60],"shape":{"text":{"text":"a🍕b","size":32,"holes":"\(holes)"}}}]},\
        "points":[[\(19.5 + 68 * k),\(29.7 - 37 * k)],[\(19.5 + 2 * k),\(29.7 - 99 * k)]]}
        """
        let lines = try Self.answers(job)
        #expect(lines.count == 2)
        #expect(lines[0].contains(#""hit":true,"node":"label""#) && lines[0].contains(#""utf16":[1,3]"#), "\(lines[0])")
        if holes != "wordHull" { #expect(lines[1].contains(#""hit":false"#), "\(lines[1])") }
    }
}
