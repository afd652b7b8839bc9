import Testing
import InkGeometry
import InkFreeType
import InkText
import InkTestSupport

/// Layout is linear in the text, in the length of one grapheme and in the number of links: the worst cases
/// at the job limit (1,000,000 UTF-16 units, 100,000 links) are laid out and answered. A quadratic step
/// would take hours here and fail the time limit; the answers are checked against what the text is.
@Suite("Layout at the text-length limit", .serialized)
struct LinearLayoutTests {
    /// One letter under 999,999 combining acutes: one grapheme, one cluster of glyphs. A point on the letter
    /// answers the whole grapheme.
    @Test(.timeLimit(.minutes(10)))
    func oneGraphemeOfAMillionUnits() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let text = "a" + String(repeating: "\u{301}", count: 999_999)
        let layout = try TextLayout(text: text, style: TextStyle(fonts: [sans], size: 20), cache: FontShapeCache())
        // HarfBuzz composes the letter and the first acute into "á": 999,999 glyphs in one cluster.
        #expect(layout.glyphs.count == 999_999)
        #expect(Set(layout.glyphs.map(\.utf16)) == [0..<1_000_000], "one cluster")
        let a = try layout.placement(of: 0).viewBounds()
        let hit = try #require(layout.hit(at: a.center, radius: 3))
        #expect(hit.utf16 == 0..<1_000_000 && hit.character == 0)
    }

    /// 1,000,000 units in words of four letters and a space, wrapped, with 100,000 links (every other word,
    /// tags "w0"…): a point by a word's "b" answers that letter and its word's link, or none.
    @Test(.timeLimit(.minutes(10)))
    func aMillionUnitsWithAHundredThousandLinks() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let text = String(repeating: "abcd ", count: 200_000)
        let links = (0..<100_000).map { TextLink(range: ($0 * 10)..<($0 * 10 + 4), tag: "w\($0)") }
        let layout = try TextLayout(text: text, style: TextStyle(fonts: [sans], size: 16),
                                    paragraph: ParagraphStyle(width: 400), links: links, cache: FontShapeCache())
        #expect(layout.glyphs.count == 1_000_000)
        for w in [0, 1, 2, 57_321, 99_999, 199_998] {
            let gi = try #require(layout.glyphs.firstIndex { $0.utf16.lowerBound == w * 5 + 1 }, "the b of word \(w)")
            let box = try layout.placement(of: gi).viewBounds()
            // The middle of the "b"'s box: in or beside its bowl, within 3 px of its ink and of no other's.
            let hit = layout.hit(at: box.center, radius: 3)
            #expect(hit?.utf16 == (w * 5 + 1)..<(w * 5 + 2), "word \(w)")
            #expect(hit?.link == (w % 2 == 0 ? "w\(w / 2)" : nil), "word \(w)")
        }
    }
}
