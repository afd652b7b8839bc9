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
package protocol HitSink {
    /// Point `i` of the batch, at `point` (view px), is a miss, unless `hit(_:_:)` follows for it.
    mutating func miss(_ i: Int, at point: Point)
    /// Point `i` of the batch hit: its answer is `h`.
    mutating func hit(_ i: Int, _ h: Hit)
}

/// A `HitSink` writing `Hit?` answers into the same slots of a buffer (what `unsafeHits(for:radius:into:)`
/// answers).
@unsafe package struct OptionalHits: HitSink {
    /// The first answer slot.
    package let base: UnsafeMutablePointer<Hit?>
    /// Answers go to `base[i]`.
    package init(_ base: UnsafeMutablePointer<Hit?>) { self.base = base }
    @inline(__always) package mutating func miss(_ i: Int, at point: Point) { base[i] = nil }
    @inline(__always) package mutating func hit(_ i: Int, _ h: Hit) { base[i] = h }
}

/// A `HitSink` writing each answer into a record of its caller's layout (a C struct, a numpy record): point
/// `i`'s record starts `i * stride` bytes after `base`; it gets 1 or 0 as `Int32` at `hitOffset` (a hit) and
/// `insideOffset` (on the ink), the placement as `Int64` at `placementOffset` (-1 on a miss) and the signed
/// distance, view px, as `Double` at `distanceOffset` (NaN on a miss). The offsets must leave each field inside
/// the record, aligned to its size; the caller keeps the records' memory valid for the call.
@unsafe package struct HitRecords: HitSink {
    let base: UnsafeMutableRawPointer
    let stride: Int
    let hitOffset: Int, insideOffset: Int, placementOffset: Int, distanceOffset: Int

    /// Records of `stride` bytes from `base`, with the fields at the given byte offsets.
    package init(base: UnsafeMutableRawPointer, stride: Int, hitOffset: Int, insideOffset: Int, placementOffset: Int,
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

    @inline(__always) package mutating func miss(_ i: Int, at point: Point) {
        write(i, hit: 0, inside: 0, placement: -1, distance: .nan)
    }

    @inline(__always) package mutating func hit(_ i: Int, _ h: Hit) {
        write(i, hit: 1, inside: h.isInside ? 1 : 0, placement: Int64(h.placement), distance: h.distance)
    }
}
