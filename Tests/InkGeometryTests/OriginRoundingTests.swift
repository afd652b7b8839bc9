import Testing
import InkGeometry

/// Origin rounding as exact arithmetic: each renderer's rule against values worked out by hand, and against the
/// phase boundaries measured on the renderers themselves (skia-python 144.1 and PySide6 6.12: the glyph mask
/// changes when the origin crosses them), counted rather than computed with a floor.
struct OriginRoundingTests {
    static let qt = OriginRounding.Axis(grid: 0.25, bias: 1.0 / 64)
    static func gtk(scale: Double) -> OriginRounding.Axis { OriginRounding.Axis(grid: 1, bias: 0.5 + 0.125 * scale) }

    /// (rule, value, expected), expected values written out by hand.
    static let table: [(String, OriginRounding.Axis, Double, Double)] = [
        ("whole", .wholePixel, 2.5, 3), ("whole", .wholePixel, 2.4999999, 2), ("whole", .wholePixel, -2.5, -2),
        ("whole", .wholePixel, -2.5000001, -3), ("whole", .wholePixel, 0, 0), ("whole", .wholePixel, 1e6 + 0.5, 1e6 + 1),
        ("quarter", .quarterPixel, 10.125, 10.25), ("quarter", .quarterPixel, 10.1249999, 10.0),
        ("quarter", .quarterPixel, 10.375, 10.5), ("quarter", .quarterPixel, 10.874, 10.75), ("quarter", .quarterPixel, 10.875, 11),
        ("quarter", .quarterPixel, -0.125, 0), ("quarter", .quarterPixel, -0.126, -0.25),
        ("qt", qt, 10.234375, 10.25), ("qt", qt, 10.2343749, 10.0), ("qt", qt, 10.984375, 11), ("qt", qt, 10.9843749, 10.75),
        ("qt", qt, 10.0, 10.0), ("qt", qt, 10.2, 10.0),
        ("gtk 1", gtk(scale: 1), 3.375, 4), ("gtk 1", gtk(scale: 1), 3.3749999, 3),
        ("gtk 2", gtk(scale: 2), 3.25, 4), ("gtk 2", gtk(scale: 2), 3.2499999, 3),
        ("exact", .exact, 3.2499999, 3.2499999),
    ]

    @Test func eachRuleGivesTheValuesWorkedOutByHand() {
        for (name, rule, v, expected) in Self.table {
            #expect(rule.rounded(v) == expected, "\(name): \(v) → \(rule.rounded(v)), expected \(expected)")
        }
    }

    /// The measured boundaries: Skia with subpixel positioning changed its mask at fractions 1/8, 3/8, 5/8 and
    /// 7/8 of a pixel (x; and y under a rotated matrix), without it at 1/2; Qt at 15/64, 31/64, 47/64 and 63/64 (x)
    /// and 1/2 (y). The rounded origin is the pixel's start plus 1/4 (or 1) per boundary reached.
    @Test func phasesChangeAtTheBoundariesTheRenderersShowed() {
        let measured: [(String, OriginRounding.Axis, [Double], Double)] = [
            ("skia subpixel", .quarterPixel, [0.125, 0.375, 0.625, 0.875], 0.25),
            ("skia whole", .wholePixel, [0.5], 1),
            ("qt x", Self.qt, [15.0 / 64, 31.0 / 64, 47.0 / 64, 63.0 / 64], 0.25),
        ]
        for (name, rule, boundaries, step) in measured {
            for k in 0..<1024 {
                let f = Double(k) / 1024
                let reached = boundaries.filter { f >= $0 }.count
                let expected = 10 + Double(reached) * step
                #expect(rule.rounded(10 + f) == expected, "\(name): 10 + \(f) → \(rule.rounded(10 + f)), expected \(expected)")
            }
        }
    }

    @Test func pointsRoundPerAxisAndNoneIsIdentity() {
        let p = Point(10.3, 20.6)
        #expect(OriginRounding.quarterPixelX.rounded(p) == Point(10.25, 21))
        #expect(OriginRounding.wholePixels.rounded(p) == Point(10, 21))
        #expect(OriginRounding.none.rounded(p) == p)
        #expect(OriginRounding.none.isNone && !OriginRounding.wholePixels.isNone)
    }

    @Test func badRulesAreNamed() {
        #expect(OriginRounding.wholePixels.problem == nil)
        #expect(OriginRounding(x: .init(grid: .nan, bias: 0), y: .exact).problem?.contains("x grid") == true)
        #expect(OriginRounding(x: .exact, y: .init(grid: -1, bias: 0)).problem?.contains("y grid") == true)
        #expect(OriginRounding(x: .init(grid: 1, bias: .infinity), y: .exact).problem?.contains("x bias") == true)
        #expect(OriginRounding(x: .exact, y: .init(grid: 0, bias: 0.5)).problem?.contains("not rounded") == true)
        #expect(OriginRounding(x: .init(grid: 2048, bias: 0), y: .exact).problem != nil)
    }
}
