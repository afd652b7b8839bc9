/// The range of view space that every placed shape, text layout, scene and job lives in.
///
/// A view coordinate (px) lies within ±``limit``, and a glyph is drawn at most ``limit`` view px per em.
/// Within it the query path's `Float` inverse and anchors keep their rounding far below the flattening
/// tolerance; beyond it every builder refuses the input with a typed error (`HitIndexError.coordinateOutOfRange`,
/// `FontError.invalidPlacement`, `TextError`, a job's "out of range"), never clamps it. The C interface names it
/// `INKHIT_VIEW_LIMIT`, the Python binding `inkhit.VIEW_LIMIT`.
public enum ViewSpace {
    /// The largest magnitude of a view coordinate, and the largest glyph size per em, in view px.
    public static let limit: Double = 1e9

    /// The limit as messages write it: ± the power of ten ``limit`` is, as `1eN`, and the unit.
    public static let limitText: String = {
        var exponent = 0, v = limit
        while v >= 10 { v /= 10; exponent += 1 }
        return "±1e\(exponent) px"
    }()

    /// Whether `v` lies within ±``limit`` (false for NaN).
    @inlinable public static func contains(_ v: Double) -> Bool { abs(v) <= limit }

    /// Whether every corner of `r` lies within ±``limit`` (false for an empty rect's infinite corners and NaN).
    @inlinable public static func contains(_ r: Rect) -> Bool {
        r.minX >= -limit && r.maxX <= limit && r.minY >= -limit && r.maxY <= limit
    }
}
