import InkHit

/// The one loop behind every `ink-hit` subcommand that reads jobs (query, layout, render, bench): it reads
/// lines, skips blank ones, refuses over-long ones, parses the JSON, hands each job to the subcommand's
/// `answer` and turns any error into the job's one `{"job": …, "error": …}` line. Output is flushed after
/// every job, so a process piping jobs in gets each job's answers as soon as they are known.
public enum JobLoop {
    /// How a run went.
    public struct Summary: Sendable, Equatable {
        /// Job lines seen (blank lines are not jobs).
        public var jobs = 0
        /// Jobs that got an error line.
        public var failed = 0
        /// Why reading or writing stopped early, if it did.
        public var ioFailure: String?
        /// 0 when every job was answered and all output written; 1 when a job failed; 2 on an I/O failure.
        public var exitStatus: Int32 { ioFailure != nil ? 2 : (failed > 0 ? 1 : 0) }
    }

    /// Runs every line of `input` through `answer`, writing to `output`.
    ///
    /// Blank lines (empty, or only spaces and tabs) are not jobs and are skipped, so they may separate jobs
    /// or keep a co-process alive; every other line gets its answers or one error line.
    public static func run(_ input: JobInput, to output: JobOutput, limits: JobLimits,
                           answer: (JobLine, (String) -> Void) throws(JobError) -> Void) -> Summary {
        var summary = Summary()
        let leftovers = Leftovers()
        while let line = input.next() {
            switch line {
            case .tooLong(let bytes):
                summary.jobs += 1
                summary.failed += 1
                output.line(errorLine(id: "null", .lineTooLong(bytes: bytes, limit: limits.maxLineBytes)))
            case .text(let text):
                if text.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                summary.jobs += 1
                if !process(text, limits: limits, emit: output.line, leftovers: leftovers, answer: answer) { summary.failed += 1 }
            }
            let flushed = output.flush()
            leftovers.release()                      // after the job's last line went out
            if !flushed { break }
        }
        output.flush()
        summary.ioFailure = input.failure?.description ?? output.failure
        return summary
    }

    /// Answers one job line: parses it and calls `answer`; any `JobError` becomes the job's one error line.
    /// Returns false when the job failed.
    ///
    /// What `answer` emits is held to `JobLimits.maxOutputBytesPerJob` and the job's time limit: once either
    /// runs out, further lines are dropped (`JobLine.isStopped` turns true, so answer loops can stop) and
    /// the job ends with an error line saying how many lines were written.
    public static func process(_ line: String, limits: JobLimits, emit: (String) -> Void,
                               answer: (JobLine, (String) -> Void) throws(JobError) -> Void) -> Bool {
        let leftovers = Leftovers()
        defer { leftovers.release() }
        return process(line, limits: limits, emit: emit, leftovers: leftovers, answer: answer)
    }

    /// `process(_:limits:emit:answer:)`, handing what a failed job built to `leftovers` (released by the
    /// caller once the job's lines are written).
    static func process(_ line: String, limits: JobLimits, emit: (String) -> Void, leftovers: Leftovers,
                        answer: (JobLine, (String) -> Void) throws(JobError) -> Void) -> Bool {
        var id = "null"
        do throws(JobError) {
            let bytes = line.utf8.count
            guard bytes <= limits.maxLineBytes else { throw .lineTooLong(bytes: bytes, limit: limits.maxLineBytes) }
            let deadline = Deadline(seconds: limits.maxSecondsPerJob)
            let value: JSONValue
            do {
                value = try BuildDeadline.within(deadline.instant) { () throws(JSONError) -> JSONValue in try JSONParser.parse(line) }
            } catch {
                if error.message == JSONError.pastDeadline {
                    throw .timeLimit(seconds: limits.maxSecondsPerJob, during: "reading the line (at byte \(error.offset) of \(bytes))")
                }
                throw .invalidJSON(error)
            }
            if case .object = value, let valid = try? JobFields.id(of: value, limits: limits) { id = valid }
            let output = OutputBudget(limits: limits, deadline: deadline)
            let job = JobLine(value: value, idJSON: id, deadline: deadline, output: output, leftovers: leftovers)
            // `answer` and `emit` are both non-escaping: hand one to the other without letting it escape.
            // Every shape built for the job (flattening, color layers, pixel staircases, scene regions) sees
            // the job's deadline through `BuildDeadline` and gives up with it.
            var failure: JobError?
            withoutActuallyEscaping(emit) { emit in
                do throws(JobError) {
                    try BuildDeadline.within(deadline.instant) { () throws(JobError) in
                        try answer(job) { output.write($0, to: emit) }
                    }
                } catch {
                    failure = error
                }
            }
            if let stop = output.stop { throw stop }
            if let failure { throw failure }
            return true
        } catch {
            emit(errorLine(id: id, error))
            return false
        }
    }

