import InkGeometry

/// Shares flattened shapes: one `GlyphShape` per (key, tolerance class, fill rule), built on first use and
/// handed to every placement of that outline, in any index. `Key` is whatever names an outline: the
/// embedder's own glyph ids for custom outlines, `FontGlyph` (InkFreeType) for font glyphs.
///
/// ```swift
/// let cache = ShapeCache<Int>()                    // keyed by the engine's own glyph numbers
/// let shape = try cache.shape(for: 7, viewTolerance: 0.01, maxScale: 2) { sink in
///     sink.move(to: Point(0, 0)); sink.addLine(to: Point(5, 0)); sink.addLine(to: Point(0, 5)); sink.closeSubpath()
/// }
/// print(shape.edgeCount)                           // 3; asking again for 7 returns the same shape
/// ```
///
/// Tolerance classes are powers of two in shape units: a request for tolerance `t` gets the shape
/// flattened at the largest power of two `≤ t`, so one shape serves every scale within a factor of two and
/// the requested bound always holds. A shape that came out exact (an outline without curves, tolerance 0)
/// serves every scale: it is kept once per key and fill rule.
///
/// Thread-safe (`Sendable`): lookups take a lock; a missing shape is built outside the lock (two threads
/// racing on one key may both build it; the first stored wins). The cache holds at most `maxBytes` of
/// shapes: storing one more evicts the oldest entries until it fits (indexes that hold an evicted shape keep
/// it alive). `count` and `byteCount` report its size.
public final class ShapeCache<Key: Hashable & Sendable>: Sendable {
    // The lookup is `@inlinable` so that a client's cache (`ShapeCache<FontGlyph>` in InkFreeType, an
    // embedder's) is specialized for its key: dictionary hashing without generic witness calls.

    /// A cached shape's key: `toleranceExponent` nil for an exact shape (it serves every class).
    @usableFromInline struct Entry: Hashable {
        @usableFromInline var key: Key
        @usableFromInline var toleranceExponent: Int?
        @usableFromInline var fillRule: FillRule
        @inlinable init(key: Key, toleranceExponent: Int?, fillRule: FillRule) {
            self.key = key; self.toleranceExponent = toleranceExponent; self.fillRule = fillRule
        }
        // Written out (not synthesized) so that they specialize with the lookup.
        @inlinable static func == (l: Entry, r: Entry) -> Bool {
            l.key == r.key && l.toleranceExponent == r.toleranceExponent && l.fillRule == r.fillRule
        }
        @inlinable func hash(into h: inout Hasher) {
            h.combine(key)
            h.combine((toleranceExponent ?? Int.min) &* 2 &+ (fillRule == .nonZero ? 1 : 0))
        }
    }
    @usableFromInline struct Table {
        @usableFromInline var shapes: [Entry: GlyphShape] = [:]
        /// Insertion order, for eviction; `order[head...]` are live (a key may appear after its eviction
        /// only if it was stored again).
        @usableFromInline var order: [Entry] = []
        @usableFromInline var head = 0
        @usableFromInline var bytes = 0
        /// What the cached shapes owe for the forms they publish after they were stored (`ShapeAccount`):
        /// settled into `bytes` whenever the cache counts them.
        @usableFromInline let account = ShapeAccount()
        /// Room for a page of distinct glyphs from the start (a cache filled from empty would otherwise grow
        /// its table several times while the first page is laid out).
        @usableFromInline init() { shapes.reserveCapacity(128); order.reserveCapacity(128) }

        /// Bytes of the cached shapes now, forms built since the last count included.
        @inlinable mutating func currentBytes() -> Int {
            bytes += account.settle()
            return bytes
        }

