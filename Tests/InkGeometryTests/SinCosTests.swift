import Testing
@testable import InkGeometry
import InkTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sinCos` (Foundation-free) against exact values, identities and the platform libm.
struct SinCosTests {
    struct Known: Sendable, CustomTestStringConvertible {
        var x: Double, sin: Double, cos: Double
        var testDescription: String { "x=\(x)" }
    }

    static let known: [Known] = [
        Known(x: 0, sin: 0, cos: 1),
        Known(x: Double.pi / 6, sin: 0.5, cos: 0.86602540378443864676),
        Known(x: Double.pi / 4, sin: 0.70710678118654752440, cos: 0.70710678118654752440),
        Known(x: Double.pi / 2, sin: 1, cos: 0),
        Known(x: Double.pi, sin: 0, cos: -1),
        Known(x: -Double.pi / 3, sin: -0.86602540378443864676, cos: 0.5),
        Known(x: 3 * Double.pi / 2, sin: -1, cos: 0),
        Known(x: -Double.pi, sin: 0, cos: -1),
        Known(x: 2 * Double.pi, sin: 0, cos: 1),
        Known(x: 7 * Double.pi / 4, sin: -0.70710678118654752440, cos: 0.70710678118654752440),
    ]

    @Test(arguments: known)
    func knownValues(_ k: Known) {
        let (s, c) = AffineTransform.sinCos(k.x)
        // The Double nearest π/6 etc. is off by < 1.2e-16 rad, so the exact values hold to ~2e-16.
        #expect(isClose(s, k.sin, within: 1e-15), "sin(\(k.x)) = \(s)")
        #expect(isClose(c, k.cos, within: 1e-15), "cos(\(k.x)) = \(c)")
    }

    @Test(arguments: [1e6, -1e6, 12345.678, 1e9, 0.1, -7.5])
    func pythagoreanIdentityHoldsForLargeArguments(x: Double) {
        let (s, c) = AffineTransform.sinCos(x)
        #expect(isClose(s * s + c * c, 1, within: 1e-15))
        #expect(abs(s) <= 1 && abs(c) <= 1)
    }

    /// Double-angle identities tie AffineTransform.sinCos(2x) to AffineTransform.sinCos(x) without any reference implementation.
    @Test func doubleAngleIdentities() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let x = rng.range(-10, 10)
            let (s, c) = AffineTransform.sinCos(x), (s2, c2) = AffineTransform.sinCos(2 * x)
            #expect(isClose(s2, 2 * s * c, within: 4e-15))
            #expect(isClose(c2, (c * c - s * s), within: 4e-15))
        }
    }

    /// Against the platform libm (an independent implementation) over a few turns either way.
    @Test func matchesLibmOnSmallArguments() {
        var worst = 0.0
        for i in 0...20_000 {
            let x = (Double(i) / 10_000 - 1) * 6.3
            let (s, c) = AffineTransform.sinCos(x)
            worst = max(worst, abs(s - sin(x)), abs(c - cos(x)))
        }
        #expect(worst <= 1e-15, "worst error \(worst) over |x| ≤ 6.3")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteInputGivesNaN(x: Double) {
        let (s, c) = AffineTransform.sinCos(x)
        #expect(s.isNaN && c.isNaN)
    }

    /// Regression (fixed): the doc comment promises "error < 1e-15 over all finite input", but the
    /// range reduction `x - round(x / 2π) * 2π` uses a one-word 2π (off by 2.4e-16), so the error grows
    /// with |x|: ~1e-14 at x = 100, ~8e-11 at x = 1e6, and the result is unrelated to sin(x) beyond 1e17.
    @Test(arguments: [100.0, 1e3, 1e6])
    func accuracyClaimHoldsForLargerArguments(x: Double) {
        let (s, c) = AffineTransform.sinCos(x)
        #expect(isClose(s, sin(x), within: 1e-15), "sin(\(x)): \(s) vs libm \(sin(x))")
        #expect(isClose(c, cos(x), within: 1e-15), "cos(\(x)): \(c) vs libm \(cos(x))")
    }

    #if !os(Windows)
    /// Regression (fixed): for some huge finite angles the reduced value `r` is ~1e20 (one ulp of x),
    /// and `Int((r / halfPi).rounded())` traps ("Double value cannot be converted to Int"), so
    /// `AffineTransform.rotation(1.2304696171846699e36)` crashes the process instead of answering.
    @Test(arguments: [1.2304696171846699e36, 3.9264234360341735e37, 7.369504147092541e37])
    func hugeFiniteAngleDoesNotCrash(x: Double) async {
        await #expect(processExitsWith: .success) { [x] in
            let (s, c) = AffineTransform.sinCos(x)
            precondition(abs(s) <= 1 && abs(c) <= 1, "AffineTransform.sinCos(\(x)) = (\(s), \(c))")
        }
    }
    #endif
}
