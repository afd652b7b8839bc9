import Foundation
import Testing
import InkTestSupport

/// Hostile input for every subcommand that reads jobs (query, layout, render, bench), under a 2 GB
/// address-space cap so an abort fails the test instead of passing unnoticed. Each hostile job is followed
/// by a good one, which must get exactly the output it gets alone: one bad job never costs the next.
/// The oracles are the documented limits and messages, and the good job's output when run alone.
@Suite("ink-hit under hostile input", .timeLimit(.minutes(10)))
struct HostileCLITests {
    static let subcommands = CLITests.subcommands

    /// A small text job every subcommand answers (one font, three points).
    static let good = #"{"id":"good","text":"Hi there","fonts":[{"path":\#(Jobs.quoted(TestFonts.sans))}],"size":20,"radius":1,"points":[[5,10],[15,12],[100,100]]}"#

    /// A text job on DejaVu Sans with `members` added (`"text"` and `"points"` may be overridden).
    static func text(_ id: String, _ text: String = "Hi", _ members: String = "", points: String = "[[5,10]]") -> String {
        #"{"id":"\#(id)","text":\#(Jobs.quoted(text)),"fonts":[{"path":\#(Jobs.quoted(TestFonts.sans))}],"size":20\#(members),"points":\#(points)}"#
    }

