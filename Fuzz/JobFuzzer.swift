// Fuzzer for `ink-hit query`: the input is job lines (JSON, one per line) run through the real parser and
// runner, `JobRunner.run(line:emit:)`, as the CLI does. Invariants: every output line is valid JSON; a
// failed job's last line is its {"job":…,"error":…} line, after answers numbered from 0 (a job stopped while
// writing); a good job emits one answer per point, in order. A text job is also laid out as `ink-hit layout`
// does: the glyph job written is valid, fits the line limit or is refused, and `query` answers it.
// Seeds: Fuzz/corpus/jobs/*.jsonl.

import InkGeometry
import InkHit
import InkJobs

@_cdecl("LLVMFuzzerTestOneInput")
public func jobFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    JobFuzz.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

enum JobFuzz {
    /// One runner for the whole run, as the CLI keeps one for all lines: fonts load once, shapes are
    /// shared, and the caches' bounds get exercised. Answers never depend on what is cached.
    nonisolated(unsafe) static let runner: JobRunner = {
        let r = JobRunner()
        r.limits.maxGlyphs = 5_000
        r.limits.maxPoints = 5_000
        r.limits.maxSecondsPerJob = 5
        r.limits.maxCachedShapeBytes = 64 << 20
        return r
    }()

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        var start = 0
        var lines = 0
        while start <= input.count && lines < 16 {
            var end = start
            while end < input.count && input[end] != 0x0A { end += 1 }
            var len = end - start
            if len > 0 && input[start + len - 1] == 0x0D { len -= 1 }
            let line = String(decoding: UnsafeBufferPointer(rebasing: input[start..<(start + len)]), as: UTF8.self)
            start = end + 1
            lines += 1
            JobChecks.runLine(runner, line)
        }
    }
}
