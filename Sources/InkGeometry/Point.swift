/// A point or vector in a 2-D space. The space (font units, layout px or view px) is stated by
/// whoever hands the point over; `Point` itself carries no unit.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// A point from its coordinates.
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// A point from its coordinates.
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// The origin `(0, 0)`.
    public static let zero = Point(0, 0)

    /// True when both coordinates are finite (not NaN, not ±∞).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    /// Component-wise sum.
    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    /// Component-wise difference.
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    /// Both coordinates times `k`.
    @inlinable public static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }
    /// Both coordinates times `k`.
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

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}