    /// Runs `ink-hit args` under the cap (uncapped under a sanitizer, whose shadow memory cannot live under one).
    static func run(_ args: [String], stdin: Data? = nil) async throws -> CLI.Output {
        if Sanitizers.active { return try await CLI.run(args, stdin: stdin) }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") {
            return try await CLI.run(args, stdin: stdin, launcher: ["/usr/bin/prlimit", "--as=2000000000"])
        }
        return try await CLI.run(args, stdin: stdin, launcher: ["/bin/sh", "-c", "ulimit -v 1953125 && exec \"$0\" \"$@\""])
    }

    /// What a subcommand writes for `good` alone (bench: its job, points and radius; its times vary).
    static func normalized(_ sub: String, _ lines: [String]) throws -> [String] {
        guard sub == "bench" else { return lines }
        return try lines.map { line in
            let o = try Jobs.object(line)
            return "\(o["job"] ?? "-") \(o["points"] ?? "-") \(o["radius"] ?? "-") \(o["error"] ?? "")"
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var line: String
        var args: [String] = []
        /// In the hostile job's last line (its error); nil when the job must be answered.
        var error: String?
        /// Subcommands the case applies to (all when nil).
        var only: [String]? = nil
        var description: String { name }
    }

    static let cases: [Case] = {
        let sans = Jobs.quoted(TestFonts.sans), cjk = Jobs.quoted(TestFonts.cjk)
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        return [
            // Limits text jobs used to skip.
            Case(name: "fonts beyond --max-font-bytes",
                 line: #"{"id":"fonts","text":"Hi 漢字","fonts":[{"path":\#(sans)},{"path":\#(cjk)}],"size":20,"points":[[5,10]]}"#,
                 args: ["--max-font-bytes", "2000000"], error: "fonts have more than 2000000 bytes (the limit)"),
            Case(name: "shapes beyond --max-shape-bytes", line: text("shapes", letters, #","size":900"#),
                 args: ["--max-shape-bytes", "50000"], error: "the layout's glyph shapes need more than 50000 bytes"),
            Case(name: "text beyond --max-text-length", line: text("long", String(repeating: "ab ", count: 400)),
                 args: ["--max-text-length", "1000"], error: "more than 1000 UTF-16 code units (the limit)"),
            Case(name: "links beyond --max-links",
                 line: text("links", "Hi", #","links":[{"start":0,"end":1,"tag":"a"},{"start":1,"end":2,"tag":"b"}]"#),
                 args: ["--max-links", "1"], error: "more than 1 links and attachments"),
            Case(name: "points beyond --max-points", line: text("points", points: "[[1,1],[2,2],[3,3],[4,4]]"),
                 args: ["--max-points", "3"], error: "more than 3 points"),
            Case(name: "id beyond --max-string-bytes", line: text(String(repeating: "i", count: 300)),
                 args: ["--max-string-bytes", "256"], error: "\"id\" has 300 bytes, more than the limit of 256"),
            // Work that used to be quadratic: answered, in well under the suite's time.
            Case(name: "one letter under 50,000 combining marks", line: text("marks", "a" + String(repeating: "\u{301}", count: 50_000))),
            Case(name: "20,000 one-letter links",
                 line: text("links", String(repeating: "x", count: 20_000),
                            "," + #""links":["# + (0..<20_000).map { #"{"start":\#($0),"end":\#($0 + 1),"tag":"t"}"# }.joined(separator: ",") + "]",
                            points: "[" + (0..<2_000).map { "[\(Double($0) * 4.5),8]" }.joined(separator: ",") + "]")),
            // Time: a 300,000-character bidi text cannot be laid out in 0.3 s; the error says where it stopped.
            Case(name: "layout past --time-limit", line: text("slow", String(repeating: "aא ", count: 100_000), #","width":300"#),
                 args: ["--time-limit", "0.3"], error: "the job took more than 0.3 s (the limit) while"),
            // Messages that say what is wrong.
            Case(name: "tiny size", line: text("tiny", "Hi", #","size":1e-300"#), error: "is too small"),
            Case(name: "huge transform", line: text("huge", "Hi", #","transform":[1e300,0,0,1e300,0,0]"#),
                 error: "[1e+300, 0, 0, 1e+300, 0, 0] is out of range"),
            Case(name: "huge attachment",
                 line: text("att", "a\u{FFFC}", #","attachments":[{"at":1,"width":1e300,"ascent":10,"tag":"i"}]"#),
                 error: "attachments[0]: width, ascent, descent and cornerRadius beyond ±1e9 px are out of range"),
            // Strict types.
            Case(name: "numeric link tag", line: text("tag", "Hi", #","links":[{"start":0,"end":1,"tag":5}]"#),
                 error: "links[0].tag must be a string, got number"),
            Case(name: "missing link tag", line: text("notag", "Hi", #","links":[{"start":0,"end":1}]"#), error: "missing links[0].tag"),
            Case(name: "numeric alignment", line: text("align", "Hi", #","alignment":1"#), error: "\"alignment\" must be a string, got number"),
            // Scene jobs (query and bench answer them, render draws them; layout takes text jobs).
            Case(name: "scene with a duplicate id",
                 line: #"{"id":"dup","scene":{"id":"a","bounds":[0,0,10,10],"children":[{"id":"a","bounds":[0,0,1,1]}]},"points":[[1,1]]}"#,
                 error: #"node "a": "id" is used by another node"#, only: ["query", "bench", "render"]),
            Case(name: "scene beyond --max-nodes",
                 line: #"{"id":"nodes","scene":{"id":"a","bounds":[0,0,10,10],"children":[{"id":"b","bounds":[0,0,1,1]}]},"points":[[1,1]]}"#,
                 args: ["--max-nodes", "1"], error: "more than 1 scene nodes", only: ["query", "bench", "render"]),
            Case(name: "a scene",
                 line: #"{"id":"scene","fonts":[{"path":\#(sans)}],"scene":{"id":"a","bounds":[0,0,100,40],"children":[{"id":"t","bounds":[0,0,100,40],"shape":{"text":{"text":"Hi","size":20,"holes":"wordHull"}}}]},"points":[[5,10],[50,50]]}"#,
                 only: ["query", "bench", "render"]),
            Case(name: "a scene where text jobs go",
                 line: #"{"id":"scene","scene":{"id":"a","bounds":[0,0,100,40]},"points":[[5,10]]}"#,
                 error: "not glyph or scene jobs", only: ["layout"]),
            Case(name: "string cluster",
                 line: #"{"id":"cluster","fonts":[{"path":\#(sans)}],"size":20,"glyphs":[{"font":0,"id":82,"x":0,"y":20,"cluster":"0"}],"points":[[5,10]]}"#,
                 error: "glyphs[0].cluster must be an integer, got string", only: ["query", "bench"]),
        ]
    }()

    @Test(arguments: subcommands)
    func everyHostileJobThenAGoodOne(_ sub: String) async throws {
        let s = try Scratch()
        defer { s.remove() }
        let alone = try await Self.run(CLITests.args(sub, try s.file("good.jsonl", Self.good + "\n"), s))
        #expect(alone.status == 0 && !alone.signaled, "\(alone.summary)")
        let want = try Self.normalized(sub, alone.lines)
        try #require(want.count == (sub == "query" ? 3 : 1), "\(alone.lines)")
        for c in Self.cases where c.only?.contains(sub) ?? true {
            let input = try s.file("hostile.jsonl", c.line + "\n" + Self.good + "\n")
            let r = try await Self.run(CLITests.args(sub, input, s, c.args))
            #expect(!r.signaled && r.status == (c.error == nil ? 0 : 1), "\(sub), \(c): \(r.summary)")
            let lines = r.lines
            try #require(lines.count > want.count, "\(sub), \(c): \(lines.map { $0.prefix(200) })")
            let hostile = Array(lines.dropLast(want.count)), rest = Array(lines.suffix(want.count))
            if let fragment = c.error {
                let last = try Jobs.object(hostile.last!)
                let message = last["error"] as? String ?? ""
                #expect(message.contains(fragment), "\(sub), \(c): \(message.prefix(300))")
                #expect(hostile.count == 1, "\(sub), \(c): an error before any answer is the job's only line")
            } else {
                #expect(!hostile.contains { $0.contains("\"error\"") }, "\(sub), \(c): \(hostile.first?.prefix(200) ?? "")")
            }
            var got = try Self.normalized(sub, rest)
            if sub == "render", c.error == nil {
                // Render draws one job: the hostile one was drawn, so the good one is skipped.
                #expect(rest.first?.contains("\"skipped\"") == true, "\(rest)")
                got = want
            }
            #expect(got == want, "\(sub), \(c): the good job after it")
        }
    }

    /// A job stopped by `--max-output-bytes` keeps the answers written and ends with an error line saying
    /// how many; `render`'s SVG over the limit is refused and not left behind.
    @Test func outputLimit() async throws {
        let s = try Scratch()
        defer { s.remove() }
        let many = Self.text("many", "Hi", points: "[" + (0..<100).map { "[\($0),10]" }.joined(separator: ",") + "]")
        let input = try s.file("many.jsonl", many + "\n" + Self.good + "\n")
        let q = try await Self.run(["query", input, "--max-output-bytes", "2000"])
        #expect(q.status == 1 && !q.signaled, "\(q.summary)")
        let answers = q.lines.prefix { !$0.contains("\"error\"") }
        #expect(answers.count >= 10 && answers.count < 20, "\(q.lines.count) lines")
        for (i, a) in answers.enumerated() { #expect(try Jobs.object(a)["i"] as? Int == i) }
        let stop = try Jobs.object(q.lines[answers.count])
        #expect(stop["job"] as? String == "many")
        #expect((stop["error"] as? String)?.contains("more than 2000 bytes (the limit); it stopped after \(answers.count) lines") == true,
                "\(stop)")
        #expect(q.lines.count == answers.count + 1 + 3, "the good job's three answers follow")
        #expect(answers.reduce(0) { $0 + $1.utf8.count + 1 } <= 2000)

        let svg = s.path + "/out.svg"
        let r = try await Self.run(["render", input, "--svg", svg, "--max-output-bytes", "3000"])
        #expect(r.status == 1 && !r.signaled, "\(r.summary)")
        #expect(r.lines.first?.contains("would be more than 3000 bytes") == true, "\(r.lines)")
        #expect(!FileManager.default.fileExists(atPath: svg) || r.lines.count == 2, "a refused picture is removed")
    }

    /// Option values that make no sense are refused before any job is read, with a message naming the
    /// option (ArgumentParser's usage status, 64), in every subcommand; `bench` as much as `query`.
    @Test(arguments: subcommands)
    func badOptionValuesAreRefused(_ sub: String) async throws {
        let s = try Scratch()
        defer { s.remove() }
        let input = try s.file("good.jsonl", Self.good + "\n")
        for (flag, value, name) in [("--tolerance", "nan", "--tolerance"), ("--tolerance", "0", "--tolerance"),
                                    ("--time-limit", "-1", "--time-limit"), ("--time-limit", "inf", "--time-limit"),
                                    ("--max-points", "-1", "--max-points"), ("--max-output-bytes", "99999999999999", "--max-output-bytes")] {
            let r = try await CLI.run(CLITests.args(sub, input, s, [flag, value]))
            #expect(r.status == 64 && !r.signaled && r.out.isEmpty, "\(sub) \(flag) \(value): \(r.summary)")
            #expect(r.err.contains(name), "\(sub) \(flag) \(value): \(r.err)")
        }
    }

    /// Bad input files and failed writes: a message on standard error and exit status 2, in every subcommand.
    @Test(arguments: subcommands)
    func unreadableInputAndFailedWritesExitTwo(_ sub: String) async throws {
        let s = try Scratch()
        defer { s.remove() }
        let dir = try await Self.run(CLITests.args(sub, s.path, s))
        #expect(dir.status == 2 && !dir.signaled && dir.err.contains("is a directory"), "\(dir.summary)")
        let missing = try await Self.run(CLITests.args(sub, s.path + "/missing.jsonl", s))
        #expect(missing.status == 2 && missing.err.contains("cannot open"), "\(missing.summary)")

        let input = try s.file("good.jsonl", Self.good + "\n")
        for (name, redirect) in [("full disk", ">/dev/full"), ("closed stdout", ">&-")] {
            let r = try await CLI.run(CLITests.args(sub, input, s),
                                      launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirect)"])
            #expect(r.status == 2 && !r.signaled, "\(sub), \(name): \(r.summary)")
            #expect(r.err.contains("writing the answers failed"), "\(sub), \(name): \(r.err)")
        }
    }
}
