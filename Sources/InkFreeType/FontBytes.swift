#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a font file, in memory owned by this object for as long as a FreeType face reads them
/// (`FT_New_Memory_Face` does not copy). Immutable after `init`; at least one byte.
///
/// Files are read into memory rather than opened by FreeType, so a file that is truncated or replaced
/// while a `Font` is alive cannot fault a memory mapping.
final class FontBytes: @unchecked Sendable {
    /// Never empty; freed in `deinit`.
    let buffer: UnsafeMutableRawBufferPointer

    /// Copies `bytes`.
    init(copying bytes: [UInt8]) throws(FontError) {
        guard !bytes.isEmpty else { throw .emptyData }
        buffer = .allocate(byteCount: bytes.count, alignment: 16)
        buffer.copyBytes(from: bytes)
    }

    /// Reads the regular file at `path`, of at most `maximumSize` bytes.
    ///
    /// - Throws: `.fileNotFound`, `.notAFile` (directories, devices, FIFOs, sockets), `.unreadable`
    ///   (permissions, I/O errors, too large) or `.emptyData`.
    init(contentsOfFile path: String, maximumSize: Int) throws(FontError) {
        guard !path.isEmpty, !path.utf8.contains(0) else { throw .fileNotFound(path: path) }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below as not a file.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .fileNotFound(path: path)
            case EISDIR: throw .notAFile(path: path)
            default: throw .unreadable(path: path, reason: FontBytes.describe(errno: code))
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .unreadable(path: path, reason: FontBytes.describe(errno: errno))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path: path) }
        let size = Int(info.st_size)
        guard size > 0 else { throw .emptyData }
        guard size <= maximumSize else {
            throw .unreadable(path: path, reason: "the file has \(size) bytes, more than the limit of \(maximumSize)")
        }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        var total = 0
        while total < size {
            let got = read(fd, storage.baseAddress! + total, size - total)
            if got > 0 {
                total += got
            } else if got == 0 {
                break                                   // the file shrank since fstat: keep what was read
            } else if errno != EINTR {
                let reason = FontBytes.describe(errno: errno)
                storage.deallocate()
                throw .unreadable(path: path, reason: reason)
            }
        }
        guard total > 0 else {
            storage.deallocate()
            throw .emptyData
        }
        buffer = UnsafeMutableRawBufferPointer(rebasing: storage[0..<total])
    }

    deinit { buffer.deallocate() }

    private static func describe(errno code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message) + " (errno \(code))"
    }
}
