import CInkHit
import CInkHitRuntime
import InkFreeType
import InkGeometry
import InkHit
import InkScene
import InkText

// Hit scenes (inkhit.h, "Hit scenes"). A C node id (a 64-bit number) is the Swift node's id in decimal, so
// messages name nodes by the caller's numbers; answers map back to C ids through the table of ids by slot
// that the scene keeps (`SceneBox.ids`) and each snapshot copies, so a hit parses nothing.

/// `inkhit_node_init` (inkhit.h).
@_cdecl("inkhit_node_init")
public func inkhit_node_init(_ node: UnsafeMutablePointer<inkhit_node>?, _ id: UInt64) -> inkhit_status {
    call("inkhit_node_init") { () throws(CError) in
        guard let node else { throw .null("node") }
        node.pointee = inkhit_node(
            id: id, transform: inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0),
            bounds: inkhit_rect(min_x: 0, min_y: 0, max_x: 0, max_y: 0), flags: 0,
            pointer_events: Int32(INKHIT_POINTER_AUTO), alpha: 1, slop_top: 0, slop_left: 0, slop_bottom: 0, slop_right: 0,
            min_width: 0, min_height: 0, shape: Int32(INKHIT_SHAPE_BOX), fill_rule: Int32(INKHIT_FILL_NONZERO),
            corner_radius: 0, verbs: nil, verb_count: 0, points: nil, point_count: 0, text: nil,
            holes: Int32(INKHIT_HOLES_INK))
    }
}

/// A C node as a Swift `Node`, every field checked (`name` names it in messages); `data` gives a glyph-run or
/// mask node its shape (`hasData`: the call takes an `inkhit_node_shape`, so those shapes are allowed).
func sceneNode(_ p: UnsafePointer<inkhit_node>?, _ name: String, data: UnsafePointer<inkhit_node_shape>? = nil,
               hasData: Bool = false) throws(CError) -> Node {
    guard let p else { throw .null(name) }
    let n = p.pointee
    let field = "\(name)->"
    let t = try transform(n.transform, field + "transform")
    let bounds = try rect(n.bounds, field + "bounds")
    let known = UInt32(INKHIT_NODE_HIDDEN | INKHIT_NODE_NOT_INTERACTIVE | INKHIT_NODE_NOT_CLIPS_CHILDREN)
    guard n.flags & ~known == 0 else {
        throw .argument("\(field)flags 0x\(String(n.flags, radix: 16)) has bits that are not INKHIT_NODE_ flags")
    }
    guard !n.alpha.isNaN else { throw .argument("\(field)alpha is NaN") }
    let pointerEvents: PointerEvents
    switch Int(n.pointer_events) {
    case INKHIT_POINTER_AUTO: pointerEvents = .auto
    case INKHIT_POINTER_NONE: pointerEvents = .none
    case INKHIT_POINTER_BOX_NONE: pointerEvents = .boxNone
    case INKHIT_POINTER_BOX_ONLY: pointerEvents = .boxOnly
    default: throw .argument("\(field)pointer_events \(n.pointer_events) is not an INKHIT_POINTER_ value")
    }
    let slop = EdgeInsets(top: try finite(n.slop_top, field + "slop_top"), left: try finite(n.slop_left, field + "slop_left"),
                          bottom: try finite(n.slop_bottom, field + "slop_bottom"),
                          right: try finite(n.slop_right, field + "slop_right"))
    let minWidth = try finite(n.min_width, field + "min_width"), minHeight = try finite(n.min_height, field + "min_height")
    guard minWidth >= 0, minHeight >= 0 else {
        throw .argument("\(field)min_width and min_height must be >= 0 (got \(show(minWidth)), \(show(minHeight)))")
    }
    let shape = try nodeShape(n, field, data: data, hasData: hasData)
    return Node(id: String(n.id), bounds: bounds, transform: t, shape: shape,
                isHidden: n.flags & UInt32(INKHIT_NODE_HIDDEN) != 0,
                isInteractive: n.flags & UInt32(INKHIT_NODE_NOT_INTERACTIVE) == 0, alpha: n.alpha,
                clipsChildren: n.flags & UInt32(INKHIT_NODE_NOT_CLIPS_CHILDREN) == 0, pointerEvents: pointerEvents, slop: slop,
                minSize: (minWidth, minHeight))
}

