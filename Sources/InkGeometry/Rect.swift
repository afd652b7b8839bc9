/// An axis-aligned rectangle `[minX, maxX] × [minY, maxY]` (closed), in the units of the space it
/// describes. An *empty* rect (nothing added yet) has `minX > maxX`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The smallest x of the rect.
    public var minX: Double
    /// The smallest y of the rect.
    public var minY: Double
    /// The largest x of the rect.
    public var maxX: Double
    /// The largest y of the rect.
    public var maxY: Double

    /// A rect from its two extreme corners (not normalized: `minX > maxX` makes an empty rect).
    @inlinable public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// A rect from an origin and a size (negative sizes are normalized).
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: min(x, x + width), minY: min(y, y + height),
                  maxX: max(x, x + width), maxY: max(y, y + height))
    }

    /// The empty rect: contains nothing; `union` with it is the identity.
    public static let empty = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    /// True when the rect contains no point (`minX > maxX` or `minY > maxY`, or a NaN bound).
    @inlinable public var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }
    /// `maxX - minX`, or 0 for an empty rect.
    @inlinable public var width: Double { isEmpty ? 0 : maxX - minX }
    /// `maxY - minY`, or 0 for an empty rect.
    @inlinable public var height: Double { isEmpty ? 0 : maxY - minY }
    /// The midpoint of the rect.
    @inlinable public var center: Point { Point((minX + maxX) / 2, (minY + maxY) / 2) }
    /// True when all four bounds are finite.
    @inlinable public var isFinite: Bool { minX.isFinite && minY.isFinite && maxX.isFinite && maxY.isFinite }

    /// Grows the rect to contain `p` (an empty rect becomes the single point `p`).
    @inlinable public mutating func expand(toInclude p: Point) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
    }

    /// The smallest rect containing both rects (the empty rect is the identity).
    @inlinable public func union(_ o: Rect) -> Rect {
        if o.isEmpty { return self }
        if isEmpty { return o }
        return Rect(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }

    /// The rect shrunk by `d` on every side (grown for negative `d`).
    @inlinable public func insetBy(_ d: Double) -> Rect {
        Rect(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d)
    }
    /// The rect grown by `d` on every side (shrunk for negative `d`).
    @inlinable public func outsetBy(_ d: Double) -> Rect { insetBy(-d) }

    /// Closed containment test.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// True when the two closed rects share at least one point.
    @inlinable public func intersects(_ o: Rect) -> Bool {
        !isEmpty && !o.isEmpty && minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }

    /// Euclidean distance from `p` to the rect (0 inside), in the rect's units.
    @inlinable public func distance(to p: Point) -> Double {
        let dx = max(minX - p.x, 0, p.x - maxX)
        let dy = max(minY - p.y, 0, p.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// `Rect(minX, minY) – (maxX, maxY)`.
    public var description: String { "Rect(\(minX), \(minY)) – (\(maxX), \(maxY))" }
}
