#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An SVG file written as it is made (never held whole in memory), at most a number of bytes: what every
/// picture of the CLI (`render` of text and scene jobs, `demo`) is written through.
enum SVGFile {
    /// Why a picture was not written.
    enum Failure: Error, CustomStringConvertible {
        case io(String)
        case tooLarge(limit: Int)
        case pastDeadline
        var description: String {
            switch self {
            case .io(let m): return m
            case .tooLarge(let l): return "the SVG would be more than \(l) bytes (the output limit)"
            case .pastDeadline: return "time ran out while writing the SVG"
            }
        }
    }

    /// Counts bytes and writes them to a file.
    struct Writer {
        let file: UnsafeMutablePointer<FILE>
        let maxBytes: Int
        var bytes = 0
        var failure: Failure?

        mutating func put(_ s: String) throws(Failure) {
            if let failure { throw failure }
            let n = s.utf8.count
            guard bytes + n <= maxBytes else { failure = .tooLarge(limit: maxBytes); throw .tooLarge(limit: maxBytes) }
            bytes += n
            var s = s
            let ok = s.withUTF8 { n == 0 || fwrite($0.baseAddress, 1, n, file) == n }
            if !ok { failure = .io("writing the SVG failed: " + String(cString: strerror(errno))); throw failure! }
        }
    }

    /// Opens `path`, lets `draw` write the document through a `Writer` of at most `maxBytes` bytes and
    /// closes it. A picture that fails (too large, out of time, an I/O error) is removed.
    static func write(to path: String, maxBytes: Int, _ draw: (inout Writer) throws(Failure) -> Void) throws(Failure) {
        guard let f = fopen(path, "wb") else { throw .io("cannot write \(path): " + String(cString: strerror(errno))) }
        var out = Writer(file: f, maxBytes: maxBytes)
        do throws(Failure) {
            try draw(&out)
        } catch {
            fclose(f)
            unlink(path)
            throw error
        }
        let written = out.failure == nil && fflush(f) == 0
        let closed = fclose(f) == 0
        if let failure = out.failure { unlink(path); throw failure }
        guard written && closed else { throw .io("cannot write \(path): " + String(cString: strerror(errno))) }
    }

    /// `s` escaped for XML text and double-quoted attributes (`&`, `<`, `>`, `"`; control characters XML 1.0
    /// does not allow become U+FFFD).
    static func escape(_ s: String) -> String {
        var o = ""
        for c in s {
            switch c {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case ">": o += "&gt;"
            case "\"": o += "&quot;"
            default:
                // Control characters other than tab and newlines are not allowed in XML 1.0.
                if let a = c.asciiValue, a < 0x20, a != 0x09, a != 0x0A, a != 0x0D { o += "\u{FFFD}" } else { o.append(c) }
            }
        }
        return o
    }
}
