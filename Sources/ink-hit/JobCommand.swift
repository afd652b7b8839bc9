import ArgumentParser
import InkHit
import InkJobs

/// What every job-reading subcommand shares: the input file, the tolerance and the time limit, and the
/// run of the one job loop with its exit status.
struct JobOptions: ParsableArguments {
    @Argument(help: "Job file (JSON lines); '-' or nothing reads standard input.")
    var file: String?

    @Option(help: "Flattening tolerance in view px (Hausdorff bound between curves and polygons).")
    var tolerance: Double = HitIndex.defaultTolerance

    @Option(help: "Seconds one job may take; a slower job fails with an error line and no answers.")
    var timeLimit: Double = JobLimits().maxSecondsPerJob

    @Option(help: "Longest job line in bytes; a longer line gets an error line (it is never held in memory).")
    var maxLineBytes: Int = JobLimits().maxLineBytes

    func validate() throws {
        guard tolerance.isFinite, tolerance > 0, tolerance <= 1 else {
            throw ValidationError("--tolerance must be in (0, 1] px")
        }
        guard timeLimit > 0, timeLimit <= 86_400 else {
            throw ValidationError("--time-limit must be in (0, 86400] seconds")
        }
        guard maxLineBytes >= 1, maxLineBytes <= JobLimits().maxLineBytes else {
            throw ValidationError("--max-line-bytes must be in 1...\(JobLimits().maxLineBytes)")
        }
    }

    /// A runner with these options (the tolerance was validated).
    func runner() throws -> JobRunner {
        let r = try JobRunner(tolerance: tolerance)
        r.limits.maxSecondsPerJob = timeLimit
        r.limits.maxLineBytes = maxLineBytes
        return r
    }

    /// Runs the job loop over the input with `answer`; exits with the loop's status (0 all answered, 1 a
    /// job failed, 2 the input or output failed).
    func run(limits: JobLimits, answer: (JobLine, (String) -> Void) throws(JobError) -> Void) throws {
        let input: JobInput
        do { input = try JobInput(path: file, maxBytes: limits.maxLineBytes) } catch {
            printError("ink-hit: \(error)")
            throw ExitCode(2)
        }
        let summary = JobLoop.run(input, to: JobOutput(), limits: limits, answer: answer)
        if let failure = summary.ioFailure { printError("ink-hit: \(failure)") }
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }
}

/// Writes a message and a newline to standard error.
func printError(_ s: String) {
    let out = JobOutput(fd: 2)
    out.line(s)
    out.flush()
}
