import CInkHit
import InkFreeType
import InkHit
import InkGeometry

// Tags and ink kinds per placement (inkhit.h, "What the renderer drew"): kept beside the builder and copied
// into each index it builds, so InkHit's index itself stays free of C's concerns.

/// Each placement's tag (the caller's 64-bit value) and ink kind (INKHIT_INK_*), by placement number. Both
/// arrays may be shorter than the placements: a missing tag is 0; a missing ink kind is INKHIT_INK_NONE
/// (every add call records one, so only placements of no call are missing). Tags take memory only once a
/// nonzero one is given.
struct PlacementMeta {
    private var tags: [UInt64] = []
    private var inks: [UInt8] = []

    /// Records placement `k`'s tag and ink kind.
    mutating func record(_ k: Int, tag: UInt64, ink: Int32) {
        if tag != 0 || k < tags.count { setTag(k, tag) }
        if inks.count < k { inks.append(contentsOf: repeatElement(UInt8(INKHIT_INK_NONE), count: k - inks.count)) }
        if k == inks.count { inks.append(UInt8(truncatingIfNeeded: ink)) } else { inks[k] = UInt8(truncatingIfNeeded: ink) }
    }

    /// Sets placement `k`'s tag.
    mutating func setTag(_ k: Int, _ tag: UInt64) {
        if k >= tags.count {
            guard tag != 0 else { return }
            tags.append(contentsOf: repeatElement(0, count: k + 1 - tags.count))
        }
        tags[k] = tag
    }

    /// The meta of the first `count` placements (what an index built now holds).
    func prefix(_ count: Int) -> PlacementMeta {
        var m = PlacementMeta()
        m.tags = Array(tags.prefix(count))
        m.inks = Array(inks.prefix(count))
        return m
    }

    func tag(_ k: Int) -> UInt64 { k < tags.count ? tags[k] : 0 }
    func ink(_ k: Int) -> Int32 { k < inks.count ? Int32(inks[k]) : Int32(INKHIT_INK_NONE) }
}

extension GlyphInk {
    /// The INKHIT_INK_* value of this kind.
    var cValue: Int32 {
        switch self {
        case .outline: return Int32(INKHIT_INK_OUTLINE)
        case .colorLayers: return Int32(INKHIT_INK_COLOR_LAYERS)
        case .colorPaint: return Int32(INKHIT_INK_COLOR_PAINT)
        case .bitmap: return Int32(INKHIT_INK_BITMAP)
        case .box: return Int32(INKHIT_INK_BOX)
        }
    }
}

/// `inkhit_builder_set_tag` (inkhit.h).
@_cdecl("inkhit_builder_set_tag")
public func inkhit_builder_set_tag(_ builder: OpaquePointer?, _ placement: Int, _ tag: UInt64) -> inkhit_status {
    call("inkhit_builder_set_tag") { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        try box.lock.withLock { () throws(CError) in
            let n = box.builder.count
            guard placement >= 0, placement < n else {
                throw .argument("placement \(UInt(bitPattern: placement)) is not one of the builder's \(n) placements")
            }
            box.meta.setTag(placement, tag)
        }
    }
}

/// `inkhit_index_placement_tag` (inkhit.h).
@_cdecl("inkhit_index_placement_tag")
public func inkhit_index_placement_tag(_ index: OpaquePointer?, _ placement: Int64,
                                       _ tagOut: UnsafeMutablePointer<UInt64>?) -> inkhit_status {
    guard let tagOut else { return CError.null("tag_out").report("inkhit_index_placement_tag") }
    tagOut.pointee = 0
    return call("inkhit_index_placement_tag") { () throws(CError) in
        let box = try resolve(index, .index, "index", as: IndexBox.self)
        let k = try placementNumber(placement, in: box)
        tagOut.pointee = box.meta.tag(k)
    }
}

/// `inkhit_index_placement_ink` (inkhit.h).
@_cdecl("inkhit_index_placement_ink")
public func inkhit_index_placement_ink(_ index: OpaquePointer?, _ placement: Int64,
                                       _ inkOut: UnsafeMutablePointer<Int32>?) -> inkhit_status {
    guard let inkOut else { return CError.null("ink_out").report("inkhit_index_placement_ink") }
    inkOut.pointee = Int32(INKHIT_INK_NONE)
    return call("inkhit_index_placement_ink") { () throws(CError) in
        let box = try resolve(index, .index, "index", as: IndexBox.self)
        let k = try placementNumber(placement, in: box)
        inkOut.pointee = box.meta.ink(k)
    }
}

/// `placement` as an index into `box`'s placements.
private func placementNumber(_ placement: Int64, in box: IndexBox) throws(CError) -> Int {
    let n = box.index.count
    guard placement >= 0, placement < Int64(n) else {
        throw .argument("placement \(placement) is not one of the index's \(n) placements"
                        + (placement == -1 ? " (-1 is a miss: there is no placement to ask about)" : ""))
    }
    return Int(placement)
}
