/// How a piece of work grows with its size, measured so that a shared, noisy machine cannot decide the
/// answer: the work at size n and at 2n, interleaved (n, 2n, n, 2n, …) so that both see the same load, each
/// timed `runs` times; the ratio of the two medians. Linear work gives about 2 (less when a fixed cost
/// dominates), n log n a little more, quadratic work 4: a test compares the ratio with 3.
public enum Scaling {
    /// The median time of `work(2n)` over the median time of `work(n)`. `work` must do the same thing at every
    /// call for one size (build its input outside, or include the build in both sizes alike).
    public static func doublingRatio(n: Int, runs: Int = 5, _ work: (Int) throws -> Void) rethrows -> Double {
        precondition(runs >= 1 && n >= 1)
        let clock = ContinuousClock()
        var small: [Duration] = [], large: [Duration] = []
        try work(n)                                                     // warm-up: caches, lazy state
        for _ in 0..<runs {
            var start = clock.now
            try work(n)
            small.append(clock.now - start)
            start = clock.now
            try work(2 * n)
            large.append(clock.now - start)
        }
        return seconds(median(large)) / max(seconds(median(small)), 1e-9)
    }

    static func median(_ d: [Duration]) -> Duration { d.sorted()[d.count / 2] }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
