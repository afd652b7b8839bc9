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

    @Option(help: "Seconds one job may take, parsing to its last line of output; a job out of time ends with an error line.")
    var timeLimit: Double = JobLimits().maxSecondsPerJob

    @Option(help: "Longest job line in bytes; a longer line gets an error line (it is never held in memory).")
    var maxLineBytes: Int = JobLimits().maxLineBytes
    @Option(help: "Most glyphs per job (a glyph job's glyphs, or those a text job's layout makes).")
    var maxGlyphs: Int = JobLimits().maxGlyphs
    @Option(help: "Longest text of a text job, or of all the text nodes of a scene job together, UTF-16 code units.")
    var maxTextLength: Int = JobLimits().maxTextLength
    @Option(help: "Most links plus attachments per text job.")
    var maxLinks: Int = JobLimits().maxLinks
    @Option(help: "Most styled runs plus exclusions per text job (or scene text shape).")
    var maxRunsAndExclusions: Int = JobLimits().maxRunsAndExclusions
    @Option(help: "Most nodes per scene job.")
    var maxNodes: Int = JobLimits().maxNodes
    @Option(help: "Most query points per job.")
    var maxPoints: Int = JobLimits().maxPoints
    @Option(help: "Most fonts per job.")
    var maxFonts: Int = JobLimits().maxFonts
    @Option(help: "Longest id, tag or font path, bytes.")
    var maxStringBytes: Int = JobLimits().maxStringBytes
    @Option(help: "Most bytes one job may write (answers, or render's SVG).")
    var maxOutputBytes: Int = JobLimits().maxOutputBytesPerJob
    @Option(help: "Most bytes of font files one job may load.")
    var maxFontBytes: Int = JobLimits().maxFontBytesPerJob
    @Option(help: "Most bytes of distinct shapes one job may use (glyph shapes, and a scene's regions).")
    var maxShapeBytes: Int = JobLimits().maxShapeBytesPerJob

    @Flag(help: "A member a job's format does not know (a typo such as \"radious\") fails the job with an error line; without it, the job is answered and a warning on standard error names the member.")
    var strict = false

    /// Every integer limit: its flag, the option holding it and the `JobLimits` field it sets (whose default
    /// is also its largest value: the flags can lower a limit, not raise it).
    private static var limitFlags: [(flag: String, option: KeyPath<JobOptions, Int>, field: WritableKeyPath<JobLimits, Int>)] { [
        ("--max-line-bytes", \.maxLineBytes, \.maxLineBytes), ("--max-glyphs", \.maxGlyphs, \.maxGlyphs),
        ("--max-text-length", \.maxTextLength, \.maxTextLength), ("--max-links", \.maxLinks, \.maxLinks),
        ("--max-runs-and-exclusions", \.maxRunsAndExclusions, \.maxRunsAndExclusions),
        ("--max-nodes", \.maxNodes, \.maxNodes), ("--max-points", \.maxPoints, \.maxPoints), ("--max-fonts", \.maxFonts, \.maxFonts),
        ("--max-string-bytes", \.maxStringBytes, \.maxStringBytes),
        ("--max-output-bytes", \.maxOutputBytes, \.maxOutputBytesPerJob),
        ("--max-font-bytes", \.maxFontBytes, \.maxFontBytesPerJob), ("--max-shape-bytes", \.maxShapeBytes, \.maxShapeBytesPerJob),
    ] }

    func validate() throws {
        guard tolerance.isFinite, tolerance > 0, tolerance <= 1 else {
            throw ValidationError("--tolerance must be in (0, 1] px")
        }
        guard timeLimit > 0, timeLimit <= 86_400 else {
            throw ValidationError("--time-limit must be in (0, 86400] seconds")
        }
        let defaults = JobLimits()
        for l in Self.limitFlags where !(0...defaults[keyPath: l.field]).contains(self[keyPath: l.option]) {
            throw ValidationError("\(l.flag) must be in 0...\(defaults[keyPath: l.field])")
        }
    }

    /// The limits these options set.
    var limits: JobLimits {
        var l = JobLimits()
        l.maxSecondsPerJob = timeLimit
        for f in Self.limitFlags { l[keyPath: f.field] = self[keyPath: f.option] }
        return l
    }

    /// A runner with these options (the tolerance was validated).
    func runner() throws -> JobRunner {
        let r = try JobRunner(tolerance: tolerance)
        r.limits = limits
        r.strict = strict
        r.warn = { printError("ink-hit: " + $0) }
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