/// A C hole policy (`field` names it).
func holePolicy(_ v: Int32, _ field: String) throws(CError) -> HolePolicy {
    switch Int(v) {
    case INKHIT_HOLES_INK: return .ink
    case INKHIT_HOLES_FILLED_COUNTERS: return .filledCounters
    case INKHIT_HOLES_WORD_HULL: return .wordHull
    default: throw .argument("\(field) \(v) is not an INKHIT_HOLES_ value")
    }
}

/// The shape of C node `n` (`field` prefixes messages), glyph runs and masks from `data`.
func nodeShape(_ n: inkhit_node, _ field: String, data: UnsafePointer<inkhit_node_shape>?,
               hasData: Bool) throws(CError) -> NodeShape {
    let shape: NodeShape
    switch Int(n.shape) {
    case INKHIT_SHAPE_BOX:
        shape = .box
    case INKHIT_SHAPE_ROUND_RECT:
        let r = try finite(n.corner_radius, field + "corner_radius")
        guard r >= 0 else { throw .argument("\(field)corner_radius must be >= 0 (got \(show(r)))") }
        shape = .roundRect(radius: r)
    case INKHIT_SHAPE_ELLIPSE:
        shape = .ellipse
    case INKHIT_SHAPE_PATH:
        let commands = try PathCommands(verbs: n.verbs, verbCount: n.verb_count, points: n.points,
                                        pointCount: n.point_count, prefix: field)
        shape = .path(commands.elements, fillRule: try fillRule(n.fill_rule, field + "fill_rule"))
    case INKHIT_SHAPE_TEXT:
        guard n.text != nil else { throw .null("\(field)text (a text node needs a layout)") }
        let layout = try resolve(n.text, .layout, field + "text", as: LayoutBox.self).layout
        shape = .text(layout, holes: try holePolicy(n.holes, field + "holes"))
    case INKHIT_SHAPE_GLYPHS, INKHIT_SHAPE_MASK:
        guard hasData else {
            throw .argument("\(field)shape \(n.shape) (glyphs or a mask) needs its data: add it with inkhit_scene_add_shaped "
                            + "or inkhit_scene_update_shaped")
        }
        guard let data else { throw .null("shape (node \(n.id) is a glyph-run or mask node)") }
        let size = structSize(of: data)
        try checkStructSize(UnsafeRawPointer(data), size, known: StructSizes.nodeShape, "shape", type: "inkhit_node_shape",
                            init: "inkhit_node_shape_init")
        // A 1.1 struct has no mask_length: its mask bytes are read as width x height (trusted, as 1.1 said).
        var d = inkhit_node_shape()
        withUnsafeMutableBytes(of: &d) {
            $0.baseAddress!.copyMemory(from: UnsafeRawPointer(data), byteCount: min(size, MemoryLayout<inkhit_node_shape>.size))
        }
        shape = Int(n.shape) == INKHIT_SHAPE_GLYPHS ? try glyphsShape(d)
            : try maskShape(d, length: size >= MemoryLayout<inkhit_node_shape>.size ? d.mask_length : nil)
    default:
        throw .argument("\(field)shape \(n.shape) is not an INKHIT_SHAPE_ value")
    }
    return shape
}

/// Most glyphs one glyph-run node may have.
let maxNodeGlyphs = 1_000_000

/// A glyph-run node's shape: its glyphs checked and copied (their fonts kept by the placements).
func glyphsShape(_ d: inkhit_node_shape) throws(CError) -> NodeShape {
    guard d.glyph_count <= maxNodeGlyphs else {
        throw CError(INKHIT_ERROR_LIMIT, "shape->glyph_count \(d.glyph_count) is more than \(maxNodeGlyphs) glyphs a node")
    }
    let given = try buffer(d.glyphs, d.glyph_count, "shape->glyphs", countName: "shape->glyph_count")
    var glyphs: [GlyphPlacement] = []
    glyphs.reserveCapacity(given.count)
    for (i, g) in given.enumerated() { glyphs.append(try glyphPlacement(g, "shape->glyphs[\(i)].")) }
    return .glyphs(glyphs, holes: try holePolicy(d.holes, "shape->holes"))
}