        /// Stores `shape` under `entry` unless another thread did first (then returns that one), evicting
        /// the oldest entries to stay within `maxBytes`.
        @inlinable mutating func store(_ shape: GlyphShape, _ entry: Entry, maxBytes: Int) -> GlyphShape {
            if let existing = shapes[entry] { return existing }
            let size = shape.byteCount
            bytes += account.settle()
            while bytes + size > maxBytes && head < order.count {
                let old = order[head]
                head += 1
                if let s = shapes.removeValue(forKey: old) {
                    s.chargeForms(to: nil)                   // first, so no form it builds later is counted
                    bytes -= s.byteCount
                }
            }
            if head > 1024 && head * 2 > order.count { order.removeFirst(head); head = 0 }
            guard bytes + size <= maxBytes else { return shape }     // larger than the whole budget
            shapes[entry] = shape
            order.append(entry)
            bytes += size
            shape.chargeForms(to: account)
            return shape
        }
    }
    @usableFromInline final class LockedTable: @unchecked Sendable {
        private let lock = Lock()
        private var table = Table()                     // guarded by `lock`
        @usableFromInline init() {}
        @usableFromInline func withLock<R>(_ body: (inout Table) -> R) -> R { lock.withLock { body(&table) } }
    }
    @usableFromInline let table = LockedTable()

    /// Limits every shape built through the cache must stay within.
    public let limits: ShapeLimits
    /// Distances within this many view px of a shape's box are answered from precomputed near lists (fast);
    /// farther ones are still exact, only slower. Touch radii up to about this value stay fast.
    public let fastDistancePx: Double
    /// Most bytes of shapes the cache keeps (`GlyphShape.byteCount` summed).
    public let maxBytes: Int

    /// - Parameters:
    ///   - limits: bounds every shape built through the cache must stay within.
    ///   - fastDistancePx: view px, clamped to 0…64 (non-finite or negative: 4).
    ///   - maxBytes: the cache's budget in bytes (≥ 0); `Int.max` keeps everything.
    public init(limits: ShapeLimits = .default, fastDistancePx: Double = 4, maxBytes: Int = Int.max) {
        self.limits = limits
        self.fastDistancePx = (fastDistancePx.isFinite && fastDistancePx >= 0) ? min(fastDistancePx, 64) : 4
        self.maxBytes = max(0, maxBytes)
    }

    /// The largest power of two ≤ `t` (for finite t > 0).
    public static func toleranceClass(_ t: Double) -> Double {
        Double(sign: .plus, exponent: t.exponent, significand: 1)
    }

    /// The shape for `key`, drawn by `outline` in its own units when it is not cached yet, flattened finely
    /// enough that every placement whose largest scale is at most `maxScale` (view px per shape unit) meets
    /// `viewTolerance` view px.
    ///
    /// - Throws: `ShapeError.invalidTolerance` when `viewTolerance / maxScale` is not a positive normal
    ///   number; any other `ShapeError` from building the shape.
    public func shape(for key: Key, viewTolerance: Double = HitIndex.defaultTolerance, maxScale: Double,
                      fillRule: FillRule = .nonZero, outline: (inout GlyphShape.Sink) -> Void) throws(ShapeError) -> GlyphShape {
        try shape(for: key, viewTolerance: viewTolerance, maxScale: maxScale, fillRule: fillRule,
                  invalid: { ShapeError.invalidTolerance($0) }) {
            (tolerance, fastDistance) throws(ShapeError) -> GlyphShape in
            try GlyphShape(tolerance: tolerance, fillRule: fillRule, limits: limits, fastDistance: fastDistance, outline: outline)
        }
    }

    /// The general form of `shape(for:viewTolerance:maxScale:fillRule:outline:)`: `make` builds the shape
    /// for the class tolerance and the fast-distance margin (both shape units) it is given, and may fail
    /// with its own error type (a font's, say).
    ///
    /// - Throws: `invalid(tolerance)` when `viewTolerance / maxScale` is not a positive normal number;
    ///   whatever `make` throws.
    @inlinable
    public func shape<E: Error>(for key: Key, viewTolerance: Double, maxScale: Double, fillRule: FillRule = .nonZero,
                                invalid: (_ tolerance: Double) -> E,
                                make: (_ tolerance: Double, _ fastDistance: Double) throws(E) -> GlyphShape) throws(E) -> GlyphShape {
        try lookUpOrMake(key, viewTolerance: viewTolerance, maxScale: maxScale, fillRule: fillRule, invalid: invalid) {
            (tolerance, fastDistance) throws(E) -> GlyphShape? in try make(tolerance, fastDistance)
        }.unsafelyUnwrapped                               // `make` returns a shape or throws
    }

