import InkGeometry
import InkHit

/// The ids from the root to a node: fixed when the node is added (a node never changes parent), shared by
/// its descendants' paths, so an answer carries its path without allocating.
final class IDPath: @unchecked Sendable {
    let id: String
    /// Mutated only by `deinit`, which unlinks a chain iteratively (a 10,000-level path is released without
    /// 10,000 nested calls).
    private var parent: IDPath?
    /// 0 for the root.
    let depth: Int
    /// The node's slot in its scene when it was added (`Scene.slot(of:)`): fixed for the node's life; a
    /// slot is reused only by a node added after this one was removed.
    let slot: Int

    init(id: String, parent: IDPath?, slot: Int) {
        self.id = id; self.parent = parent; self.slot = slot; depth = parent.map { $0.depth + 1 } ?? 0
    }

    /// The ids, root first.
    var ids: [String] {
        var out = [String](repeating: "", count: depth + 1)
        var k: IDPath? = self
        while let p = k { out[p.depth] = p.id; k = p.parent }
        return out
    }

    deinit {
        var next = parent
        parent = nil
        while var p = next {
            next = nil
            guard isKnownUniquelyReferenced(&p) else { break }
            next = p.parent
            p.parent = nil
        }
    }
}

/// Where a node's flags put it: what the descent may do with it.
struct NodeFlags: OptionSet, Sendable {
    let rawValue: UInt8
    /// The node can be the answer (its own flags; ancestors are applied by the descent).
    static let target = NodeFlags(rawValue: 1)
    /// Its children can be reached.
    static let passes = NodeFlags(rawValue: 2)
    /// Its children are reachable only inside its hit box.
    static let clips = NodeFlags(rawValue: 4)
}

/// One node as the snapshots see it: immutable, shared by every snapshot taken while neither the node nor
/// anything below it changed. Coordinates: `local` is the node's own space; `parent` its parent's; "L-space"
/// is root px translated so the node's local origin sits at 0 (the node's linear map to the root applied).
/// The fields a query reads come first (two cache lines); the node as given comes last.
final class NodeRecord: @unchecked Sendable {
    /// Parent → local.
    let fromParent: AffineTransform
    let hitBox: Rect
    /// The smallest singular value of `linear`: root px per local px at least (for pruning).
    let minScale: Double
    let flags: NodeFlags
    /// The children: one block in z-order (up to 16) or a spatial tree of blocks. Mutated only by teardown.
    fileprivate(set) var children: ChildBlock?
    /// For a spatial tree: where each child sits in it.
    let places: ChildPlaces?
    /// The node's own region, when it is a target.
    let region: Region?
    /// The linear part of local → root (no translation): local → L-space.
    let linear: AffineTransform
    /// The largest singular value of `linear` (root px per local px at most).
    let maxScale: Double
    /// Local box outside which nothing below this record (itself included) can be the answer: its region's
    /// box, united with its hit box when it clips reachable children, or with their boxes when it does not.
    let reach: Rect
    /// `reach` mapped to the parent's space (its bounding box).
    let reachInParent: Rect
    /// Levels below this record (0: no children), for teardown.
    let height: Int
    let path: IDPath
    /// The node as given.
    let node: Node

    init(node: Node, path: IDPath, fromParent: AffineTransform, linear: AffineTransform, hitBox: Rect,
         region: Region?, children: ChildBlock?, places: ChildPlaces?) {
        self.node = node; self.path = path; self.fromParent = fromParent; self.linear = linear; self.places = places
        let sv = linear == .identity ? SingularValues(max: 1, min: 1) : linear.singularValues
        self.minScale = sv.min; self.maxScale = sv.max
        self.hitBox = hitBox; self.region = region; self.children = children
        height = children.map { $0.recordHeight + 1 } ?? 0
        var flags: NodeFlags = []
        if !node.isOut {
            if node.takesTouchesItself && region != nil { flags.insert(.target) }
            if node.passesTouchesToChildren && children != nil { flags.insert(.passes) }
            if node.clipsChildren { flags.insert(.clips) }
        }
        self.flags = flags
        var reach = flags.contains(.target) ? region!.bounds : Rect.empty
        if flags.contains(.passes), let c = children, !c.box.isEmpty {
            reach = reach.union(flags.contains(.clips) ? hitBox : c.box)
        }
        self.reach = reach
        self.reachInParent = reach.applying(node.transform)
    }

    deinit {
        // Deep subtrees are released in a loop; shallow ones by the usual nested releases.
        guard height >= Teardown.depth, var c = children else { return }
        children = nil
        if isKnownUniquelyReferenced(&c) { Teardown.drain(c) }
    }
}

