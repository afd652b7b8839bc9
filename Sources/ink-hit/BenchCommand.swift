import ArgumentParser
import InkGeometry
import InkHit
import InkJobs
#if canImport(Glibc)
import Glibc
#endif

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time the query path on each glyph job of a file.",
        discussion: """
        For each job: builds the index once (timed, fonts and shapes cold for the first job that uses them),
        then answers all the job's points repeatedly until at least --seconds have passed, in --rounds rounds,
        and prints one JSON line:
          {"job": ..., "points": N, "radius": r, "ns_per_point_median": t, "build_ms": b}
        Single thread, release build recommended (swift build -c release).
        """
    )

    @Argument(help: "Job file (JSON lines) in the `ink-hit query` format; '-' reads standard input.")
    var file: String?
    @Option(help: "Minimum time per round, seconds.")
    var seconds = 0.5
    @Option(help: "Rounds; the median is reported.")
    var rounds = 5
    @Option(help: "Flattening tolerance, view px.")
    var tolerance: Double = HitIndex.defaultTolerance

    func validate() throws {
        guard seconds.isFinite, seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in (0, 600]") }
        guard rounds >= 1, rounds <= 1000 else { throw ValidationError("--rounds must be in 1...1000") }
    }

    func run() throws {
        guard let reader = LineReader(path: file) else {
            printError("ink-hit: cannot open \(file ?? "-")")
            throw ExitCode(2)
        }
        let runner = JobRunner(tolerance: tolerance)
        var out = Output()
        var failed = false
        while let line = reader.next() {
            if let n = reader.overlongBytes {
                out.line(runner.lineTooLongError(byteCount: n)); out.flush(); failed = true; continue
            }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            var jobID = "null"
            do {
                let v = try JSONParser.parse(line)
                let job = try GlyphJob(v)
                jobID = job.idJSON
                let t0 = now()
                let index = try runner.buildIndex(job)
                let buildMs = (now() - t0) * 1e3
                var medians: [Double] = []
                var sink = 0
                try job.points.withUnsafeBufferPointer { pts in
                    let results = UnsafeMutableBufferPointer<Hit?>.allocate(capacity: max(pts.count, 1))
                    defer { results.deallocate() }
                    guard pts.count > 0 else { return }
                    for _ in 0..<rounds {
                        var reps = 0
                        let start = now()
                        var elapsed = 0.0
                        repeat {
                            index.hit(at: pts, radius: job.radius, into: results)
                            reps += 1
                            elapsed = now() - start
                        } while elapsed < seconds
                        sink &+= results[0]?.placement ?? 0
                        medians.append(elapsed * 1e9 / Double(reps * pts.count))
                    }
                    if sink == Int.min { throw ExitCode(3) }   // keeps the results observable
                }
                medians.sort()
                let med = medians.isEmpty ? 0 : medians[medians.count / 2]
                out.line("{\"job\":\(job.idJSON),\"points\":\(job.points.count),\"radius\":\(formatNumber(job.radius, decimals: 4)),\"ns_per_point_median\":\(formatNumber(med, decimals: 2)),\"build_ms\":\(formatNumber(buildMs, decimals: 3))}")
            } catch let e as JobError {
                out.line("{\"job\":\(jobID),\"error\":\(jsonQuote(e.message))}"); failed = true
            } catch let e as JSONError {
                out.line("{\"job\":null,\"error\":\(jsonQuote(e.description))}"); failed = true
            }
            out.flush()
        }
        if failed { throw ExitCode(1) }
    }
}

/// Monotonic seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
