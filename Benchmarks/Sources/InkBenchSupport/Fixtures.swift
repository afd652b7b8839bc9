import InkGeometry
import InkHit

/// The workloads of a process, each built once, on first use (a benchmark's setup), and checked against the
/// brute-force oracle before anything is timed: a wrong answer stops the run (`fatalError`) with a
/// reproducer instead of timing a broken index.
public enum Fixtures {
    public static let page = checked(try! Workloads.page())
    public static let rotatedPage = checked(try! Workloads.rotatedPage())
    public static let at = checked(try! Workloads.at())
    public static let cjk = checked(try! Workloads.cjk())
    nonisolated(unsafe) private static var scalingCache: [Int: Workload] = [:]

    /// The scaling workload with `glyphs` glyphs (built on first use; not thread-safe: call from setup).
    public static func scaling(_ glyphs: Int) -> Workload {
        if glyphs == Workloads.pageGlyphs { return page }
        if let w = scalingCache[glyphs] { return w }
        let w = try! Workloads.scaling(glyphs)
        // The brute-force oracle stores every view-space edge; past 20,000 glyphs it would need ~400 MB.
        scalingCache[glyphs] = glyphs <= 20_000 ? checked(w) : w
        return w
    }

    /// Number of points checked against the oracle in setup.
    public static let checkedPoints = 2_000

    /// Checks `w`'s index against `BruteForce` on its first `checkedPoints` points at r = 0 and r = 3.5;
    /// stops the process on any answer that differs away from a decision boundary.
    public static func checked(_ w: Workload) -> Workload {
        let oracle = BruteForce(w)
        let n = min(checkedPoints, w.points.count)
        let pts = UnsafeBufferPointer(rebasing: w.pointBuffer[0..<n])
        for r in [0.0, 3.5] {
            let c = OracleComparison.compare(index: w.index, oracle: oracle, points: pts, radius: r)
            if c.wrong > 0 {
                fatalError("InkHit disagrees with the brute-force oracle on workload '\(w.name)': \(c)")
            }
        }
        return w
    }
}
