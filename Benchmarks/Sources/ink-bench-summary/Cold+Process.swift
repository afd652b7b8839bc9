import Foundation
import InkBenchSupport
import InkFreeType
import InkGeometry
import InkJobs

/// `ink-bench-summary cold --process [--ink-hit PATH] [--hb-view PATH] [--runs N] [--quick] [--keep]`: whole
/// processes, one-off. `ink-hit query` on a one-point text job against `hb-view` drawing the same text at the
/// same size to a PNG, for two texts (`ColdWorkloads.cjkPage()`, `.latinPage()`); runs alternated (hb-view,
/// ink-hit, hb-view, ink-hit, …; one warm-up run of each first, not counted), medians of wall time and of
/// peak RSS.
///
/// Each command runs under `ink-bench-spawn` (a small C program of this package), which forks it, times it
/// from fork to `wait4` and reads its peak RSS from `wait4`'s `ru_maxrss`: started straight from this
/// process, a child's reported peak would include this process's own (Linux keeps the larger of the two
/// across `execve`). The floor under ink-bench-spawn, a run of `true`, is measured and printed (~1 MiB).
enum ColdProcess {
    static let defaultInkHit = "../.build-static/release/ink-hit"
    static let buildCommand = "swift build -c release --product ink-hit --static-swift-stdlib --scratch-path .build-static"

    struct Options {
        var inkHit = ColdProcess.defaultInkHit
        var hbView = "hb-view"
        var runs = 9
        /// Keep the jobs, texts, PNGs and answers (their directory is printed).
        var keep = false
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var o = Options()
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < arguments.count else { throw Cold.Failure(description: "\(arguments[i - 1]) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--process": break
            case "--quick": o.runs = 7
            case "--keep": o.keep = true
            case "--ink-hit": o.inkHit = try value()
            case "--hb-view": o.hbView = try value()
            case "--runs":
                guard let n = Int(try value()), n >= 7 else { throw Cold.Failure(description: "--runs needs a number ≥ 7") }
                o.runs = n
            default:
                throw Cold.Failure(description: "unknown option \(arguments[i]) (cold --process [--ink-hit PATH] [--hb-view PATH] [--runs N ≥ 7] [--quick] [--keep])")
            }
            i += 1
        }
        return o
    }

    /// What one run of a command measured (`ink-bench-spawn`'s line).
    struct Sample {
        var status = 0
        var wall = 0.0          // seconds
        var maxRSSKiB = 0
        var cpu = 0.0           // user + system seconds
    }

    /// A command of the comparison, its output files, and its samples.
    struct Command {
        var label: String
        var argv: [String]
        var stdout: String, stderr: String
        var samples: [Sample] = []
        var wallMedian: Double { Cold.median(samples.map(\.wall)) }
        var rssMedianKiB: Double { Cold.median(samples.map { Double($0.maxRSSKiB) }) }
        var cpuMedian: Double { Cold.median(samples.map(\.cpu)) }
    }

    /// One text, run through both commands.
    struct Case {
        var page: ColdPage
        var inkHit: Command, hbView: Command
        var jobLine: String
    }

    static func run(arguments: [String]) throws {
        let o = try parse(arguments)
        let spawn = try helperPath()
        let inkHit = URL(fileURLWithPath: o.inkHit).standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: inkHit) else {
            FileHandle.standardError.write("""
                ink-bench-summary cold --process: no ink-hit binary at \(inkHit).
                Build it at the repository root (a statically linked Swift standard library, as `./inkhit demo` builds it):
                    cd .. && \(buildCommand)
                or name another one with --ink-hit PATH.

                """.data(using: .utf8)!)
            exit(2)
        }
        guard let hbView = which(o.hbView) else {
            FileHandle.standardError.write("ink-bench-summary cold --process: \(o.hbView) not found (Debian: apt-get install libharfbuzz-bin; ./inkhit deps installs it)\n".data(using: .utf8)!)
            exit(2)
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ink-bench-cold-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer {
            if o.keep { FileHandle.standardError.write("cold --process: inputs and outputs kept in \(dir)\n".data(using: .utf8)!) }
            else { try? FileManager.default.removeItem(atPath: dir) }
        }

        var cases = try [ColdWorkloads.cjkPage(), ColdWorkloads.latinPage()].enumerated().map { k, page in
            try makeCase(page, key: ["cjk", "latin"][k], dir: dir, inkHit: inkHit, hbView: hbView)
        }
        // The floor of the peak RSS a child of ink-bench-spawn reports: a run of `true`.
        var floorKiB = -1
        if let t = which("true") {
            floorKiB = try measure(Command(label: "true", argv: [t], stdout: "/dev/null", stderr: "/dev/null"), spawn: spawn, dir: dir).maxRSSKiB
        }
        // Check each command once (its answer, its PNG), which is also the warm-up run.
        for k in cases.indices {
            for cmd in [cases[k].hbView, cases[k].inkHit] {
                let s = try measure(cmd, spawn: spawn, dir: dir)
                guard s.status == 0 else { throw failure(cmd, s) }
            }
            try checkOutputs(cases[k], dir: dir)
        }
        FileHandle.standardError.write("cold --process: \(o.runs) alternated runs of \(cases.count * 2) commands…\n".data(using: .utf8)!)
        for _ in 0..<o.runs {
            for k in cases.indices {
                for inkHitSide in [false, true] {
                    let cmd = inkHitSide ? cases[k].inkHit : cases[k].hbView
                    let s = try measure(cmd, spawn: spawn, dir: dir)
                    guard s.status == 0 else { throw failure(cmd, s) }
                    if inkHitSide { cases[k].inkHit.samples.append(s) } else { cases[k].hbView.samples.append(s) }
                }
            }
        }
        print(markdown(cases, options: o, inkHit: inkHit, hbView: hbView, floorKiB: floorKiB))
    }

