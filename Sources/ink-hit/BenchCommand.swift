import ArgumentParser
import InkGeometry
@_spi(RawBuffers) import InkHit
import InkJobs
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Bench: ParsableCommand {
    /// Nanoseconds in a second, for times measured in seconds and printed in ns.
    static let nanosecondsPerSecond = Duration.seconds(1) / Duration.nanoseconds(1)

    static let configuration = CommandConfiguration(
        abstract: "Time the query path on each job of a file.",
        discussion: """
        For each job (glyph or text): builds the index once (glyph jobs) or lays the text out (text jobs),
        timed, with fonts and shapes cold for the first job that uses them; then answers all the job's points
        repeatedly until at least --seconds have passed, in --rounds rounds, and prints one JSON line:
          {"job": ..., "points": N, "radius": r, "ns_per_point_median": t, "build_ms": b}
        Single thread, release build recommended (swift build -c release). BENCHMARKS.md has the numbers
        measured by the benchmark suite.
        """
    )

    @OptionGroup var options: JobOptions
    @Option(help: "Minimum time per round, seconds.")
    var seconds = 0.5
    @Option(help: "Rounds; the median is reported.")
    var rounds = 5

    func validate() throws {
        guard seconds.isFinite, seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in (0, 600]") }
        guard rounds >= 1, rounds <= 1000 else { throw ValidationError("--rounds must be in 1...1000") }
    }

    /// The job built (index, layout or scene snapshot, within the job's deadline) and its query:
    /// `query(range, &sink)` answers `points[range]` and folds the answers into `sink`.
    static func query(_ parsed: Job, runner: JobRunner, line: JobLine) throws(JobError) -> (Range<Int>, inout Int) -> Void {
        switch parsed {
        case .scene(let job):
            let snapshot = try runner.snapshot(job, for: line)
            return { r, sink in for k in r { sink &+= snapshot.hit(at: job.points[k], radius: job.radius)?.placement ?? 0 } }
        case .text(let job):
            let layout = try runner.layout(job, for: line)
            return { r, sink in for k in r { sink &+= layout.hit(at: job.points[k], radius: job.radius)?.utf16.lowerBound ?? 0 } }
        case .glyph(let job):
            let index = try runner.buildIndex(job, for: line)
            var results = [Hit?](repeating: nil, count: 4096)
            return { r, sink in
                job.points.withUnsafeBufferPointer { pts in
                    results.withUnsafeMutableBufferPointer { res in
                        index.unsafeHits(for: UnsafeBufferPointer(rebasing: pts[r]), radius: job.radius,
                                         into: UnsafeMutableBufferPointer(rebasing: res[0..<r.count]))
                    }
                }
                sink &+= results[0]?.placement ?? 0
            }
        }
    }

    func run() throws {
        let runner = try options.runner()
        try options.run(limits: runner.limits) { (line, emit) throws(JobError) in
            try runner.checkMembers(line)
            let t0 = now()
            // query(range, &sink) answers points[range]; rounds run it a chunk at a time, checking the time.
            let parsed = try Job(line.value, limits: runner.limits)
            let (points, radius) = (parsed.points, parsed.radius)
            let query = try Self.query(parsed, runner: runner, line: line)
            let buildMs = (now() - t0) * 1e3
            var medians: [Double] = []
            var sink = 0
            if !points.isEmpty {
                for _ in 0..<rounds {
                    var reps = 0
                    let start = now()
                    var elapsed = 0.0
                    repeat {
                        if line.isPastDeadline {
                            throw .timeLimit(seconds: runner.limits.maxSecondsPerJob,
                                             during: "timing round \(medians.count + 1) of \(rounds) (--seconds × --rounds is over it)")
                        }
                        var lo = 0
                        while lo < points.count {
                            let hi = min(points.count, lo + 4096)
                            query(lo..<hi, &sink)
                            lo = hi
                            if line.isPastDeadline { break }
                        }
                        reps += 1
                        elapsed = now() - start
                    } while elapsed < seconds
                    medians.append(elapsed / Double(reps * points.count) * Self.nanosecondsPerSecond)    // ns per point
                }
            }
            medians.sort()
            let med = medians.isEmpty ? 0 : medians[medians.count / 2]
            emit("{\"job\":\(line.idJSON),\"points\":\(points.count),\"radius\":\(DecimalText.string(radius, maxFractionDigits: 4)),"
                 + "\"ns_per_point_median\":\(DecimalText.string(med, maxFractionDigits: 2)),"
                 + "\"build_ms\":\(DecimalText.string(buildMs, maxFractionDigits: 3))" + (sink == Int.min ? ",\"sink\":0" : "") + "}")
        }
    }
}

/// Monotonic seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
