import Foundation
import Testing
import InkJobs

/// Every malformed or unanswerable job gets exactly one error line naming the problem; later jobs still run.
struct BadJobTests {
    static let good = #"{"id":"good","fonts":[{"path":"\#(Fonts.sans)","index":0}],"size":40,"glyphs":[{"font":0,"id":82,"x":0,"y":40}],"points":[[4,29],[12,29]]}"#

    static func job(_ patch: String) -> String {
        // A valid job with one member replaced or added (later keys win).
        String(good.dropLast()) + "," + patch + "}"
    }

    static let cases: [(String, String, String)] = [
        // (name, line, expected fragment of the error)
        ("malformed JSON", #"{"id":"x","fonts":["#, "invalid JSON"),
        ("not an object", #"[1,2,3]"#, "must be a JSON object"),
        ("missing id", #"{"fonts":[],"glyphs":[],"points":[]}"#, "missing \"id\""),
        ("id wrong type", #"{"id":[1],"fonts":[],"glyphs":[],"points":[]}"#, "\"id\" must be a string or a number"),
        ("missing fonts", #"{"id":"x","glyphs":[],"points":[]}"#, "missing \"fonts\""),
        ("fonts wrong type", job(#""fonts":"DejaVuSans.ttf""#), "\"fonts\" must be an array"),
        ("missing file", job(#""fonts":[{"path":"/nonexistent/font.ttf"}]"#), "/nonexistent/font.ttf"),
        ("directory as font", job(#""fonts":[{"path":"/usr/share/fonts"}]"#), "/usr/share/fonts"),
        ("face index out of range", job(#""fonts":[{"path":"\#(Fonts.sans)","index":3}]"#), "face"),
        ("negative face index", job(#""fonts":[{"path":"\#(Fonts.sans)","index":-1}]"#), "face"),
        ("unknown font index", job(#""glyphs":[{"font":2,"id":82,"x":0,"y":40}]"#), "glyphs[0].font 2 out of range"),
        ("glyph id out of range", job(#""glyphs":[{"font":0,"id":999999,"x":0,"y":40}]"#), "glyphs[0].id 999999 out of range"),
        ("negative glyph id", job(#""glyphs":[{"font":0,"id":-1,"x":0,"y":40}]"#), "glyphs[0].id -1 out of range"),
        ("fractional glyph id", job(#""glyphs":[{"font":0,"id":1.5,"x":0,"y":40}]"#), "must be an integer"),
        ("glyph x wrong type", job(#""glyphs":[{"font":0,"id":82,"x":"0","y":40}]"#), "glyphs[0].x must be a number"),
        ("glyph x overflow", job(#""glyphs":[{"font":0,"id":82,"x":1e400,"y":40}]"#), "glyphs[0].x"),
        ("missing glyphs", #"{"id":"x","fonts":[{"path":"\#(Fonts.sans)"}],"points":[]}"#, "missing \"glyphs\""),
        ("zero size", job(#""size":0"#), "size must be > 0"),
        ("negative size", job(#""size":-3"#), "size must be > 0"),
        ("no size at all", #"{"id":"x","fonts":[{"path":"\#(Fonts.sans)"}],"glyphs":[{"font":0,"id":82,"x":0,"y":40}],"points":[]}"#, "no size"),
        ("singular transform", job(#""transform":[1,0,0,0,0,0]"#), "singular"),
        ("short transform", job(#""transform":[1,0,0,1]"#), "6 numbers"),
        ("negative radius", job(#""radius":-1"#), "radius"),
        ("radius wrong type", job(#""radius":"big""#), "radius must be a number"),
        ("missing points", #"{"id":"x","fonts":[{"path":"\#(Fonts.sans)"}],"size":10,"glyphs":[]}"#, "missing \"points\""),
        ("point not a pair", job(#""points":[[1,2,3]]"#), "points[0]"),
        ("point wrong type", job(#""points":[["a",2]]"#), "points[0]"),
        ("too deep", String(repeating: "[", count: 200) + String(repeating: "]", count: 200), "nested deeper"),
        ("text job without size", #"{"id":"x","text":"hi","fonts":[{"path":"\#(Fonts.sans)"}],"points":[]}"#, "missing \"size\""),
        ("text job with a bad link", #"{"id":"x","text":"hi","size":10,"fonts":[{"path":"\#(Fonts.sans)"}],"links":[{"start":1,"end":9,"tag":"a"}],"points":[]}"#, "links[0]"),
        ("text job with a misplaced attachment", #"{"id":"x","text":"hi","size":10,"fonts":[{"path":"\#(Fonts.sans)"}],"attachments":[{"at":0,"width":5,"ascent":5,"descent":0,"tag":"img"}],"points":[]}"#, "U+FFFC"),
        ("empty line of garbage", "not json", "invalid JSON"),
        // Fidelity fields.
        ("variations of a static font", job(#""fonts":[{"path":"\#(Fonts.sans)","variations":{"wght":700}}]"#), "no variation axes"),
        ("unknown axis", job(#""fonts":[{"path":"\#(Fonts.interVariable)","variations":{"wdth":80}}]"#), "no variation axis 'wdth' (its axes: 'wght', 'slnt')"),
        ("variations wrong type", job(#""fonts":[{"path":"\#(Fonts.interVariable)","variations":[700]}]"#), "fonts[0].variations must be an object"),
        ("variation value wrong type", job(#""fonts":[{"path":"\#(Fonts.interVariable)","variations":{"wght":"bold"}}]"#), "fonts[0].variations.wght must be a number"),
        ("variation value overflow", job(#""fonts":[{"path":"\#(Fonts.interVariable)","variations":{"wght":1e999}}]"#), "fonts[0].variations.wght"),
        ("long axis tag", job(#""fonts":[{"path":"\#(Fonts.interVariable)","variations":{"weight":700}}]"#), "1 to 4 printable ASCII"),
        ("unknown instance", job(#""fonts":[{"path":"\#(Fonts.interVariable)","instance":"Hairline"}]"#), "no named instance \"Hairline\""),
        ("instance index out of range", job(#""fonts":[{"path":"\#(Fonts.interVariable)","instance":99}]"#), "no named instance \"#99\""),
        ("instance wrong type", job(#""fonts":[{"path":"\#(Fonts.interVariable)","instance":true}]"#), "fonts[0].instance must be a string or an integer"),
        ("embolden wrong type", job(#""embolden":"bold""#), "embolden must be a number (px), [x, y] (px), \"freetype\", \"skia\", \"none\" or {\"stroke\": px}"),
        ("embolden stroke without a width", job(#""embolden":{"join":"round"}"#), "embolden.stroke"),
        ("embolden stroke unknown join", job(#""embolden":{"stroke":1,"join":"square"}"#), "embolden.join must be \"miter\", \"round\" or \"bevel\""),
        ("embolden stroke unknown member", job(#""embolden":{"stroke":1,"cap":"round"}"#), "not one of \"stroke\""),
        ("embolden stroke negative", job(#""embolden":{"stroke":-1}"#), "stroke width must be finite, ≥ 0"),
        ("embolden stroke miter limit", job(#""embolden":{"stroke":1,"miterLimit":-2}"#), "miter limit must be 0"),
        ("matrix of three", job(#""matrix":[1,0,0]"#), "matrix must be [xx, xy, yx, yy]"),
        ("origin rounding unknown", job(#""originRounding":"half""#), "originRounding must be \"none\""),
        ("origin rounding negative grid", job(#""originRounding":{"x":{"grid":-1,"bias":0}}"#), "the x grid must be finite"),
        ("origin rounding bias without grid", job(#""originRounding":{"y":{"grid":0,"bias":1}}"#), "not rounded"),
        ("origin rounding unknown axis", job(#""originRounding":{"z":"wholePixel"}"#), "not \"x\" or \"y\""),
        ("hinting rule unknown", job(#""hintingUnderTransform":"never""#), "hintingUnderTransform must be \"keep\""),
        ("ppem unknown", job(#""ppem":"x""#), "ppem must be \"uniform\", \"perAxis\" or \"view\""),
        ("stem darkening not a bool", job(#""stemDarkening":1"#), "stemDarkening must be true or false"),
        ("embolden NaN-like", job(#""embolden":1e999"#), "embolden"),
        ("embolden beyond an em", job(#""embolden":50"#), "at most one em"),
        ("negative embolden beyond an em", job(#""fonts":[{"path":"\#(Fonts.sans)","embolden":[-41,0]}]"#), "at most one em"),
        ("oblique wrong type", job(#""oblique":[1]"#), "oblique must be a number (a shear) or \"freetype\""),
        ("oblique too steep", job(#""glyphs":[{"font":0,"id":82,"x":0,"y":40,"oblique":9}]"#), "oblique must be a finite shear of at most 4"),
        ("hinting unknown", job(#""hinting":"strong""#), "hinting must be \"none\", \"light\", \"full\" or \"mono\""),
        ("hinting at a huge size", job(#""hinting":"full","size":100000"#), "1/64 to 16384 px per em"),
    ]

    @Test(arguments: cases.indices)
    func badJobGetsOneErrorLineAndTheNextJobRuns(_ i: Int) throws {
        let (name, line, fragment) = Self.cases[i]
        let (out, ok) = try runJobs([line, Self.good])
        #expect(ok == [false, true], "\(name)")
        #expect(out.count == 3, "\(name): one error line + two answers")
        let err = out.first?["error"] as? String ?? ""
        #expect(err.contains(fragment), "\(name): error was \(err)")
        #expect(out.dropFirst().allSatisfy { $0["job"] as? String == "good" && $0["hit"] != nil })
    }

    @Test func errorLineEchoesTheJobID() throws {
        let (out, _) = try runJobs([Self.job(#""id":42,"radius":-2"#)])
        #expect(out.count == 1)
        #expect(out[0]["job"] as? Int == 42)
        #expect(out[0]["error"] != nil)
    }

    @Test func unknownKeysAreIgnoredAndNumericIDsEchoed() throws {
        let (out, ok) = try runJobs([Self.job(#""id":7,"colour":"red","nested":{"a":[1,2]}"#)])
        #expect(ok == [true])
        #expect(out.count == 2)
        #expect(out.allSatisfy { $0["job"] as? Int == 7 })
    }

    @Test func nonFinitePointIsAMiss() throws {
        let (out, ok) = try runJobs([Self.job(#""points":[[1e400,25],[-1e400,1e400],[4,29]]"#)])
        #expect(ok == [true])
        #expect(out.count == 3)
        #expect(out[0]["hit"] as? Bool == false && out[1]["hit"] as? Bool == false)
        #expect(out[2]["hit"] as? Bool == true)
    }

    @Test func emptyLayoutAnswersMisses() throws {
        let (out, ok) = try runJobs([Self.job(#""glyphs":[]"#)])
        #expect(ok == [true])
        #expect(out.count == 2)
        #expect(out.allSatisfy { $0["hit"] as? Bool == false && $0["glyph"] is NSNull && $0["distance"] is NSNull })
    }

    @Test func glyphWithoutInkNeverHits() throws {
        // Glyph 3 in DejaVu Sans is the space: no outline, never hit, even with a radius.
        let (out, ok) = try runJobs([Self.job(#""glyphs":[{"font":0,"id":3,"x":0,"y":40}],"radius":5,"points":[[5,30]]"#)])
        #expect(ok == [true])
        #expect(out.first?["hit"] as? Bool == false)
    }
}
