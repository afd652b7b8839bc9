/// Deterministic random numbers (SplitMix64, Steele–Lea–Flood 2014), so every failure and every benchmark
/// run reproduces: the one generator of the tests, fuzzers and benchmarks.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1), 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// Uniform in [a, b).
    public mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
    /// Uniform in 0..<n (n > 0).
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