/// One entry of a `ChildBlock`: its box in the parent's space (rounded outwards to `Float`) and what it holds
/// (a `NodeRecord` in a block of height 0, else a `ChildBlock`), with the number of children under it and,
/// for a record, its place among its siblings (`z`: 0 is the bottom).
struct ChildSlot {
    var minX: Float, minY: Float, maxX: Float, maxY: Float
    var object: AnyObject
    var count: Int32
    var z: Int32
}

/// What a `ChildBlock` knows of itself.
struct ChildBlockHeader {
    /// 0: the slots hold records; otherwise blocks.
    var height: Int
    /// Slots in use (0 once teardown took them).
    var n: Int
    /// Children under the block.
    var count: Int
    /// The union of the slots' boxes (exact, `Double`).
    var box: Rect
    /// The largest `height` of the records below.
    var recordHeight: Int
}

/// Where each child of a wide node sits in its spatial tree: `position[z]` is child `z`'s place in the
/// tree's leaf order (what `ChildBlock.replacing` takes), and how many children were replaced since the tree
/// was built (their boxes refitted where they were, not re-sorted).
final class ChildPlaces: Sendable {
    let position: [Int32]
    let refits: Int
    init(position: [Int32], refits: Int) { self.position = position; self.refits = refits }
}

/// A block of a node's children (or of smaller blocks): 16 slots, each with the box (in the node's space) of
/// what it holds, in one allocation — one block in z-order for up to 16 children, a spatial tree of blocks
/// for more (see `build`). Blocks are immutable and shared between snapshots;
/// an edit copies the blocks on one root-to-leaf path (`replacing`). (Not `Sendable` itself, as
/// `ManagedBuffer` is not: it is shared only through the records that own it, which never change it.)
final class ChildBlock: ManagedBuffer<ChildBlockHeader, ChildSlot> {
    static let fanout = 16

    var height: Int { header.height }
    var n: Int { header.n }
    var count: Int { header.count }
    var box: Rect { header.box }
    var recordHeight: Int { header.recordHeight }

    /// A block over `entries` (records when `height` is 0, else blocks) with their parent-space boxes, the
    /// children under each and, for records, their places among their siblings.
    static func make(height: Int, _ entries: [(object: AnyObject, box: Rect, count: Int, z: Int)], recordHeight: Int) -> ChildBlock {
        var union = Rect.empty, count = 0
        for e in entries { union = union.union(e.box); count += e.count }
        let b = unsafeDowncast(ChildBlock.create(minimumCapacity: entries.count) { _ in
            ChildBlockHeader(height: height, n: entries.count, count: count, box: union, recordHeight: recordHeight)
        }, to: ChildBlock.self)
        b.withUnsafeMutablePointerToElements { p in
            for (k, e) in entries.enumerated() {
                let r = e.box
                let slot = r.isEmpty
                    ? ChildSlot(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity, object: e.object,
                                count: Int32(e.count), z: Int32(e.z))
                    : ChildSlot(minX: Float(r.minX).nextDown, minY: Float(r.minY).nextDown,
                                maxX: Float(r.maxX).nextUp, maxY: Float(r.maxY).nextUp, object: e.object,
                                count: Int32(e.count), z: Int32(e.z))
                (p + k).initialize(to: slot)
            }
        }
        return b
    }

    /// A leaf block over records with their places among their siblings.
    static func leaf(_ records: [(NodeRecord, Int)]) -> ChildBlock {
        make(height: 0, records.map { (object: $0.0 as AnyObject, box: $0.0.reachInParent, count: 1, z: $0.1) },
             recordHeight: records.reduce(0) { max($0, $1.0.height) })
    }

    static func node(_ blocks: ArraySlice<ChildBlock>) -> ChildBlock {
        make(height: blocks.first!.height + 1, blocks.map { (object: $0 as AnyObject, box: $0.box, count: $0.count, z: 0) },
             recordHeight: blocks.reduce(0) { max($0, $1.recordHeight) })
    }

