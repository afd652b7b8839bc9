// Structure-aware fuzzer for text jobs: the input bytes are decoded (`ByteReader`) into one `ink-hit query`
// text job whose text is a sequence of pieces — whitespace runs (spaces, tabs, U+3000, newlines, CR LF, the
// other mandatory breaks, mixed) from one unit to 200,000, words in Latin, Hebrew, Arabic and CJK, nested bidi
// embeddings, overrides and isolates (up to 200 deep, balanced or not), floods of combining marks, of ZWJ and
// variation selectors between emoji, zero-width spaces, U+FFFC placeholders, lone surrogates spelled in the
// JSON — with a wrap width or none, paragraph settings, styled runs (ranges anywhere, over half a surrogate
// pair too), exclusions (rects, ellipses, paths), links and attachments. It runs through `JobRunner` as the
// CLI runs it, followed by a small good job. Invariants: those of every job line (`JobChecks`: valid output,
// one answer per point, `ink-hit layout`'s glyph job answered by `query`, the layout's lines, glyphs and
// answers inside the text, line filling linear in it); the good job's answers unchanged by the hostile one;
// and the job held to its deadline, as the scene fuzzer holds it (libFuzzer's -timeout catches hangs, its -rss_limit_mb /
// -malloc_limit_mb any allocation beyond 2 GB). Seeds: written by the fuzzer itself
// (INKHIT_FUZZ_WRITE_SEEDS=DIR), one per family of pieces. INKHIT_FUZZ_VERBOSE=1 prints each job and its times.

#if canImport(Glibc)
import Glibc
#endif
import InkGeometry
import InkHit
import InkText
import InkJobs

@_cdecl("LLVMFuzzerTestOneInput")
public func textFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    TextFuzz.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func textFuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    if let dir = getenv("INKHIT_FUZZ_WRITE_SEEDS") { TextFuzz.writeSeeds(String(cString: dir)); exit(0) }
    return 0
}