/// A mask node's shape: its bytes checked against the mask limit and copied; a mask of no pixels is never hit
/// (one transparent pixel), as a box of no size is never hit.
func maskShape(_ d: inkhit_node_shape, length: Int?) throws(CError) -> NodeShape {
    guard d.mask_threshold <= 255 else { throw .argument("shape->mask_threshold must be 0 ... 255 (got \(d.mask_threshold))") }
    let threshold = d.mask_threshold == 0 ? UInt8(128) : UInt8(d.mask_threshold)
    let w = Int(d.mask_width), h = Int(d.mask_height)
    guard w == 0 || h == 0 || w <= AlphaMask.maxPixels / h else {
        throw CError(INKHIT_ERROR_LIMIT, "shape->mask_width x mask_height (\(w) x \(h)) is more than \(AlphaMask.maxPixels) "
                     + "pixels (4096 x 4096)")
    }
    if let length {
        // 1.2: the caller says how many bytes it gives; the library reads no more, and uses them all.
        let given = try count(length, "shape->mask_length")
        guard given == w * h else {
            throw .argument("shape->mask_length is \(given), but a mask of \(w) x \(h) pixels has \(w * h) bytes "
                            + "(one alpha byte per pixel, row by row)")
        }
    }
    guard w > 0, h > 0 else { return .mask(AlphaMask(width: 1, height: 1, alpha: [0], threshold: threshold)!) }
    let bytes = try buffer(d.mask_alpha, w * h, "shape->mask_alpha", countName: "shape->mask_width x mask_height")
    guard let mask = AlphaMask(width: w, height: h, alpha: Array(bytes), threshold: threshold) else {
        throw .argument("shape->mask of \(w) x \(h) pixels cannot be made")
    }
    return .mask(mask)
}

/// `inkhit_node_shape_init` (inkhit.h).
@_cdecl("inkhit_node_shape_init")
public func inkhit_node_shape_init(_ shape: UnsafeMutablePointer<inkhit_node_shape>?) -> inkhit_status {
    guard let shape else { return CError.null("shape").report("inkhit_node_shape_init") }
    shape.pointee = inkhit_node_shape(struct_size: MemoryLayout<inkhit_node_shape>.size, glyphs: nil, glyph_count: 0,
                                      holes: Int32(INKHIT_HOLES_INK), mask_width: 0, mask_height: 0, mask_alpha: nil,
                                      mask_threshold: 0, mask_length: 0)
    return inkhit_status(INKHIT_OK)
}

/// `inkhit_scene_create` (inkhit.h).
@_cdecl("inkhit_scene_create")
public func inkhit_scene_create(_ root: UnsafePointer<inkhit_node>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_scene_create") { () throws(CError) in
        guard let out else { throw .null("out") }
        guard let root else { throw .null("root") }
        try publish(SceneBox(Scene(root: try sceneNode(root, "root")), rootID: root.pointee.id), .scene, to: out)
    }
}

/// Runs `body` on the scene of a live handle, under its lock, mapping its errors.
private func withScene<R>(_ handle: OpaquePointer?,
                          _ body: (inout Scene) throws(SceneError) -> R) throws(CError) -> R {
    try withSceneBox(handle) { (box) throws(SceneError) in try body(&box.scene) }
}

/// Runs `body` on the box of a live scene handle (its scene and id table), under its lock, mapping its errors.
private func withSceneBox<R>(_ handle: OpaquePointer?, _ body: (SceneBox) throws(SceneError) -> R) throws(CError) -> R {
    let box = try resolve(handle, .scene, "scene", as: SceneBox.self)
    return try box.lock.withLock { () throws(CError) -> R in
        do throws(SceneError) { return try body(box) } catch { throw CError(error) }
    }
}

/// Adds C node `node` (its data in `data` when `hasData`) under `parent`, noting its C id by its slot.
private func addNode(_ scene: OpaquePointer?, _ parent: UInt64, _ node: UnsafePointer<inkhit_node>?,
                     _ data: UnsafePointer<inkhit_node_shape>?, hasData: Bool) throws(CError) {
    _ = try resolve(scene, .scene, "scene", as: SceneBox.self)
    let n = try sceneNode(node, "node", data: data, hasData: hasData)
    try withSceneBox(scene) { (box) throws(SceneError) in
        try box.scene.add(n, to: String(parent))
        box.noteAdded(node!.pointee.id)
    }
}

