import Foundation
import Testing
import InkGeometry
import InkFreeType
import InkTestSupport
@testable import InkText

/// Real fonts from Debian packages, each loaded once; a missing font is an error of the test that uses
/// it, never a crash of the whole test process.
enum Fonts {
    static let sansPath = TestFonts.sans
    static let serifPath = TestFonts.serif
    static let monoPath = TestFonts.mono
    static let droidPath = TestFonts.cjk

    private static let loaded: [String: Result<Font, Error>] = Dictionary(uniqueKeysWithValues:
        [sansPath, serifPath, monoPath, droidPath].map { path in (path, Result { try TestFonts.load(path) }) })

    static var sans: Font { get throws { try font(sansPath) } }
    static var serif: Font { get throws { try font(serifPath) } }
    static var mono: Font { get throws { try font(monoPath) } }
    static var droid: Font { get throws { try font(droidPath) } }

    static func font(_ path: String) throws -> Font {
        if let r = loaded[path] { return try r.get() }
        return try TestFonts.load(path)
    }
}

/// Foundation has its own `AffineTransform`; this is InkGeometry's.
typealias Transform = InkGeometry.AffineTransform

struct OracleError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Lays out `text` with one style; the common case in these tests.
func layout(_ text: String, fonts: [Font]? = nil, size: Double = 40, width: Double? = nil,
            alignment: ParagraphStyle.Alignment = .left, maxLines: Int? = nil,
            direction: ParagraphStyle.Direction = .auto, origin: Point = Point(10, 20),
            links: [TextLink] = [], attachments: [TextAttachment] = [],
            transform: Transform = .identity) throws -> TextLayout {
    try TextLayout(text: text, style: TextStyle(fonts: fonts ?? [Fonts.sans], size: size),
                   paragraph: ParagraphStyle(width: width, alignment: alignment, maxLines: maxLines,
                                             direction: direction, origin: origin),
                   links: links, attachments: attachments, transform: transform, cache: sharedCache)
}

/// Shapes shared by all layouts of the tests (as an app would share them).
let sharedCache = FontShapeCache()

// MARK: - hb-shape, the independent shaping oracle

/// HarfBuzz's command-line shaper (Debian `libharfbuzz-bin`), run as a separate process.
enum HBShape {
    struct Glyph: Decodable, Hashable {
        /// Glyph id.
        var g: UInt32
        /// Cluster: index of the first Unicode scalar of the cluster (hb-shape's default "char indices").
        var cl: Int
        /// Offsets and advances in font units (hb-shape's default font size is the upem).
        var dx: Int, dy: Int, ax: Int, ay: Int
    }

    static func executable() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"] {
            let p = dir + "/hb-shape"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        throw OracleError("""
            hb-shape not found on PATH or in /usr/bin: install Debian's libharfbuzz-bin (./inkhit installs it). \
            The InkText shaping tests compare against it and cannot run without it.
            """)
    }

    /// Shapes `text` (passed as code points, so no locale or argv encoding is involved).
    static func shape(_ text: String, font: String, direction: String? = nil, script: String? = nil,
                      features: String? = nil, variations: String? = nil) throws -> [Glyph] {
        let exe = try executable()
        let cps = text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ",")
        var args = ["--no-glyph-names", "--output-format=json", "--unicodes=" + cps]
        if let direction { args.append("--direction=" + direction) }
        if let script { args.append("--script=" + script) }
        if let features { args.append("--features=" + features) }
        if let variations { args.append("--variations=" + variations) }
        args.append(font)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw OracleError("hb-shape \(args) failed (\(p.terminationStatus)): \(String(decoding: errData, as: UTF8.self))")
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "[]"
        return try JSONDecoder().decode([Glyph].self, from: Data(line.utf8))
    }

    /// UTF-16 offset of each scalar index (plus the end), to convert hb-shape clusters.
    static func utf16Offsets(_ text: String) -> [Int] {
        var out: [Int] = [], o = 0
        for s in text.unicodeScalars { out.append(o); o += s.utf16.count }
        out.append(o)
        return out
    }

    /// Expected UTF-16 cluster range of each hb-shape glyph: from its cluster to the next larger cluster.
    static func clusterRanges(_ glyphs: [Glyph], text: String) -> [Range<Int>] {
        let u16 = utf16Offsets(text)
        let starts = Set(glyphs.map(\.cl)).sorted()
        return glyphs.map { g in
            let next = starts.first { $0 > g.cl } ?? (u16.count - 1)
            return u16[g.cl]..<u16[next]
        }
    }
}

// MARK: - Swift's own string offsets, the oracle for UTF-8 and Character indices

struct SwiftOffsets {
    let text: String
    let characterStarts: [Int]   // UTF-16 offsets where each Character starts

    init(_ text: String) {
        self.text = text
        var starts: [Int] = [], o = 0
        for ch in text { starts.append(o); o += ch.utf16.count }
        characterStarts = starts
    }

    /// UTF-8 offset of a UTF-16 offset on a scalar boundary, through `String.Index`.
    func utf8(_ utf16: Int) -> Int {
        let i = String.Index(utf16Offset: utf16, in: text)
        return text.utf8.distance(from: text.utf8.startIndex, to: i)
    }
    func utf8(_ r: Range<Int>) -> Range<Int> { utf8(r.lowerBound)..<utf8(r.upperBound) }

