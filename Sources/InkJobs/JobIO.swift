#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Job lines from a file or standard input. Lines end at "\n" (a "\r" before it is dropped). At most
/// `maxBytes` of a line are held in memory: a longer line is read to its end and reported by its length.
///
/// Reads with `read(2)`, which returns whatever has arrived, so a line is handed over as soon as its "\n"
/// does: a process that pipes jobs in one at a time gets each answer before it sends the next.
public final class JobInput {
    /// One line of input.
    public enum Line: Sendable, Equatable {
        /// A line of at most `maxBytes` bytes (without its "\n" and a "\r" before it).
        case text(String)
        /// A line of `bytes` bytes, more than `maxBytes`; its content was skipped.
        case tooLong(bytes: Int)
    }

    /// Why the input cannot be read.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file could not be opened (`reason`: the system's message).
        case cannotOpen(path: String, reason: String)
        /// The path names a directory.
        case isDirectory(path: String)
        /// Reading failed part way (`reason`: the system's message).
        case readFailed(reason: String)

        /// A sentence for a user.
        public var description: String {
            switch self {
            case .cannotOpen(let p, let r): return "cannot open \(p): \(r)"
            case .isDirectory(let p): return "\(p) is a directory, not a file of jobs"
            case .readFailed(let r): return "reading the jobs failed: \(r)"
            }
        }
    }

    private let fd: Int32
    private let owned: Bool
    /// Longest line kept, in bytes.
    public let maxBytes: Int
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0
    private var atEOF = false
    /// Set when a read failed; `next()` then returns nil.
    public private(set) var failure: Failure?

    /// Reads the file at `path`, or standard input for nil or "-".
    ///
    /// - Throws: `Failure.cannotOpen`, `.isDirectory`.
    public init(path: String?, maxBytes: Int = JobLimits().maxLineBytes) throws(Failure) {
        self.maxBytes = max(0, maxBytes)
        guard let path, path != "-" else { fd = 0; owned = false; return }
        let f = open(path, O_RDONLY | O_CLOEXEC)
        guard f >= 0 else { throw .cannotOpen(path: path, reason: Self.message(errno)) }
        var info = stat()
        if fstat(f, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
            close(f)
            throw .isDirectory(path: path)
        }
        fd = f; owned = true
    }

    deinit { if owned { close(fd) } }

    /// The next line, or nil at the end of the input (or after a read error: see `failure`).
    public func next() -> Line? {
        var line: [UInt8] = []
        var length = 0                      // bytes of the line so far, kept or not
        var readAny = false
        var last: UInt8 = 0                 // the line's last byte, kept or not
        var ended = false
        while !ended {
            if start == end {
                if atEOF { break }
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .readFailed(reason: Self.message(errno)); atEOF = true; break
                }
                if n == 0 { atEOF = true; break }
                start = 0; end = n
            }
            readAny = true
            let stop = chunk.withUnsafeBytes { buf -> Int in
                guard let hit = memchr(buf.baseAddress! + start, 0x0A, end - start) else { return end }
                return buf.baseAddress!.distance(to: UnsafeRawPointer(hit))
            }
            let piece = stop - start
            if length + piece <= maxBytes + 1 { line.append(contentsOf: chunk[start..<stop]) }   // +1: a "\r"
            if piece > 0 { last = chunk[stop - 1] }
            length += piece
            ended = stop < end
            start = ended ? stop + 1 : end
        }
        guard readAny else { return nil }
        if length > 0, last == 0x0D {       // a "\r" before the "\n" is not part of the line, kept or not
            if length <= maxBytes + 1 { line.removeLast() }
            length -= 1
        }
        guard length <= maxBytes else { return .tooLong(bytes: length) }
        return .text(String(decoding: line, as: UTF8.self))
    }

    static func message(_ code: Int32) -> String {
        guard let m = strerror(code) else { return "error \(code)" }
        return String(cString: m)
    }
}

/// Buffered output to a file descriptor (standard output by default) that remembers a failed write: a full
/// disk or a closed pipe is reported, never passed over.
public final class JobOutput {
    private let fd: Int32
    private var pending: [UInt8] = []
    /// Set by the first write that failed; later output is dropped.
    public private(set) var failure: String?

    /// Output to file descriptor `fd`.
    public init(fd: Int32 = 1) { self.fd = fd }

    /// Appends `s` and a "\n"; writes out when 64 KiB are pending.
    public func line(_ s: String) {
        pending.append(contentsOf: s.utf8)
        pending.append(0x0A)
        if pending.count >= 1 << 16 { flush() }
    }

    /// Writes out everything pending (retrying short writes). Returns false once a write has failed.
    @discardableResult
    public func flush() -> Bool {
        defer { pending.removeAll(keepingCapacity: true) }
        guard failure == nil else { return false }
        pending.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failure = "writing the answers failed: " + JobInput.message(n < 0 ? errno : EIO); return }
                off += n
            }
        }
        return failure == nil
    }
}
