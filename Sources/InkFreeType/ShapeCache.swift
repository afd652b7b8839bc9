import InkGeometry
import InkHit

/// Shares flattened glyph shapes: one `GlyphShape` per (font, glyph, tolerance class), built on first use
/// and handed to every placement of that glyph, in any index.
///
/// Tolerance classes are powers of two in font units: a request for tolerance `t` gets the shape flattened
/// at the largest power of two `≤ t`, so one shape serves every size within a factor of two and the
/// requested bound always holds.
///
/// Thread-safe (`Sendable`): lookups take a lock; a missing shape is built outside the lock (two threads
/// racing on one glyph may both build it; the first stored wins). The cache grows without bound unless
/// `removeAll()` is called; `count` and `byteCount` report its size (both O(1)), so an owner can bound it
/// (`JobRunner` empties it between jobs when it holds more than `JobLimits.maxCachedShapeBytes`).
public final class ShapeCache: Sendable {
    struct Key: Hashable { var font: UInt64; var glyph: UInt32; var toleranceExponent: Int }
    struct Table {
        var shapes: [Key: GlyphShape] = [:]
        var bytes = 0
    }
    /// The table behind a pthread mutex (`Lock`), not `Synchronization.Mutex`: ThreadSanitizer sees the
    /// ordering a pthread mutex gives, but not that of `Mutex`, whose futex lives in the (uninstrumented)
    /// standard library, so `swift test --sanitize=thread` would report every cache hit as a race.
    private final class LockedTable: @unchecked Sendable {
        private let lock = Lock()
        private var table = Table()                     // guarded by `lock`
        func withLock<R>(_ body: (inout Table) -> R) -> R { lock.withLock { body(&table) } }
    }
    private let table = LockedTable()
    public let limits: ShapeLimits
    /// Distances within this many view px of a glyph's box are answered from precomputed near lists (fast);
    /// farther ones are still exact, only slower. Radii up to about this value stay fast.
    public let fastDistancePx: Double

    public init(limits: ShapeLimits = .default, fastDistancePx: Double = 4) {
        self.limits = limits
        self.fastDistancePx = (fastDistancePx.isFinite && fastDistancePx >= 0) ? min(fastDistancePx, 64) : 4
    }

    /// The largest power of two ≤ `t` (for finite t > 0).
    public static func toleranceClass(_ t: Double) -> Double {
        Double(sign: .plus, exponent: t.exponent, significand: 1)
    }

    /// The shape of `glyph` in `font`, flattened within `tolerance` font units (rounded down to a power of two).
    ///
    /// - Throws: `FontError` from the font (glyph out of range, broken outline, …), or `ShapeError`
    ///   (invalid tolerance, too many edges).
    public func shape(font: Font, glyph: UInt32, tolerance: Double) throws -> GlyphShape {
        try shape(font: font, glyph: glyph, tolerance: tolerance, margin: nil)
    }

    func shape(font: Font, glyph: UInt32, tolerance: Double, margin: Double?) throws -> GlyphShape {
        guard tolerance.isFinite, tolerance > 0, tolerance.isNormal else { throw ShapeError.invalidTolerance(tolerance) }
        let key = Key(font: font.id, glyph: glyph, toleranceExponent: Int(tolerance.exponent))
        if let s = table.withLock({ $0.shapes[key] }) { return s }
        let outline = try font.outline(glyph: glyph)
        let shape = try GlyphShape(tolerance: Self.toleranceClass(tolerance), limits: limits, margin: margin) { sink in
            outline.decompose(into: &sink)
        }
        return table.withLock { t in
            if let existing = t.shapes[key] { return existing }
            t.shapes[key] = shape
            t.bytes += shape.byteCount
            return shape
        }
    }

    /// The shape of `glyph` in `font` fine enough for `transform` (font units → view px) to meet
    /// `viewTolerance` view px.
    public func shape(font: Font, glyph: UInt32, viewTolerance: Double, transform: AffineTransform) throws -> GlyphShape {
        let s = transform.maxScale
        guard s.isFinite, s > 0 else { throw ShapeError.invalidTolerance(.nan) }
        let t = viewTolerance / s
        guard t.isFinite, t > 0, t.isNormal else { throw ShapeError.invalidTolerance(t) }
        // The class serves scales from viewTolerance / (2·class) up: size the margin for the smallest.
        let margin = fastDistancePx * 2 * Self.toleranceClass(t) / viewTolerance
        return try shape(font: font, glyph: glyph, tolerance: t, margin: margin)
    }

    /// Number of cached shapes.
    public var count: Int { table.withLock { $0.shapes.count } }
    /// Bytes held by the cached shapes (`GlyphShape.byteCount` summed).
    public var byteCount: Int { table.withLock { $0.bytes } }
    /// Drops every cached shape (indexes that hold shapes keep them alive).
    public func removeAll() { table.withLock { $0 = Table() } }
}
