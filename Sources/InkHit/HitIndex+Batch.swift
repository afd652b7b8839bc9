import Dispatch
import InkGeometry

extension HitIndex {
    /// Answers `hit(at:radius:)` for every point of `points` (view px) into `out` (same count).
    /// Allocates nothing.
    ///
    /// - Precondition: `out.count >= points.count` (only the first `points.count` slots are written;
    ///   a shorter `out` answers only its first `out.count` points).
    public func hit(at points: UnsafeBufferPointer<Point>, radius: Double = 0, into out: UnsafeMutableBufferPointer<Hit?>) {
        let s = storage
        let n = min(points.count, out.count)
        withExtendedLifetime(s) {
            if radius > 0 {
                for i in 0..<n { out[i] = s.bestHit(points[i].x, points[i].y, radius: radius) }
            } else {
                for i in 0..<n { out[i] = s.inkHit(points[i].x, points[i].y) }
            }
        }
    }

    /// Answers `hit(at:radius:)` for every point, in order (allocates the result).
    public func hit(at points: [Point], radius: Double = 0) -> [Hit?] {
        var out = [Hit?](repeating: nil, count: points.count)
        points.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { o in hit(at: p, radius: radius, into: o) } }
        return out
    }

    /// Like `hit(at:radius:into:)`, split into `chunks` contiguous parts answered on all cores
    /// (Dispatch `concurrentPerform`). Same answers as the single-threaded call.
    public func hitConcurrently(at points: UnsafeBufferPointer<Point>, radius: Double = 0,
                                into out: UnsafeMutableBufferPointer<Hit?>, chunks: Int = 0) {
        let n = min(points.count, out.count)
        guard n > 0 else { return }
        let parts = max(1, min(chunks > 0 ? chunks : 4 * ProcessInfoLite.activeCores, n))
        let s = storage
        let pBase = points.baseAddress!, oBase = out.baseAddress!
        let pAddr = UInt(bitPattern: pBase), oAddr = UInt(bitPattern: oBase)
        withExtendedLifetime(s) {
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let lo = n * part / parts, hi = n * (part + 1) / parts
                let p = UnsafePointer<Point>(bitPattern: pAddr)!
                let o = UnsafeMutablePointer<Hit?>(bitPattern: oAddr)!
                if radius > 0 {
                    for i in lo..<hi { o[i] = s.bestHit(p[i].x, p[i].y, radius: radius) }
                } else {
                    for i in lo..<hi { o[i] = s.inkHit(p[i].x, p[i].y) }
                }
            }
        }
    }
}

/// Core count without Foundation.
enum ProcessInfoLite {
    static var activeCores: Int {
        #if canImport(Glibc)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 4
        #endif
    }
}
#if canImport(Glibc)
import Glibc
#endif
