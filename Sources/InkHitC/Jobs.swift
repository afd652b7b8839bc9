import CInkHit
import CInkHitRuntime
@_spi(InkInternals) import InkHit
import InkJobs

// The `ink-hit query` job formats in-process (inkhit.h, "Jobs"): the CLI's own JobRunner behind a handle, so a
// binding answers job lines exactly as the command-line tool does, without a child process.

/// A job runner behind a lock: `JobRunner` keeps caches and is not thread-safe, so calls on one runner run
/// one at a time.
final class JobRunnerBox {
    let lock = Lock()
    let runner: JobRunner
    init(_ runner: JobRunner) { self.runner = runner }
}

/// `inkhit_job_runner_create` (inkhit.h).
@_cdecl("inkhit_job_runner_create")
public func inkhit_job_runner_create(_ tol: Double, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_job_runner_create") { () throws(CError) in
        guard let out else { throw .null("out") }
        let t = try tolerance(tol)
        guard t <= 1 else { throw .argument("tolerance must be at most 1 px, as ink-hit's --tolerance (got \(show(t)))") }
        let runner: JobRunner
        do throws(HitIndexError) { runner = try JobRunner(tolerance: t) } catch { throw CError(error) }
        try publish(JobRunnerBox(runner), .jobRunner, to: out)
    }
}

/// `inkhit_job_runner_run` (inkhit.h).
@_cdecl("inkhit_job_runner_run")
public func inkhit_job_runner_run(_ runner: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ length: Int,
                                  _ emit: inkhit_job_emit_func?, _ userData: UnsafeMutableRawPointer?,
                                  _ jobsOut: UnsafeMutablePointer<Int>?, _ failedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    jobsOut?.pointee = 0
    failedOut?.pointee = 0
    return call("inkhit_job_runner_run") { () throws(CError) in
        let box = try resolve(runner, .jobRunner, "runner", as: JobRunnerBox.self)
        guard let emit else { throw .null("emit") }
        let bytes = try buffer(UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self), length, "text", countName: "length")
        let write: (String) -> Void = { line in
            var line = line
            line.withUTF8 { u in
                UnsafeRawPointer(u.baseAddress).map { emit(userData, $0.assumingMemoryBound(to: CChar.self), u.count) }
                    ?? emit(userData, "", 0)
            }
        }
        var jobs = 0, failed = 0
        box.lock.withLock {
            forEachJobLine(bytes) { line in
                jobs += 1
                if !box.runner.run(line: line, emit: write) { failed += 1 }
            }
        }
        jobsOut?.pointee = jobs
        failedOut?.pointee = failed
    }
}

/// Calls `body` with each non-blank line of `bytes` as `ink-hit query` reads a file (JobInput): lines end at
/// "\n", a "\r" before it is dropped, the last line needs no "\n", blank lines (only spaces and tabs) are
/// skipped, invalid UTF-8 becomes U+FFFD. An over-long line reaches the runner whole and gets its error line
/// there (`JobLoop.process` checks the length first).
func forEachJobLine(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (String) -> Void) {
    var start = 0
    while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        var last = end
        if last > start && bytes[last - 1] == 0x0D { last -= 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[start..<last])
        if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            body(String(decoding: line, as: UTF8.self))
        }
        start = end + 1
    }
}

/// `inkhit_job_runner_release` (inkhit.h).
@_cdecl("inkhit_job_runner_release")
public func inkhit_job_runner_release(_ runner: OpaquePointer?) -> inkhit_status {
    releaseHandle(runner, .jobRunner, function: "inkhit_job_runner_release")
}
