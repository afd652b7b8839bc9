#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines ending at "\n" (a "\r" before it is dropped) from a file or standard input.
final class LineReader {
    private let file: UnsafeMutablePointer<FILE>
    private let owned: Bool
    private var buffer: UnsafeMutablePointer<CChar>? = nil
    private var capacity = 0

    init?(path: String?) {
        if let path, path != "-" {
            guard let f = fopen(path, "rb") else { return nil }
            file = f; owned = true
        } else {
            guard let f = fdopen(0, "rb") else { return nil }
            file = f; owned = false
        }
    }
    deinit {
        free(buffer)
        if owned { fclose(file) }
    }

    func next() -> String? {
        let n = getline(&buffer, &capacity, file)
        guard n >= 0, let buffer else { return nil }
        var len = n
        if len > 0 && buffer[len - 1] == 0x0A { len -= 1 }
        if len > 0 && buffer[len - 1] == 0x0D { len -= 1 }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: len) {
            String(decoding: UnsafeBufferPointer(start: $0, count: len), as: UTF8.self)
        }
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
