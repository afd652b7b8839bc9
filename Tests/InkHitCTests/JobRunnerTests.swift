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