enum TextFuzz {
    static let seconds = 2.0
    /// Most UTF-16 units of one text (the job limit is 1,000,000; a fifth keeps runs fast under ASan while a
    /// quadratic step would still take minutes).
    static let maxUnits = 200_000
    /// The fonts, in fallback order: those of the test machine that exist (Latin, CJK, emoji).
    static let fonts: String = {
        let paths = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
                     "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"]
        return "[" + paths.filter { access($0, R_OK) == 0 }.map { #"{"path":"\#($0)"}"# }.joined(separator: ",") + "]"
    }()
    nonisolated(unsafe) static let runner: JobRunner = {
        let r = JobRunner()
        r.limits.maxTextLength = maxUnits
        r.limits.maxPoints = 200
        r.limits.maxSecondsPerJob = seconds
        r.limits.maxShapeBytesPerJob = 256 << 20
        r.limits.maxCachedShapeBytes = 64 << 20
        return r
    }()
    static let good = #"{"id":"good","text":"Tap the link, not the gap.","fonts":\#(fonts),"size":20,"width":120,"links":[{"start":8,"end":12,"tag":"L"}],"radius":1.5,"points":[[10,14],[60,14],[3,40],[500,500]]}"#
    static let goodAlone: [String] = {
        var out: [String] = []
        JobRunner().run(line: good) { out.append($0) }
        return out
    }()

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        JobChecks.maxRoundTripGlyphs = 20_000
        var r = ByteReader(input)
        let (line, units) = job(&r)
        fuzzContext = [String(line.prefix(2000)), "text of \(units) UTF-16 units"]
        // The run alone is timed: the checks after it (`JobChecks`: the layout again, its glyph job answered, its
        // lines, glyphs and answers inside the text, line filling linear in it) are not.
        let (took, cpu) = JobChecks.runLine(runner, line)
        // The limit, the documented overrun, and room for AddressSanitizer; on the wall clock and in CPU time
        // both (a busy machine stretches the first alone).
        if took > .seconds(seconds + 1.5) && cpu > seconds + 1.5 {
            violated("the job took \(took) (\(cpu) s of CPU), more than its \(seconds) s limit and 1.5 s")
        }
        if getenv("INKHIT_FUZZ_VERBOSE") != nil { print("run \(took) (\(cpu) s CPU): text of \(units) units: \(line.prefix(300))…") }
        var out: [String] = []
        runner.run(line: good) { out.append($0) }
        if out != goodAlone { violated("the good job after it answered \(out), alone \(goodAlone)") }
    }

    /// A JSON string's body for `units` (UTF-16), escaping what JSON needs; a lone surrogate is written as a
    /// \u escape (the parser refuses it: an error line, also a case to hold).
    static func escaped(_ units: [UInt16]) -> String {
        var s = ""
        s.reserveCapacity(units.count)
        var i = 0
        func hex(_ u: UInt16) -> String { let h = String(u, radix: 16); return "\\u" + String(repeating: "0", count: 4 - h.count) + h }
        while i < units.count {
            let u = units[i]
            if UTF16.isLeadSurrogate(u), i + 1 < units.count, UTF16.isTrailSurrogate(units[i + 1]) {
                s.unicodeScalars.append(Unicode.Scalar(UInt32(0x10000) + (UInt32(u - 0xD800) << 10) + UInt32(units[i + 1] - 0xDC00))!)
                i += 2
                continue
            }
            switch u {
            case 0x22: s += "\\\""
            case 0x5C: s += "\\\\"
            case 0x0A: s += "\\n"
            case 0x09: s += "\\t"
            case 0..<0x20, 0xD800...0xDFFF: s += hex(u)
            default: s.unicodeScalars.append(Unicode.Scalar(u)!)
            }
            i += 1
        }
        return s
    }

    static let whitespace: [[UInt16]] = [[0x20], [0x09], [0x3000], [0x0A], [0x0D, 0x0A], [0x2028], [0x2029], [0x85], [0x0B], [0x0C],
                                         [0x20, 0x09, 0x3000, 0x0A], [0x20, 0x20, 0x3000], [0xA0], [0x200B]]
    static let words: [String] = ["ink", "office", "hyphen-ated", "שָׁלוֹם", "مرحبا", "漢字かな", "永", "Ǆ", "a\u{301}", "😀", "👩‍👩‍👧",
                                  "1960", "\u{FFFC}", "ﬁ", "x"]
    static let bidi: [UInt16] = [0x202A, 0x202B, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068]      // closed by PDF / PDI

    /// One piece of text (UTF-16), up to `room` units.
    static func piece(_ r: inout ByteReader, room: Int) -> [UInt16] {
        // Mostly short; one piece in 32 long (up to 65,535 units), one in 256 up to the room left (200,000).
        let long = r.u8() % 32 == 0
        let count = long ? Int(r.u16()) * (r.u8() % 8 == 0 ? 4 : 1) + 1 : Int(r.u8() % 32) + 1
        var out: [UInt16] = []
        func repeated(_ unit: [UInt16]) {
            let times = max(1, min(count, room / max(1, unit.count)))
            out.reserveCapacity(unit.count * times)
            for _ in 0..<times { out += unit }
        }
        switch r.u8() % 8 {
        case 0, 1: repeated(whitespace[Int(r.u8()) % whitespace.count])
        case 2: repeated(Array((words[Int(r.u8()) % words.count] + (r.u8() % 2 == 0 ? " " : "")).utf16))
        case 3:
            // Nested bidi: openings, a word, closings (balanced, or some left open or closed twice).
            let depth = min(Int(r.u8() % 200) + 1, room / 4)
            var closers: [UInt16] = []
            for _ in 0..<depth {
                let o = bidi[Int(r.u8()) % bidi.count]
                out.append(o)
                closers.append(o >= 0x2066 ? 0x2069 : 0x202C)
                if r.u8() % 4 == 0 { out += Array("ab אב ".utf16) }
            }
            out += Array("mixed עברית 12 text".utf16)
            let close = r.u8() % 4 == 0 ? Int(r.u8()) % (depth + 1) : depth
            out += closers.reversed().prefix(close)
            if r.u8() % 8 == 0 { out += [0x202C, 0x2069] }                       // unmatched closers
        case 4:
            // A flood of marks on one base (one grapheme), or of ZWJ and selectors between emoji.
            switch r.u8() % 3 {
            case 0: out = [0x61]; repeated([0x0301])
            case 1: out = Array("👩".utf16); repeated([0x200D] + Array("👩".utf16))
            default: out = Array("😀".utf16); repeated([0x200D, 0xFE0F])
            }
        case 5: repeated([0x200D])
        case 6: out = [0xD83D]                                                  // a lone lead surrogate (invalid JSON)
        default: repeated(Array("word ".utf16))
        }
        return Array(out.prefix(room))
    }

    /// A number of `scale` (mostly moderate, sometimes 0 or negative).
    static func number(_ r: inout ByteReader, _ scale: Double) -> String {
        switch r.u8() % 8 {
        case 0: return ["0", "-1", "1e-7", "1e6", "1e9"][Int(r.u8() % 5)]
        default: return String(Double(r.u8()) * scale / 255)
        }
    }

    /// The job line and its text's UTF-16 length.
    static func job(_ r: inout ByteReader) -> (String, Int) {
        var text: [UInt16] = []
        let pieces = 1 + Int(r.u8() % 12)
        for _ in 0..<pieces where text.count < maxUnits { text += piece(&r, room: maxUnits - text.count) }
        let n = text.count
        var members = #""size":\#(1 + Double(r.u8() % 64))"#
        if r.u8() % 4 != 0 { members += #","width":\#(number(&r, 600))"# }
        if r.u8() % 4 == 0 { members += #","maxLines":\#(1 + r.u8() % 8)"# }
        if r.u8() % 4 == 0 { members += #","alignment":"\#(["left", "center", "right"][Int(r.u8() % 3)])""# }
        if r.u8() % 4 == 0 {
            members += #","lineHeight":\#(0.5 + Double(r.u8() % 8) / 4),"paragraphSpacing":\#(r.u8() % 20),"firstLineIndent":\#(Int(r.u8() % 40) - 20)"#
        }
        func offset() -> Int { n == 0 ? 0 : Int(r.u16() % UInt16(truncatingIfNeeded: min(n, 65535))) * max(1, n / 65535) }
        if r.u8() % 3 == 0 {
            let runs = (0..<(1 + Int(r.u8() % 6))).map { _ -> String in
                let s = offset(), e = s + 1 + Int(r.u8() % 40)
                let attribute = [#""size":30"#, #""underline":"single""#, #""strikethrough":true"#, #""letterSpacing":3"#,
                                 #""baselineShift":-4"#, #""embolden":"freetype""#, #""oblique":0.3,"hinting":"full""#,
                                 #""fonts":[0]"#][Int(r.u8() % 8)]
                return #"{"start":\#(s),"end":\#(e),\#(attribute)}"#
            }
            members += #","runs":[\#(runs.joined(separator: ","))]"#
        }
        if r.u8() % 3 == 0 {
            let exclusions = (0..<(1 + Int(r.u8() % 4))).map { _ -> String in
                let box = "[\(number(&r, 300)),\(number(&r, 200)),\(number(&r, 200)),\(number(&r, 100))]"
                switch r.u8() % 3 {
                case 0: return #"{"rect":\#(box)}"#
                case 1: return #"{"ellipse":\#(box)}"#
                default: return #"{"path":"M 0 0 L \#(r.u8()) \#(r.u8()) Q 300 0 \#(r.u8()) 40 Z"}"#
                }
            }
            members += #","exclusions":[\#(exclusions.joined(separator: ","))]"#
        }
        if r.u8() % 3 == 0 && n > 0 {
            let links = (0..<(1 + Int(r.u8() % 6))).map { k -> String in
                let s = offset()
                return #"{"start":\#(s),"end":\#(min(n, s + 1 + Int(r.u8() % 30))),"tag":"l\#(k)"}"#
            }
            members += #","links":[\#(links.joined(separator: ","))]"#
        }
        let placeholders = text.indices.filter { text[$0] == 0xFFFC }.prefix(8)
        if !placeholders.isEmpty && r.u8() % 2 == 0 {
            let attachments = placeholders.map { #"{"at":\#($0),"width":\#(r.u8() % 40),"ascent":\#(r.u8() % 30),"descent":\#(r.u8() % 10),"tag":"a\#($0)"}"# }
            members += #","attachments":[\#(attachments.joined(separator: ","))]"#
        }
        if r.u8() % 8 == 0 { members += #","transform":[\#(Double(r.u8() | 1) / 32),0.2,0,1,\#(r.u8()),0]"# }
        let points = (0..<(1 + Int(r.u8() % 24))).map { _ in "[\(number(&r, 600)),\(number(&r, 300))]" }.joined(separator: ",")
        let line = #"{"id":"t","text":"\#(escaped(text))","fonts":\#(fonts),\#(members),"radius":\#(Double(r.u8() % 16) / 2),"points":[\#(points)]}"#
        return (line, n)
    }

    /// One seed per family of pieces (the first bytes pick the piece count and each piece).
    static func writeSeeds(_ dir: String) {
        let seeds: [(String, [UInt8])] = [
            ("spaces-long", [1, 0, 0xFF, 0xFF, 0, 0, 4, 1, 200, 0, 0, 0, 0]),
            ("tabs-and-words", [3, 1, 5, 0, 1, 2, 1, 0, 2, 30, 1, 2, 3, 1, 0, 2, 7]),
            ("ideographic-wrapped", [2, 3, 20, 1, 2, 2, 1, 7, 1, 0, 1, 0, 40]),
            ("newlines-mixed", [2, 0, 0x40, 0x10, 0, 10, 5, 2, 1, 3, 0]),
            ("bidi-nesting", [1, 1, 3, 180, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0]),
            ("mark-flood", [1, 0, 0x80, 0x20, 4, 0, 0, 0]),
            ("zwj-flood", [1, 0, 0x20, 0x04, 4, 1, 0, 0]),
            ("runs-exclusions-links", [4, 2, 2, 5, 3, 1, 4, 2, 2, 2, 1, 9, 0, 1, 3, 1, 1, 0, 0, 0, 5, 0, 3, 0, 0, 7, 0, 2, 1, 3, 10, 5, 0]),
        ]
        for (name, bytes) in seeds {
            let path = dir + "/" + name
            guard let f = fopen(path, "wb") else { continue }
            _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
        }
    }
}