    // MARK: Setup

    /// `ink-bench-spawn`, next to this executable.
    static func helperPath() throws -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let path = me.deletingLastPathComponent().appendingPathComponent("ink-bench-spawn").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Cold.Failure(description: "ink-bench-spawn is missing next to \(me.path): build it with `swift build -c release --product ink-bench-spawn` (in Benchmarks/)")
        }
        return path
    }

    /// The full path of `command` (itself when it holds a slash), or nil.
    static func which(_ command: String) -> String? {
        if command.contains("/") { return FileManager.default.isExecutableFile(atPath: command) ? command : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for d in path.split(separator: ":") {
            let p = "\(d)/\(command)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    static func makeCase(_ page: ColdPage, key: String, dir: String, inkHit: String, hbView: String) throws -> Case {
        // One point on the first glyph's em box: the job answers one point, as a tap would.
        let first = page.placements.first?.origin ?? Point(0, 0)
        let point = Point(first.x + page.size / 2, first.y - page.size / 3)
        let job = "{\"id\": \"\(key)\", \"text\": \(JSONValue.quoted(page.text)), "
            + "\"fonts\": [{\"path\": \(JSONValue.quoted(page.fontPath))}], \"size\": \(page.size), \"width\": \(page.width), "
            + "\"points\": [[\(point.x), \(point.y)]]}\n"
        let jobPath = "\(dir)/\(key).jsonl", textPath = "\(dir)/\(key).txt", png = "\(dir)/\(key).png"
        try job.write(toFile: jobPath, atomically: true, encoding: .utf8)
        try (page.linesText + "\n").write(toFile: textPath, atomically: true, encoding: .utf8)
        let ink = Command(label: "ink-hit query", argv: [inkHit, "query", jobPath],
                          stdout: "\(dir)/\(key).ink-hit.out", stderr: "\(dir)/\(key).ink-hit.err")
        let hb = Command(label: "hb-view", argv: [hbView, "--font-size=\(Int(page.size))", "-o", png, page.fontPath, "--text-file=\(textPath)"],
                         stdout: "\(dir)/\(key).hb-view.out", stderr: "\(dir)/\(key).hb-view.err")
        return Case(page: page, inkHit: ink, hbView: hb, jobLine: job)
    }

    /// ink-hit answered its one point (a JSON line with "hit"), hb-view wrote a PNG.
    static func checkOutputs(_ c: Case, dir: String) throws {
        let answer = (try? String(contentsOfFile: c.inkHit.stdout, encoding: .utf8)) ?? ""
        let lines = answer.split(separator: "\n")
        guard lines.count == 1, lines[0].contains("\"hit\""), !lines[0].contains("\"error\"") else {
            throw Cold.Failure(description: "ink-hit query on \(c.page.name) answered:\n\(answer)")
        }
        let png = c.hbView.argv[c.hbView.argv.firstIndex(of: "-o")! + 1]
        let bytes = (try? FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0
        guard let head = FileManager.default.contents(atPath: png)?.prefix(4), Array(head) == [0x89, 0x50, 0x4E, 0x47], bytes > 0 else {
            throw Cold.Failure(description: "hb-view wrote no PNG for \(c.page.name) (\(png))")
        }
    }

    static func failure(_ cmd: Command, _ s: Sample) -> Cold.Failure {
        let err = (try? String(contentsOfFile: cmd.stderr, encoding: .utf8)) ?? ""
        return Cold.Failure(description: "\(cmd.argv.joined(separator: " ")) exited with status \(s.status):\n\(err.prefix(2_000))")
    }

    // MARK: Running

    /// Runs `cmd` once under `ink-bench-spawn`.
    static func measure(_ cmd: Command, spawn: String, dir: String) throws -> Sample {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: spawn)
        p.arguments = ["/dev/null", cmd.stdout, cmd.stderr] + cmd.argv
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        var fields: [String: Int] = [:]
        for kv in out.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = kv.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let v = Int(parts[1]) { fields[String(parts[0])] = v }
        }
        guard p.terminationStatus == 0, let status = fields["status"], let ns = fields["wall_ns"], let rss = fields["maxrss_kib"] else {
            throw Cold.Failure(description: "ink-bench-spawn failed (\(p.terminationStatus)): \(out)")
        }
        return Sample(status: status, wall: Double(ns) * 1e-9, maxRSSKiB: rss,
                      cpu: Double((fields["user_us"] ?? 0) + (fields["sys_us"] ?? 0)) * 1e-6)
    }

    // MARK: Report

    /// "yes" when `binary` needs no shared libswiftCore (ldd).
    static func staticStdlib(_ binary: String) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        p.arguments = [binary]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return "?" }
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return out.contains("libswiftCore") ? "no (links libswiftCore.so)" : "yes"
    }

    static func markdown(_ cases: [Case], options o: Options, inkHit: String, hbView: String, floorKiB: Int) -> String {
        typealias N = Cold.Numbers
        func ms(_ s: Double) -> String { N.fmt(s * 1e3, 1) }
        func mib(_ kib: Double) -> String { N.fmt(kib / 1024, 1) }
        let size = (try? FileManager.default.attributesOfItem(atPath: inkHit)[.size] as? Int) ?? 0
        var s = "## Cold: one-off processes\n\n"
        s += "Whole processes, \(o.runs) alternated runs each (hb-view, ink-hit, per text; one checked warm-up run of each "
        s += "first, not counted); medians. Wall: fork to `wait4`; peak RSS: `wait4`'s `ru_maxrss` of a child forked by "
        s += "`ink-bench-spawn` (the floor: `true` reports \(floorKiB) KiB there).\n\n"
        s += "- ink-hit: `\(inkHit)` (\(N.fmt(Double(size) / 1_048_576, 1)) MiB; statically linked Swift stdlib: \(staticStdlib(inkHit))), "
        s += "`ink-hit query JOB.jsonl` on one text job of one point\n"
        s += "- hb-view: `\(hbView) --font-size=16 -o OUT.png FONT --text-file=TEXT`, the same text with a line feed where "
        s += "`TextLayout` broke its lines (so both draw the same lines)\n\n"
        s += "| text | ink-hit wall ms | hb-view wall ms | wall ratio (median of runs) | ink-hit peak RSS MiB | hb-view peak RSS MiB | RSS ratio | ink-hit CPU ms | hb-view CPU ms |\n"
        s += "|---|---|---|---|---|---|---|---|---|\n"
        var verdicts: [(String, Double, Double)] = []
        for c in cases {
            let wallRatio = Cold.median(zip(c.inkHit.samples, c.hbView.samples).map { $0.wall / $1.wall })
            let rssRatio = Cold.median(zip(c.inkHit.samples, c.hbView.samples).map { Double($0.maxRSSKiB) / Double($1.maxRSSKiB) })
            verdicts.append((c.page.name, wallRatio, rssRatio))
            s += "| \(c.page.name) (\(c.page.placements.count) glyphs, \(c.page.lines.count) lines) | **\(ms(c.inkHit.wallMedian))** | \(ms(c.hbView.wallMedian)) "
            s += "| **\(N.times(wallRatio))** | **\(mib(c.inkHit.rssMedianKiB))** | \(mib(c.hbView.rssMedianKiB)) | **\(N.times(rssRatio))** "
            s += "| \(ms(c.inkHit.cpuMedian)) | \(ms(c.hbView.cpuMedian)) |\n"
        }
        s += "\n| target | measured | verdict |\n|---|---|---|\n"
        for (name, w, r) in verdicts {
            s += "| \(name): wall ≤ 1.5× hb-view | \(N.times(w)) | \(N.verdict(w <= 1.5)) |\n"
            s += "| \(name): peak RSS ≤ 2× hb-view | \(N.times(r)) | \(N.verdict(r <= 2)) |\n"
        }
        s += "\nThe jobs (one line each):\n\n```\n"
        for c in cases { s += String(c.jobLine.prefix(160)) + (c.jobLine.count > 160 ? " …\n" : "") }
        s += "```\n"
        return s
    }
}
