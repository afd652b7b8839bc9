import CInkHit
import CInkHitRuntime
import InkGeometry
import InkHit
import InkScene

// Batch queries (inkhit.h, "Index queries" and "Hit scenes"): the 1.0 calls, whose INVALID_ARGUMENT means
// "nothing answered" for a bad radius and "everything answered" for non-finite points, and the 1.2 calls
// (`_hit_batch`), which answer every point and return INKHIT_OK, report the non-finite points they answered
// as misses, and write nothing on any error.

/// What a 1.2 batch does with a non-finite point (`inkhit_non_finite`).
enum NonFinitePolicy {
    /// Answered as a miss, counted.
    case miss
    /// The whole batch refused, nothing answered.
    case error

    init(_ v: Int32) throws(CError) {
        switch v {
        case Int32(INKHIT_NON_FINITE_MISS.rawValue): self = .miss
        case Int32(INKHIT_NON_FINITE_ERROR.rawValue): self = .error
        default:
            throw .argument("non_finite must be INKHIT_NON_FINITE_MISS (0) or INKHIT_NON_FINITE_ERROR (1) (got \(v))")
        }
    }
}

/// Points answered per block: a block's points are checked for finiteness, then answered while still in L1 (16 KiB).
let batchBlock = 1024

/// How many of `p[0 ..< n]` have a NaN or infinite coordinate: an exponent of all ones, tested on the bits
/// (a loop the compiler vectorizes).
@inline(__always) func nonFiniteCount(_ p: UnsafePointer<inkhit_point>, _ n: Int) -> Int {
    let exponent: UInt64 = 0x7FF0_0000_0000_0000
    var k = 0
    UnsafeRawPointer(p).withMemoryRebound(to: UInt64.self, capacity: 2 * n) { bits in
        for i in 0..<n {
            let x = bits[2 * i] & exponent, y = bits[2 * i + 1] & exponent
            k &+= (x == exponent || y == exponent) ? 1 : 0
        }
    }
    return k
}

/// The first of `p[0 ..< n]` with a NaN or infinite coordinate, and how many there are (-1, 0: none).
func firstNonFinite(_ p: UnsafePointer<inkhit_point>, _ n: Int) -> (first: Int, count: Int) {
    var first = -1, k = 0
    for i in 0..<n where !(p[i].x.isFinite && p[i].y.isFinite) {
        if first < 0 { first = i }
        k += 1
    }
    return (first, k)
}

/// "points[3] (nan, 1) is not finite (2 such points…": names the first non-finite point.
func nonFiniteMessage(_ p: UnsafePointer<inkhit_point>, _ first: Int, _ count: Int, _ tail: String) -> CError {
    let q = p[first]
    return .argument("points[\(first)] (\(show(q.x)), \(show(q.y))) is not finite (\(count) such point\(count == 1 ? "" : "s")"
                     + "; \(tail))")
}

/// Whether `Point` and `inkhit_point` have one layout (two Doubles, x first), so a batch reads the caller's
/// points in place.
let pointLayoutsMatch = MemoryLayout<Point>.size == MemoryLayout<inkhit_point>.size
    && MemoryLayout<Point>.stride == MemoryLayout<inkhit_point>.stride
    && MemoryLayout<Point>.offset(of: \Point.y) == MemoryLayout<inkhit_point>.offset(of: \inkhit_point.y)

/// The inkhit_hit layout as a record sink of the core's batch loop: the answers are written in place.
func hitRecords(_ o: UnsafeMutablePointer<inkhit_hit>) -> HitRecords {
    HitRecords(base: UnsafeMutableRawPointer(o), stride: MemoryLayout<inkhit_hit>.stride,
               hitOffset: MemoryLayout<inkhit_hit>.offset(of: \inkhit_hit.hit)!,
               insideOffset: MemoryLayout<inkhit_hit>.offset(of: \inkhit_hit.inside)!,
               placementOffset: MemoryLayout<inkhit_hit>.offset(of: \inkhit_hit.placement)!,
               distanceOffset: MemoryLayout<inkhit_hit>.offset(of: \inkhit_hit.distance)!)
}

