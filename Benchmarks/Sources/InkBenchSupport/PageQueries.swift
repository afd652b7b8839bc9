import InkGeometry
@_spi(RawBuffers) import InkHit

/// The page query calls `ink-bench-summary compare` times, written in this checkout's API (the patch that
/// scripts/bench-compare.sh applies to an older commit's benchmarks gives it the same type over the API of
/// that commit, so both sides time the same work under the same names).
public final class PageQueries {
    public let workload: Workload
    var out: [Hit?]

    public init(_ w: Workload) {
        workload = w
        out = [Hit?](repeating: nil, count: w.points.count)
    }

    /// What `batch` calls.
    public static let batchAPI = "hits(for:radius:into:) on a [Point], answers in a reused [Hit?]"
    /// What `rawBuffers` calls.
    public static let rawBuffersAPI = "unsafeHits(for:radius:into:)"

    /// All points once through the main batch form.
    public func batch(radius: Double) {
        workload.index.hits(for: workload.points, radius: radius, into: &out)
    }

    /// All points once through the batch form on raw buffers.
    public func rawBuffers(radius: Double) {
        workload.index.unsafeHits(for: workload.pointBuffer, radius: radius, into: workload.answers)
    }

    /// All points once, one `hit(at:radius:)` call each.
    public func single(radius: Double) {
        let index = workload.index, pts = workload.pointBuffer, answers = workload.answers
        for i in 0..<pts.count { answers[i] = index.hit(at: pts[i], radius: radius) }
    }
}
