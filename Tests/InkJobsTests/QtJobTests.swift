import Foundation
import Testing
import InkJobs
import InkTestSupport

/// A font entry's `"qt"` member: glyphs placed by Qt's raster-engine rules equal the same glyphs placed by hand
/// with the rules applied (origins rounded as Qt rounds them, the style Qt's rules give), and everything that
/// would be ignored beside it is refused.
struct QtJobTests {
    static func points() -> String {
        var pts: [String] = []
        for y in stride(from: 4.0, through: 40, by: 0.21) { for x in stride(from: 6.0, through: 60, by: 0.27) { pts.append("[\(x),\(y)]") } }
        return pts.joined(separator: ",")
    }

    static func answers(_ line: String) throws -> [Bool] {
        let (out, ok) = try runJobs([line])
        try #require(ok == [true], "\(out.first ?? [:])")
        return out.map { $0["hit"] as? Bool ?? false }
    }

    /// DejaVu Sans "H" and "x" at 16 px under a 2x painter, fully hinted: Qt caches them (32 device px), leaves them
    /// unhinted (the painter scales), puts x on the whole device px below (full hinting) and rounds y: (10.3, 15.2)
    /// → device (20.6, 30.4) → (20, 30); (21.7, 15.2) → (43.4, 30.4) → (43, 30). By hand: size 16, matrix 2x, those
    /// origins, an identity transform.
    @Test func qtRulesEqualTheRulesAppliedByHand() throws {
        let glyphs = #""glyphs":[{"font":0,"id":43,"x":10.3,"y":15.2},{"font":0,"id":91,"x":21.7,"y":15.2}]"#
        let qt = try Self.answers(#"{"id":1,"fonts":[{"path":"\#(Fonts.sans)","qt":{"pixelSize":16,"hinting":"full","version":"6.4.2"}}],"#
                                  + glyphs + #","transform":[2,0,0,2,0,0],"points":[\#(Self.points())]}"#)
        let byHand = try Self.answers(#"{"id":2,"fonts":[{"path":"\#(Fonts.sans)","matrix":[2,0,0,2]}],"size":16,"#
                                      + #""glyphs":[{"font":0,"id":43,"x":20,"y":30},{"font":0,"id":91,"x":43,"y":30}],"#
                                      + #""points":[\#(Self.points())]}"#)
        let unrounded = try Self.answers(#"{"id":3,"fonts":[{"path":"\#(Fonts.sans)"}],"size":16,"# + glyphs
                                         + #","transform":[2,0,0,2,0,0],"points":[\#(Self.points())]}"#)
        #expect(qt.filter { $0 }.count > 100)
        #expect(zip(qt, byHand).filter { $0 != $1 }.count == 0)
        #expect(zip(qt, unrounded).filter { $0 != $1 }.count > 20, "the rules moved the ink")
    }

    /// What would be ignored next to `"qt"` is an error naming it; so are unknown and malformed members.
    @Test func whatQtDecidesCannotBeGivenBesideIt() throws {
        let font = #"{"path":"\#(Fonts.sans)","qt":{"pixelSize":16}}"#
        let glyph = #"{"font":0,"id":43,"x":10,"y":20}"#
        let bad: [(String, String)] = [
            (#"{"id":1,"fonts":[{"path":"\#(Fonts.sans)","hinting":"full","qt":{"pixelSize":16}}],"glyphs":[\#(glyph)],"points":[]}"#, "fonts[0].hinting"),
            (#"{"id":2,"fonts":[\#(font)],"embolden":"freetype","glyphs":[\#(glyph)],"points":[]}"#, "\"embolden\""),
            (#"{"id":3,"fonts":[\#(font)],"glyphs":[{"font":0,"id":43,"x":10,"y":20,"size":12}],"points":[]}"#, "glyphs[0].size"),
            (#"{"id":4,"fonts":[{"path":"\#(Fonts.sans)","qt":{"pixelSize":16,"pixelsize":3}}],"glyphs":[\#(glyph)],"points":[]}"#, "pixelsize"),
            (#"{"id":5,"fonts":[{"path":"\#(Fonts.sans)","qt":{"hinting":"full"}}],"glyphs":[\#(glyph)],"points":[]}"#, "pixelSize"),
            (#"{"id":6,"fonts":[{"path":"\#(Fonts.sans)","qt":{"pixelSize":16,"version":"six"}}],"glyphs":[\#(glyph)],"points":[]}"#, "version"),
            (#"{"id":7,"fonts":[{"path":"\#(Fonts.sans)","qt":{"pixelSize":16,"weight":0}}],"glyphs":[\#(glyph)],"points":[]}"#, "weight"),
            (#"{"id":8,"fonts":[{"path":"\#(Fonts.sans)","qt":{"pixelSize":16,"probe":{"glyph":43,"bounds":[0,-12,20,0]}}}],"glyphs":[\#(glyph)],"points":[]}"#, "another file, instance or weight"),
            (#"{"id":9,"text":"Hi","fonts":[\#(font)],"size":16,"points":[]}"#, "glyph jobs"),
        ]
        for (line, needle) in bad {
            let (out, ok) = try runJobs([line])
            #expect(ok == [false], "\(line)")
            let message = out.first?["error"] as? String ?? ""
            #expect(message.contains(needle), "\(out.first ?? [:]) should name \(needle)")
        }
    }
}
