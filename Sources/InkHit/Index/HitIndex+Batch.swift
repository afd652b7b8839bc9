import Dispatch
import InkGeometry

extension HitIndex {
    /// The answer of `hit(at:radius:)` for each of `points` (view px), in order. Allocates the result.
    /// A negative or NaN radius counts as 0.
    public func hits(for points: [Point], radius: Double = 0) -> [Hit?] {
        var out: [Hit?] = []
        hits(for: points, radius: radius, into: &out)
        return out
    }

    /// Like `hits(for:radius:)`, writing into `out`, which ends up with `points.count` answers. Reuses
    /// `out`'s storage: a caller that keeps one array allocates only when it must grow, so repeated batches
    /// allocate nothing. A negative or NaN radius counts as 0.
    public func hits(for points: [Point], radius: Double = 0, into out: inout [Hit?]) {
        if out.count != points.count {
            out.removeAll(keepingCapacity: true)
            out.append(contentsOf: repeatElement(nil, count: points.count))
        }
        points.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in unsafeHits(for: p, radius: radius, into: o) }
        }
    }

    /// Not API: the batch query on raw buffers, for callers that already hold their points and answers in
    /// memory they manage (the job runner, the benchmarks): answers `hit(at:radius:)` for the first
    /// `min(points.count, out.count)` points into the same slots of `out`. Allocates nothing. Public callers
    /// use `hits(for:radius:into:)`, which reuses its array and allocates nothing either once it is grown.
    /// A negative or NaN radius counts as 0.
    ///
    /// - Precondition: the buffers are valid for the call and do not overlap.
    @_spi(RawBuffers) @unsafe
    public func unsafeHits(for points: UnsafeBufferPointer<Point>, radius: Double = 0,
                           into out: UnsafeMutableBufferPointer<Hit?>) {
        let n = min(points.count, out.count)
        guard n > 0, let p = points.baseAddress, let o = out.baseAddress else { return }
        var sink = OptionalHits(o)
        unsafeHits(for: p, count: n, radius: radius, into: &sink)
    }

    /// Not API: `topmost(at:)` for each of `points` (view px) into the same slots of `out` (-1: no ink
    /// there), for the first `min(points.count, out.count)` points. Answers batches in stages (see
    /// `unsafeHits`); allocates nothing.
    ///
    /// - Precondition: the buffers are valid for the call and do not overlap.
    @_spi(RawBuffers) @unsafe
    public func unsafeTopmost(for points: UnsafeBufferPointer<Point>, into out: UnsafeMutableBufferPointer<Int>) {
        let s = storage
        let n = min(points.count, out.count)
        withExtendedLifetime(s) {
            guard let raster = s.raster, n > 0 else {
                for i in 0..<n { out[i] = s.topmost(points[i].x, points[i].y) }
                return
            }
            s.topmostStaged(points.baseAddress!, n, into: out.baseAddress!, raster: raster)
        }
    }

    /// Like `hits(for:radius:)`, split into `chunks` contiguous parts answered on all cores (Dispatch
    /// `concurrentPerform`; `chunks` ≤ 0 picks 4 per core). Same answers as the single-threaded call.
    /// A negative or NaN radius counts as 0.
    public func concurrentHits(for points: [Point], radius: Double = 0, chunks: Int = 0) -> [Hit?] {
        var out = [Hit?](repeating: nil, count: points.count)
        points.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in unsafeConcurrentHits(for: p, radius: radius, into: o, chunks: chunks) }
        }
        return out
    }

    /// Not API: `concurrentHits(for:radius:chunks:)` on raw buffers (see `unsafeHits(for:radius:into:)`). A
    /// negative or NaN radius counts as 0.
    ///
    /// - Precondition: the buffers are valid for the call and do not overlap.
    @_spi(RawBuffers) @unsafe
    public func unsafeConcurrentHits(for points: UnsafeBufferPointer<Point>, radius: Double = 0,
                                     into out: UnsafeMutableBufferPointer<Hit?>, chunks: Int = 0) {
        let n = min(points.count, out.count)
        guard n > 0, let pBase = points.baseAddress, let oBase = out.baseAddress else { return }
        let parts = max(1, min(chunks > 0 ? chunks : 4 * ProcessInfoLite.activeCores, n))
        let buffers = ConcurrentBatch(points: pBase, out: oBase, count: n, parts: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let (p, o) = buffers.part(part)
            unsafeHits(for: p, radius: radius, into: o)
        }
    }
}

