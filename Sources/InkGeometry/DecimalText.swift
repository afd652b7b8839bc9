/// Plain decimal text for numbers, without Foundation: what SVG paths and JSON answers are written with.
public enum DecimalText {
    /// `v` with at most `maxFractionDigits` (0…9) fractional digits, rounded to nearest, no exponent, no
    /// trailing zeros, no "-0". Magnitudes at or beyond 2^53 (all whole numbers) print every digit; between
    /// 9e15 / 10^digits and 2^53 fewer fractional digits are printed (a Double holds no more there).
    /// Non-finite values print as `nan`, `inf`, `-inf`.
    public static func string(_ v: Double, maxFractionDigits decimals: Int = 3) -> String {
        guard v.isFinite else { return v.isNaN ? "nan" : (v > 0 ? "inf" : "-inf") }
        let a = abs(v)
        if a >= 9007199254740992.0 { return (v < 0 ? "-" : "") + wholeNumberDigits(a) }
        var dec = max(0, min(decimals, 9))
        var scale = 1.0
        for _ in 0..<dec { scale *= 10 }
        while dec > 0 && a * scale >= 9.0e15 { dec -= 1; scale /= 10 }
        let scaled = (a * scale).rounded()
        var n = UInt64(scaled)
        if n == 0 { return "0" }
        var frac = ""
        var fracDigits = dec
        // Strip trailing zeros of the fraction.
        while fracDigits > 0 && n % 10 == 0 { n /= 10; fracDigits -= 1 }
        var p10: UInt64 = 1
        for _ in 0..<fracDigits { p10 *= 10 }
        let intPart = n / p10
        if fracDigits > 0 {
            var f = String(n % p10)
            while f.count < fracDigits { f = "0" + f }
            frac = "." + f
        }
        return (v < 0 ? "-" : "") + String(intPart) + frac
    }

    /// `v` for a message: plain decimals (up to 6 fractional digits) from 1e-4 up to `ViewSpace.limit` in
    /// magnitude (every view coordinate prints in full), the shortest round-trip scientific form outside
    /// (`1e+300`, `1.5e-07`), never more than 24 characters.
    public static func short(_ v: Double) -> String {
        guard v.isFinite else { return v.isNaN ? "nan" : (v > 0 ? "inf" : "-inf") }
        let a = abs(v)
        if a == 0 || (a >= 1e-4 && a < ViewSpace.limit) { return string(v, maxFractionDigits: 6) }
        return "\(v)"
    }

    /// The base of `wholeNumberDigits`' limbs, 10⁹: a limb (< 2³⁰) shifted by up to 29 bits, plus a carry, fits
    /// in 64 bits.
    private static let limbBase: UInt64 = 1_000_000_000

    /// Exact decimal digits of a finite whole number ≥ 2^53 (significand × 2^k, in base-10⁹ limbs).
    private static func wholeNumberDigits(_ a: Double) -> String {
        var limbs: [UInt64] = []                     // little-endian, base 10⁹
        var m = (a.significandBitPattern | (1 << 52))
        while m > 0 { limbs.append(m % limbBase); m /= limbBase }
        var k = Int(a.exponent) - 52
        while k > 0 {
            let step = min(k, 29)
            var carry: UInt64 = 0
            for i in limbs.indices {
                let x = (limbs[i] << UInt64(step)) + carry
                limbs[i] = x % limbBase
                carry = x / limbBase
            }
            while carry > 0 { limbs.append(carry % limbBase); carry /= limbBase }
            k -= step
        }
        var out = String(limbs.last!)
        for l in limbs.dropLast().reversed() {
            let d = String(l)
            out += String(repeating: "0", count: 9 - d.count) + d
        }
        return out
    }
}
