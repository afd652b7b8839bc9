import Foundation
import Testing
import InkJobs
import InkTestSupport

/// The renderer-rule members of jobs: each reads as the value it names (a job with the rule equals a job with
/// the rule applied by hand, or its spelled-out form), aliases are the same hinting, `ink-hit layout` carries
/// the members into the glyph job it writes, and each member changes the answers.
struct RendererRuleJobTests {
    /// A glyph job over Serif "g" and "R" at 17 px with `members` added, and a grid of points.
    static func job(_ members: String, x0: Double = 10.37, y0: Double = 30.61, id: String = "r") -> String {
        var pts: [String] = []
        for y in stride(from: 12.0, through: 36, by: 0.19) { for x in stride(from: 8.0, through: 36, by: 0.23) { pts.append("[\(x),\(y)]") } }
        return #"{"id":"\#(id)","fonts":[{"path":"\#(Fonts.serif)"}],"size":17,"glyphs":[{"font":0,"id":74,"x":\#(x0),"y":\#(y0)},{"font":0,"id":53,"x":\#(x0 + 9.61),"y":\#(y0)}]\#(members),"points":[\#(pts.joined(separator: ","))]}"#
    }

    static func answers(_ line: String) throws -> [Bool] {
        let (out, ok) = try runJobs([line])
        try #require(ok == [true], "\(out.first ?? [:])")
        return out.map { $0["hit"] as? Bool ?? false }
    }