    /// `shape(for:viewTolerance:maxScale:fillRule:invalid:make:)` for a `make` that may find, once it looks,
    /// that the key has no shape of its kind to make (nil: nothing is stored, and nil is returned). For
    /// InkFreeType, whose outline route finds out a glyph's ink from the load that draws it.
    @inlinable
    package func shapeIfMade<E: Error>(for key: Key, viewTolerance: Double, maxScale: Double, fillRule: FillRule = .nonZero,
                                       invalid: (_ tolerance: Double) -> E,
                                       make: (_ tolerance: Double, _ fastDistance: Double) throws(E) -> GlyphShape?) throws(E) -> GlyphShape? {
        try lookUpOrMake(key, viewTolerance: viewTolerance, maxScale: maxScale, fillRule: fillRule, invalid: invalid, make: make)
    }

    /// The cached shape for `key` in the class of `viewTolerance / maxScale`, else the one `make` makes for that
    /// class (stored unless nil).
    @inlinable
    func lookUpOrMake<E: Error>(_ key: Key, viewTolerance: Double, maxScale: Double, fillRule: FillRule,
                                invalid: (_ tolerance: Double) -> E,
                                make: (_ tolerance: Double, _ fastDistance: Double) throws(E) -> GlyphShape?) throws(E) -> GlyphShape? {
        let t = viewTolerance / maxScale
        guard viewTolerance.isFinite, viewTolerance > 0, t.isNormal, t > 0 else { throw invalid(t) }
        let exact = Entry(key: key, toleranceExponent: nil, fillRule: fillRule)
        var entry = Entry(key: key, toleranceExponent: Int(t.exponent), fillRule: fillRule)
        // The class entry first: most shapes have curves, so one lookup finds them.
        if let s = table.withLock({ $0.shapes[entry] ?? $0.shapes[exact] }) { return s }
        // The class serves scales from viewTolerance / (2·class) up: size the margin for the smallest.
        let cls = Self.toleranceClass(t)
        guard let shape = try make(cls, fastDistancePx * 2 * cls / viewTolerance) else { return nil }
        if shape.tolerance == 0 { entry = exact }
        let budget = maxBytes
        return table.withLock { $0.store(shape, entry, maxBytes: budget) }
    }

    /// Number of cached shapes.
    public var count: Int { table.withLock { $0.shapes.count } }
    /// Bytes held by the cached shapes (`GlyphShape.byteCount` summed).
    public var byteCount: Int { table.withLock { $0.currentBytes() } }
    /// Drops every cached shape (indexes that hold shapes keep them alive).
    public func removeAll() { table.withLock { $0 = Table() } }
}

/// What a `ShapeCache` is owed by the shapes it holds for the forms they built after it stored them. A shape's
/// `byteCount` grows when an index builds its lean or full form (`GlyphShape`), and a cache's budget counts
/// those bytes too. The exchange is explicit and has three steps:
/// - the cache names its account when it stores a shape (`GlyphShape.chargeForms(to:)`), and names none when it
///   evicts it;
/// - the shape charges the account in the one place it publishes a form (GlyphShape+Forms.swift);
/// - the cache settles the account (`settle()`) whenever it counts its bytes: before it evicts, and in `byteCount`.
@usableFromInline final class ShapeAccount: @unchecked Sendable {
    private let lock = Lock()
    private var owed = 0
    @usableFromInline init() {}
    /// Adds the bytes of a form a shape just published.
    func charge(_ bytes: Int) { lock.withLock { owed += bytes } }
    /// The bytes charged since the last settlement (the account is then clear).
    @usableFromInline func settle() -> Int { lock.withLock { defer { owed = 0 }; return owed } }
}
