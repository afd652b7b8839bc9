#if canImport(Glibc)
import Glibc
#endif
import Foundation
import InkTestSupport
import Testing

/// The bounded-build rows (hostile inputs bounded before they are built) through the C interface: `Hostile/hostile_calls.c`, compiled here against the library
/// built next to this test bundle (`libInkHitC.so`), runs one hostile call per child process under a 2 GB
/// address-space cap, so an abort or an allocation beyond it fails the scenario. Each call returns its
/// documented status (INKHIT_ERROR_SHAPE, _GLYPH or _LIMIT; OK where the input is cheap once bounded) in
/// seconds, where it used to run for tens of seconds or abort. (Not under a sanitizer: an instrumented
/// library cannot start under the cap; CI's plain debug run has them.)
@Suite("Hostile calls through the C interface, under a 2 GB cap", .serialized,
       .enabled(if: !Sanitizers.active && FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
struct HostileCallTests {
    struct Scenario: Sendable, CustomStringConvertible {
        var name: String
        var font: (@Sendable () -> [UInt8])?
        var status: String
        /// In the message (nil: none asked for).
        var message: String?
        /// Seconds the call may take (well above a debug build's, far below what it took before inputs were bounded before being built).
        var seconds: Double
        var description: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "colr-chain", font: { HostileFonts.colrTransformChain() }, status: "INKHIT_ERROR_SHAPE",
                 message: "would need more than 4096 segments", seconds: 2),
        Scenario(name: "colr-clipped", font: { HostileFonts.colrClippedLayers() }, status: "INKHIT_OK", seconds: 2),
        Scenario(name: "sbix-huge", font: { HostileFonts.sbixHuge(strikes: 10) }, status: "INKHIT_ERROR_GLYPH",
                 message: "larger than 16 Mpx", seconds: 2),
        Scenario(name: "sbix-board", font: { HostileFonts.sbixPattern(.checkerboard, size: 2048) }, status: "INKHIT_ERROR_SHAPE",
                 message: "more than 1000000 edges", seconds: 5),
        Scenario(name: "ellipses-1e7", status: "INKHIT_ERROR_SHAPE", message: "268435456 bytes", seconds: 2),
        Scenario(name: "ellipses-deadline", status: "INKHIT_ERROR_LIMIT", message: "passed its time limit", seconds: 0.6),
        // The in-process runner is the CLI's equal (a job ink-hit stops at 1.2 s ran 11.3 s): a job held to its
        // runner's time limit ends with its error line and the next job runs; a call held to inkhit_limits stops
        // with LIMIT after the job it cut, the quick job after it not run.
        Scenario(name: "runner-job-deadline", status: "INKHIT_OK", message: "jobs=2 failed=1", seconds: 0.8),
        Scenario(name: "runner-call-deadline", status: "INKHIT_ERROR_LIMIT", message: "jobs=1 failed=1", seconds: 0.8),
    ] + ["spaces", "tabs", "ideographic-spaces", "newlines"].map {
        // 1,000,000 of them laid out under a 0.3 s limit: the limit's error within the overrun (whitespace runs
        // were quadratic: 100,000 spaces took 3.5 s, a million did not end).
        Scenario(name: "layout-" + $0, font: { [UInt8](FileManager.default.contents(atPath: TestFonts.sans) ?? Data()) }, status: "INKHIT_ERROR_LIMIT", message: "past its deadline",
                 seconds: 0.6)
    }

    /// Rows answered by the bounded `GlyphShape` build (segments counted from control points before flattening):
    /// plain outlines and custom outlines.
    static let scenariosOfBoundedFlattening: [Scenario] = [
        Scenario(name: "plain-1e8", font: { HostileFonts.colrTransformChain() }, status: "INKHIT_ERROR_SHAPE", seconds: 2),
        Scenario(name: "outline-quads", status: "INKHIT_ERROR_SHAPE", seconds: 2),
        Scenario(name: "path-conics", status: "INKHIT_ERROR_SHAPE", seconds: 2),
        Scenario(name: "stroke-em-round", status: "INKHIT_ERROR_SHAPE", message: "more than 1000000 edges", seconds: 2),
    ]

    /// The directory of the library this bundle was built with, and of the Swift runtime it loaded.
    static func libraryDirectories() throws -> (build: String, runtime: String) {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.path + "/libInkHitC.so") && dir.path.count > 1 {
            dir = dir.deletingLastPathComponent()
        }
        guard FileManager.default.fileExists(atPath: dir.path + "/libInkHitC.so") else {
            throw CFailure(message: "libInkHitC.so not found above \(exe.path)")
        }
        // The Swift runtime this process loaded (procfs files have no size: read them as a stream).
        let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        guard let core = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
              let slash = core.firstIndex(of: "/") else { throw CFailure(message: "libswiftCore.so is not mapped") }
        return (dir.path, URL(fileURLWithPath: String(core[slash...])).deletingLastPathComponent().path)
    }

    /// Runs `exe args` to its end, suspending (never blocking a thread of the test runner's small pool) while
    /// it runs; its standard output is read on a GCD thread. Returns (status, signaled, output).
    static func spawn(_ exe: String, _ args: [String]) async throws -> (Int32, Bool, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = Output()
        let read = pipe.fileHandleForReading
        DispatchQueue.global().async { out.finish(read.readDataToEndOfFile()) }
        while p.isRunning || !out.done { try await Task.sleep(for: .milliseconds(5)) }
        return (p.terminationStatus, p.terminationReason == .uncaughtSignal, String(decoding: out.data, as: UTF8.self))
    }

    /// Output read on another thread.
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data(), finished = false
        var data: Data { lock.withLock { bytes } }
        var done: Bool { lock.withLock { finished } }
        func finish(_ d: Data) { lock.withLock { bytes = d; finished = true } }
    }

    /// `hostile_calls`, compiled once into a scratch directory.
    static let compiled = Task { () async throws -> String in try await program() }

    static func program() async throws -> String {
        let (build, runtime) = try libraryDirectories()
        let out = NSTemporaryDirectory() + "/inkhit-hostile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let (status, _, _) = try await spawn("/usr/bin/env", [
            "cc", "-std=c11", "-O1", "-Wall", "-Werror", "-I", Header.repository + "/Sources/CInkHit/include",
            Header.repository + "/Tests/InkHitCTests/Hostile/hostile_calls.c", "-L", build, "-lInkHitC",
            "-Wl,-rpath," + build + ":" + runtime, "-o", out + "/hostile_calls"])
        guard status == 0 else { throw CFailure(message: "cc failed (\(status))") }
        return out + "/hostile_calls"
    }

    /// Runs one scenario under the cap: (status name, wall-clock and CPU seconds of the call, message).
    static func run(_ s: Scenario) async throws -> (status: String, wall: Double, cpu: Double, message: String) {
        let exe = try await compiled.value
        var args = ["--as=2000000000", exe, s.name]
        let path = URL(fileURLWithPath: exe).deletingLastPathComponent().path + "/\(s.name).ttf"
        if let font = s.font {
            guard FileManager.default.createFile(atPath: path, contents: Data(font())) else { throw CFailure(message: "cannot write \(path)") }
            args.append(path)
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, signaled, line) = try await spawn("/usr/bin/prlimit", args)
        guard !signaled, status == 0 else {
            throw CFailure(message: "\(s.name): exit \(status) (\(signaled ? "signal" : "status")), \(line)")
        }
        let parts = line.split(separator: " ", maxSplits: 3)
        guard parts.count >= 3, let wall = Double(parts[1]), let cpu = Double(parts[2]) else {
            throw CFailure(message: "\(s.name): \(line)")
        }
        return (String(parts[0]), wall, cpu, parts.count > 3 ? String(parts[3].trimmingCharacters(in: .newlines)) : "")
    }

    static func check(_ s: Scenario) async throws {
        let (status, wall, cpu, message) = try await run(s)
        #expect(status == s.status, "\(s.name): \(status) \(message)")
        if let m = s.message { #expect(message.contains(m), "\(s.name): \(message)") }
        // The CPU time strictly; the wall-clock time only against a wait (`ChildRun.waitWatchdogSeconds`): a
        // busy machine that gives the process a fraction of a core stretches it without bound.
        #expect(cpu <= s.seconds, "\(s.name): \(cpu) s of CPU")
        #expect(wall <= max(4 * s.seconds, ChildRun.waitWatchdogSeconds), "\(s.name): \(wall) s")
    }

    @Test(arguments: scenarios)
    func theCallReturnsItsStatusInTime(_ s: Scenario) async throws { try await Self.check(s) }

    @Test(arguments: scenariosOfBoundedFlattening)
    func theCallOfTheBoundedGlyphShapeBuild(_ s: Scenario) async throws { try await Self.check(s) }
}