    /// The tree over `records` (bottom first; nil when there are none) and, for more than one block of them,
    /// the places of the children in its leaf order.
    ///
    /// Up to 16 children: one block in z-order, scanned topmost first. More (a wide node): a spatial tree —
    /// the children split recursively at the median of their boxes' centres along the wider axis into groups
    /// of 16 (a k-d bulk load), so a query visits only the groups near the point whatever the children's
    /// order, and sorts the few children it reaches by `z`.
    static func build(_ records: [NodeRecord]) -> (ChildBlock, ChildPlaces?)? {
        guard !records.isEmpty else { return nil }
        let items = records.enumerated().map { ($0.element, $0.offset) }
        guard records.count > fanout else { return (leaf(items), nil) }
        var order = Array(items.indices)
        let centres = records.map { r -> Point in
            let b = r.reachInParent
            return b.isEmpty ? Point(0, 0) : Point((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2)
        }
        // Split [lo, hi) of `order` until groups hold at most 16 (cuts on multiples of 16: full leaves).
        var stack = [(0, order.count)]
        var groups: [Range<Int>] = []
        while let (lo, hi) = stack.popLast() {
            if hi - lo <= fanout { groups.append(lo..<hi); continue }
            var box = Rect.empty
            for k in lo..<hi { box.expand(toInclude: centres[order[k]]) }
            let byX = box.width >= box.height
            order[lo..<hi].sort { a, b in
                let pa = centres[a], pb = centres[b]
                return byX ? (pa.x, pa.y, a) < (pb.x, pb.y, b) : (pa.y, pa.x, a) < (pb.y, pb.x, b)
            }
            let half = ((hi - lo) / 2 + fanout - 1) / fanout * fanout
            let mid = min(lo + max(half, fanout), hi)
            stack.append((mid, hi)); stack.append((lo, mid))      // left part first
        }
        var position = [Int32](repeating: 0, count: records.count)
        var level: [ChildBlock] = []
        var placed = 0
        for g in groups {
            level.append(leaf(g.map { (records[order[$0]], order[$0]) }))
            for k in g { position[order[k]] = Int32(placed); placed += 1 }
        }
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: fanout).map { node(level[$0..<min($0 + fanout, level.count)]) }
        }
        return (level[0], ChildPlaces(position: position, refits: 0))
    }

    /// The slots as (object, exact box, count, z): boxes of records and blocks are read back from them.
    private func entries() -> [(object: AnyObject, box: Rect, count: Int, z: Int)] {
        withUnsafeMutablePointerToElements { p in
            (0..<n).map { k in
                let o = p[k].object
                let box = height == 0 ? unsafeDowncast(o, to: NodeRecord.self).reachInParent : unsafeDowncast(o, to: ChildBlock.self).box
                return (object: o, box: box, count: Int(p[k].count), z: Int(p[k].z))
            }
        }
    }

    /// A copy with the child at leaf `position` (its z-order place in a block of up to 16, its `ChildPlaces`
    /// position in a wide node's tree) replaced by `record`: the blocks on its path are copied (their boxes
    /// refitted), every other block shared.
    func replacing(_ position: Int, with record: NodeRecord) -> ChildBlock {
        var e = entries()
        if height == 0 {
            e[position] = (object: record, box: record.reachInParent, count: 1, z: e[position].z)
            return Self.make(height: 0, e, recordHeight: e.reduce(0) { max($0, unsafeDowncast($1.object, to: NodeRecord.self).height) })
        }
        var k = 0, p = position
        while p >= e[k].count { p -= e[k].count; k += 1 }
        let child = unsafeDowncast(e[k].object, to: ChildBlock.self).replacing(p, with: record)
        e[k] = (object: child, box: child.box, count: child.count, z: 0)
        return Self.make(height: height, e, recordHeight: e.reduce(0) { max($0, unsafeDowncast($1.object, to: ChildBlock.self).recordHeight) })
    }

    /// Takes the slots' objects out (teardown), leaving the block empty.
    fileprivate func takeAll() -> [AnyObject] {
        let k = n
        header.n = 0
        return withUnsafeMutablePointerToElements { p in
            let out = (0..<k).map { p[$0].object }
            p.deinitialize(count: k)
            return out
        }
    }

    deinit {
        let k = header.n
        guard k > 0 else { return }
        if header.recordHeight + 1 >= Teardown.depth {
            Teardown.drain(self)
        } else {
            _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: k) }
        }
    }
}

/// Releases a deep tree of records and blocks without recursion: whatever is referenced only from the part
/// being released is emptied first, so no release reaches deeper than `depth` levels (a 10,000-level scene
/// is freed in a loop, on any thread's stack).
enum Teardown {
    /// Subtrees at least this many levels high are released in a loop.
    static let depth = 24

    /// Empties `first` (being destroyed, or held by nobody else) and releases what it held, level by level.
    static func drain(_ first: ChildBlock) {
        var work: [AnyObject] = first.takeAll()
        while var o = work.popLast() {
            guard isKnownUniquelyReferenced(&o) else { continue }
            if let b = o as? ChildBlock {
                work += b.takeAll()
            } else if let r = o as? NodeRecord, let c = r.children {
                r.children = nil
                work.append(c)
            }
        }
    }
}