    /// A job's error line: `{"job": ID, "error": "MESSAGE"}` (ID as JSON text, `null` when the job has none).
    public static func errorLine(id: String, _ error: JobError) -> String {
        "{\"job\":" + id + ",\"error\":" + JSONValue.quoted(error.description) + "}"
    }
}

/// One job line as the loop hands it to a subcommand: its JSON value and its id.
public struct JobLine: Sendable {
    /// The parsed line.
    public var value: JSONValue
    /// The job's id as JSON text (`null` when it has no valid one).
    public var idJSON: String
    /// When the job's time is up (`JobLimits.maxSecondsPerJob` from the moment its line was read).
    let deadline: Deadline
    let output: OutputBudget
    /// What the job built, kept when it fails until its error line is written (`keepUntilWritten`).
    let leftovers: Leftovers

    /// Keeps `value` (what a failing job built: a scene of 100,000 nodes, its regions) alive until the job's
    /// error line is written: freeing it takes a good part of the time it took to build (0.1–0.4 s for 99,999
    /// path or mask nodes), which then falls between this job and the next instead of between the job's
    /// deadline and its error line. Nothing more is built meanwhile (the next job starts after it is freed),
    /// so the process never holds two jobs' structures.
    public func keepUntilWritten(_ value: Any) { leftovers.keep(value) }

    /// True for a text job (`"text"` and no `"glyphs"`; see ``Job/Kind``).
    public var isTextJob: Bool { kind == .text }
    /// True for a scene job (`"scene"`; see ``Job/Kind``).
    public var isSceneJob: Bool { kind == .scene }
    /// True once the job has run longer than its time limit.
    public var isPastDeadline: Bool { deadline.isPast }
    /// True once the job's output ran out of bytes or of time: what it emits from then on is dropped, and
    /// the loop ends the job with an error line.
    public var isStopped: Bool { output.stop != nil }
}

/// What failed jobs built, held until their error lines are written (`JobLine.keepUntilWritten`), then
/// released at once. Used by one job loop on one thread.
final class Leftovers: @unchecked Sendable {
    private var held: [Any] = []
    func keep(_ value: Any) { held.append(value) }
    /// Frees what is held (its teardown runs here).
    func release() { held.removeAll() }
}

/// The output bytes and time one job has left for writing (`JobLimits.maxOutputBytesPerJob`,
/// `maxSecondsPerJob`). Used by one job on one thread.
final class OutputBudget: @unchecked Sendable {
    private let limit: Int
    private let seconds: Double
    private let deadline: Deadline
    private var bytes = 0
    private(set) var lines = 0
    /// Why output stopped, once it did.
    private(set) var stop: JobError?

    init(limits: JobLimits, deadline: Deadline) {
        limit = limits.maxOutputBytesPerJob
        seconds = limits.maxSecondsPerJob
        self.deadline = deadline
    }

    /// Passes `s` on to `emit` unless the job is out of output bytes or time (checked every 64 lines).
    func write(_ s: String, to emit: (String) -> Void) {
        guard stop == nil else { return }
        let n = s.utf8.count + 1
        if bytes + n > limit {
            stop = .outputBytes(limit: limit, written: lines)
            return
        }
        if lines & 63 == 63 && deadline.isPast {
            stop = .timeLimit(seconds: seconds, during: "writing output line \(lines) (the \(lines) before it were written)")
            return
        }
        bytes += n
        lines += 1
        emit(s)
    }
}

/// A point in time `seconds` from now on the monotonic clock (never, for a non-finite or huge limit).
struct Deadline: Sendable {
    private let end: ContinuousClock.Instant?

    init(seconds: Double) {
        // Limits beyond 2³¹ s (68 years) never come: no deadline (and no overflow in the duration).
        if seconds.isFinite && seconds < Double(Int32.max) {
            end = ContinuousClock.now.advanced(by: .seconds(max(0, seconds)))
        } else {
            end = nil
        }
    }

    var isPast: Bool {
        guard let end else { return false }
        return ContinuousClock.now >= end
    }

    /// The deadline as an instant (nil: never).
    var instant: ContinuousClock.Instant? { end }
}
