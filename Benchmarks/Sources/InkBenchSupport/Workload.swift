import InkFreeType
import InkGeometry
import InkHit
import InkText

/// Font files of the workloads (Debian packages fonts-dejavu-core and fonts-droid-fallback).
public enum FontFiles {
    public static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    public static let droidSansFallback = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
}

/// One glyph of a layout, with what the baselines need: id, origin (layout px, y-down, on the baseline),
/// advance (layout px) and the UTF-16 range of its cluster.
public struct LaidGlyph: Sendable, Hashable {
    public var id: GlyphID
    public var x: Double, y: Double
    public var advance: Double
    public var utf16: Range<Int>
}

/// A benchmark workload: text laid out with InkText's `TextLayout` (HarfBuzz shaping, greedy wrapping), each
/// glyph a `GlyphPlacement` in view space, indexed by InkHit, and a fixed set of uniform random query points.
/// Everything is built once (in a benchmark's setup), never in a measured region.
///
/// Spaces are glyphs too: placements without ink (so "2,000 glyphs" counts them).
public final class Workload: @unchecked Sendable {
    public let name: String
    public let fontPath: String
    /// px per em.
    public let size: Double
    public let font: Font
    public let unitsPerEm: Int
    /// Ascent and descent of the font at `size`, layout px (both positive).
    public let ascent: Double, descent: Double
    public let glyphs: [LaidGlyph]
    /// Layout px → view px (identity except for the rotated page).
    public let view: AffineTransform
    /// The box of all line boxes, layout px.
    public let layoutBounds: Rect
    /// Every glyph as placed (`TextLayout.placement(of:)`: font, glyph, size, origin, `view`).
    public let placements: [GlyphPlacement]
    /// Font units → view px, one per glyph: `placements[i].fontUnitsToView`.
    public let transforms: [AffineTransform]
    /// The cache the index's shapes came from (warm: holds exactly this workload's shapes).
    public let cache: FontShapeCache
    /// The shape of every placement (shared between repeated glyphs).
    public let shapes: [GlyphShape]
    public let index: HitIndex
    /// Uniform random query points, view px: uniform over the layout box, then mapped by `view`.
    public let points: [Point]
    /// The same points in memory of their own, for the raw-buffer query paths (`unsafeHits`, the parallel
    /// batch, the baselines).
    public let pointBuffer: UnsafeBufferPointer<Point>
    /// A scratch answer buffer as long as `points` (benchmarks write into it; nobody reads it).
    public let answers: UnsafeMutableBufferPointer<Hit?>
    /// Axis-aligned box of the points' region in view px (for bitmaps).
    public let viewBox: Rect
    /// Time to lay out the text with `TextLayout` (not part of any build measurement), seconds.
    public let layoutSeconds: Double

    /// Lays out `text` and builds everything.
    ///
    /// - Parameters:
    ///   - width: wrap width, layout px (`.infinity`: one line).
    ///   - view: layout → view transform applied to every placement and every point.
    ///   - pointCount: number of uniform random points (seeded by `seed`).
    ///   - pointBox: the layout-space box the points are drawn from (default: the layout's box).
    public init(name: String, fontPath: String, text: String, size: Double, width: Double = .infinity,
                view: AffineTransform = .identity, pointCount: Int = 200_000, seed: UInt64 = 0x1AC_4817,
                pointBox: ((Rect) -> Rect)? = nil) throws {
        self.name = name
        self.fontPath = fontPath
        self.size = size
        self.view = view
        let font = try Font(path: fontPath)
        self.font = font
        self.unitsPerEm = font.unitsPerEm
        let pxPerUnit = size / Double(font.unitsPerEm)
        self.ascent = Double(font.ascender) * pxPerUnit
        self.descent = -Double(font.descender) * pxPerUnit

        // The layout flattens its glyphs into `cache`, which then holds exactly this workload's shapes.
        let cache = FontShapeCache()
        self.cache = cache
        let clock = ContinuousClock()
        let t0 = clock.now
        let layout = try TextLayout(text: text, style: TextStyle(fonts: [font], size: size),
                                    paragraph: ParagraphStyle(width: width.isFinite ? width : nil),
                                    transform: view, cache: cache)
        self.layoutSeconds = (clock.now - t0).seconds
        self.layoutBounds = layout.lines.reduce(Rect.empty) { $0.union($1.box) }
        self.glyphs = layout.glyphs.map { LaidGlyph(id: $0.id, x: $0.x, y: $0.y, advance: $0.advance, utf16: $0.utf16) }
        let placements = layout.glyphs.indices.map { layout.placement(of: $0) }
        self.placements = placements
        self.transforms = placements.map(\.fontUnitsToView)
        self.shapes = try placements.map { try cache.shape(for: $0) }
        var b = HitIndex.Builder()
        b.reserveCapacity(placements.count)
        for p in placements { try b.add(p, cache: cache) }
        self.index = b.build()

        var rng = SplitMix64(seed: seed)
        let box = pointBox?(layoutBounds) ?? layoutBounds
        var points: [Point] = []
        points.reserveCapacity(pointCount)
        for _ in 0..<pointCount {
            let p = Point(box.minX + rng.unit() * box.width, box.minY + rng.unit() * box.height)
            points.append(p.applying(view))
        }
        self.points = points
        let buffer = UnsafeMutableBufferPointer<Point>.allocate(capacity: pointCount)
        _ = buffer.initialize(from: points)
        pointBuffer = UnsafeBufferPointer(buffer)
        self.viewBox = box.applying(view)
        answers = .allocate(capacity: pointCount)
        answers.initialize(repeating: nil)
    }

