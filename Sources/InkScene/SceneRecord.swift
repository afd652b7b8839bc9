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

    init(id: String, parent: IDPath?) {
        self.id = id; self.parent = parent; depth = parent.map { $0.depth + 1 } ?? 0
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
    /// The children, bottom first, in an ordered box tree. Mutated only by teardown.
    fileprivate(set) var children: ChildBlock?
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
         region: Region?, children: ChildBlock?) {
        self.node = node; self.path = path; self.fromParent = fromParent; self.linear = linear
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
/// (a `NodeRecord` in a block of height 0, else a `ChildBlock`), with the number of children under it.
struct ChildSlot {
    var minX: Float, minY: Float, maxX: Float, maxY: Float
    var object: AnyObject
    var count: Int
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

/// A node's children in order (bottom first) under a tree of boxes: 16 slots a block, each with the box (in
/// the node's space) of what it holds, in one allocation. Blocks are immutable and shared between snapshots;
/// an edit copies the blocks on one root-to-leaf path (`replacing`).
final class ChildBlock: ManagedBuffer<ChildBlockHeader, ChildSlot>, @unchecked Sendable {
    static let fanout = 16

    var height: Int { header.height }
    var n: Int { header.n }
    var count: Int { header.count }
    var box: Rect { header.box }
    var recordHeight: Int { header.recordHeight }

    /// A block over `entries` (records when `height` is 0, else blocks) with their parent-space boxes.
    static func make(height: Int, _ entries: [(AnyObject, Rect, Int)], recordHeight: Int) -> ChildBlock {
        var union = Rect.empty, count = 0
        for e in entries { union = union.union(e.1); count += e.2 }
        let b = unsafeDowncast(ChildBlock.create(minimumCapacity: entries.count) { _ in
            ChildBlockHeader(height: height, n: entries.count, count: count, box: union, recordHeight: recordHeight)
        }, to: ChildBlock.self)
        b.withUnsafeMutablePointerToElements { p in
            for (k, e) in entries.enumerated() {
                let r = e.1
                let slot = r.isEmpty
                    ? ChildSlot(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity, object: e.0, count: e.2)
                    : ChildSlot(minX: Float(r.minX).nextDown, minY: Float(r.minY).nextDown,
                                maxX: Float(r.maxX).nextUp, maxY: Float(r.maxY).nextUp, object: e.0, count: e.2)
                (p + k).initialize(to: slot)
            }
        }
        return b
    }

    static func leaf(_ records: ArraySlice<NodeRecord>) -> ChildBlock {
        make(height: 0, records.map { ($0, $0.reachInParent, 1) }, recordHeight: records.reduce(0) { max($0, $1.height) })
    }

    static func node(_ blocks: ArraySlice<ChildBlock>) -> ChildBlock {
        make(height: blocks.first!.height + 1, blocks.map { ($0, $0.box, $0.count) },
             recordHeight: blocks.reduce(0) { max($0, $1.recordHeight) })
    }

    /// The tree over `records` (nil when there are none).
    static func build(_ records: [NodeRecord]) -> ChildBlock? {
        guard !records.isEmpty else { return nil }
        var level: [ChildBlock] = stride(from: 0, to: records.count, by: fanout).map {
            leaf(records[$0..<min($0 + fanout, records.count)])
        }
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: fanout).map { node(level[$0..<min($0 + fanout, level.count)]) }
        }
        return level[0]
    }

    /// The slots as (object, exact box, count): boxes of records and blocks are read back from them.
    private func entries() -> [(AnyObject, Rect, Int)] {
        withUnsafeMutablePointerToElements { p in
            (0..<n).map { k in
                let o = p[k].object
                let box = height == 0 ? unsafeDowncast(o, to: NodeRecord.self).reachInParent : unsafeDowncast(o, to: ChildBlock.self).box
                return (o, box, p[k].count)
            }
        }
    }

    /// A copy with child `position` (0-based, bottom first) replaced by `record`: the blocks on its path are
    /// copied, every other block shared.
    func replacing(_ position: Int, with record: NodeRecord) -> ChildBlock {
        var e = entries()
        if height == 0 {
            e[position] = (record, record.reachInParent, 1)
            return Self.make(height: 0, e, recordHeight: e.reduce(0) { max($0, unsafeDowncast($1.0, to: NodeRecord.self).height) })
        }
        var k = 0, p = position
        while p >= e[k].2 { p -= e[k].2; k += 1 }
        let child = unsafeDowncast(e[k].0, to: ChildBlock.self).replacing(p, with: record)
        e[k] = (child, child.box, child.count)
        return Self.make(height: height, e, recordHeight: e.reduce(0) { max($0, unsafeDowncast($1.0, to: ChildBlock.self).recordHeight) })
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
