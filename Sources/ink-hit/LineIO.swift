#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkJobs

/// Reads lines ending at "\n" (a "\r" before it is dropped) from a file or standard input, holding at most
/// `maxBytes` of a line in memory: a longer line is read to its end and dropped, `next()` returns "" for it
/// and `overlongBytes` says how long it was (so a caller can report it instead of treating it as blank).
final class LineReader {
    private let file: UnsafeMutablePointer<FILE>
    private let owned: Bool
    let maxBytes: Int
    /// Set by `next()` when the line it consumed had more than `maxBytes` bytes (then it returned "").
    private(set) var overlongBytes: Int? = nil
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0
    private var atEOF = false

    init?(path: String?, maxBytes: Int = JobLimits().maxLineBytes) {
        self.maxBytes = max(0, maxBytes)
        if let path, path != "-" {
            guard let f = fopen(path, "rb") else { return nil }
            file = f; owned = true
        } else {
            guard let f = fdopen(0, "rb") else { return nil }
            file = f; owned = false
        }
    }
    deinit {
        if owned { fclose(file) }
    }

    func next() -> String? {
        overlongBytes = nil
        var line: [UInt8] = []
        var length = 0                      // bytes of the line so far, kept or not
        var readAny = false
        var ended = false
        while !ended {
            if start == end {
                if atEOF { break }
                let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
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
            length += piece
            ended = stop < end
            start = ended ? stop + 1 : end
        }
        guard readAny else { return nil }
        if length <= maxBytes + 1, line.last == 0x0D { line.removeLast(); length -= 1 }
        guard length <= maxBytes else {
            overlongBytes = length
            return ""
        }
        return String(decoding: line, as: UTF8.self)
    }
}

/// Buffered standard output.
struct Output {
    private var pending = ""
    mutating func line(_ s: String) {
        pending += s
        pending += "\n"
        if pending.utf8.count > 1 << 16 { flush() }
    }
    mutating func flush() {
        writeAll(1, pending)
        pending = ""
    }
}

/// Writes all of `s` to file descriptor `fd` (retrying short writes; gives up on errors such as a closed pipe).
func writeAll(_ fd: Int32, _ s: String) {
    var s = s
    s.withUTF8 { buf in
        var off = 0
        while off < buf.count {
            let n = write(fd, buf.baseAddress! + off, buf.count - off)
            if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
            off += n
        }
    }
}

func printError(_ s: String) { writeAll(2, s + "\n") }
