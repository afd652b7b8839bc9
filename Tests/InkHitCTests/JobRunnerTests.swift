import CInkHit
import InkHitC
import InkJobs
import Testing

/// inkhit_job_runner_run answers job lines as `ink-hit query` does: the curve-exact fixture files through the C
/// call give, line for line, what InkJobs' JobRunner (the CLI's own) gives for the same lines; a file handed
/// over in one call or in pieces answers the same; threads sharing one runner get their own jobs' lines.
struct JobRunnerTests {
    /// All output lines of `text` through the C call.
    static func run(_ runner: inkhit_job_runner, _ text: String) -> (lines: [String], jobs: Int, failed: Int) {
        final class Sink { var lines: [String] = [] }
        let sink = Sink()
        var jobs = 0, failed = 0
        var text = text
        let status = text.withUTF8 { u in
            withExtendedLifetime(sink) {
                inkhit_job_runner_run(runner, UnsafeRawPointer(u.baseAddress)?.assumingMemoryBound(to: CChar.self), u.count, { user, line, length in
                    let s = Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue()
                    let bytes = UnsafeRawBufferPointer(start: line, count: length)
                    s.lines.append(String(decoding: bytes, as: UTF8.self))
                }, Unmanaged.passUnretained(sink).toOpaque(), &jobs, &failed)
            }
        }
        ok(status)
        return (sink.lines, jobs, failed)
    }

    @Test(arguments: ["example-jobs.jsonl", "heldout-jobs.jsonl", "cff-jobs.jsonl"])
    func fixtureFilesAnswerAsTheCLIsRunner(_ name: String) throws {
        let lines = try Fixtures.lines(name)
        var runner: inkhit_job_runner?
        ok(inkhit_job_runner_create(0, &runner))
        defer { ok(inkhit_job_runner_release(runner)) }
        let swift = JobRunner()
        var expected: [String] = []
        for line in lines { swift.run(line: line) { expected.append($0) } }
        let whole = Self.run(runner!, lines.joined(separator: "\r\n") + "\n\n")
        #expect(whole.jobs == lines.count && whole.failed == 0)
        #expect(whole.lines == expected)
        // One call per line (no newline at all): the same lines.
        var piecewise: [String] = []
        for line in lines { piecewise += Self.run(runner!, line).lines }
        #expect(piecewise == expected)
    }

    @Test func threadsShareOneRunner() async throws {
        let lines = try Fixtures.lines("example-jobs.jsonl")
        var runner: inkhit_job_runner?
        ok(inkhit_job_runner_create(0, &runner))
        defer { ok(inkhit_job_runner_release(runner)) }
        let expected = Self.run(runner!, lines[0]).lines
        let handle = UInt(bitPattern: runner)
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask { Self.run(OpaquePointer(bitPattern: handle)!, lines[0]).lines }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4 && results.allSatisfy { $0 == expected })
    }
}

/// inkhit_job_runner_options: the runner takes ink-hit's limits, strict mode and warnings, and answers exactly as
/// the CLI's JobRunner with the same settings (issue 28 row 4). Time limits are judged in HostileCallTests, in a
/// child process (the call's limits are process-wide).
struct JobRunnerOptionsTests {
    static let font = #"[{"path":"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"}]"#
    static let misspelled = #"{"id":"typo","fonts":\#(font),"size":40,"radious":3,"glyphs":[{"font":0,"id":36,"x":0,"y":40,"emboldn":1}],"points":[[5,5],[12,30]]}"#
    static let twoPoints = #"{"id":"two","fonts":\#(font),"size":40,"glyphs":[{"font":0,"id":36,"x":0,"y":40}],"points":[[5,5],[12,30]]}"#
    static let threeGlyphs = #"{"id":"three","fonts":\#(font),"size":40,"glyphs":[{"font":0,"id":36,"x":0,"y":40},{"font":0,"id":37,"x":30,"y":40},{"font":0,"id":38,"x":60,"y":40}],"points":[[5,5]]}"#

