import InkGeometry

/// Receives the answers of a batch query (`HitIndex.unsafeHits(for:count:radius:into:)`), point by point: the
/// one form the batch loops write, so that each caller keeps its own answer format — Swift's `Hit?`, a record
/// laid out for another language (`HitRecords`) — and gets it written in the loop that answers, without a
/// second pass.
///
/// For each point `i`, the batch calls `miss(_:at:)` at most once and `hit(_:_:)` at most once, `miss` first
/// when both come (a staged batch clears every point of a block before it finds the ones on ink): a point's
/// answer is the last call made for it. A point with a NaN or infinite coordinate always gets `miss` and never
/// `hit`.
@_spi(InkInternals) public protocol HitSink {
    /// Point `i` of the batch, at `point` (view px), is a miss, unless `hit(_:_:)` follows for it.
    mutating func miss(_ i: Int, at point: Point)
    /// Point `i` of the batch hit: its answer is `h`.
    mutating func hit(_ i: Int, _ h: Hit)
}

/// A `HitSink` writing `Hit?` answers into the same slots of a buffer (what `unsafeHits(for:radius:into:)`
/// answers).
@_spi(InkInternals) public struct OptionalHits: HitSink {
    /// The first answer slot.
    public let base: UnsafeMutablePointer<Hit?>
    /// Answers go to `base[i]`.
    public init(_ base: UnsafeMutablePointer<Hit?>) { self.base = base }
    @inline(__always) public mutating func miss(_ i: Int, at point: Point) { base[i] = nil }
    @inline(__always) public mutating func hit(_ i: Int, _ h: Hit) { base[i] = h }
}

/// A `HitSink` writing each answer into a record of its caller's layout (a C struct, a numpy record): point
/// `i`'s record starts `i * stride` bytes after `base`; it gets 1 or 0 as `Int32` at `hitOffset` (a hit) and
/// `insideOffset` (on the ink), the placement as `Int64` at `placementOffset` (-1 on a miss) and the signed
/// distance, view px, as `Double` at `distanceOffset` (NaN on a miss). The offsets must leave each field inside
/// the record, aligned to its size; the caller keeps the records' memory valid for the call.
@_spi(InkInternals) public struct HitRecords: HitSink {
    let base: UnsafeMutableRawPointer
    let stride: Int
    let hitOffset: Int, insideOffset: Int, placementOffset: Int, distanceOffset: Int

    /// Records of `stride` bytes from `base`, with the fields at the given byte offsets.
    public init(base: UnsafeMutableRawPointer, stride: Int, hitOffset: Int, insideOffset: Int, placementOffset: Int,
                distanceOffset: Int) {
        self.base = base; self.stride = stride
        self.hitOffset = hitOffset; self.insideOffset = insideOffset
        self.placementOffset = placementOffset; self.distanceOffset = distanceOffset
    }

    @inline(__always) func write(_ i: Int, hit: Int32, inside: Int32, placement: Int64, distance: Double) {
        let r = base + i &* stride
        r.storeBytes(of: hit, toByteOffset: hitOffset, as: Int32.self)
        r.storeBytes(of: inside, toByteOffset: insideOffset, as: Int32.self)
        r.storeBytes(of: placement, toByteOffset: placementOffset, as: Int64.self)
        r.storeBytes(of: distance, toByteOffset: distanceOffset, as: Double.self)
    }

    @inline(__always) public mutating func miss(_ i: Int, at point: Point) {
        write(i, hit: 0, inside: 0, placement: -1, distance: .nan)
    }

    @inline(__always) public mutating func hit(_ i: Int, _ h: Hit) {
        write(i, hit: 1, inside: h.isInside ? 1 : 0, placement: Int64(h.placement), distance: h.distance)
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
    @_spi(InkInternals)
    @_specialize(where S == OptionalHits)
    @_specialize(where S == HitRecords)
    public func unsafeHits<S: HitSink>(for points: UnsafePointer<Point>, count: Int, radius: Double, into sink: inout S) {
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
    @_spi(InkInternals)
    public func unsafeHits(for points: UnsafePointer<Point>, count: Int, radius: Double, into records: HitRecords) {
        var sink = records
        unsafeHits(for: points, count: count, radius: radius, into: &sink)
    }
}