    /// Origins rounded by the rule equal origins rounded by hand: x 10.37 → 10.25 and 19.98 → 19.75 on Qt's
    /// grid (¼ px after adding 1/64: ⌊4 · 19.995625⌋ / 4), y 30.61 → 31; whole pixels: 10, 20 and 31.
    @Test func originRoundingEqualsOriginsRoundedByHand() throws {
        let ruled = try Self.answers(Self.job(#","originRounding":{"x":{"grid":0.25,"bias":0.015625},"y":"wholePixel"}"#))
        let byHand = try Self.answers(Self.job("", x0: 10.25, y0: 31).replacingOccurrences(of: #""x":19.86"#, with: #""x":19.75"#))
        let exact = try Self.answers(Self.job(""))
        #expect(zip(ruled, byHand).filter { $0 != $1 }.count == 0)
        #expect(zip(ruled, exact).filter { $0 != $1 }.count > 20, "the rule moved the ink")
        let whole = try Self.answers(Self.job(#","originRounding":"wholePixels""#))
        let wholeByHand = try Self.answers(Self.job("", x0: 10, y0: 31).replacingOccurrences(of: #""x":19.61"#, with: #""x":20"#))
        #expect(zip(whole, wholeByHand).filter { $0 != $1 }.count == 0)
    }

    @Test func hintingAliasesAreTheSameHinting() throws {
        let light = try Self.answers(Self.job(#","hinting":"light""#))
        let full = try Self.answers(Self.job(#","hinting":"full""#))
        #expect(light != full)
        for alias in ["slight", "vertical", "hintslight"] { #expect(try Self.answers(Self.job(#","hinting":"\#(alias)""#)) == light, "\(alias)") }
        for alias in ["medium", "normal", "hintfull"] { #expect(try Self.answers(Self.job(#","hinting":"\#(alias)""#)) == full, "\(alias)") }
    }

    /// A font's `"skia"` member is the style Skia's rules give at the glyph's size under the job's transform,
    /// spelled out by hand from them: a 1.5× canvas, subpixel and fake bold → normal hinting at the device size
    /// (`"view"`), x on the ¼ grid, a miter stroke of 17 × r user px; and it changes the answers.
    @Test func aSkiaFontIsTheStyleSkiasRulesGive() throws {
        let ratio = 1.0 / 24 + (17.0 - 9) / 27 * (1.0 / 32 - 1.0 / 24)
        let canvas = #","transform":[1.5,0,0,1.5,-5,-12]"#
        func job(_ font: String) -> String {
            Self.job(canvas).replacingOccurrences(of: #"{"path":"\#(Fonts.serif)"}"#, with: font)
        }
        let skia = try Self.answers(job(#"{"path":"\#(Fonts.serif)","skia":{"subpixel":true,"embolden":true}}"#))
        let spelled = try Self.answers(job(#"{"path":"\#(Fonts.serif)","hinting":"normal","ppem":"view","hintingUnderTransform":"offWhenNotAxisAligned","originRounding":{"x":"quarterPixel","y":"wholePixel"},"embolden":{"stroke":\#(17 * ratio)}}"#))
        let plain = try Self.answers(job(#"{"path":"\#(Fonts.serif)"}"#))
        #expect(skia == spelled)
        #expect(zip(skia, plain).filter { $0 != $1 }.count > 50)
        let turned = #","transform":[0.8775825619,0.4794255386,-0.4794255386,0.8775825619,20,0]"#
        let skiaTurned = try Self.answers(Self.job(turned).replacingOccurrences(of: #"{"path":"\#(Fonts.serif)"}"#,
                                                                                    with: #"{"path":"\#(Fonts.serif)","skia":{"subpixel":true,"hinting":"full"}}"#))
        let spelledTurned = try Self.answers(Self.job(turned).replacingOccurrences(of: #"{"path":"\#(Fonts.serif)"}"#,
                                                                                       with: #"{"path":"\#(Fonts.serif)","originRounding":{"x":"quarterPixel","y":"quarterPixel"}}"#))
        #expect(skiaTurned == spelledTurned, "rotated: unhinted, ¼ px on both axes")
    }

    @Test func aSkiaFontIsRefusedWhereItWouldDropSomething() throws {
        let bad: [(String, String)] = [
            (#"{"path":"\#(Fonts.serif)","skia":{},"hinting":"full"}"#, "cannot be set beside it"),
            (#"{"path":"\#(Fonts.serif)","skia":{"hinting":"medium"}}"#, "\"none\", \"slight\", \"normal\", \"full\""),
            (#"{"path":"\#(Fonts.serif)","skia":{"edging":"lcd"}}"#, "edging"),
            (#"{"path":"\#(Fonts.serif)","skia":{"scaleX":0}}"#, "scaleX"),
            (#"{"path":"\#(Fonts.serif)","skia":{"gamma":1}}"#, "gamma"),
            (#"{"path":"\#(Fonts.serif)","skia":{"subpixel":1}}"#, "true or false"),
        ]
        for (font, needle) in bad {
            let (out, ok) = try runJobs([Self.job("").replacingOccurrences(of: #"{"path":"\#(Fonts.serif)"}"#, with: font)])
            #expect(ok == [false], "\(font)")
            #expect((out.first?["error"] as? String)?.contains(needle) == true, "\(out.first ?? [:])")
        }
        let text = #"{"id":"t","fonts":[{"path":"\#(Fonts.serif)","skia":{}}],"text":"ab","size":12,"points":[[1,1]]}"#
        let (out, ok) = try runJobs([text])
        #expect(ok == [false] && (out.first?["error"] as? String)?.contains("glyph jobs") == true, "\(out.first ?? [:])")
    }

    /// `"skia"` is the stroke Skia's ratio gives at the glyph's size: 17 px × (1/24 + 8/27 · (1/32 − 1/24)).
    @Test func skiasFakeBoldIsItsStroke() throws {
        let ratio = 1.0 / 24 + (17.0 - 9) / 27 * (1.0 / 32 - 1.0 / 24)
        let skia = try Self.answers(Self.job(#","embolden":"skia""#))
        let spelled = try Self.answers(Self.job(#","embolden":{"stroke":\#(17 * ratio),"join":"miter","miterLimit":4}"#))
        let defaults = try Self.answers(Self.job(#","embolden":{"stroke":\#(17 * ratio)}"#))
        let freetype = try Self.answers(Self.job(#","embolden":"freetype""#))
        #expect(skia == spelled && skia == defaults)
        #expect(skia != freetype)
        let round = try Self.answers(Self.job(#","embolden":{"stroke":\#(17 * ratio),"join":"round"}"#))
        #expect(round != spelled, "the join matters at the serifs' corners")
    }

    @Test func matrixPpemRuleAndDarkeningChangeTheAnswers() throws {
        let stretched = #","hinting":"full","matrix":[1.3,0,0,1]"#
        let uniform = try Self.answers(Self.job(stretched))
        let perAxis = try Self.answers(Self.job(stretched + #","ppem":"perAxis""#))
        #expect(uniform != perAxis)
        let skewed = #","hinting":"full","matrix":[1,0.25,0,1]"#
        let kept = try Self.answers(Self.job(skewed))
        let off = try Self.answers(Self.job(skewed + #","hintingUnderTransform":"offWhenNotAxisAligned""#))
        let unhinted = try Self.answers(Self.job(#","matrix":[1,0.25,0,1]"#))
        #expect(kept != off && off == unhinted)
        // Serif is TrueType: darkening is for CFF only.
        #expect(try Self.answers(Self.job(#","stemDarkening":true"#)) == Self.answers(Self.job("")))
    }

    /// `ink-hit layout` writes every member into the glyph job, which answers as the text job does.
    @Test func layoutCarriesTheRulesIntoTheGlyphJob() throws {
        var pts: [String] = []
        for y in stride(from: 2.0, through: 26, by: 0.37) { for x in stride(from: 0.0, through: 150, by: 0.41) { pts.append("[\(x),\(y)]") } }
        let text = #"{"id":"t","text":"Wave office","size":18,"origin":[0.3,0.45],"fonts":[{"path":"\#(Fonts.cantarell)","stemDarkening":true,"hinting":"slight"},{"path":"\#(Fonts.sans)"}],"originRounding":"quarterPixelX","embolden":{"stroke":0.7,"join":"round"},"matrix":[1.2,0,0,1],"ppem":"perAxis","hintingUnderTransform":"offWhenScaledOrRotated","points":[\#(pts.joined(separator: ","))]}"#
        let runner = JobRunner()
        let job = try TextJob(JSONParser.parse(text))
        let layoutJSON = runner.glyphJobJSON(job, try runner.layout(job))
        for member in [#""originRounding":{"x":{"grid":0.25,"bias":0.125},"y":{"grid":1.0,"bias":0.5}}"#, #""stemDarkening":true"#,
                       #""embolden":{"stroke":0.7,"join":"round"}"#, #""ppem":"perAxis""#, #""hintingUnderTransform":"offWhenScaledOrRotated""#,
                       #""matrix":[1.2,0.0,0.0,1.0]"#] {
            #expect(layoutJSON.contains(member), "\(member)")
        }
        let (textAnswers, _) = try runJobs([text])
        let (glyphAnswers, ok) = try runJobs([layoutJSON])
        #expect(ok == [true])
        try #require(textAnswers.count == glyphAnswers.count)
        let differ = zip(textAnswers, glyphAnswers).filter { $0["hit"] as? Bool != $1["hit"] as? Bool }.count
        #expect(differ == 0)
        #expect(textAnswers.filter { $0["hit"] as? Bool == true }.count > 200)
    }
}