extension HitIndex {
    /// Not API: the batch query into a sink. Answers `hit(at:radius:)` for `points[0 ..< count]` (view px),
    /// point `i`'s answer going to `sink` as `HitSink` says, in the same staged loops as
    /// `hits(for:radius:into:)`. A negative or NaN radius counts as 0; non-finite points are misses.
    /// Allocates nothing. Specialized in this module for the stock sinks (`OptionalHits`, `HitRecords`); a
    /// sink of another module is called through its protocol witness per answer.
    ///
    /// - Precondition: `points` holds `count` points, valid for the call.
    @unsafe
    @_specialize(where S == OptionalHits)
    @_specialize(where S == HitRecords)
    package func unsafeHits<S: HitSink>(for points: UnsafePointer<Point>, count: Int, radius: Double, into sink: inout S) {
        let s = storage
        withExtendedLifetime(s) {
            if let raster = s.raster, count > 0, radius <= s.preparedRadius {
                // The staged batches (HitIndex+Pipeline.swift).
                if radius > 0 {
                    s.nearStaged(points, count, radius: radius, raster: raster) { i, h in
                        if let h { sink.hit(i, h) } else { sink.miss(i, at: points[i]) }
                    }
                } else {
                    s.inkStaged(points, count, raster: raster, distances: true, clear: { i in
                        sink.miss(i, at: points[i])           // every point starts as a miss, in order
                    }, emit: { i, q, d in
                        sink.hit(i, Hit(placement: q, distance: -d, isInside: true))
                    })
                }
            } else {
                for i in 0..<count {
                    let x = points[i].x, y = points[i].y
                    let h = radius > 0 ? s.bestHit(x, y, radius: radius) : s.inkHit(x, y)
                    if let h { sink.hit(i, h) } else { sink.miss(i, at: points[i]) }
                }
            }
        }
    }

    /// Not API: `unsafeHits(for:count:radius:into:)` writing records (`HitRecords`): the C interface's and
    /// numpy's answer layouts. Allocates nothing.
    ///
    /// - Precondition: `points` holds `count` points and the records `count` records, valid for the call.
    @unsafe
    package func unsafeHits(for points: UnsafePointer<Point>, count: Int, radius: Double, into records: HitRecords) {
        var sink = records
        unsafeHits(for: points, count: count, radius: radius, into: &sink)
    }
}

/// The buffers of one `unsafeConcurrentHits` call, shared by its parts on other threads. Sendable by contract
/// (`@unchecked`): the points are only read; the answer slots are split into `parts` contiguous,
/// non-overlapping ranges, and part `k` writes only range `k`; the caller keeps both buffers valid until
/// `concurrentPerform` returns, which is before the call does.
private struct ConcurrentBatch: @unchecked Sendable {
    /// The first point (view px); `count` of them.
    let points: UnsafePointer<Point>
    /// The first answer slot; `count` of them.
    let out: UnsafeMutablePointer<Hit?>
    /// How many points and slots the batch answers.
    let count: Int
    /// How many contiguous parts the batch is split into (1 ≤ parts ≤ count).
    let parts: Int

    /// Part `k`'s points and answer slots: `count * k / parts ..< count * (k + 1) / parts`.
    func part(_ k: Int) -> (UnsafeBufferPointer<Point>, UnsafeMutableBufferPointer<Hit?>) {
        let lo = count * k / parts, hi = count * (k + 1) / parts
        return (UnsafeBufferPointer(start: points + lo, count: hi - lo),
                UnsafeMutableBufferPointer(start: out + lo, count: hi - lo))
    }
}

/// Core count without Foundation.
enum ProcessInfoLite {
    static var activeCores: Int {
        #if canImport(Glibc)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #elseif canImport(Darwin)
        return max(1, Int(sysconf(_SC_NPROCESSORS_ONLN)))
        #else
        return 4
        #endif
    }
}
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
