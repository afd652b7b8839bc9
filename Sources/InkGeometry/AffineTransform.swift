/// A 2-D affine transform in CGAffineTransform order:
/// `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`.
///
/// In InkHit a transform usually maps layout space (px, y-down) to view space (px), or a glyph's
/// font units (y-up) to view space. Composition reads left to right: `t.concatenating(u)` applies `t`
/// first, then `u`. Apply it with ``Point/applying(_:)`` or ``Rect/applying(_:)``.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    /// The linear part's first column: how far a unit step along x moves a point in x (`a`) and y (`b`).
    public var a: Double, b: Double
    /// The linear part's second column: how far a unit step along y moves a point in x (`c`) and y (`d`).
    public var c: Double, d: Double
    /// The translation, in the units of the target space.
    public var tx: Double, ty: Double

    /// A transform from its six entries, CGAffineTransform order.
    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The transform that leaves every point where it is.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by `(tx, ty)`, in the units of the space.
    public static func translation(_ tx: Double, _ ty: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }
    /// A scale by `sx` along x and `sy` along y, about the origin.
    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }
    /// Rotation by `radians` (counter-clockwise in a y-up space, clockwise on a y-down screen).
    public static func rotation(_ radians: Double) -> AffineTransform {
        let (s, co) = Self.sinCos(radians)
        return AffineTransform(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }
    /// `x' = x + shx*y`, `y' = shy*x + y`.
    public static func shear(_ shx: Double, _ shy: Double) -> AffineTransform {
        AffineTransform(a: 1, b: shy, c: shx, d: 1, tx: 0, ty: 0)
    }
    /// The y-flip for a space of the given height: maps y-up coordinates to y-down ones
    /// (screen ↔ CoreText-style coordinates). Its own inverse.
    public static func yFlip(height: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: height)
    }

    /// The transform without its translation: what it does to vectors (differences of points).
    @inlinable public var linearPart: AffineTransform {
        AffineTransform(a: a, b: b, c: c, d: d, tx: 0, ty: 0)
    }

    /// `self` first, then `other`.
    @inlinable public func concatenating(_ o: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * o.a + b * o.c, b: a * o.b + b * o.d,
                        c: c * o.a + d * o.c, d: c * o.b + d * o.d,
                        tx: tx * o.a + ty * o.c + o.tx, ty: tx * o.b + ty * o.d + o.ty)
    }

    /// `a*d - b*c`: the factor by which the transform scales areas (negative when it mirrors).
    @inlinable public var determinant: Double { a * d - b * c }
    /// True when all six entries are finite (not NaN, not ±∞).
    @inlinable public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    /// The smallest ratio of a transform's least stretch to its most (its smallest singular value over its
    /// largest) for which it is not singular: `1e-12`. Below it (or when the transform collapses everything
    /// to a point) the transform counts as singular: it has no usable inverse and places nothing. See
    /// ``SingularValues/isPlaceable``.
    public static let minScaleRatio: Double = 1e-12

    /// The bound on a placed transform's scales: each singular value must lie strictly within
    /// `1 / scaleLimit … scaleLimit`, that is `1e-30 … 1e30` (a unitless factor: view lengths per source
    /// length). See ``SingularValues/isWithinScaleRange``.
    public static let scaleLimit: Double = 1e30

    /// The inverse, or nil when the transform is not finite or is singular (its smallest singular value
    /// is not above ``minScaleRatio`` (`1e-12`) times its largest, or it collapses everything to a point).
    public func inverted() -> AffineTransform? {
        guard isFinite else { return nil }
        return inverted(singularValues: singularValues)
    }

    /// `inverted()` for a caller that already has this transform's ``singularValues`` (it skips computing them
    /// again); `sv` must be them.
    public func inverted(singularValues sv: SingularValues) -> AffineTransform? {
        guard isFinite else { return nil }
        guard sv.isPlaceable, sv.min.isNormal else { return nil }
        let det = determinant
        let inv = AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                                  tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
        return inv.isFinite ? inv : nil
    }

    /// Largest singular value of the linear part: the most any length is stretched.
    public var maxScale: Double { singularValues.max }
    /// Smallest singular value of the linear part: the least any length is stretched
    /// (0 for a singular transform).
    public var minScale: Double { singularValues.min }

    /// Singular values of `[[a, c], [b, d]]` (closed form): the most and the least the transform stretches
    /// any length.
    public var singularValues: SingularValues {
        // For M = [[a c][b d]]: s1,2 = sqrt((q ± sqrt(q² - 4 det²)) / 2), q = a²+b²+c²+d².
        // Computed through the stable form s1 = (h + k), s2 = |h - k| with
        // h = |(a+d, b-c)|/2 and k = |(a-d, b+c)|/2.
        let e = (a + d) / 2, f = (a - d) / 2, g = (b + c) / 2, hh = (b - c) / 2
        let h = hypot2(e, hh), k = hypot2(f, g)
        return SingularValues(max: h + k, min: abs(h - k))
    }

    /// True when the linear part is a uniform scale times a rotation, possibly with a reflection
    /// (so distances scale by one factor in every direction), within a relative `1e-9`.
    public var isSimilarity: Bool {
        let s = singularValues
        return s.max > 0 && (s.max - s.min) <= 1e-9 * s.max
    }

    /// The six entries as `[a, b, c, d, tx, ty]`.
    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

