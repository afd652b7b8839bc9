/// Median wall-clock timing for the summary tool (the package-benchmark suite does its own).
public enum Timing {
    /// Runs `body` once to warm up, then again until at least `rounds` rounds and `minSeconds` seconds have
    /// passed (at most `maxRounds`), and returns the median round time in seconds.
    public static func median(rounds: Int = 11, minSeconds: Double = 0.5, maxRounds: Int = 1_000,
                              _ body: () -> Void) -> Double {
        stats(rounds: rounds, minSeconds: minSeconds, maxRounds: maxRounds, body).median
    }

    /// Like `median`, also returning the fastest round (the least disturbed by other processes).
    public static func stats(rounds: Int = 11, minSeconds: Double = 0.5, maxRounds: Int = 1_000,
                             _ body: () -> Void) -> (median: Double, min: Double) {
        let clock = ContinuousClock()
        body()
        var samples: [Double] = []
        samples.reserveCapacity(64)
        var total = 0.0
        while samples.count < maxRounds && (samples.count < rounds || total < minSeconds) {
            let t0 = clock.now
            body()
            let s = (clock.now - t0).seconds
            samples.append(s)
            total += s
        }
        samples.sort()
        let n = samples.count
        return (n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2, samples[0])
    }
}
