#if canImport(Glibc)
import Glibc
#endif

/// A child process run to its end and measured exactly: `posix_spawn`, then `wait4`, whose resource usage
/// is the kernel's account of the child once it has exited (user and system CPU seconds, peak resident
/// set), not a sample of `/proc` taken while it may be gone. Its standard input, output and error are files,
/// so nothing in the test process reads pipes while it runs.
public struct ChildRun: Sendable {
    /// The exit status (or the signal number when `signaled`).
    public var status: Int32
    /// True when a signal ended the child.
    public var signaled: Bool
    /// CPU seconds in user mode and in the kernel.
    public var userSeconds: Double, systemSeconds: Double
    /// Wall-clock seconds from spawn to exit.
    public var wallSeconds: Double
    /// Peak resident set, bytes: an upper bound of the child's own peak. Linux keeps a process's high-water mark
    /// across `exec`, and a spawned child starts on its parent's memory (`posix_spawn` shares it until the
    /// `exec`), so this is the larger of the child's peak and this test process's high-water mark at the spawn
    /// (`spawnerHighWaterBytes`): a bound that holds for it holds for the child; a figure above
    /// `spawnerHighWaterBytes` is the child's own.
    public var peakBytes: Int
    /// This test process's own high-water mark (`VmHWM`) read as the spawn returned (after the child's `exec`:
    /// glibc's `posix_spawn` returns then), bytes.
    public var spawnerHighWaterBytes: Int
    /// Wall-clock seconds from spawn to the first complete line of standard output (polled every 2 ms), nil
    /// when there was none.
    public var firstLineSeconds: Double?

    /// User plus system CPU seconds.
    public var cpuSeconds: Double { userSeconds + systemSeconds }

    /// How long a child that kept within its CPU bound may take by the wall clock before a test fails it: a
    /// minute. On a shared machine the wall clock says how much of a core the child got, not how much it worked
    /// (a suite under load measured a good job's first line at 1.9 s and a hostile one's at 21 s for 0.013 s of
    /// CPU), so a time limit is judged by CPU time, and the wall clock only catches a child that waited — blocked
    /// instead of working — far past its limit.
    public static let waitWatchdogSeconds = 60.0

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `argv[0]` (an absolute path) with `argv`, standard input from `stdin` (`/dev/null` by default),
    /// standard output and error into the files `stdout` and `stderr` (created or truncated). Suspends (never
    /// blocking a thread of the test runner's pool) until the child exits; kills it (SIGKILL) after `timeout`
    /// wall-clock seconds and then throws.
    public static func run(_ argv: [String], stdin: String = "/dev/null", stdout: String, stderr: String,
                           timeout: Double = 240) async throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var cArgs = argv.map { strdup($0) }
        cArgs.append(nil)
        defer { for a in cArgs { free(a) } }
        let start = monotonicSeconds()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(argv[0]): \(String(cString: strerror(spawned)))") }
        let spawnerHighWater = highWaterBytes()
        var usage = rusage()
        var wstatus: Int32 = 0
        var killed = false
        var firstLine: Double? = nil
        while true {
            let r = wait4(pid, &wstatus, WNOHANG, &usage)
            if firstLine == nil && hasLine(stdout) { firstLine = monotonicSeconds() - start }
            if r == pid { break }
            if r < 0 && errno != EINTR { throw Failure(description: "wait4: \(String(cString: strerror(errno)))") }
            if !killed && monotonicSeconds() - start > timeout { kill(pid, SIGKILL); killed = true }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        let wall = monotonicSeconds() - start
        if killed { throw Failure(description: "\(argv.prefix(3)) ran longer than \(timeout) s and was killed") }
        let signaled = (wstatus & 0x7F) != 0 && (wstatus & 0x7F) != 0x7F
        let status = signaled ? wstatus & 0x7F : (wstatus >> 8) & 0xFF
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        return ChildRun(status: status, signaled: signaled, userSeconds: seconds(usage.ru_utime),
                        systemSeconds: seconds(usage.ru_stime), wallSeconds: wall, peakBytes: Int(usage.ru_maxrss) * 1024,
                        spawnerHighWaterBytes: spawnerHighWater,
                        firstLineSeconds: firstLine ?? (hasLine(stdout) ? wall : nil))
    }

    /// This process's `VmHWM` from `/proc/self/status`, bytes (0 where there is none).
    static func highWaterBytes() -> Int {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return 0 }
        for line in buffer[0..<n].split(separator: 0x0A) where line.starts(with: Array("VmHWM:".utf8)) {
            let digits = line.drop(while: { $0 < 0x30 || $0 > 0x39 }).prefix(while: { $0 >= 0x30 && $0 <= 0x39 })
            return (Int(String(decoding: digits, as: UTF8.self)) ?? 0) * 1024
        }
        return 0
    }

    /// Whether the file at `path` holds a newline in its first 64 KiB.
    static func hasLine(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = read(fd, &buffer, buffer.count)
        return n > 0 && buffer[0..<n].contains(0x0A)
    }

    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
