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
        while let line = input.next() {
            switch line {
            case .tooLong(let bytes):
                summary.jobs += 1
                summary.failed += 1
                output.line(errorLine(id: "null", .lineTooLong(bytes: bytes, limit: limits.maxLineBytes)))
            case .text(let text):
                if text.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                summary.jobs += 1
                if !process(text, limits: limits, emit: output.line, answer: answer) { summary.failed += 1 }
            }
            if !output.flush() { break }
        }
        output.flush()
        summary.ioFailure = input.failure?.description ?? output.failure
        return summary
    }

    /// Answers one job line: parses it and calls `answer`; any `JobError` becomes the job's one error line.
    /// Returns false when the job failed.
    public static func process(_ line: String, limits: JobLimits, emit: (String) -> Void,
                               answer: (JobLine, (String) -> Void) throws(JobError) -> Void) -> Bool {
        var id = "null"
        do throws(JobError) {
            let bytes = line.utf8.count
            guard bytes <= limits.maxLineBytes else { throw .lineTooLong(bytes: bytes, limit: limits.maxLineBytes) }
            let deadline = Deadline(seconds: limits.maxSecondsPerJob)
            let value: JSONValue
            do { value = try JSONParser.parse(line) } catch { throw .invalidJSON(error) }
            if case .object = value, let valid = try? JobFields.id(of: value) { id = valid }
            let job = JobLine(value: value, idJSON: id, deadline: deadline)
            // `answer` and `emit` are both non-escaping: hand one to the other without letting it escape.
            var failure: JobError?
            withoutActuallyEscaping(emit) { emit in
                do throws(JobError) { try answer(job, emit) } catch { failure = error }
            }
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

    /// True for a text job (`"text"` and no `"glyphs"`).
    public var isTextJob: Bool { value["text"] != nil && value["glyphs"] == nil }
    /// True once the job has run longer than its time limit.
    public var isPastDeadline: Bool { deadline.isPast }
}

/// A point in time `seconds` from now on the monotonic clock (never, for a non-finite or huge limit).
struct Deadline: Sendable {
    private let end: ContinuousClock.Instant?

    init(seconds: Double) {
        if seconds.isFinite && seconds < 1e9 {
            end = ContinuousClock.now.advanced(by: .nanoseconds(Int64(max(0, seconds) * 1e9)))
        } else {
            end = nil
        }
    }

    var isPast: Bool {
        guard let end else { return false }
        return ContinuousClock.now >= end
    }
}