/// Answers `p[0 ..< n]` into `o[0 ..< n]` (the core's staged batch writing inkhit_hit records), block by block;
/// returns how many points were not finite (answered as misses). Allocates nothing.
func answerIndexBatch(_ index: HitIndex, _ p: UnsafePointer<inkhit_point>, _ n: Int, _ radius: Double,
                      _ o: UnsafeMutablePointer<inkhit_hit>) -> Int {
    var skipped = 0, base = 0
    while base < n {
        let k = min(batchBlock, n - base)
        skipped &+= nonFiniteCount(p + base, k)
        if pointLayoutsMatch {
            UnsafeRawPointer(p + base).withMemoryRebound(to: Point.self, capacity: k) { points in
                index.unsafeHits(for: points, count: k, radius: radius, into: hitRecords(o + base))
            }
        } else {
            for i in base..<(base + k) { o[i] = cHit(index.hit(at: Point(p[i].x, p[i].y), radius: radius)) }
        }
        base += k
    }
    return skipped
}

/// The arguments every batch call checks after its handle, in order: the radius, the point and answer arrays.
func batchBuffers<T>(radius: Double, _ points: UnsafePointer<inkhit_point>?, _ n: Int,
                     _ out: UnsafeMutablePointer<T>?) throws(CError) -> (UnsafePointer<inkhit_point>?, UnsafeMutablePointer<T>?) {
    guard radiusIsValid(radius) else { throw radiusError(radius) }
    let queries = try buffer(points, n, "points", countName: "count")
    let answers = try mutableBuffer(out, n, "out", countName: "count")
    return (queries.baseAddress, answers.baseAddress)
}

/// `inkhit_index_hits` (inkhit.h, 1.0): every point answered unless the radius is bad; non-finite points make
/// it return INVALID_ARGUMENT after answering every point.
@_cdecl("inkhit_index_hits")
public func inkhit_index_hits(_ index: OpaquePointer?, _ points: UnsafePointer<inkhit_point>?, _ n: Int, _ radius: Double,
                              _ out: UnsafeMutablePointer<inkhit_hit>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    let function: StaticString = "inkhit_index_hits"
    do throws(CError) {
        guard let box = lookup(index, .index, as: IndexBox.self, in: thread) else {
            throw handleError(index, .index, "index")
        }
        let (p, o) = try batchBuffers(radius: radius, points, n, out)
        guard let p, let o else { return inkhit_status(INKHIT_OK) }
        let skipped = box.withBorrowed { answerIndexBatch($0.index, p, n, radius, o) }
        guard skipped == 0 else {
            let (first, count) = firstNonFinite(p, n)
            throw nonFiniteMessage(p, first, count, "answered as misses; the other points were answered")
        }
        return inkhit_status(INKHIT_OK)
    } catch {
        return error.report(function)
    }
}

/// `inkhit_index_hit_batch` (inkhit.h, 1.2).
@_cdecl("inkhit_index_hit_batch")
public func inkhit_index_hit_batch(_ index: OpaquePointer?, _ points: UnsafePointer<inkhit_point>?, _ n: Int,
                                   _ radius: Double, _ nonFinite: Int32, _ out: UnsafeMutablePointer<inkhit_hit>?,
                                   _ skippedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    skippedOut?.pointee = 0
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    let function: StaticString = "inkhit_index_hit_batch"
    do throws(CError) {
        guard let box = lookup(index, .index, as: IndexBox.self, in: thread) else {
            throw handleError(index, .index, "index")
        }
        let (p, o) = try batchBuffers(radius: radius, points, n, out)
        let policy = try NonFinitePolicy(nonFinite)
        guard let p, let o else { return inkhit_status(INKHIT_OK) }
        if policy == .error {
            let (first, count) = firstNonFinite(p, n)
            if first >= 0 { throw nonFiniteMessage(p, first, count, "nothing was answered: INKHIT_NON_FINITE_ERROR") }
        }
        let skipped = box.withBorrowed { answerIndexBatch($0.index, p, n, radius, o) }
        skippedOut?.pointee = skipped
        return inkhit_status(INKHIT_OK)
    } catch {
        return error.report(function)
    }
}

