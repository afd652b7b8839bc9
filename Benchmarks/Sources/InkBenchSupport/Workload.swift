import InkFreeType
import InkGeometry
import InkHit
import InkJobs

/// Font files of the workloads (Debian packages fonts-dejavu-core and fonts-droid-fallback).
public enum FontFiles {
    public static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    public static let droidSansFallback = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
}

/// One glyph of a layout, with what the baselines need: id, origin (layout px, y-down, on the baseline)
/// and advance (layout px).
public struct LaidGlyph: Sendable, Hashable {
    public var id: UInt32
    public var x: Double, y: Double
    public var advance: Double
    public var scalar: Unicode.Scalar
}

/// A benchmark workload: glyphs laid out with `SimpleLayout`, placed in view space, indexed by InkHit,
/// and a fixed set of uniform random query points. Everything is built once (in a benchmark's setup),
/// never in a measured region.
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
    /// Font units → view px, one per glyph: `(k, 0, 0, -k, x, y)` with `k = size / unitsPerEm`, then `view`.
    public let transforms: [AffineTransform]
    /// The cache the index's shapes came from (warm: holds exactly this workload's shapes).
    public let cache: ShapeCache
    /// The shape of every placement (shared between repeated glyphs).
    public let shapes: [GlyphShape]
    public let index: HitIndex
    /// Uniform random query points, view px: uniform over the layout box, then mapped by `view`.
    public let points: UnsafeMutableBufferPointer<Point>
    /// A scratch answer buffer as long as `points` (benchmarks write into it; nobody reads it).
    public let answers: UnsafeMutableBufferPointer<Hit?>
    /// Axis-aligned box of the points' region in view px (for bitmaps).
    public let viewBox: Rect
    /// Time to lay out the text (not part of any build measurement), seconds.
    public let layoutSeconds: Double

    public var pointBuffer: UnsafeBufferPointer<Point> { UnsafeBufferPointer(points) }

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
        let k = size / Double(font.unitsPerEm)
        self.ascent = Double(font.ascender) * k
        self.descent = -Double(font.descender) * k

        let clock = ContinuousClock()
        let t0 = clock.now
        let layout = SimpleLayout(text: text, font: font, size: size, width: width)
        self.layoutSeconds = (clock.now - t0).seconds
        self.layoutBounds = layout.bounds
        var glyphs: [LaidGlyph] = []
        glyphs.reserveCapacity(layout.glyphs.count)
        for g in layout.glyphs {
            glyphs.append(LaidGlyph(id: g.id, x: g.x, y: g.y, advance: (try font.advance(of: g.id)) * k, scalar: g.scalar))
        }
        self.glyphs = glyphs
        self.transforms = glyphs.map { Workload.placement(x: $0.x, y: $0.y, k: k, view: view) }

        let cache = ShapeCache()
        self.cache = cache
        var shapes: [GlyphShape] = []
        shapes.reserveCapacity(glyphs.count)
        for (g, t) in zip(glyphs, transforms) {
            shapes.append(try cache.shape(font: font, glyph: g.id, viewTolerance: HitIndex.defaultTolerance, transform: t))
        }
        self.shapes = shapes
        var b = HitIndex.Builder()
        b.reserveCapacity(shapes.count)
        for (s, t) in zip(shapes, transforms) { try b.add(s, transform: t) }
        self.index = b.build()

        var rng = SplitMix64(seed: seed)
        let box = pointBox?(layout.bounds) ?? layout.bounds
        points = .allocate(capacity: pointCount)
        var vb = Rect.empty
        for i in 0..<pointCount {
            let p = Point(box.minX + rng.unit() * box.width, box.minY + rng.unit() * box.height)
            points[i] = view.apply(p)
        }
        for c in [Point(box.minX, box.minY), Point(box.maxX, box.minY), Point(box.minX, box.maxY), Point(box.maxX, box.maxY)] {
            vb.add(view.apply(c))
        }
        self.viewBox = vb
        answers = .allocate(capacity: pointCount)
        answers.initialize(repeating: nil)
    }

    deinit {
        points.deallocate()
        answers.deallocate()
    }

    /// Font units → view px for a glyph at layout origin (x, y) scaled by `k` px per font unit.
    public static func placement(x: Double, y: Double, k: Double, view: AffineTransform) -> AffineTransform {
        AffineTransform(a: k, b: 0, c: 0, d: -k, tx: x, ty: y).concatenating(view)
    }

    /// Builds the index again from shapes found in `cache` (warm when it already holds them), as an embedder
    /// would: one cache lookup and one `add` per glyph, then `build()`.
    public func buildIndex(font: Font, cache: ShapeCache) throws -> HitIndex {
        var b = HitIndex.Builder()
        b.reserveCapacity(glyphs.count)
        for (g, t) in zip(glyphs, transforms) {
            let s = try cache.shape(font: font, glyph: g.id, viewTolerance: HitIndex.defaultTolerance, transform: t)
            try b.add(s, transform: t)
        }
        return b.build()
    }

    /// Cold build: a fresh `Font` (file read, FreeType face) and a fresh `ShapeCache`, so every outline is
    /// loaded and flattened again, then the index.
    public func buildIndexCold() throws -> HitIndex {
        let font = try Font(path: fontPath)
        return try buildIndex(font: font, cache: ShapeCache())
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

/// The workloads of issue 3 / DESIGN.md "Performance targets".
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