    /// Index of the Character containing UTF-16 offset `o`.
    func character(_ o: Int) -> Int { (characterStarts.lastIndex { $0 <= o }) ?? 0 }

    /// The UTF-16 range of each Character.
    var characterRanges: [Range<Int>] {
        let n = text.utf16.count
        return characterStarts.indices.map { i in
            characterStarts[i]..<(i + 1 < characterStarts.count ? characterStarts[i + 1] : n)
        }
    }
}

// MARK: - FreeType's rasteriser, the independent ink oracle

/// Layout-space bounds of glyph `g`'s control box (empty for a glyph without points).
func inkBounds(_ layout: TextLayout, _ gi: Int) -> Rect {
    let g = layout.glyphs[gi]
    let font = layout.fonts[g.font]
    guard let cb = try? font.controlBox(glyph: g.id), !cb.isEmpty else { return .empty }
    let k = g.size / Double(font.unitsPerEm)
    return Rect(minX: g.x + cb.minX * k, minY: g.y - cb.maxY * k, maxX: g.x + cb.maxX * k, maxY: g.y - cb.minY * k)
}

/// FreeType coverage of glyph `gi` over the pixel grid of `region` (layout px, whole pixels), rows top first.
func coverage(_ layout: TextLayout, _ gi: Int, region: (x0: Int, y0: Int, w: Int, h: Int)) throws -> [UInt8] {
    let g = layout.glyphs[gi]
    let font = layout.fonts[g.font]
    let k = g.size / Double(font.unitsPerEm)
    return try font.coverage(glyph: g.id, scale: k,
                             origin: Point(g.x - Double(region.x0), Double(region.h) - (g.y - Double(region.y0))),
                             width: region.w, height: region.h)
}

/// Centres (layout px) of pixels that FreeType covers fully for glyph `gi`, with their 8 neighbours
/// (so each point is at least ~1 px inside the ink). With `exclusive`, pixels touched (with a 1 px margin)
/// by any other glyph's ink or any attachment box are dropped, so the expected glyph is unambiguous.
func inkPoints(_ layout: TextLayout, glyph gi: Int, exclusive: Bool = true) throws -> [Point] {
    let b = inkBounds(layout, gi)
    guard !b.isEmpty else { return [] }
    let x0 = Int(b.minX.rounded(.down)) - 2, y0 = Int(b.minY.rounded(.down)) - 2
    let w = Int(b.maxX.rounded(.up)) + 2 - x0, h = Int(b.maxY.rounded(.up)) + 2 - y0
    let region = (x0: x0, y0: y0, w: w, h: h)
    let mine = try coverage(layout, gi, region: region)
    var other = [Bool](repeating: false, count: w * h)
    if exclusive {
        let rb = Rect(minX: Double(x0), minY: Double(y0), maxX: Double(x0 + w), maxY: Double(y0 + h))
        for j in layout.glyphs.indices where j != gi && inkBounds(layout, j).intersects(rb) {
            let c = try coverage(layout, j, region: region)
            for i in c.indices where c[i] > 0 { other[i] = true }
        }
        for a in layout.attachments where a.box.outsetBy(1).intersects(rb) {
            for r in 0..<h { for c in 0..<w where a.box.outsetBy(1).contains(Point(Double(x0 + c) + 0.5, Double(y0 + r) + 0.5)) {
                other[r * w + c] = true
            } }
        }
    }
    var out: [Point] = []
    for r in 1..<(h - 1) {
        for c in 1..<(w - 1) {
            var ok = true
            for dr in -1...1 { for dc in -1...1 {
                let i = (r + dr) * w + (c + dc)
                if mine[i] < 255 || other[i] { ok = false }
            } }
            if ok { out.append(Point(Double(x0 + c) + 0.5, Double(y0 + r) + 0.5)) }
        }
    }
    return out
}

/// Whether FreeType puts any ink of any glyph within `margin` px of `p` (layout px).
func anyInkNear(_ layout: TextLayout, _ p: Point, margin: Double) throws -> Bool {
    for gi in layout.glyphs.indices where inkBounds(layout, gi).outsetBy(margin + 1).contains(p) {
        let m = Int(margin.rounded(.up)) + 1
        let region = (x0: Int(p.x.rounded(.down)) - m, y0: Int(p.y.rounded(.down)) - m, w: 2 * m + 1, h: 2 * m + 1)
        let c = try coverage(layout, gi, region: region)
        for r in 0..<region.h { for col in 0..<region.w where c[r * region.w + col] > 0 {
            let q = Point(Double(region.x0 + col) + 0.5, Double(region.y0 + r) + 0.5)
            if q.distance(to: p) <= margin + 0.75 { return true }
        } }
    }
    return false
}

/// Indices of the (non-ellipsis) glyphs whose cluster starts at `utf16`.
func glyphs(_ layout: TextLayout, at utf16: Int) -> [Int] {
    layout.glyphs.indices.filter { layout.glyphs[$0].utf16.lowerBound == utf16 && !layout.glyphs[$0].isEllipsis }
}

/// The single glyph whose cluster contains `utf16` (fails the test if there is not exactly one).
func glyph(_ layout: TextLayout, containing utf16: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
    let gs = layout.glyphs.indices.filter { layout.glyphs[$0].utf16.contains(utf16) && !layout.glyphs[$0].isEllipsis }
    return try #require(gs.count == 1 ? gs.first : nil, "expected one glyph at UTF-16 \(utf16), got \(gs)",
                        sourceLocation: sourceLocation)
}