/// The singular values of a transform's linear part: how much it stretches lengths at most and at least.
public struct SingularValues: Hashable, Sendable {
    /// The largest singular value: the most any length is stretched (the transform's maximum scale).
    public var max: Double
    /// The smallest singular value: the least any length is stretched (0 for a singular transform).
    public var min: Double
    /// Singular values from their two values (`max ≥ min ≥ 0` for real transforms).
    public init(max: Double, min: Double) { self.max = max; self.min = min }

    /// True when the transform these are the singular values of is not singular: it stretches some length
    /// (`max > 0`) and its least stretch is above ``AffineTransform/minScaleRatio`` (`1e-12`) times its most
    /// (`min > max * 1e-12`). The one definition of "singular" for placements, scene nodes and jobs.
    @inlinable public var isPlaceable: Bool { max > 0 && min > max * AffineTransform.minScaleRatio }

    /// True when both scales lie strictly within `1 / scaleLimit … scaleLimit` (`1e-30 … 1e30`, see
    /// ``AffineTransform/scaleLimit``): `max < 1e30` and `min * 1e30 > 1`. False for NaN.
    @inlinable public var isWithinScaleRange: Bool { isMaxWithinScaleRange && isMinWithinScaleRange }

    /// True when the largest scale is below ``AffineTransform/scaleLimit`` (`max < 1e30`; false for NaN or ∞).
    @inlinable public var isMaxWithinScaleRange: Bool { max < AffineTransform.scaleLimit }

    /// True when the smallest scale is above one over ``AffineTransform/scaleLimit`` (`min * 1e30 > 1`).
    @inlinable public var isMinWithinScaleRange: Bool { min * AffineTransform.scaleLimit > 1 }
}

extension Point {
    /// This point mapped by `t` (`x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`), into `t`'s target space.
    @inlinable public func applying(_ t: AffineTransform) -> Point {
        Point(t.a * x + t.c * y + t.tx, t.b * x + t.d * y + t.ty)
    }
}

extension Rect {
    /// The bounding box of this rect's four corners mapped by `t`, in `t`'s target space (the empty rect
    /// stays empty).
    public func applying(_ t: AffineTransform) -> Rect {
        guard !isEmpty else { return .empty }
        var r = Rect.empty
        r.expand(toInclude: Point(minX, minY).applying(t))
        r.expand(toInclude: Point(maxX, minY).applying(t))
        r.expand(toInclude: Point(minX, maxY).applying(t))
        r.expand(toInclude: Point(maxX, maxY).applying(t))
        return r
    }
}

/// `sqrt(x² + y²)` without overflow or underflow for any finite inputs.
@inlinable func hypot2(_ x: Double, _ y: Double) -> Double {
    let ax = abs(x), ay = abs(y)
    let m = max(ax, ay)
    if m == 0 || !m.isFinite { return m }
    let rx = ax / m, ry = ay / m
    return m * (rx * rx + ry * ry).squareRoot()
}

extension AffineTransform {
    /// Sine and cosine without Foundation. Error below 1e-15 for |x| < π/2 · 2^20 (≈ 1.6e6): the angle is
    /// reduced by π/2 in two parts (Cody–Waite, with fdlibm's split of π/2) and the remainder evaluated by
    /// Taylor series on [−π/4, π/4]. Larger angles are first reduced modulo the Double nearest 2π (exactly, by
    /// `remainder(dividingBy:)`), so their result is the sine of an angle within |x| · 2.5e-16 of x — never a
    /// trap. NaN and ±∞ give NaN.
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        let halfPi = 1.5707963267948966192313216916398
        let pio2Hi = 1.57079632673412561417e+00      // first 33 bits of π/2
        let pio2Lo = 6.07710050650619224932e-11      // π/2 − pio2Hi
        var r = x
        if abs(r) >= halfPi * 1048576 { r = r.remainder(dividingBy: 6.283185307179586476925286766559) }
        let qd = (r / halfPi).rounded()
        r = (r - qd * pio2Hi) - qd * pio2Lo
        let q = Int(qd) & 3
        let r2 = r * r
        var s = r, term = r
        var cS = 1.0, termC = 1.0
        var n = 1.0
        for _ in 0..<12 {
            term *= -r2 / ((n + 1) * (n + 2))
            s += term
            termC *= -r2 / (n * (n + 1))
            cS += termC
            n += 2
        }
        switch q {
        case 0: return (s, cS)
        case 1: return (cS, -s)
        case 2: return (-s, -cS)
        default: return (-cS, s)
        }
    }
}