/// Replaces the settings of C node `node->id` (its data in `data` when `hasData`).
private func updateNode(_ scene: OpaquePointer?, _ node: UnsafePointer<inkhit_node>?,
                        _ data: UnsafePointer<inkhit_node_shape>?, hasData: Bool) throws(CError) {
    _ = try resolve(scene, .scene, "scene", as: SceneBox.self)
    let n = try sceneNode(node, "node", data: data, hasData: hasData)
    try withScene(scene) { (s) throws(SceneError) in try s.update(n.id) { $0 = n } }
}

/// `inkhit_scene_add` (inkhit.h).
@_cdecl("inkhit_scene_add")
public func inkhit_scene_add(_ scene: OpaquePointer?, _ parent: UInt64, _ node: UnsafePointer<inkhit_node>?) -> inkhit_status {
    call("inkhit_scene_add") { () throws(CError) in try addNode(scene, parent, node, nil, hasData: false) }
}

/// `inkhit_scene_add_shaped` (inkhit.h).
@_cdecl("inkhit_scene_add_shaped")
public func inkhit_scene_add_shaped(_ scene: OpaquePointer?, _ parent: UInt64, _ node: UnsafePointer<inkhit_node>?,
                                    _ shape: UnsafePointer<inkhit_node_shape>?) -> inkhit_status {
    call("inkhit_scene_add_shaped") { () throws(CError) in try addNode(scene, parent, node, shape, hasData: true) }
}

/// `inkhit_scene_update` (inkhit.h).
@_cdecl("inkhit_scene_update")
public func inkhit_scene_update(_ scene: OpaquePointer?, _ node: UnsafePointer<inkhit_node>?) -> inkhit_status {
    call("inkhit_scene_update") { () throws(CError) in try updateNode(scene, node, nil, hasData: false) }
}

/// `inkhit_scene_update_shaped` (inkhit.h).
@_cdecl("inkhit_scene_update_shaped")
public func inkhit_scene_update_shaped(_ scene: OpaquePointer?, _ node: UnsafePointer<inkhit_node>?,
                                       _ shape: UnsafePointer<inkhit_node_shape>?) -> inkhit_status {
    call("inkhit_scene_update_shaped") { () throws(CError) in try updateNode(scene, node, shape, hasData: true) }
}

/// `inkhit_scene_set_transform` (inkhit.h).
@_cdecl("inkhit_scene_set_transform")
public func inkhit_scene_set_transform(_ scene: OpaquePointer?, _ id: UInt64,
                                       _ transformIn: UnsafePointer<inkhit_transform>?) -> inkhit_status {
    call("inkhit_scene_set_transform") { () throws(CError) in
        _ = try resolve(scene, .scene, "scene", as: SceneBox.self)
        guard let transformIn else { throw .null("transform") }
        let t = try transform(transformIn.pointee, "transform")
        try withScene(scene) { (s) throws(SceneError) in try s.update(String(id)) { $0.transform = t } }
    }
}

/// `inkhit_scene_remove` (inkhit.h).
@_cdecl("inkhit_scene_remove")
public func inkhit_scene_remove(_ scene: OpaquePointer?, _ id: UInt64) -> inkhit_status {
    call("inkhit_scene_remove") { () throws(CError) in
        try withScene(scene) { (s) throws(SceneError) in try s.remove(String(id)) }
    }
}

/// `inkhit_scene_path` (inkhit.h).
@_cdecl("inkhit_scene_path")
public func inkhit_scene_path(_ scene: OpaquePointer?, _ id: UInt64, _ ids: UnsafeMutablePointer<UInt64>?, _ capacity: Int,
                              _ countOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_scene_path") { () throws(CError) in
        guard let countOut else { throw .null("count_out") }
        let dest = try mutableBuffer(ids, capacity, "ids", countName: "capacity")
        let path = try withScene(scene) { (s) throws(SceneError) -> [String] in
            guard let p = s.path(to: String(id)) else { throw .unknownNode(String(id)) }
            return p
        }
        for (k, s) in path.prefix(dest.count).enumerated() { dest[k] = UInt64(s) ?? 0 }
        countOut.pointee = path.count
    }
}

