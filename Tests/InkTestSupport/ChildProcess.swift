import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process measured exactly: started with `posix_spawn`, reaped by this code alone with `wait4`, so
/// its CPU time and peak resident memory come from the kernel's own accounting after it exited (`rusage`), and
/// nothing reads a process that may already be gone. Standard output and error are read on threads of their
/// own (never the test runner's pool); the first line's arrival is timed on the monotonic clock.
///
/// Time-contract tests judge a child by `cpuSeconds` (load-proof: a busy machine delays the child, it does not
/// make it work more) and by `firstLineSeconds` only with a slack that says why.
public enum ChildProcess {
    /// What a finished child gave.
    public struct Result: Sendable {
        /// Exit status, or the signal number when `signaled`.
        public var status: Int32
        /// True when a signal ended the child.
        public var signaled: Bool
        public var stdout: Data
        public var stderr: Data
        /// User + system CPU seconds the child used over its whole life (`wait4`'s `rusage`).
        public var cpuSeconds: Double
        /// The child's peak resident set, bytes (`ru_maxrss`).
        public var peakResidentBytes: Int
        /// Wall-clock seconds from the spawn to the reaping.
        public var wallSeconds: Double
        /// Wall-clock seconds from the spawn to the first complete line on standard output (nil: none came).
        public var firstLineSeconds: Double?
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    /// Runs `executable` with `arguments` (and the test process's environment), standard input from `stdin`
    /// (nothing: /dev/null). A child still running after `timeout` seconds is killed and the call throws;
    /// the caller only suspends meanwhile.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                           timeout: Double = 240) async throws -> Result {
        _ = ignoreSIGPIPE
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        // O_CLOEXEC: no other child spawned meanwhile (by another test) inherits these ends.
        guard closeOnExecPipe(&outPipe), closeOnExecPipe(&errPipe) else { throw Failure("pipe2: errno \(errno)") }
        if stdin != nil { guard closeOnExecPipe(&inPipe) else { throw Failure("pipe2: errno \(errno)") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdin != nil {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        #if os(Linux)
        // Nothing else the test process has open (other tests' pipes among them) reaches the child.
        _ = addCloseFrom(&actions, 3)
        #endif
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let start = monotonicSeconds()
        let spawned = argv.withUnsafeBufferPointer { posix_spawn(&pid, executable, &actions, nil, $0.baseAddress!, environ) }
        close(outPipe[1]); close(errPipe[1])
        if stdin != nil { close(inPipe[0]) }
        guard spawned == 0 else {
            close(outPipe[0]); close(errPipe[0])
            if stdin != nil { close(inPipe[1]) }
            throw Failure("posix_spawn \(executable): error \(spawned)")
        }
        let state = State(start: start)
        let outFD = outPipe[0], errFD = errPipe[0], child = pid
        Thread.detachNewThread { state.readAll(outFD, isStdout: true) }
        Thread.detachNewThread { state.readAll(errFD, isStdout: false) }
        if let stdin {
            let inFD = inPipe[1]
            Thread.detachNewThread {
                // A child that exits early closes its end: the write then fails (SIGPIPE is ignored).
                stdin.withUnsafeBytes { raw in
                    var off = 0
                    while off < raw.count {
                        let n = write(inFD, raw.baseAddress! + off, raw.count - off)
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        off += n
                    }
                }
                close(inFD)
            }
        }
        Thread.detachNewThread { state.reap(child) }
        while !state.finished {
            if monotonicSeconds() - start > timeout {
                kill(child, SIGKILL)                // not reaped yet (only `reap` does that): still our child
                while !state.finished { try? await Task.sleep(for: .milliseconds(5)) }
                throw Failure("\(executable) \(arguments.prefix(3)) ran longer than \(timeout) s and was killed")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        return state.result
    }

    /// A pipe whose ends are closed on exec from the start (no child spawned meanwhile by another test inherits
    /// them); true on success.
    static func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
        #if os(Linux)
        return fds.withUnsafeMutableBufferPointer { pipe2Call($0.baseAddress!, O_CLOEXEC) } == 0
        #else
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
        #endif
    }

    /// Seconds on the monotonic clock.
    public static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// Writing to a child that has exited is an error, not the test process's death.
    static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    /// What the reader and reaper threads found, under a lock.
    final class State: @unchecked Sendable {
        private let lock = NSLock()
        private let start: Double
        private var out = Data(), err = Data(), firstLine: Double?
        private var open = 2, reaped = false
        private var status: Int32 = 0, signaled = false, cpu = 0.0, rss = 0, wall = 0.0

        init(start: Double) { self.start = start }

        var finished: Bool { lock.withLock { open == 0 && reaped } }

        var result: Result {
            lock.withLock {
                Result(status: status, signaled: signaled, stdout: out, stderr: err, cpuSeconds: cpu,
                       peakResidentBytes: rss, wallSeconds: wall, firstLineSeconds: firstLine)
            }
        }

        func readAll(_ fd: Int32, isStdout: Bool) {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                let now = ChildProcess.monotonicSeconds()
                lock.withLock {
                    if isStdout {
                        if firstLine == nil && buffer[0..<n].contains(0x0A) { firstLine = now - start }
                        out.append(contentsOf: buffer[0..<n])
                    } else {
                        err.append(contentsOf: buffer[0..<n])
                    }
                }
            }
            close(fd)
            lock.withLock { open -= 1 }
        }

        func reap(_ pid: pid_t) {
            var st: Int32 = 0
            var usage = rusage()
            var r: pid_t
            repeat { r = wait4(pid, &st, 0, &usage) } while r < 0 && errno == EINTR
            let now = ChildProcess.monotonicSeconds()
            let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
            // WIFSIGNALED / WTERMSIG / WEXITSTATUS, spelled out (the macros are not imported).
            let termsig = st & 0x7f
            lock.withLock {
                if r == pid {
                    signaled = termsig != 0 && termsig != 0x7f
                    status = signaled ? termsig : (st >> 8) & 0xff
                    cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime)
                    #if os(Linux)
                    rss = Int(usage.ru_maxrss) * 1024           // KiB on Linux
                    #else
                    rss = Int(usage.ru_maxrss)                  // bytes on macOS
                    #endif
                } else {
                    // Someone else reaped it: report it as a failure the test will show, never as a time.
                    status = -1; signaled = true; cpu = .nan
                }
                wall = now - start
                reaped = true
            }
        }
    }
}

#if os(Linux)
/// glibc's `pipe2` and `posix_spawn_file_actions_addclosefrom_np` (2.34), declared only under _GNU_SOURCE, so
/// not imported.
@_silgen_name("pipe2") private func pipe2Call(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
#endif
