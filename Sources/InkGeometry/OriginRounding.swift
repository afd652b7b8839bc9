/// How a renderer snaps a glyph's origin before it draws the glyph there: per axis of **view (device)
/// space**, a grid and a bias, `v' = grid · ⌊(v + bias) / grid⌋`.
///
/// Renderers draw a glyph from a cached mask or outline made for a few origin phases, so the ink lands at the
/// origin rounded, not at the origin the layout gave. The rule applies where they apply it: the glyph's
/// origin is mapped to view px by the placement's transform, rounded there, and the glyph is drawn from the
/// rounded point with its own shape (its matrix, size and transform's linear part unchanged). Glyph
/// origins only: decorations (underlines, strike-throughs) and boxes are never rounded.
///
/// ```swift
/// let skia = OriginRounding.quarterPixelX             // Skia with subpixel positioning, axis-aligned text
/// print(skia.rounded(Point(10.12, 30.5)))             // (10.0, 31.0): x ⌊4·10.12 + ½⌋ / 4, y ⌊30.5 + ½⌋
/// let qt = OriginRounding(x: .init(grid: 0.25, bias: 1.0 / 64), y: .wholePixel)
/// print(qt.rounded(Point(10.234375, 2.49)))          // (10.25, 2.0): 10.234375 + 1/64 = 10.25 reaches the grid
/// ```
///
/// The renderers this project matches (each measured against their own pixels; origins in device px):
///
/// | renderer | x | y |
/// |---|---|---|
/// | cairo 1.16 image surfaces | `wholePixel` (`_cairo_lround`: ⌊v + ½⌋) | `wholePixel` |
/// | Skia, no subpixel positioning | `wholePixel` (adds ½, floors) | `wholePixel` |
/// | Skia, subpixel, axis-aligned horizontal text | `quarterPixel` (adds ⅛, floors on the ¼ grid) | `wholePixel` |
/// | Skia, subpixel, rotated or skewed device matrix | `quarterPixel` | `quarterPixel` |
/// | Qt raster engine (QFontEngine subpixel positions; whole px below with full hinting: grid 1, bias 0) | grid ¼, bias 1/64 | `wholePixel` (`qRound`) |
/// | GTK 4 GL renderer at scale `s` = 1 or 2 | grid 1, bias ½ + 0.125·s (`lround(v + 0.125·s)`) | the same |
///
/// (GTK's GL renderer puts a glyph on the nearest quarter of a logical px, then cairo on the whole device px:
/// `lround(s · quarter(v / s))`, which is this rule at scales 1 and 2. Qt truncates the device position to 1/64
/// px toward zero first; `QtRawFont` places Qt's glyphs with all of that.)
///
/// Ties: the rule is a floor, so a value exactly on a boundary goes up (⌊2.5 + ½⌋ = 3, and ⌊−2.5 + ½⌋ = −2,
/// where C's `lround` gives −3: GTK's rule differs from this one only on exact halves below zero, off screen).
/// Arithmetic is in double precision as written, `(v + bias) / grid` floored and multiplied back: exact for
/// the grids above (powers of two) and coordinates below 2⁴⁰ px.
public struct OriginRounding: Sendable, Hashable, CustomStringConvertible {
    /// The rule of one axis: `v' = grid · ⌊(v + bias) / grid⌋`, or `v` itself when `grid` is 0.
    public struct Axis: Sendable, Hashable {
        /// The spacing of the positions a glyph may land on, view px (finite, ≥ 0; 0: the axis is not
        /// rounded and `bias` must be 0).
        public var grid: Double
        /// Added before flooring to the grid, view px (finite, |bias| ≤ 1,024): `grid / 2` rounds to the
        /// nearest grid point (ties up); 0 floors.
        public var bias: Double

        /// An axis rule. Checked by `OriginRounding.validate()`.
        public init(grid: Double, bias: Double) { self.grid = grid; self.bias = bias }

        /// Not rounded.
        public static let exact = Axis(grid: 0, bias: 0)
        /// The nearest whole pixel, ties up: `⌊v + ½⌋`.
        public static let wholePixel = Axis(grid: 1, bias: 0.5)
        /// The nearest quarter pixel, ties up: `⌊4v + ½⌋ / 4` (Skia's subpixel positions).
        public static let quarterPixel = Axis(grid: 0.25, bias: 0.125)

        /// True for `exact`.
        public var isExact: Bool { grid == 0 && bias == 0 }

        /// `v` rounded by this rule, view px.
        @inlinable public func rounded(_ v: Double) -> Double {
            guard grid > 0 else { return v }
            return ((v + bias) / grid).rounded(.down) * grid
        }
    }

    /// The rule along view x.
    public var x: Axis
    /// The rule along view y.
    public var y: Axis

    /// A rule per axis.
    public init(x: Axis, y: Axis) { self.x = x; self.y = y }

    /// Origins as given (the default).
    public static let none = OriginRounding(x: .exact, y: .exact)
    /// Whole device pixels on both axes, ties up (cairo's image surfaces, Skia without subpixel positioning).
    public static let wholePixels = OriginRounding(x: .wholePixel, y: .wholePixel)
    /// Quarter pixels along x, whole pixels along y (Skia with subpixel positioning, axis-aligned text).
    public static let quarterPixelX = OriginRounding(x: .quarterPixel, y: .wholePixel)

    /// True for `none`.
    public var isNone: Bool { x.isExact && y.isExact }

    /// `p` (view px) rounded axis by axis.
    @inlinable public func rounded(_ p: Point) -> Point { Point(x.rounded(p.x), y.rounded(p.y)) }

    /// The largest bias magnitude: 1,024 view px.
    public static let maximumBias = 1024.0
    /// The largest grid: 1,024 view px.
    public static let maximumGrid = 1024.0

    /// Why the rule cannot be used (a sentence naming the axis and field), or nil when it can: each grid finite
    /// and 0 … `maximumGrid`, each bias finite and at most `maximumBias` in magnitude, and 0 on an axis whose
    /// grid is 0.
    public var problem: String? {
        for (name, a) in [("x", x), ("y", y)] {
            guard a.grid.isFinite, a.grid >= 0, a.grid <= Self.maximumGrid else {
                return "the \(name) grid must be finite and 0 … \(DecimalText.short(Self.maximumGrid)) px "
                    + "(got \(DecimalText.short(a.grid)))"
            }
            guard a.bias.isFinite, abs(a.bias) <= Self.maximumBias else {
                return "the \(name) bias must be finite and at most \(DecimalText.short(Self.maximumBias)) px in magnitude "
                    + "(got \(DecimalText.short(a.bias)))"
            }
            if a.grid == 0 && a.bias != 0 {
                return "the \(name) bias must be 0 on an axis that is not rounded (grid 0; got bias \(DecimalText.short(a.bias)))"
            }
        }
        return nil
    }

    /// `x: grid g bias b, y: …`, or `none`.
    public var description: String {
        func axis(_ a: Axis) -> String {
            a.isExact ? "exact" : "grid \(DecimalText.short(a.grid)) bias \(DecimalText.short(a.bias))"
        }
        return isNone ? "none" : "x: \(axis(x)), y: \(axis(y))"
    }
}