    /// Output lines and warnings of `lines` through a runner made with `configure`d options.
    static func run(_ lines: [String], _ configure: (inout inkhit_job_runner_options) -> Void) -> (lines: [String], warnings: [String]) {
        final class Warnings { var messages: [String] = [] }
        let warnings = Warnings()
        var o = inkhit_job_runner_options()
        ok(inkhit_job_runner_options_init(&o))
        configure(&o)
        o.warn = { user, message, length in
            let w = Unmanaged<Warnings>.fromOpaque(user!).takeUnretainedValue()
            w.messages.append(String(decoding: UnsafeRawBufferPointer(start: message, count: length), as: UTF8.self))
        }
        o.warn_user_data = Unmanaged.passUnretained(warnings).toOpaque()
        var runner: inkhit_job_runner?
        ok(inkhit_job_runner_create_with_options(&o, &runner))
        defer { ok(inkhit_job_runner_release(runner)) }
        let out = withExtendedLifetime(warnings) { JobRunnerTests.run(runner!, lines.joined(separator: "\n")).lines }
        return (out, warnings.messages)
    }

    /// What InkJobs' JobRunner (the CLI's) writes for `lines` with `limits` and `strict`, and what it warns.
    static func cli(_ lines: [String], limits: JobLimits = JobLimits(), strict: Bool = false) -> (lines: [String], warnings: [String]) {
        let r = JobRunner()
        r.limits = limits
        r.strict = strict
        var warned: [String] = []
        r.warn = { warned.append($0) }
        var out: [String] = []
        for line in lines { r.run(line: line) { out.append($0) } }
        return (out, warned)
    }

    @Test func warningsReachTheCallerAndStrictModeFailsTheJob() {
        let lenient = Self.run([Self.misspelled]) { _ in }
        #expect(lenient.lines.count == 2 && lenient.lines.allSatisfy { !$0.contains("\"error\"") })
        #expect(lenient.warnings.count == 1 && lenient.warnings[0].contains("radious") && lenient.warnings[0].contains("emboldn"))
        #expect(lenient == Self.cli([Self.misspelled]))
        let strict = Self.run([Self.misspelled, Self.twoPoints]) { $0.strict = 1 }
        #expect(strict.lines.count == 3 && strict.lines[0].contains("\"error\"") && strict.lines[0].contains("radious"))
        #expect(strict.warnings.isEmpty)
        #expect(strict.lines == Self.cli([Self.misspelled, Self.twoPoints], strict: true).lines)
    }

    @Test func limitsAreTheCLIsLimits() {
        var limits = JobLimits()
        limits.maxPoints = 1
        limits.maxGlyphs = 2
        let lines = [Self.twoPoints, Self.threeGlyphs, Self.misspelled]
        let c = Self.run(lines) { $0.max_points = 1; $0.max_glyphs = 2 }
        #expect(c.lines == Self.cli(lines, limits: limits).lines)
        #expect(c.lines.filter { $0.contains("\"error\"") }.count == 3, "\(c.lines)")
        // 0 is the default: the same as not setting it.
        #expect(Self.run(lines) { $0.max_points = 0 }.lines == Self.cli(lines).lines)
    }

    @Test func badOptionsAreRefused() {
        var runner: inkhit_job_runner?
        func refused(_ needle: String, _ configure: (inout inkhit_job_runner_options) -> Void) {
            var o = inkhit_job_runner_options()
            ok(inkhit_job_runner_options_init(&o))
            configure(&o)
            fails(inkhit_job_runner_create_with_options(&o, &runner), INKHIT_ERROR_INVALID_ARGUMENT, needle)
            #expect(runner == nil)
        }
        refused("max_glyphs must be at most 1000000") { $0.max_glyphs = 1_000_001 }
        refused("max_line_bytes") { $0.max_line_bytes = -1 }               // SIZE_MAX: not a way to raise it
        refused("max_seconds_per_job") { $0.max_seconds_per_job = .nan }
        refused("max_seconds_per_job") { $0.max_seconds_per_job = -1 }
        refused("max_seconds_per_job") { $0.max_seconds_per_job = .infinity }
        refused("tolerance") { $0.tolerance = 2 }
        refused("strict must be 0 or 1") { $0.strict = 2 }
        refused("struct_size is 8") { $0.struct_size = 8 }
        fails(inkhit_job_runner_create_with_options(nil, &runner), INKHIT_ERROR_NULL_ARGUMENT, "options")
        fails(inkhit_job_runner_options_init(nil), INKHIT_ERROR_NULL_ARGUMENT, "options")
        var o = inkhit_job_runner_options()
        ok(inkhit_job_runner_options_init(&o))
        #expect(o.struct_size == MemoryLayout<inkhit_job_runner_options>.size && o.tolerance == 0.01 && o.max_seconds_per_job == 60
                && o.max_glyphs == JobLimits().maxGlyphs && o.max_shape_bytes_per_job == JobLimits().maxShapeBytesPerJob
                && o.strict == 0 && o.warn == nil)
    }
}
