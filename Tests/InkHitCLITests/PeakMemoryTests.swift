import Foundation
import Testing
import InkTestSupport

/// Peak memory of `ink-hit query` on the largest inputs the default limits allow, against the bounds the
/// InkJobs article "Limits and hostile input" states (measured there on release builds; this runs the test
/// build, whose peaks are close because the JSON tree and the layout's arrays dominate).
///
/// Each child's own peak resident memory is read from `wait4`'s rusage once it has exited (`ChildRun`), so
/// nothing else running (other children of the test process, other processes) counts. The suite is heavy, so it
/// runs on its own: `INKHIT_MEMORY_TEST=1 swift test --filter PeakMemoryTests` (`.ci/run` does). Each run is
/// also under a 2 GB address-space cap, so an abort fails the case.
@Suite("Peak memory on the largest inputs", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["INKHIT_MEMORY_TEST"] == "1", "set INKHIT_MEMORY_TEST=1 (run alone)"),
       .disabled(if: Sanitizers.active, "sanitizers hold memory back on purpose"))
struct PeakMemoryTests {
    static let sans = Jobs.quoted(TestFonts.sans)

    /// (name, job line, answers expected, bound in bytes).
    static func cases() -> [(String, String, Int, Int)] {
        let text = String(repeating: "abcd ", count: 200_000)
        let links = (0..<100_000).map { #"{"start":\#($0 * 10),"end":\#($0 * 10 + 4),"tag":"t"}"# }.joined(separator: ",")
        let textJob = #"{"id":"text","text":"\#(text)","fonts":[{"path":\#(sans)}],"size":16,"width":400,"links":[\#(links)],"points":[[5,5],[20,10]]}"#
        var glyphs: [String] = []
        glyphs.reserveCapacity(1_000_000)
        for k in 0..<1_000_000 { glyphs.append(#"{"font":0,"id":\#(36 + k % 50),"x":\#(k % 1000 * 9),"y":\#(k / 1000 * 20 + 16)}"#) }
        let glyphJob = #"{"id":"glyphs","fonts":[{"path":\#(sans)}],"size":16,"glyphs":[\#(glyphs.joined(separator: ","))],"points":[[5,5],[20,10]]}"#
        let n = 10_000_000
        let points = String(repeating: "[9,9],[4,2],[1,3],[7,5],", count: n / 4).dropLast()
        let pointsJob = #"{"id":"points","fonts":[{"path":\#(sans)}],"size":40,"glyphs":[{"font":0,"id":82,"x":0,"y":40}],"radius":2,"points":[\#(points)]}"#
        return [("1,000,000-unit text, 100,000 links", textJob, 2, 900 << 20),
                ("1,000,000 glyphs", glyphJob, 2, 900 << 20),
                ("10,000,000 points", pointsJob, n, 1900 << 20)]
    }

    @Test(.timeLimit(.minutes(10)))
    func peaksStayUnderTheStatedBounds() async throws {
        let s = try Scratch()
        defer { s.remove() }
        for (name, line, answers, bound) in Self.cases() {
            #expect(line.utf8.count <= 64 << 20, "\(name): the job fits the line limit")
            let path = try s.file("job.jsonl", line + "\n")
            // prlimit execs ink-hit: the child measured is ink-hit itself.
            let out = s.path + "/job.out", err = s.path + "/job.err"
            let r = try await ChildRun.run(["/usr/bin/prlimit", "--as=2000000000", try CLI.path(), "query", path],
                                           stdout: out, stderr: err, timeout: 400)
            let stdout = try Data(contentsOf: URL(fileURLWithPath: out))
            #expect(r.status == 0 && !r.signaled, "\(name): status \(r.status), stderr: \((try? String(contentsOfFile: err, encoding: .utf8))?.prefix(500) ?? "")")
            var lines = 0
            stdout.withUnsafeBytes { for b in $0 where b == 0x0A { lines += 1 } }
            #expect(lines == answers, "\(name)")
            // An upper bound of ink-hit's own peak (ChildRun.peakBytes): the bound holds for ink-hit when it holds here.
            let peak = r.peakBytes
            #expect(peak <= bound, "\(name): peak \(peak >> 20) MiB, bound \(bound >> 20) MiB")
            print("PeakMemoryTests: \(name): peak \(peak >> 20) MiB (bound \(bound >> 20) MiB; this process's "
                  + "high-water mark at the spawn \(r.spawnerHighWaterBytes >> 20) MiB)")
        }
    }
}
