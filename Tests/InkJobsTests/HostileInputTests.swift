import Foundation
import InkFreeType
import InkGeometry
import InkHit
import InkJobs
import InkTestSupport
import Testing

/// Hostile job lines beyond `BadJobTests`: broken font files, NaN/∞ spelled every way JSON allows (and
/// some it does not), huge and tiny sizes, radii and transforms, wrong types everywhere, every `JobLimits`
/// bound, a 200,000-glyph job, and a battery of good and bad jobs where the good ones keep their answers.
@Suite("Hostile job input")
struct HostileInputTests {
    static let good = BadJobTests.good
    static func job(_ patch: String) -> String { BadJobTests.job(patch) }

    /// Scratch files for the whole suite: an empty file, noise, a truncated font, and a DejaVu copy whose
    /// glyph 82 ("o") has a broken record.
    static let files: [String: String] = {
        let dir = "/tmp/InkJobsHostile-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let sans = [UInt8](FileManager.default.contents(atPath: Fonts.sans) ?? Data())
        var noise = [UInt8](repeating: 0, count: 5000)
        var state: UInt64 = 12345
        for i in noise.indices { state = state &* 6364136223846793005 &+ 1; noise[i] = UInt8(truncatingIfNeeded: state >> 33) }
        var corrupt = sans
        if let (start, length) = glyphRecord(82, in: sans) {
            // 2 contours whose end points go backwards, then garbage.
            let broken: [UInt8] = [0, 2, 0, 0, 0, 0, 0, 9, 0, 9, 0, 7, 0, 3, 0, 0]
            for k in 0..<min(length, 64) { corrupt[start + k] = k < broken.count ? broken[k] : 0xFF }
        }
        let out = ["empty": dir + "/empty.ttf", "noise": dir + "/noise.ttf", "truncated": dir + "/truncated.ttf",
                   "corrupt": dir + "/corrupt-o.ttf"]
        for (name, bytes) in [("empty", Data()), ("noise", Data(noise)), ("truncated", Data(sans.prefix(2000))),
                              ("corrupt", Data(corrupt))] {
            // A scratch file that cannot be written would turn every hostile case into "file not found".
            precondition(FileManager.default.createFile(atPath: out[name]!, contents: bytes), "cannot write \(out[name]!)")
        }
        return out
    }()

    /// Offset and length of glyph `g`'s record in a TrueType file (from head, loca and glyf).
    static func glyphRecord(_ g: Int, in b: [UInt8]) -> (Int, Int)? {
        func u16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func u32(_ i: Int) -> Int { u16(i) << 16 | u16(i + 2) }
        var tables: [String: Int] = [:]
        for t in 0..<u16(4) { tables[String(decoding: b[(12 + 16 * t)..<(16 + 16 * t)], as: UTF8.self)] = u32(12 + 16 * t + 8) }
        guard let head = tables["head"], let loca = tables["loca"], let glyf = tables["glyf"] else { return nil }
        let long = u16(head + 50) == 1
        let a = long ? u32(loca + 4 * g) : 2 * u16(loca + 2 * g)
        let e = long ? u32(loca + 4 * g + 4) : 2 * u16(loca + 2 * g + 2)
        return (glyf + a, e - a)
    }

