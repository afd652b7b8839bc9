import InkGeometry

/// The raw outline of one glyph as the font stores it, in **font units, y-up** (unscaled, unhinted),
/// copied out of FreeType once: points, a tag per point, and the index of each contour's last point.
///
/// Read it with `decompose(into:)`, which computes the implied on-curve points of TrueType outlines in
/// floating point (exact midpoints such as `x.5` survive, unlike `FT_Outline_Decompose`).
///
/// # Guarantees
/// Every `GlyphOutline` value (from `Font.outline(glyph:)` or the validating initializer) satisfies:
/// - `points.count == tags.count`, every point is finite, every tag is 0…3;
/// - `contourEnds` is strictly increasing, starts at ≥ 0, and its last element is `points.count - 1`
///   (so every contour has at least one point and every point belongs to a contour); an empty outline
///   (a space) has no points and no contours;
/// - cubic control points come in pairs with an on-curve point on each side (cyclically within the contour);
///   a contour that holds a cubic control also holds an on-curve point.
/// These are the rules of FreeType's `FT_Outline_Check` plus the pairing `FT_Outline_Decompose` requires.
public struct GlyphOutline: Sendable, Hashable {
    /// Tag bit: the point is on the curve.
    public static let onCurveBit: UInt8 = 1
    /// Tag bit: an off-curve point is a cubic (CFF/PostScript) control point; without it, an off-curve
    /// point is a quadratic (TrueType) control point.
    public static let cubicBit: UInt8 = 2

    /// The outline points, in font units, y-up (integers for fonts loaded by FreeType).
    public let points: [Point]
    /// One tag per point: bit 0 (`onCurveBit`) set means on-curve (whatever bit 1 says); otherwise bit 1
    /// (`cubicBit`) set means cubic control point, clear means quadratic control point. These are the two
    /// low bits of FreeType's tags (`FT_CURVE_TAG`); FreeType's dropout bits are not kept.
    public let tags: [UInt8]
    /// For each contour, the index in `points` of its last point (strictly increasing).
    public let contourEnds: [Int]

    /// An outline with no points and no contours (the outline of a space).
    public static let empty = GlyphOutline(unchecked: [], tags: [], contourEnds: [])

    /// Makes an outline from raw arrays, checking every rule listed under *Guarantees*.
    ///
    /// - Parameters:
    ///   - points: the outline points, font units, y-up.
    ///   - tags: one tag per point (`onCurveBit`, `cubicBit`).
    ///   - contourEnds: the index of each contour's last point.
    ///   - glyph: the glyph id to name in an error message (it is not stored).
    /// - Throws: `FontError.brokenOutline` naming the first rule that does not hold.
    public init(points: [Point], tags: [UInt8], contourEnds: [Int], glyph: GlyphID = .notdef) throws(FontError) {
        if let problem = GlyphOutline.problem(points: points, tags: tags, contourEnds: contourEnds) {
            throw .brokenOutline(glyph: glyph, reason: problem)
        }
        self.init(unchecked: points, tags: tags, contourEnds: contourEnds)
    }

    /// Makes an outline from arrays already checked with `problem(points:tags:contourEnds:)`.
    init(unchecked points: [Point], tags: [UInt8], contourEnds: [Int]) {
        self.points = points
        self.tags = tags
        self.contourEnds = contourEnds
    }

    /// True when the outline has no points (a space or an empty glyph).
    public var isEmpty: Bool { points.isEmpty }

    /// The number of contours.
    public var contourCount: Int { contourEnds.count }

    /// The index range in `points` of contour `i` (`0 <= i < contourCount`).
    public func contourRange(_ i: Int) -> Range<Int> {
        (i == 0 ? 0 : contourEnds[i - 1] + 1)..<(contourEnds[i] + 1)
    }

    /// The control box: the smallest rectangle holding every point, control points included, in font units
    /// (y-up). It contains the exact ink bounds and equals what `FT_Outline_Get_CBox` reports.
    /// `Rect.empty` for an empty outline.
    public var controlBox: Rect {
        var r = Rect.empty
        for p in points { r.expand(toInclude: p) }
        return r
    }

    /// The first broken rule (a sentence), or nil when the arrays make a valid outline.
    static func problem(points: [Point], tags: [UInt8], contourEnds: [Int]) -> String? {
        let n = points.count
        guard tags.count == n else {
            return "\(n) points but \(tags.count) tags"
        }
        if n == 0 {
            return contourEnds.isEmpty ? nil : "\(contourEnds.count) contours but no points"
        }
        if let problem = contourEndProblem(count: n, contourEnds: contourEnds) { return problem }
        for (i, p) in points.enumerated() where !p.isFinite {
            return "point \(i) is not finite: \(p)"
        }
        for (i, t) in tags.enumerated() where t > 3 {
            return "point \(i) has tag \(t); only tags 0…3 are allowed"
        }
        return cubicPairingProblem(tags: { tags[$0] }, contourEnds: contourEnds)
    }

    /// The first cubic control point that is not one of a pair between on-curve points (cyclically within its
    /// contour), as a sentence; nil when every one is. `contourEnds` must already be valid.
    static func cubicPairingProblem(tags: (Int) -> UInt8, contourEnds: some Collection<Int>) -> String? {
        var start = 0
        for end in contourEnds {
            let count = end - start + 1
            func tag(_ k: Int) -> UInt8 { tags(start + ((k % count) + count) % count) }
            func isOn(_ k: Int) -> Bool { tag(k) & onCurveBit != 0 }
            func isCubic(_ k: Int) -> Bool { tag(k) & (onCurveBit | cubicBit) == cubicBit }
            for k in 0..<count where isCubic(k) {
                let pairedBefore = isCubic(k - 1) && isOn(k + 1) && isOn(k - 2)
                let pairedAfter = isOn(k - 1) && isCubic(k + 1) && isOn(k + 2)
                if !(pairedBefore || pairedAfter) || count < 3 {
                    return "cubic control point \(start + k) is not one of a pair between on-curve points"
                }
            }
            start = end + 1
        }
        return nil
    }

    /// The first broken rule of FreeType's contour ends (`n` points): strictly increasing, within the points,
    /// the last one at `n − 1`.
    static func contourEndProblem(count n: Int, contourEnds: some Collection<Int>) -> String? {
        var lastEnd = -1
        for end in contourEnds { lastEnd = end }
        guard lastEnd >= 0 || !contourEnds.isEmpty else { return "\(n) points but no contours" }
        var previous = -1
        for (i, end) in contourEnds.enumerated() {
            guard end > previous else {
                return "contour \(i) ends at point \(end), not after the previous contour's end \(previous)"
            }
            guard end < n else { return "contour \(i) ends at point \(end), but there are only \(n) points" }
            previous = end
        }
        guard lastEnd == n - 1 else {
            return "the last contour ends at point \(lastEnd), leaving points \(lastEnd + 1)..<\(n) outside any contour"
        }
        return nil
    }
}
