import CInkHit
import CInkHitRuntime
import InkHit
import InkJobs

// The `ink-hit query` job formats in-process (inkhit.h, "Jobs"): the CLI's own JobRunner behind a handle, so a
// binding answers job lines exactly as the command-line tool does, without a child process — with the CLI's
// limits and strict mode (inkhit_job_runner_options), the warnings handed to the caller's callback, and
// every call held to inkhit_limits as the other calls are.

/// A job runner behind a lock: `JobRunner` keeps caches and is not thread-safe, so calls on one runner run
/// one at a time.
final class JobRunnerBox {
    let lock = Lock()
    let runner: JobRunner
    /// The limits the runner was made with (each call lowers its copy to the call's limits).
    let limits: JobLimits
    init(_ runner: JobRunner) {
        self.runner = runner
        limits = runner.limits
    }
}

/// Every size limit of `inkhit_job_runner_options`: its field, its name in messages and the `JobLimits` field it
/// sets (whose default is also its largest value: as ink-hit's flags, the options lower a limit, never raise it).
private var sizeLimits: [(field: KeyPath<inkhit_job_runner_options, Int>, name: String, limit: WritableKeyPath<JobLimits, Int>)] { [
    (\.max_line_bytes, "max_line_bytes", \.maxLineBytes), (\.max_glyphs, "max_glyphs", \.maxGlyphs),
    (\.max_text_length, "max_text_length", \.maxTextLength), (\.max_links, "max_links", \.maxLinks),
    (\.max_runs_and_exclusions, "max_runs_and_exclusions", \.maxRunsAndExclusions), (\.max_nodes, "max_nodes", \.maxNodes),
    (\.max_points, "max_points", \.maxPoints), (\.max_fonts, "max_fonts", \.maxFonts),
    (\.max_string_bytes, "max_string_bytes", \.maxStringBytes),
    (\.max_output_bytes_per_job, "max_output_bytes_per_job", \.maxOutputBytesPerJob),
    (\.max_font_bytes_per_job, "max_font_bytes_per_job", \.maxFontBytesPerJob),
    (\.max_shape_bytes_per_job, "max_shape_bytes_per_job", \.maxShapeBytesPerJob),
] }

/// The longest time limit a job may be given, seconds (ink-hit's --time-limit allows as much).
private let maxJobSeconds = 86_400.0

/// `inkhit_job_runner_options_init` (inkhit.h).
@_cdecl("inkhit_job_runner_options_init")
public func inkhit_job_runner_options_init(_ options: UnsafeMutablePointer<inkhit_job_runner_options>?) -> inkhit_status {
    guard let options else { return CError.null("options").report("inkhit_job_runner_options_init") }
    let d = JobLimits()
    var o = inkhit_job_runner_options()
    o.struct_size = MemoryLayout<inkhit_job_runner_options>.size
    o.tolerance = HitIndex.defaultTolerance
    o.max_seconds_per_job = d.maxSecondsPerJob
    withUnsafeMutablePointer(to: &o) { p in
        let raw = UnsafeMutableRawPointer(p)
        for l in sizeLimits {
            raw.storeBytes(of: d[keyPath: l.limit], toByteOffset: MemoryLayout<inkhit_job_runner_options>.offset(of: l.field)!,
                           as: Int.self)
        }
    }
    o.strict = 0
    o.warn = nil
    o.warn_user_data = nil
    options.pointee = o
    return inkhit_status(INKHIT_OK)
}

/// A runner made as `options` say, every field checked.
func jobRunner(_ p: UnsafePointer<inkhit_job_runner_options>) throws(CError) -> JobRunner {
    try checkStructSize(UnsafeRawPointer(p), structSize(of: p), known: StructSizes.jobRunnerOptions, "options", type: "inkhit_job_runner_options",
                        init: "inkhit_job_runner_options_init")
    let o = p.pointee
    let t = try tolerance(o.tolerance)
    guard t <= 1 else { throw .argument("options->tolerance must be at most 1 px, as ink-hit's --tolerance (got \(show(t)))") }
    var limits = JobLimits()
    if o.max_seconds_per_job != 0 {
        guard o.max_seconds_per_job > 0, o.max_seconds_per_job <= maxJobSeconds else {   // NaN fails too
            throw .argument("options->max_seconds_per_job must be in (0, \(Int(maxJobSeconds))] seconds, or 0 for the default "
                            + "(got \(show(o.max_seconds_per_job)))")
        }
        limits.maxSecondsPerJob = o.max_seconds_per_job
    }
    let defaults = JobLimits()
    for l in sizeLimits {
        let v = o[keyPath: l.field]
        guard v != 0 else { continue }
        guard v > 0, v <= defaults[keyPath: l.limit] else {
            throw .argument("options->\(l.name) must be at most \(defaults[keyPath: l.limit]) (the default: the options lower a limit, "
                            + "as ink-hit's flags do), or 0 for the default (got \(UInt(bitPattern: v)))")
        }
        limits[keyPath: l.limit] = v
    }
    guard o.strict == 0 || o.strict == 1 else { throw .argument("options->strict must be 0 or 1 (got \(o.strict))") }
    let runner: JobRunner
    do throws(HitIndexError) { runner = try JobRunner(tolerance: t) } catch { throw CError(error) }
    runner.limits = limits
    runner.strict = o.strict == 1
    if let warn = o.warn {
        // Sendable by contract: the callback runs on the thread that calls inkhit_job_runner_run, during it.
        let user = UInt(bitPattern: o.warn_user_data)
        runner.warn = { message in
            var message = message
            message.withUTF8 { u in
                u.withMemoryRebound(to: CChar.self) { c in
                    if let b = c.baseAddress {
                        warn(UnsafeMutableRawPointer(bitPattern: user), b, c.count)
                    } else {
                        var nul: CChar = 0
                        warn(UnsafeMutableRawPointer(bitPattern: user), &nul, 0)
                    }
                }
            }
        }
    }
    return runner
}