/// `inkhit_scene_count` (inkhit.h).
@_cdecl("inkhit_scene_count")
public func inkhit_scene_count(_ scene: OpaquePointer?, _ countOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_scene_count") { () throws(CError) in
        guard let countOut else { throw .null("count_out") }
        countOut.pointee = try withScene(scene) { (s) throws(SceneError) -> Int in s.count }
    }
}

/// `inkhit_scene_snapshot` (inkhit.h).
@_cdecl("inkhit_scene_snapshot")
public func inkhit_scene_snapshot(_ scene: OpaquePointer?, _ tol: Double, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_scene_snapshot") { () throws(CError) in
        guard let out else { throw .null("out") }
        _ = try resolve(scene, .scene, "scene", as: SceneBox.self)
        let t = try tolerance(tol)
        let made = try CallLimits.bounded { (limits, deadline) throws(CError) -> SnapshotBox in
            let budget = SceneBudget(maxShapeBytes: limits.shapeBytes, deadline: deadline)
            return try withSceneBox(scene) { (box) throws(SceneError) -> SnapshotBox in
                SnapshotBox(try box.scene.snapshot(tolerance: t, budget: budget), ids: box.ids)
            }
        }
        try publish(made, .snapshot, to: out)
    }
}

/// `inkhit_scene_release` (inkhit.h).
@_cdecl("inkhit_scene_release")
public func inkhit_scene_release(_ scene: OpaquePointer?) -> inkhit_status {
    releaseHandle(scene, .scene, function: "inkhit_scene_release")
}

// MARK: Snapshots

let missSceneHit = sceneHit(hit: 0, inside: 0, node: 0, depth: -1, local: inkhit_point(x: .nan, y: .nan),
                            distance: .nan, placement: -1, text: missTextHit)

/// An `inkhit_scene_hit` from its fields (written one by one: `placement` shares its storage with the 1.0 name).
func sceneHit(hit: Int32, inside: Int32, node: UInt64, depth: Int64, local: inkhit_point, distance: Double,
              placement: Int64, text: inkhit_text_hit) -> inkhit_scene_hit {
    var h = inkhit_scene_hit()
    h.hit = hit; h.inside = inside; h.node = node; h.depth = depth; h.local = local; h.distance = distance
    h.placement = placement; h.text = text
    return h
}

/// `h` as C answers it, its node's C id from the snapshot's table.
func cSceneHit(_ h: SceneHit?, _ box: SnapshotBox) -> inkhit_scene_hit {
    guard let h else { return missSceneHit }
    return sceneHit(hit: 1, inside: h.isInside ? 1 : 0, node: box.cID(h), depth: Int64(h.depth),
                    local: cPoint(h.local), distance: h.distance, placement: Int64(h.placement ?? -1), text: cTextHit(h.text))
}

/// `inkhit_snapshot_hit` (inkhit.h).
@_cdecl("inkhit_snapshot_hit")
public func inkhit_snapshot_hit(_ snapshot: OpaquePointer?, _ x: Double, _ y: Double, _ radius: Double,
                                _ out: UnsafeMutablePointer<inkhit_scene_hit>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    let function: StaticString = "inkhit_snapshot_hit"
    guard let out else { return CError.null("out").report(function) }
    guard let box = lookup(snapshot, .snapshot, as: SnapshotBox.self, in: thread) else {
        out.pointee = missSceneHit
        return handleError(snapshot, .snapshot, "snapshot").report(function)
    }
    guard radiusIsValid(radius), x.isFinite, y.isFinite else {
        out.pointee = missSceneHit
        return (radiusIsValid(radius) ? pointError(x, y) : radiusError(radius)).report(function)
    }
    out.pointee = box.withBorrowed { b in cSceneHit(b.snapshot.hit(at: Point(x, y), radius: radius), b) }
    return inkhit_status(INKHIT_OK)
}

/// `inkhit_snapshot_release` (inkhit.h).
@_cdecl("inkhit_snapshot_release")
public func inkhit_snapshot_release(_ snapshot: OpaquePointer?) -> inkhit_status {
    releaseHandle(snapshot, .snapshot, function: "inkhit_snapshot_release")
}
