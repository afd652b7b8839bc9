import Foundation
import Testing
import InkJobs
#if canImport(Glibc)
import Glibc
#endif

/// The one job loop and its reader and writer: `JobInput` over real files (blank lines, CRLF, over-long
/// lines, lines across the 64 KiB read chunks, no newline at the end), `JobLoop.run` and its `Summary`, and
/// `JobOutput` to a file, to /dev/full and to a pipe nobody reads. Expected lines are written by hand.
@Suite("Job loop and I/O")
struct JobLoopTests {
    /// A scratch file with `contents`; removed by the caller.
    static func file(_ contents: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "InkJobLoop-\(getpid())-\(UUID().uuidString).jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(contents)))
        return path
    }
    static func file(_ contents: String) throws -> String { try file(Array(contents.utf8)) }

    /// Every line of `input`, in order.
    static func lines(_ input: JobInput) -> [JobInput.Line] {
        var out: [JobInput.Line] = []
        while let l = input.next() { out.append(l) }
        return out
    }

    @Test func inputSplitsLinesDropsCRAndMeasuresLongOnes() throws {
        let long = String(repeating: "x", count: 150)
        let path = try Self.file("one\r\n\n   \n\t\ntwo\n\(long)\n\(long)\r\nx\r\r\nlast")
        defer { unlink(path) }
        let input = try JobInput(path: path, maxBytes: 100)
        #expect(Self.lines(input) == [
            .text("one"), .text(""), .text("   "), .text("\t"), .text("two"),
            .tooLong(bytes: 150), .tooLong(bytes: 150),      // with CRLF too: the "\r" is not part of the line
            .text("x\r"),                                    // only the one "\r" before "\n" is dropped
            .text("last"),                                   // the last line needs no "\n"
        ])
        #expect(input.next() == nil && input.failure == nil)
    }

    /// At the limit exactly a line is kept, one byte more and it is too long — with LF and with CRLF.
    @Test(arguments: ["\n", "\r\n"])
    func limitIsInclusive(_ newline: String) throws {
        let at = String(repeating: "a", count: 100), over = String(repeating: "b", count: 101)
        let path = try Self.file(at + newline + over + newline + "c" + newline)
        defer { unlink(path) }
        let input = try JobInput(path: path, maxBytes: 100)
        #expect(Self.lines(input) == [.text(at), .tooLong(bytes: 101), .text("c")])
    }

    /// Lines longer than one 64 KiB read, a "\r\n" split across two reads, and an over-long line that
    /// spans several reads (its bytes are counted, not kept).
    @Test func linesAcrossReadChunks() throws {
        let chunk = 1 << 16
        let split = String(repeating: "s", count: chunk - 1)           // its "\r" ends the first read
        let big = String(repeating: "b", count: 3 * chunk + 17)
        let huge = String(repeating: "h", count: 5 * chunk + 3)
        let path = try Self.file(split + "\r\n" + big + "\n" + huge + "\r\n" + "end\n")
        defer { unlink(path) }
        let input = try JobInput(path: path, maxBytes: 4 * chunk)
        // Compared as (length, first byte, last byte) so a failure prints a short line, not 300 kB.
        func summary(_ l: JobInput.Line) -> String {
            switch l {
            case .text(let t): return "text \(t.utf8.count) \(t.first.map(String.init) ?? "") \(t.last.map { "\($0.unicodeScalars.first!.value)" } ?? "")"
            case .tooLong(let n): return "tooLong \(n)"
            }
        }
        #expect(Self.lines(input).map(summary) == [
            "text \(chunk - 1) s 115", "text \(3 * chunk + 17) b 98", "tooLong \(5 * chunk + 3)", "text 3 e 100",
        ])
    }

    @Test func openingFailuresAreTyped() throws {
        let dir = NSTemporaryDirectory() + "InkJobLoopDir-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { rmdir(dir) }
        #expect(throws: JobInput.Failure.isDirectory(path: dir)) { try JobInput(path: dir) }
        let missing = dir + "/missing.jsonl"
        #expect(throws: JobInput.Failure.cannotOpen(path: missing, reason: "No such file or directory")) {
            try JobInput(path: missing)
        }
    }

    /// `answer` for the loop tests: emits `answer <id>`; a job with `"fail": true` fails.
    static func answer(_ line: JobLine, _ emit: (String) -> Void) throws(JobError) {
        if line.value["fail"] != nil { throw .wrongKind("asked to fail") }
        emit("answer " + line.idJSON)
    }

    /// Records what happened, in order.
    final class Log: @unchecked Sendable {
        var events: [String] = []
    }
    /// Calls `freed` when it is freed.
    final class Canary: @unchecked Sendable {
        let freed: () -> Void
        init(_ freed: @escaping () -> Void) { self.freed = freed }
        deinit { freed() }
    }

    /// What a failing job keeps (`JobLine.keepUntilWritten`: a scene of 99,999 nodes takes 0.1–0.4 s to free)
    /// is freed after its error line is written and flushed, and before the next job is read.
    @Test func whatAFailedJobBuiltIsFreedAfterItsErrorLine() throws {
        let inPath = try Self.file("{\"id\":1}\n{\"id\":2}\n"), outPath = try Self.file("")
        defer { unlink(inPath); unlink(outPath) }
        let fd = open(outPath, O_WRONLY | O_TRUNC)
        try #require(fd >= 0)
        defer { close(fd) }
        let log = Log()
        let summary = JobLoop.run(try JobInput(path: inPath), to: JobOutput(fd: fd), limits: JobLimits()) { (line, emit) throws(JobError) in
            log.events.append("job " + line.idJSON)
            if line.idJSON == "1" {
                line.keepUntilWritten(Canary {
                    let written = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
                    log.events.append("freed after " + written)
                })
                throw .wrongKind("asked to fail")
            }
            emit("answer " + line.idJSON)
        }
        #expect(summary.failed == 1)
        #expect(log.events == ["job 1", "freed after {\"job\":1,\"error\":\"asked to fail\"}\n", "job 2"])
        // `process` (one line, to a callback: the runner's `run(line:)`) frees it after the error line too.
        log.events = []
        _ = JobLoop.process("{\"id\":3}", limits: JobLimits(), emit: { log.events.append("emit " + $0) }) { (line, _) throws(JobError) in
            line.keepUntilWritten(Canary { log.events.append("freed") })
            throw .wrongKind("asked to fail")
        }
        #expect(log.events == ["emit {\"job\":3,\"error\":\"asked to fail\"}", "freed"])
    }

    /// Runs the loop over `contents` into a scratch file; returns the summary and the output text.
    static func run(_ contents: String, maxLineBytes: Int = 100) throws -> (JobLoop.Summary, String) {
        let inPath = try file(contents), outPath = try file("")
        defer { unlink(inPath); unlink(outPath) }
        var limits = JobLimits()
        limits.maxLineBytes = maxLineBytes
        let fd = open(outPath, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        let summary = JobLoop.run(try JobInput(path: inPath, maxBytes: maxLineBytes), to: JobOutput(fd: fd), limits: limits,
                                  answer: answer)
        close(fd)
        let text = try String(contentsOfFile: outPath, encoding: .utf8)
        return (summary, text)
    }

    @Test func loopSkipsBlankLinesAndReportsEveryJob() throws {
        let long = "{\"id\":\"long\",\"pad\":\"" + String(repeating: "p", count: 120) + "\"}"
        let (summary, out) = try Self.run("""
            {"id":1}\r
            \r
              \t
            {"id":"two","fail":true}
            \(long)
            not json
            {"id":3}
            """)
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 6, "\(lines)")
        #expect(lines[0] == "answer 1")
        #expect(lines[1] == #"{"job":"two","error":"asked to fail"}"#)
        #expect(lines[2] == #"{"job":null,"error":"the line has \#(long.utf8.count) bytes, more than the limit of 100"}"#)
        #expect(lines[3].hasPrefix(#"{"job":null,"error":"invalid JSON at byte 0: "#), "\(lines[3])")
        #expect(lines[4] == "answer 3" && lines[5] == "")
        #expect(summary.jobs == 5 && summary.failed == 3 && summary.ioFailure == nil)
        #expect(summary.exitStatus == 1)

        let (good, goodOut) = try Self.run("\n{\"id\":7}\n\n{\"id\":8}\n   \n")
        #expect(goodOut == "answer 7\nanswer 8\n")
        #expect(good.jobs == 2 && good.failed == 0 && good.ioFailure == nil && good.exitStatus == 0)

        let (empty, emptyOut) = try Self.run("\n \n\t\n")
        #expect(emptyOut.isEmpty && empty.jobs == 0 && empty.exitStatus == 0)
    }

    /// /dev/full takes nothing: the failure is remembered, reported once, and the run's status is 2.
    @Test func writingToAFullDeviceIsAFailure() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0, "cannot open /dev/full")
        defer { close(fd) }
        let out = JobOutput(fd: fd)
        out.line("{\"job\":1}")
        #expect(out.failure == nil)                     // buffered until flushed
        #expect(!out.flush())
        let failure = try #require(out.failure)
        #expect(failure.hasPrefix("writing the answers failed") && failure.contains("No space left on device"), "\(failure)")
        out.line("more")
        #expect(!out.flush() && out.failure == failure)

        let inPath = try Self.file("{\"id\":1}\n{\"id\":2}\n")
        defer { unlink(inPath) }
        let summary = JobLoop.run(try JobInput(path: inPath), to: JobOutput(fd: fd), limits: JobLimits(), answer: Self.answer)
        #expect(summary.failed == 0 && summary.ioFailure != nil && summary.exitStatus == 2)
        // The loop stops at the first failed flush: one job was read.
        #expect(summary.jobs == 1)
    }

    /// A pipe whose reader is gone: the write fails with EPIPE (SIGPIPE is ignored here, as a server would)
    /// and the run reports it with status 2.
    @Test func writingToAClosedPipeIsAFailure() throws {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        let inPath = try Self.file("{\"id\":1}\n")
        defer { unlink(inPath) }
        let summary = JobLoop.run(try JobInput(path: inPath), to: JobOutput(fd: fds[1]), limits: JobLimits(), answer: Self.answer)
        let failure = try #require(summary.ioFailure)
        #expect(failure.contains("Broken pipe"), "\(failure)")
        #expect(summary.exitStatus == 2)
    }

    @Test func outputIsWrittenAsGiven() throws {
        let path = try Self.file("")
        defer { unlink(path) }
        let fd = open(path, O_WRONLY)
        try #require(fd >= 0)
        let out = JobOutput(fd: fd)
        // More than the 64 KiB buffer: written out part way and at the end.
        let lines = (0..<5000).map { "{\"job\":\($0),\"pad\":\"" + String(repeating: "z", count: $0 % 37) + "\"}" }
        for l in lines { out.line(l) }
        #expect(out.flush() && out.failure == nil)
        close(fd)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == lines.joined(separator: "\n") + "\n")
    }
}