/// `inkhit_job_runner_create` (inkhit.h).
@_cdecl("inkhit_job_runner_create")
public func inkhit_job_runner_create(_ tol: Double, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_job_runner_create") { () throws(CError) in
        guard let out else { throw .null("out") }
        var o = inkhit_job_runner_options()
        _ = inkhit_job_runner_options_init(&o)
        o.tolerance = tol
        let runner = try withUnsafePointer(to: &o) { (p) throws(CError) in try jobRunner(p) }
        try publish(JobRunnerBox(runner), .jobRunner, to: out)
    }
}

/// `inkhit_job_runner_create_with_options` (inkhit.h, 1.2).
@_cdecl("inkhit_job_runner_create_with_options")
public func inkhit_job_runner_create_with_options(_ options: UnsafePointer<inkhit_job_runner_options>?,
                                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_job_runner_create_with_options") { () throws(CError) in
        guard let out else { throw .null("out") }
        guard let options else { throw .null("options") }
        try publish(JobRunnerBox(try jobRunner(options)), .jobRunner, to: out)
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
        // The call's own limits (inkhit_limits), as every call has them: each job gets what is left of the call's
        // time (if less than its own limit) and at most the call's shape bytes; once the call's time is up, the
        // job running then ends with its error line and the call stops there.
        let call = CallLimits.current
        let deadline = call.deadline
        var jobs = 0, failed = 0, outOfTime = false
        box.lock.withLock {
            var limits = box.limits
            limits.maxShapeBytesPerJob = min(limits.maxShapeBytesPerJob, call.shapeBytes)
            forEachJobLine(bytes) { line in
                var jobLimits = limits
                if let deadline {
                    let left = ContinuousClock.now.duration(to: deadline)
                    let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18
                    guard seconds > 0 else { outOfTime = true; return false }
                    jobLimits.maxSecondsPerJob = min(jobLimits.maxSecondsPerJob, seconds)
                }
                box.runner.limits = jobLimits
                jobs += 1
                if !box.runner.run(line: line, emit: write) { failed += 1 }
                if let deadline, ContinuousClock.now >= deadline { outOfTime = true; return false }
                return true
            }
            box.runner.limits = box.limits
        }
        jobsOut?.pointee = jobs
        failedOut?.pointee = failed
        if outOfTime {
            throw CError(INKHIT_ERROR_LIMIT, "the call passed its time limit (inkhit_limits.max_seconds_per_call, "
                         + "\(show(call.seconds ?? 0)) s) after \(jobs) job\(jobs == 1 ? "" : "s"); the job lines after \(jobs == 1 ? "it" : "them") were not run")
        }
    }
}

/// Calls `body` with each non-blank line of `bytes` as `ink-hit query` reads a file (JobInput), until it returns
/// false: lines end at "\n", a "\r" before it is dropped, the last line needs no "\n", blank lines (only spaces
/// and tabs) are skipped, invalid UTF-8 becomes U+FFFD. An over-long line reaches the runner whole and gets its
/// error line there (`JobLoop.process` checks the length first).
func forEachJobLine(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (String) -> Bool) {
    var start = 0
    while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        var last = end
        if last > start && bytes[last - 1] == 0x0D { last -= 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[start..<last])
        if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            if !body(String(decoding: line, as: UTF8.self)) { return }
        }
        start = end + 1
    }
}

/// `inkhit_job_runner_release` (inkhit.h).
@_cdecl("inkhit_job_runner_release")
public func inkhit_job_runner_release(_ runner: OpaquePointer?) -> inkhit_status {
    releaseHandle(runner, .jobRunner, function: "inkhit_job_runner_release")
}
