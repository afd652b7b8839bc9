import Foundation
import InkFreeType
import InkGeometry
import InkTestSupport

/// Real fonts from Debian packages (the paths are InkTestSupport's `TestFonts`).
enum Fonts {
    static let dejaVuSans = TestFonts.sans
    static let dejaVuSerif = TestFonts.serif
    static let dejaVuSansMono = TestFonts.mono
    static let droidFallback = TestFonts.cjk

    static let all = [dejaVuSans, dejaVuSerif, dejaVuSansMono, droidFallback]

    static func load(_ path: String) throws -> Font { try TestFonts.load(path) }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// A scratch directory under /tmp, removed by `cleanUp()`.
struct TempDir {
    let path: String

    init() throws {
        path = "/tmp/InkFreeTypeTests-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

/// Splits recorded elements into contours (each starting at a `.move`).
func contours(of elements: [PathElement]) -> [[PathElement]] {
    var result: [[PathElement]] = []
    for e in elements {
        if case .move = e { result.append([e]) } else if result.isEmpty { result.append([e]) } else {
            result[result.count - 1].append(e)
        }
    }
    return result
}

/// The end point of a drawing element (nil for `.close`).
func endPoint(_ e: PathElement) -> Point? {
    switch e {
    case .move(let p), .line(let p): return p
    case .quad(_, let p): return p
    case .cubic(_, _, let p): return p
    case .close: return nil
    }
}

/// The SVG path of a glyph's decomposed outline, in font units.
func svg(_ outline: GlyphOutline) -> String {
    var sink = SVGPathSink()
    outline.decompose(into: &sink)
    return sink.path
}

/// The byte range of an sfnt table (`"glyf"`, `"head"`, …) in a single-face TrueType file, from its
/// table directory.
func tableRange(_ tag: String, in bytes: [UInt8]) -> Range<Int>? {
    func u16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
    func u32(_ i: Int) -> Int { u16(i) << 16 | u16(i + 2) }
    guard bytes.count >= 12 else { return nil }
    for t in 0..<u16(4) {
        let record = 12 + 16 * t
        guard record + 16 <= bytes.count else { return nil }
        if String(decoding: bytes[record..<record + 4], as: UTF8.self) == tag {
            let start = u32(record + 8), length = u32(record + 12)
            return start + length <= bytes.count ? start..<(start + length) : nil
        }
    }
    return nil
}
