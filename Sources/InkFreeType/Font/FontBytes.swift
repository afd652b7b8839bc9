#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import InkHit

/// The bytes of a font file, in memory that stays put for as long as a FreeType face reads them
/// (`FT_New_Memory_Face` does not copy). Immutable after `init`; at least one byte.
///
/// Files are read into memory rather than opened by FreeType, so a file that is truncated or replaced
/// while a `Font` is alive cannot fault a memory mapping. Bytes lent by the caller (`Font(borrowing:...)`)
/// stay the caller's: they are read in place and handed back through the release callback in `deinit`.
///
/// **One copy per content.** `FontBytes.intern(_:)` gives every font over equal bytes one shared object
/// (found by a cheap fingerprint, confirmed by comparing every byte), so loading one file eight times
/// holds it once, and its faces share one shape namespace per face and design coordinates
/// (`namespace(faceIndex:coordinates:)`): two handles of one file build each glyph shape once.
final class FontBytes: @unchecked Sendable {
    /// Never empty; valid until `deinit`.
    let buffer: UnsafeRawBufferPointer
    /// How the memory is given back: freed (owned) or released to its lender (borrowed).
    private let disposal: Disposal
    /// The content's fingerprint (`FontBytes.fingerprint`): length and sampled bytes.
    let fingerprint: Fingerprint
    /// Shape namespaces handed out per face and design coordinates; guarded by `lock`.
    private var namespaces: [NamespaceKey: UInt64] = [:]
    private let lock = Lock()

    enum Disposal {
        case owned
        case borrowed(release: (@Sendable () -> Void)?)
    }

    /// Copies `bytes`.
    convenience init(copying bytes: [UInt8]) throws(FontError) {
        guard !bytes.isEmpty else { throw .emptyData }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        storage.copyBytes(from: bytes)
        self.init(storage: UnsafeRawBufferPointer(storage), disposal: .owned)
    }

    /// Reads the regular file at `path`, of at most `maximumSize` bytes.
    ///
    /// - Throws: `.fileNotFound`, `.notAFile` (directories, devices, FIFOs, sockets), `.unreadable`
    ///   (permissions, I/O errors, too large) or `.emptyData`.
    convenience init(contentsOfFile path: String, maximumSize: Int) throws(FontError) {
        let storage = try FontBytes.readFile(path, maximumSize: maximumSize)
        self.init(storage: UnsafeRawBufferPointer(storage), disposal: .owned)
    }

    /// Reads nothing: `bytes` (not empty) are the lender's until `release` is called, once, from `deinit`.
    convenience init(borrowing bytes: UnsafeRawBufferPointer, release: (@Sendable () -> Void)?) {
        self.init(storage: bytes, disposal: .borrowed(release: release))
    }

    private init(storage: UnsafeRawBufferPointer, disposal: Disposal) {
        buffer = storage
        self.disposal = disposal
        fingerprint = FontBytes.fingerprint(storage)
    }

    deinit {
        FontContents.forget(self)
        switch disposal {
        case .owned: UnsafeMutableRawBufferPointer(mutating: buffer).deallocate()
        case .borrowed(let release): release?()
        }
    }

    /// The shape namespace of face `faceIndex` at `coordinates` (FreeType's 16.16 design coordinates; empty
    /// when none were set): the same number for every font over these bytes with that face and those
    /// coordinates, a number no other content ever gets (ids come from `FontIDs`).
    func namespace(faceIndex: Int, coordinates: [Int]) -> UInt64 {
        let key = NamespaceKey(faceIndex: faceIndex, coordinates: coordinates)
        return lock.withLock {
            if let id = namespaces[key] { return id }
            let id = FontIDs.next()
            namespaces[key] = id
            return id
        }
    }

    private struct NamespaceKey: Hashable {
        var faceIndex: Int
        var coordinates: [Int]
    }

    // MARK: Content

