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
final class NodeRecord: @unchecked Sendable {
    /// The node as given.
    let node: Node
    let path: IDPath
    /// Parent → local.
    let fromParent: AffineTransform
    /// The linear part of local → root (no translation): local → L-space.
    let linear: AffineTransform
    /// The smallest singular value of `linear`: root px per local px at least (for pruning).
    let minScale: Double
    let hitBox: Rect
    let flags: NodeFlags
    /// The node's own region, when it is a target.
    let region: Region?
    /// The children, bottom first, in an ordered box tree. Mutated only by `deinit` (iterative teardown).
    fileprivate(set) var children: ChildBlock?
    /// Local box outside which nothing below this record (itself included) can be the answer: its region's
    /// box, united with its hit box when it clips reachable children, or with their boxes when it does not.
    let reach: Rect
    /// `reach` mapped to the parent's space (its bounding box).
    let reachInParent: Rect

    init(node: Node, path: IDPath, fromParent: AffineTransform, linear: AffineTransform, hitBox: Rect,
         region: Region?, children: ChildBlock?) {
        self.node = node; self.path = path; self.fromParent = fromParent; self.linear = linear
        self.minScale = linear.minScale
        self.hitBox = hitBox; self.region = region; self.children = children
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
        guard var c = children else { return }
        children = nil
        if isKnownUniquelyReferenced(&c) { Teardown.drain(c) }
    }
}

/// A node's children in order (bottom first) under a tree of boxes: 16 entries a block, each block holding
/// the boxes (parent-local) of what it holds. Blocks are immutable and shared between snapshots; an edit
/// copies the blocks on one root-to-leaf path (`replacing`).
final class ChildBlock: @unchecked Sendable {
    static let fanout = 16
    /// 0: `records` holds the entries; otherwise `blocks`.
    let height: Int
    fileprivate(set) var records: [NodeRecord]
    fileprivate(set) var blocks: [ChildBlock]
    /// Entry boxes, parent-local (a record's `reachInParent`, a block's `box`).
    let boxes: [Rect]
    /// Children under each entry (for a block of height 0, 1 each).
    let counts: [Int]
    let box: Rect
    let count: Int

    init(records: [NodeRecord]) {
        height = 0; self.records = records; blocks = []
        boxes = records.map(\.reachInParent)
        counts = [Int](repeating: 1, count: records.count)
        box = boxes.reduce(Rect.empty) { $0.union($1) }
        count = records.count
    }

    init(blocks: [ChildBlock]) {
        height = blocks[0].height + 1; records = []; self.blocks = blocks
        boxes = blocks.map(\.box)
        counts = blocks.map(\.count)
        box = boxes.reduce(Rect.empty) { $0.union($1) }
        count = counts.reduce(0, +)
    }

    /// The tree over `records` (nil when there are none).
    static func build(_ records: [NodeRecord]) -> ChildBlock? {
        guard !records.isEmpty else { return nil }
        var level: [ChildBlock] = stride(from: 0, to: records.count, by: fanout).map {
            ChildBlock(records: Array(records[$0..<min($0 + fanout, records.count)]))
        }
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: fanout).map {
                ChildBlock(blocks: Array(level[$0..<min($0 + fanout, level.count)]))
            }
        }
        return level[0]
    }

    /// A copy with child `position` (0-based, bottom first) replaced by `record`: the blocks on its path are
    /// copied, every other block shared.
    func replacing(_ position: Int, with record: NodeRecord) -> ChildBlock {
        if height == 0 {
            var r = records
            r[position] = record
            return ChildBlock(records: r)
        }
        var k = 0, p = position
        while p >= counts[k] { p -= counts[k]; k += 1 }
        var b = blocks
        b[k] = blocks[k].replacing(p, with: record)
        return ChildBlock(blocks: b)
    }

    /// The record of child `position`.
    func record(at position: Int) -> NodeRecord {
        var block = self, p = position
        while block.height > 0 {
            var k = 0
            while p >= block.counts[k] { p -= block.counts[k]; k += 1 }
            block = block.blocks[k]
        }
        return block.records[p]
    }

    deinit {
        guard !records.isEmpty || !blocks.isEmpty else { return }
        Teardown.drain(self)
    }
}

/// Releases a tree of records and blocks without recursion: whatever is referenced only from the part being
/// released is emptied first, so no `deinit` reaches deeper than one level (a 10,000-level scene is freed in
/// a loop, on any thread's stack).
enum Teardown {
    /// Empties `first` (being destroyed, or held by nobody else) and releases what it held, level by level.
    static func drain(_ first: ChildBlock) {
        var blocks: [ChildBlock] = []
        var records: [NodeRecord] = []
        func take(_ b: ChildBlock) {
            records += b.records; b.records = []
            blocks += b.blocks; b.blocks = []
        }
        take(first)
        while true {
            if var b = blocks.popLast() {
                if isKnownUniquelyReferenced(&b) { take(b) }
                continue
            }
            if var r = records.popLast() {
                if isKnownUniquelyReferenced(&r), let c = r.children { r.children = nil; blocks.append(c) }
                continue
            }
            break
        }
    }
}