/// Answers `p[0 ..< n]` of a snapshot into `o`; returns how many points were not finite.
func answerSnapshotBatch(_ b: SnapshotBox, _ p: UnsafePointer<inkhit_point>, _ n: Int, _ radius: Double,
                         _ o: UnsafeMutablePointer<inkhit_scene_hit>) -> Int {
    var skipped = 0
    for i in 0..<n {
        let q = p[i]
        o[i] = cSceneHit(b.snapshot.hit(at: Point(q.x, q.y), radius: radius), b)
        skipped &+= q.x.isFinite && q.y.isFinite ? 0 : 1
    }
    return skipped
}

/// `inkhit_snapshot_hits` (inkhit.h, 1.1): as `inkhit_index_hits`.
@_cdecl("inkhit_snapshot_hits")
public func inkhit_snapshot_hits(_ snapshot: OpaquePointer?, _ points: UnsafePointer<inkhit_point>?, _ n: Int,
                                 _ radius: Double, _ out: UnsafeMutablePointer<inkhit_scene_hit>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    let function: StaticString = "inkhit_snapshot_hits"
    do throws(CError) {
        guard let box = lookup(snapshot, .snapshot, as: SnapshotBox.self, in: thread) else {
            throw handleError(snapshot, .snapshot, "snapshot")
        }
        let (p, o) = try batchBuffers(radius: radius, points, n, out)
        guard let p, let o else { return inkhit_status(INKHIT_OK) }
        let skipped = box.withBorrowed { answerSnapshotBatch($0, p, n, radius, o) }
        guard skipped == 0 else {
            let (first, count) = firstNonFinite(p, n)
            throw nonFiniteMessage(p, first, count, "answered as misses; the other points were answered")
        }
        return inkhit_status(INKHIT_OK)
    } catch {
        return error.report(function)
    }
}

/// `inkhit_snapshot_hit_batch` (inkhit.h, 1.2): as `inkhit_index_hit_batch`.
@_cdecl("inkhit_snapshot_hit_batch")
public func inkhit_snapshot_hit_batch(_ snapshot: OpaquePointer?, _ points: UnsafePointer<inkhit_point>?, _ n: Int,
                                      _ radius: Double, _ nonFinite: Int32, _ out: UnsafeMutablePointer<inkhit_scene_hit>?,
                                      _ skippedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    skippedOut?.pointee = 0
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    let function: StaticString = "inkhit_snapshot_hit_batch"
    do throws(CError) {
        guard let box = lookup(snapshot, .snapshot, as: SnapshotBox.self, in: thread) else {
            throw handleError(snapshot, .snapshot, "snapshot")
        }
        let (p, o) = try batchBuffers(radius: radius, points, n, out)
        let policy = try NonFinitePolicy(nonFinite)
        guard let p, let o else { return inkhit_status(INKHIT_OK) }
        if policy == .error {
            let (first, count) = firstNonFinite(p, n)
            if first >= 0 { throw nonFiniteMessage(p, first, count, "nothing was answered: INKHIT_NON_FINITE_ERROR") }
        }
        // Answered first, then the count stored (an optional-chained store would skip the answers for NULL).
        let skipped = box.withBorrowed { answerSnapshotBatch($0, p, n, radius, o) }
        skippedOut?.pointee = skipped
        return inkhit_status(INKHIT_OK)
    } catch {
        return error.report(function)
    }
}