    deinit {
        pointBuffer.deallocate()
        answers.deallocate()
    }

    /// Builds the index again from shapes found in `cache` (warm when it already holds them), as an embedder
    /// would: `HitIndex.Builder.add(_:cache:)` per glyph (its checks, one cache lookup, one `add`), then
    /// `build()`. With another `font` (a fresh load of the same file) every placement is moved to it.
    public func buildIndex(font: Font, cache: FontShapeCache) throws -> HitIndex {
        var b = HitIndex.Builder()
        b.reserveCapacity(placements.count)
        if font == self.font {
            for p in placements { try b.add(p, cache: cache) }
        } else {
            for var p in placements {
                p.font = font
                try b.add(p, cache: cache)
            }
        }
        return b.build()
    }

    /// Cold build: a fresh `Font` (file read, FreeType face) and a fresh `FontShapeCache`, so every outline is
    /// loaded and flattened again, then the index.
    public func buildIndexCold() throws -> HitIndex {
        let font = try Font(path: fontPath)
        return try buildIndex(font: font, cache: FontShapeCache())
    }

    /// Bytes held by the distinct shapes of this workload (cache == exactly these shapes).
    public var shapeBytes: Int { cache.byteCount }
    public var uniqueShapes: Int { index.uniqueShapeCount }
    public var inkedGlyphs: Int { shapes.reduce(0) { $0 + ($1.edgeCount > 0 ? 1 : 0) } }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}

/// The workloads of the benchmarks (see README.md).
public enum Workloads {
    /// Page width for greedy wrapping, layout px.
    public static let pageWidth = 600.0
    public static let pageGlyphs = 2_000

    /// "page": 2,000 glyphs of DejaVu Sans at 16 px, greedy-wrapped to 600 px, 200,000 points.
    public static func page(glyphs: Int = pageGlyphs, view: AffineTransform = .identity, name: String = "page",
                            pointCount: Int = 200_000, pointBox: ((Rect) -> Rect)? = nil) throws -> Workload {
        try Workload(name: name, fontPath: FontFiles.dejaVuSans, text: SampleText.english(scalars: glyphs),
                     size: 16, width: pageWidth, view: view, pointCount: pointCount, pointBox: pointBox)
    }

    /// The page rotated 30° about its centre (y-down view, so clockwise on screen).
    public static func rotatedPage() throws -> Workload {
        // The layout box does not depend on the view; lay out once to find the centre.
        let probe = try page(pointCount: 0)
        let c = probe.layoutBounds.center
        let view = AffineTransform.translation(-c.x, -c.y)
            .concatenating(.rotation(30 * Double.pi / 180))
            .concatenating(.translation(c.x, c.y))
        return try page(view: view, name: "page rotated 30°")
    }

    /// One '@' of DejaVu Sans at 200 px.
    public static func at() throws -> Workload {
        try Workload(name: "'@' 200 px", fontPath: FontFiles.dejaVuSans, text: "@", size: 200)
    }

    /// One line of Chinese in Droid Sans Fallback at 24 px.
    public static func cjk() throws -> Workload {
        try Workload(name: "CJK line 24 px", fontPath: FontFiles.droidSansFallback, text: SampleText.chinese, size: 24)
    }

    /// The page text continued to `glyphs` glyphs (more pages below the first).
    public static func scaling(_ glyphs: Int) throws -> Workload {
        try page(glyphs: glyphs, name: "scaling \(glyphs)")
    }
    public static let scalingCounts = [200, 2_000, 20_000, 200_000]

    /// Like `scaling(_:)`, but the points fall in one page-high window (the full width, 560 px high) in the
    /// middle of the block: the work per query without the cache misses of a block-sized working set.
    public static func scalingWindow(_ glyphs: Int) throws -> Workload {
        try page(glyphs: glyphs, name: "scaling \(glyphs) (one-page window)") { b in
            let mid = b.center.y, h = min(560, b.height)
            return Rect(minX: b.minX, minY: mid - h / 2, maxX: b.maxX, maxY: mid + h / 2)
        }
    }
}