    static let errorCases: [(String, String, String)] = [
        // Font files.
        ("empty font file", job(#""fonts":[{"path":"\#(files["empty"]!)"}]"#), "empty"),
        ("random bytes as a font", job(#""fonts":[{"path":"\#(files["noise"]!)"}]"#), "not a font"),
        ("truncated font", job(#""fonts":[{"path":"\#(files["truncated"]!)"}]"#), "not a font"),
        ("corrupt glyf record", job(#""fonts":[{"path":"\#(files["corrupt"]!)"}]"#), "glyphs[0]"),
        ("device as font", job(#""fonts":[{"path":"/dev/zero"}]"#), "not a regular file"),
        ("path with a NUL", job(#""fonts":[{"path":"/usr/share/fonts\u0000/x.ttf"}]"#), "not found"),
        ("empty path", job(#""fonts":[{"path":""}]"#), "not found"),
        // Beyond Double (JSON has no NaN/∞; 1e400 parses as ∞).
        ("size 1e400", job(#""size":1e400"#), "size 1e400 is out of range"),
        ("glyph size -1e400", job(#""glyphs":[{"font":0,"id":82,"x":0,"y":40,"size":-1e400}]"#), "glyphs[0].size"),
        ("glyph y 1e400", job(#""glyphs":[{"font":0,"id":82,"x":0,"y":1e400}]"#), "glyphs[0].y"),
        ("transform 1e400", job(#""transform":[1e400,0,0,1,0,0]"#), "transform[0]"),
        ("transform -1e400 tx", job(#""transform":[1,0,0,1,-1e400,0]"#), "transform[4]"),
        ("radius 1e400", job(#""radius":1e400"#), "radius 1e400 is out of range"),
        ("NaN literal", job(#""size":NaN"#), "invalid JSON"),
        ("Infinity literal", job(#""radius":Infinity"#), "invalid JSON"),
        ("-Infinity literal", job(#""points":[[-Infinity,0]]"#), "invalid JSON"),
        // Finite but hopeless.
        ("size 1e300", job(#""size":1e300"#), "beyond the ±1e9 px view range"),
        ("size 1e-300", job(#""size":1e-300"#), "1e-300 view px per em (size × transform scale) is too small"),
        ("size 2e8: curves too fine", job(#""size":2e8"#), "segments"),
        ("glyph at x 1e12", job(#""glyphs":[{"font":0,"id":82,"x":1e12,"y":40}]"#), "beyond ±1e9"),
        ("transform scale 1e200", job(#""transform":[1e200,0,0,1e200,0,0]"#), "[1e+200, 0, 0, 1e+200, 0, 0] is out of range"),
        ("transform scale 1e-200", job(#""transform":[1e-200,0,0,1e-200,0,0]"#), "[1e-200, 0, 0, 1e-200, 0, 0] is out of range"),
        ("transform tx 1e12", job(#""transform":[1,0,0,1,1e12,0]"#), "is out of range"),
        ("rank-1 transform", job(#""transform":[1,2,2,4,0,0]"#), "singular"),
        ("all-zero transform", job(#""transform":[0,0,0,0,5,5]"#), "singular"),
        ("glyph id 2^32", job(#""glyphs":[{"font":0,"id":4294967296,"x":0,"y":40}]"#), "out of range"),
        ("glyph id 1e300", job(#""glyphs":[{"font":0,"id":1e300,"x":0,"y":40}]"#), "glyphs[0].id 1e300 is out of range"),
        ("font index 1e300", job(#""glyphs":[{"font":1e300,"id":82,"x":0,"y":40}]"#), "glyphs[0].font 1e300 is out of range"),
        ("face index -2^63", job(#""fonts":[{"path":"\#(Fonts.sans)","index":-9223372036854775808}]"#), "fonts[0].index -9223372036854775808 is out of range"),
        ("glyph id 1.5", job(#""glyphs":[{"font":0,"id":1.5,"x":0,"y":40}]"#), "glyphs[0].id must be an integer (got 1.5)"),
        ("size of 400 digits", job(#""size":1\#(String(repeating: "0", count: 400))"#), "size 100000000000… (401 characters) is out of range"),
        ("cluster is a string", job(#""glyphs":[{"font":0,"id":82,"x":0,"y":40,"cluster":"3"}]"#), "glyphs[0].cluster must be an integer, got string"),
        ("cluster is negative", job(#""glyphs":[{"font":0,"id":82,"x":0,"y":40,"cluster":-1}]"#), "glyphs[0].cluster must be ≥ 0"),
        ("id of 5,000 bytes", job(#""id":"\#(String(repeating: "i", count: 5000))""#), "\"id\" has 5000 bytes, more than the limit of 4096"),
        ("font path of 5,000 bytes", job(#""fonts":[{"path":"/\#(String(repeating: "p", count: 5000))"}]"#), "fonts[0].path has 5001 bytes"),
        ("face index 65536", job(#""fonts":[{"path":"\#(Fonts.sans)","index":65536}]"#), "face index 65536"),
        // Wrong JSON types.
        ("glyphs is an object", job(#""glyphs":{"0":{"id":82}}"#), "\"glyphs\" must be an array"),
        ("glyph is a number", job(#""glyphs":[82]"#), "glyphs[0] must be an object"),
        ("font is a string", job(#""fonts":["\#(Fonts.sans)"]"#), "fonts[0] must be an object"),
        ("font path is a number", job(#""fonts":[{"path":7}]"#), "fonts[0].path must be a string"),
        ("face index is a string", job(#""fonts":[{"path":"\#(Fonts.sans)","index":"0"}]"#), "must be an integer"),
        ("fonts is empty", job(#""fonts":[]"#), "\"fonts\" is empty"),
        ("points is an object", job(#""points":{"x":1}"#), "\"points\" must be an array"),
        ("point is nested", job(#""points":[[[4,29]]]"#), "points[0]"),
        ("point has null", job(#""points":[[null,29]]"#), "points[0]"),
        ("id is true", job(#""id":true"#), "\"id\" must be a string or a number"),
        ("id is null", job(#""id":null"#), "\"id\" must be a string or a number"),
        ("size is a string", job(#""size":"40""#), "size must be a number"),
        ("radius is an array", job(#""radius":[1]"#), "radius must be a number"),
        ("transform has a string", job(#""transform":[1,0,0,"1",0,0]"#), "transform[3]"),
        ("transform is a number", job(#""transform":1"#), "6 numbers"),
        ("glyph id is a bool", job(#""glyphs":[{"font":0,"id":true,"x":0,"y":40}]"#), "must be an integer"),
        // Malformed JSON.
        ("byte-order mark", "\u{FEFF}" + good, "invalid JSON"),
        ("trailing comma", String(good.dropLast()) + ",}", "invalid JSON"),
        ("two objects", good + good, "unexpected text after the value"),
        ("unterminated string", #"{"id":"abc"#, "invalid JSON"),
        ("lone surrogate", #"{"id":"\ud800","fonts":[]}"#, "surrogate"),
        ("control character in a string", "{\"id\":\"a\u{01}b\"}", "control character"),
        ("leading zero", job(#""size":040"#), "leading zero"),
        ("bare dot", job(#""size":.5"#), "invalid JSON"),
        ("empty line", "", "invalid JSON"),
        ("only spaces and tabs", " \t ", "invalid JSON"),
    ]

    @Test(.timeLimit(.minutes(10)), arguments: errorCases.indices)
    func hostileJobGetsOneClearErrorAndTheNextJobRuns(_ i: Int) throws {
        let (name, line, fragment) = Self.errorCases[i]
        let (out, ok) = try runJobs([line, Self.good])
        #expect(ok == [false, true], "\(name): \(out.first ?? [:])")
        #expect(out.count == 3, "\(name): one error line + two answers")
        let err = out.first?["error"] as? String ?? ""
        #expect(err.contains(fragment), "\(name): error was \(err)")
        #expect(out.dropFirst().map { $0["hit"] as? Bool } == [true, false], "\(name): the good job still answers")
    }

    /// Lines that are odd but answerable get defined answers.
    @Test func oddButValidJobsGetDefinedAnswers() throws {
        // Duplicate keys: the last one wins.
        var (out, ok) = try runJobs([Self.job(#""size":10,"size":40"#)])
        #expect(ok == [true] && out.map { $0["hit"] as? Bool } == [true, false])
        // A huge-magnitude id number is echoed as written.
        let runner = JobRunner()
        var lines: [String] = []
        runner.run(line: Self.job(#""id":123456789012345678901234567890"#)) { lines.append($0) }
        #expect(lines.first?.hasPrefix(#"{"job":123456789012345678901234567890,"#) == true)
        // Escapes and non-ASCII in the id are echoed as valid JSON.
        (out, ok) = try runJobs([Self.job(#""id":"tab\there \"quoted\" \u00e9 \ud83d\ude00""#)])
        #expect(ok == [true] && out.first?["job"] as? String == "tab\there \"quoted\" é 😀")
        // Invalid UTF-8 inside a string is repaired (U+FFFD), not an error.
        let bytes = Array(Self.job(#""id":"Xy""#).utf8)
        var broken = bytes
        if let at = broken.firstIndex(of: UInt8(ascii: "X")) { broken[at] = 0xC3 }  // a lead byte without its continuation
        lines = []
        #expect(runner.run(line: String(decoding: broken, as: UTF8.self)) { lines.append($0) })
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        // -0 and exponents are numbers like any other.
        (out, ok) = try runJobs([Self.job(#""glyphs":[{"font":0,"id":82,"x":-0,"y":4E1}],"radius":0E0"#)])
        #expect(ok == [true] && out.first?["hit"] as? Bool == true)
        // A nearly singular (but invertible) shear is answered.
        (out, ok) = try runJobs([Self.job(#""transform":[1,0,1,1.0000001,0,0]"#)])
        #expect(ok == [true] && out.count == 2)
    }

    /// r = 1e300: every point gets the nearest glyph, even far away (a hang fails the test's time limit).
    @Test(.timeLimit(.minutes(10))) func enormousRadiusAnswersTheNearestGlyph() throws {
        let (out, ok) = try runJobs([Self.job(#""radius":1e300,"points":[[4,29],[12,29],[-5e8,3e8],[1e9,1e9],[1e300,0]]"#)])
        #expect(ok == [true] && out.count == 5)
        #expect(out.prefix(4).allSatisfy { $0["hit"] as? Bool == true && $0["glyph"] as? Int == 0 })
        #expect((out[2]["distance"] as? Double ?? 0) > 5e8)
        // 1e300 away, squared distances overflow: a miss (reported to InkHit; a defined answer meanwhile).
        #expect(out[4]["job"] as? String == "good")
    }

    // MARK: Limits

    @Test func everyJobLimitIsATypedErrorAndTheNextJobRuns() throws {
        func run(_ configure: (inout JobLimits) -> Void, _ line: String) -> (String, Bool) {
            let runner = JobRunner()
            configure(&runner.limits)
            var out: [String] = []
            let ok = runner.run(line: line) { out.append($0) }
            var next: [String] = []
            runner.limits = JobLimits()
            #expect(runner.run(line: Self.good) { next.append($0) }, "the next job runs")
            #expect(next.count == 2)
            #expect(out.count == 1 || ok, "a failed job emits one line")
            return (out.first ?? "", ok)
        }
        let cases: [(String, (inout JobLimits) -> Void, String, String)] = [
            ("line bytes", { $0.maxLineBytes = 100 }, Self.good, "more than the limit of 100"),
            ("glyphs", { $0.maxGlyphs = 1 }, Self.job(#""glyphs":[{"font":0,"id":82,"x":0,"y":40},{"font":0,"id":82,"x":9,"y":40}]"#), "more than 1 glyphs"),
            ("points", { $0.maxPoints = 1 }, Self.good, "more than 1 points"),
            ("fonts", { $0.maxFonts = 1 }, Self.job(#""fonts":[{"path":"\#(Fonts.sans)"},{"path":"\#(Fonts.serif)"}]"#), "more than 1 fonts"),
            ("seconds", { $0.maxSecondsPerJob = 0 }, Self.job(#""glyphs":\#(Self.glyphArray(200)),"points":\#(Self.pointArray(100))"#), "(the limit)"),
            ("font bytes", { $0.maxFontBytesPerJob = 1000 }, Self.good, "bytes (the limit)"),
            ("shape bytes", { $0.maxShapeBytesPerJob = 1000 }, Self.good, "glyph shapes need more than 1000 bytes"),
        ]
        for (name, configure, line, fragment) in cases {
            let (err, ok) = run(configure, line)
            #expect(!ok, "\(name)")
            #expect(err.contains(fragment), "\(name): \(err)")
            #expect(err.hasPrefix(#"{"job":"#) && err.contains(#""error":"#), "\(name)")
        }
    }

    static func glyphArray(_ n: Int, columns: Int = 100) -> String {
        let ids = [43, 72, 79, 79, 82, 3, 90, 82, 85, 79, 71]          // "Hello world" in DejaVu Sans
        var parts: [String] = []
        parts.reserveCapacity(n)
        for k in 0..<n {
            parts.append(#"{"font":0,"id":\#(ids[k % ids.count]),"x":\#(Double(k % columns) * 9),"y":\#(Double(k / columns) * 20 + 16)}"#)
        }
        return "[" + parts.joined(separator: ",") + "]"
    }

    static func pointArray(_ n: Int) -> String {
        "[" + (0..<n).map { k in "[\(Double(k % 97) * 9.3),\(Double(k % 89) * 7.1 + 5)]" }.joined(separator: ",") + "]"
    }

    /// A job over the time limit emits its error and no answers at all.
    @Test func timeLimitDropsPartialAnswers() throws {
        let runner = JobRunner()
        runner.limits.maxSecondsPerJob = 0.000_001
        var out: [String] = []
        let line = #"{"id":"slow","fonts":[{"path":"\#(Fonts.sans)"}],"size":16,"glyphs":\#(Self.glyphArray(2000)),"radius":1e300,"points":\#(Self.pointArray(5000))}"#
        #expect(!runner.run(line: line) { out.append($0) })
        #expect(out.count == 1 && out[0].contains("(the limit)"))
    }

    /// Text jobs obey the same limits: text length (as `maxGlyphs` UTF-16 code units) and time.
    @Test func textJobLimits() throws {
        let line = #"{"id":"t","text":"Hello, wörld — and more","fonts":[{"path":"\#(Fonts.sans)"}],"size":20,"points":\#(Self.pointArray(100))}"#
        var out: [String] = []
        #expect(JobRunner().run(line: line) { out.append($0) }, "control: the job is fine")
        #expect(out.count == 100)
        let runner = JobRunner()
        runner.limits.maxTextLength = 10
        out = []
        #expect(!runner.run(line: line) { out.append($0) })
        #expect(out.count == 1 && out[0].contains("UTF-16 code units (the limit)"), "\(out)")
        runner.limits = JobLimits()
        runner.limits.maxGlyphs = 10                     // the layout makes 23 glyphs
        out = []
        #expect(!runner.run(line: line) { out.append($0) })
        #expect(out.count == 1 && out[0].contains("more than 10 glyphs in the layout"), "\(out)")
        runner.limits = JobLimits()
        runner.limits.maxSecondsPerJob = 0
        out = []
        #expect(!runner.run(line: line) { out.append($0) })
        #expect(out.count == 1 && out[0].contains("(the limit)"), "no partial answers")
    }

    /// Hostile rich text: 20,000 exclusions stacked down the page over 20,000 words, and as many runs, stop
    /// at the time limit with an error line (or are answered within it); paths flattening to more than 2^20
    /// points are refused; a run range inside a surrogate pair is refused (as the C interface refuses it).
    @Test func hostileRunsAndExclusionsStayBounded() throws {
        let n = 20_000
        let text = String(repeating: "word ", count: n)
        let exclusions = (0..<n).map { k in #"{"rect":[\#(k % 7 * 20),\#(k * 3),15,2]}"# }.joined(separator: ",")
        let runs = (0..<n).map { k in #"{"start":\#(k * 5),"end":\#(k * 5 + 4),"size":\#(10 + k % 5),"underline":"single"}"# }
            .joined(separator: ",")
        let line = #"{"id":"x","text":"\#(text)","fonts":[{"path":"\#(Fonts.sans)"}],"size":12,"width":150,"runs":[\#(runs)],"#
            + #""exclusions":[\#(exclusions)],"points":[[1,1]]}"#
        let runner = JobRunner()
        runner.limits.maxSecondsPerJob = 1
        var out: [String] = []
        // The job runs on this thread: its CPU time is the job's (a loaded machine stretches the wall clock, not
        // this). The limit, plus the documented overrun (~100 ms; 4× under a sanitizer, where every instruction
        // between two deadline checks costs 5–15× more), plus a stated margin of 0.4 s (reading the 1.6 MB line
        // before the job's clock starts, freeing what it built after the error).
        let cpu = threadCPUSeconds()
        let ok = runner.run(line: line) { out.append($0) }
        let used = threadCPUSeconds() - cpu, bound = 1 + (Sanitizers.active ? 0.4 : 0.1) + 0.4
        print("hostile runs and exclusions: \(used) s of CPU (bound \(bound) s)")
        #expect(used <= bound, "stopped near its limit: \(used) s of CPU")
        #expect(out.count == 1 && (ok || out[0].contains("(the limit)")), "\(out.first ?? "")")
        // A path of 3,000 cubic arcs of 1e6 px each flattens to far more than 2^20 points.
        let arcs = (0..<3000).map { _ in "C 1000000 0 1000000 1000000 0 1000000" }.joined(separator: " ")
        let path = #"{"id":"p","text":"ab","fonts":[{"path":"\#(Fonts.sans)"}],"size":12,"exclusions":[{"path":"M0 0 \#(arcs) Z"}],"points":[]}"#
        out = []
        #expect(!JobRunner().run(line: path) { out.append($0) })
        #expect(out.first?.contains("exclusions[0]: the paths flatten to more than 1048576 points") == true, "\(out)")
        let pair = #"{"id":"s","text":"a\uD83D\uDE00b","fonts":[{"path":"\#(Fonts.sans)"}],"size":12,"runs":[{"start":2,"end":3,"size":30,"underline":"double"}],"points":[[1,1]]}"#
        out = []
        #expect(!JobRunner().run(line: pair) { out.append($0) })
        #expect(out == [#"{"job":"s","error":"runs[0].start 2 is between the two UTF-16 units of a character"}"#], "\(out)")
    }

    /// Paths that name the same file share one loaded font; caches over their limits are emptied between
    /// jobs, so a long stream of jobs does not grow without bound.
    @Test func fontCacheByFileIdentityAndCacheTrimming() throws {
        let runner = JobRunner()
        let spellings = [Fonts.sans, "/usr/share/fonts/truetype/dejavu/./DejaVuSans.ttf", "//usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                         "/usr/share/fonts/truetype/../truetype/dejavu/DejaVuSans.ttf"]
        let ids = try spellings.map { try runner.font(GlyphJob.FontRef(path: $0, index: 0)).id }
        #expect(Set(ids).count == 1, "one load for four spellings of one path")
        runner.limits.maxCachedShapeBytes = 1                      // empty the caches before every job
        for k in 0..<5 {
            var out: [String] = []
            #expect(runner.run(line: Self.job(#""glyphs":[{"font":0,"id":\#(36 + k),"x":0,"y":40}]"#)) { out.append($0) })
            #expect(runner.cache.count <= 2, "job \(k): cache trimmed to this job's shapes")
        }
    }

    // MARK: Big and mixed inputs

    /// A 200,000-glyph job (about 13 MB of JSON) is answered (a hang fails the test's time limit; its speed is
    /// the benchmarks' business).
    @Test(.timeLimit(.minutes(10))) func twoHundredThousandGlyphJob() throws {
        let n = 200_000
        let line = #"{"id":"big","fonts":[{"path":"\#(Fonts.sans)"}],"size":16,"glyphs":\#(Self.glyphArray(n, columns: 400)),"radius":2,"points":\#(Self.pointArray(2000))}"#
        let runner = JobRunner()
        var answers = 0, hits = 0
        let ok = runner.run(line: line) { s in answers += 1; if s.contains("\"hit\":true") { hits += 1 } }
        #expect(ok && answers == 2000 && hits > 0, "\(hits) of \(answers) points hit")
    }

    /// Good and bad jobs interleaved: every good job gets exactly the answers it gets alone, in a fresh
    /// runner; every bad one gets one error line.
    @Test func goodJobsAmongBadOnesKeepTheirAnswers() throws {
        var goodJobs = try Fixture.lines("example-jobs.jsonl")
        goodJobs += [Self.good, Self.job(#""id":"rotated","transform":[0.8,0.6,-0.6,0.8,10,-4],"radius":1.5"#),
                     Self.job(#""id":"two-fonts","fonts":[{"path":"\#(Fonts.sans)"},{"path":"\#(Fonts.mono)"}],"glyphs":[{"font":1,"id":82,"x":0,"y":40},{"font":0,"id":82,"x":3,"y":40}]"#)]
        let bad = Self.errorCases.map(\.1)
        var expected: [String: [String]] = [:]
        for g in goodJobs {
            var out: [String] = []
            #expect(JobRunner().run(line: g) { out.append($0) })
            expected[g] = out
        }
        let runner = JobRunner()
        var order: [(String, Bool)] = []
        for (k, b) in bad.enumerated() {
            order.append((b, false))
            if k % 4 == 0 { order.append((goodJobs[(k / 4) % goodJobs.count], true)) }
        }
        for g in goodJobs { order.append((g, true)) }
        for (line, isGood) in order {
            var out: [String] = []
            let ok = runner.run(line: line) { out.append($0) }
            #expect(ok == isGood)
            if isGood { #expect(out == expected[line], "a good job's answers changed in a mixed stream") } else { #expect(out.count == 1) }
        }
    }
}
