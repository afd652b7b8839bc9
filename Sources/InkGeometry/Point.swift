/// A point or vector in a 2-D space. The space (font units, layout px or view px) is stated by
/// whoever hands the point over; `Point` itself carries no unit.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static let zero = Point(0, 0)

    /// True when both coordinates are finite (not NaN, not ±∞).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }
    @inlinable public static func * (k: Double, a: Point) -> Point { Point(a.x * k, a.y * k) }

    /// Dot product.
    @inlinable public func dot(_ o: Point) -> Double { x * o.x + y * o.y }
    /// 2-D cross product (z of the 3-D cross product).
    @inlinable public func cross(_ o: Point) -> Double { x * o.y - y * o.x }
    /// Euclidean length, in the point's own units.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    /// Euclidean distance to `o`, in the points' own units.
    @inlinable public func distance(to o: Point) -> Double { (self - o).length }
    /// Linear interpolation: `self` at t = 0, `o` at t = 1.
    @inlinable public func lerp(_ o: Point, _ t: Double) -> Point { Point(x + (o.x - x) * t, y + (o.y - y) * t) }

    public var description: String { "(\(x), \(y))" }
}