    /// A cheap summary of the content: the length and a hash of up to three 4 KiB samples (the start, the
    /// middle, the end). Equal bytes have equal fingerprints; `FontContents` compares every byte before it
    /// shares, so a collision costs a comparison, never a wrong font.
    struct Fingerprint: Hashable {
        var count: Int
        var hash: UInt64
    }

    static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> Fingerprint {
        let n = bytes.count, sample = 4096
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(n)
        for start in [0, max(0, n / 2 - sample / 2), max(0, n - sample)] {
            let end = min(n, start + sample)
            var i = start
            while i + 8 <= end {
                h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 29
                i += 8
            }
            while i < end { h = (h ^ UInt64(bytes[i])) &* 0x0100_0000_01B3; i += 1 }
        }
        return Fingerprint(count: n, hash: h)
    }

    /// True when both hold the same bytes.
    func hasSameContent(as other: FontBytes) -> Bool {
        buffer.count == other.buffer.count && memcmp(buffer.baseAddress!, other.buffer.baseAddress!, buffer.count) == 0
    }

    // MARK: Reading files

    /// The regular file at `path` in new memory (the caller owns it).
    private static func readFile(_ path: String, maximumSize: Int) throws(FontError) -> UnsafeMutableRawBufferPointer {
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
        return UnsafeMutableRawBufferPointer(rebasing: storage[0..<total])
    }

    private static func describe(errno code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message) + " (errno \(code))"
    }
}

/// The process's live font contents, by fingerprint: `intern` hands out one `FontBytes` per content.
/// Entries are weak: a content is forgotten when its last font goes (a later load of it is new again,
/// with new shape namespaces).
enum FontContents {
    private final class Weak {
        weak var bytes: FontBytes?
        init(_ bytes: FontBytes) { self.bytes = bytes }
    }
    private final class Table: @unchecked Sendable {
        let lock = Lock()
        var entries: [FontBytes.Fingerprint: [Weak]] = [:]     // guarded by `lock`
    }
    private static let table = Table()

    /// The live `FontBytes` with the same content as `candidate`, or `candidate` itself, now registered. When
    /// an equal one is found, `candidate` is dropped (its memory freed, or handed back to its lender). Bytes are
    /// compared outside the table's lock (a large font takes milliseconds); only contents registered while
    /// comparing are compared under it.
    static func intern(_ candidate: FontBytes) -> FontBytes {
        let key = candidate.fingerprint
        // Strong references taken under the lock are released after it: the last release of a content
        // runs its deinit, which takes the lock again (`forget`).
        var seen: [FontBytes] = []
        table.lock.withLock { seen = table.entries[key, default: []].compactMap(\.bytes) }
        if let same = seen.first(where: { $0.hasSameContent(as: candidate) }) { return same }
        var live: [FontBytes] = []
        let result: FontBytes = table.lock.withLock {
            live = table.entries[key, default: []].compactMap(\.bytes)
            let newer = live.filter { x in !seen.contains { $0 === x } }
            if let same = newer.first(where: { $0.hasSameContent(as: candidate) }) { return same }
            table.entries[key] = (live + [candidate]).map(Weak.init)
            return candidate
        }
        live.removeAll()
        seen.removeAll()
        return result
    }

    /// Drops the entries of contents that are gone (`bytes` is being deinitialized: its weak references
    /// already read nil).
    static func forget(_ bytes: FontBytes) {
        let key = bytes.fingerprint
        var live: [FontBytes] = []
        table.lock.withLock {
            guard let list = table.entries[key] else { return }
            live = list.compactMap(\.bytes)
            table.entries[key] = live.isEmpty ? nil : live.map(Weak.init)
        }
        live.removeAll()
    }

    /// How many distinct contents are live (for tests).
    static var count: Int {
        var live: [FontBytes] = []
        table.lock.withLock { live = table.entries.values.flatMap { $0.compactMap(\.bytes) } }
        return live.count
    }
}
