import InkGeometry
import InkHit
import InkFreeType
import InkText

/// Why a scene or an edit was refused, naming the node.
public enum SceneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another node already has this id.
    case duplicateID(String)
    /// No node has this id.
    case unknownNode(String)
    /// The root cannot be removed.
    case cannotRemoveRoot(String)
    /// An edit changed a node's id (ids name nodes; remove it and add a new one instead).
    case idChanged(from: String, to: String)
    /// The node's transform, bounds or sizes are unusable; `reason` says which.
    case invalidNode(id: String, reason: String)
    /// The node's shape could not be built.
    case shape(id: String, ShapeError)
    /// The node's region could not be placed in the index (its transform, as composed from the root).
    case placement(id: String, HitIndexError)
    /// Glyph `glyph` of a text or glyph-run node could not be placed.
    case glyph(id: String, glyph: Int, FontError)
    /// The node's region would take the snapshot's shapes beyond `SceneBudget.maxShapeBytes` (`limit`):
    /// estimated before it was built, or counted once it was.
    case shapeBytes(id: String, limit: Int)
    /// The snapshot passed its deadline (`SceneBudget.deadline` or `BuildDeadline`) while building the
    /// node's region, or before it.
    case timeLimit(id: String)

    /// A sentence for a user, naming the node.
    public var description: String {
        switch self {
        case .duplicateID(let id): return "node \(JSONQuote.quoted(id)): another node has this id"
        case .unknownNode(let id): return "no node has the id \(JSONQuote.quoted(id))"
        case .cannotRemoveRoot(let id): return "node \(JSONQuote.quoted(id)) is the root and cannot be removed"
        case .idChanged(let a, let b): return "an edit changed node \(JSONQuote.quoted(a))'s id to \(JSONQuote.quoted(b))"
        case .invalidNode(let id, let reason): return "node \(JSONQuote.quoted(id)): \(reason)"
        case .shape(let id, let e): return "node \(JSONQuote.quoted(id)): \(e)"
        case .placement(let id, let e): return "node \(JSONQuote.quoted(id)): \(e.reason)"
        case .glyph(let id, let g, let e): return "node \(JSONQuote.quoted(id)) glyph \(g): \(e)"
        case .shapeBytes(let id, let l):
            return "node \(JSONQuote.quoted(id)): the scene's shapes would need more than \(l) bytes (the limit)"
        case .timeLimit(let id): return "node \(JSONQuote.quoted(id)): the snapshot passed its time limit while building it"
        }
    }
}

/// A string quoted for a message.
enum JSONQuote {
    static func quoted(_ s: String) -> String { "\"" + s.prefix(200) + (s.count > 200 ? "…" : "") + "\"" }
}

/// A mutable tree of nodes (later siblings on top of earlier ones, children on top of their parent) that
/// hands out immutable, `Sendable` snapshots for queries.
///
/// ```swift
/// var scene = Scene(root: Node(id: "screen", bounds: Rect(minX: 0, minY: 0, maxX: 320, maxY: 480)))
/// try scene.add(Node(id: "button", bounds: Rect(minX: 0, minY: 0, maxX: 20, maxY: 20),
///                    transform: .translation(100, 200), minSize: (44, 44)), to: "screen")
/// let snapshot = try scene.snapshot()
/// print(snapshot.hit(at: Point(95, 195))?.node ?? "-")   // "button": its 20 × 20 box grew to 44 × 44
/// ```
///
/// **Edits without rebuilds.** A snapshot shares everything that did not change with the one before it. An
/// edit marks its node and the node's ancestors; the next `snapshot()` rebuilds only those records: the
/// node's region (reused when only its position changed: regions are kept relative to the node's origin),
/// and on each ancestor one path of its children's box tree (16 children a block). Moving one node of a
/// 10,000-node scene and taking a snapshot costs microseconds (BENCHMARKS.md, "Hit scene"). Rotating or
/// scaling a node re-indexes the text, glyph, path and mask regions below it, whose polygons are kept in
/// root orientation for exact distances.
///
/// Edits never change a snapshot already taken. Nodes are kept in flat arrays and every walk is a loop, so
/// trees 10,000 levels deep are built, edited, queried and freed like flat ones.
public struct Scene: Sendable {
    var state: State

    /// A scene holding only `root`.
    public init(root: Node) { state = State(root: root) }

    /// The root's id.
    public var rootID: String { state.nodes[0]!.id }
    /// Number of nodes.
    public var count: Int { state.slot.count }

    /// The node with this id.
    public func node(_ id: String) -> Node? { state.slot[id].flatMap { state.nodes[$0] } }

    /// The ids of a node's children, bottom first.
    public func children(of id: String) -> [String]? { state.slot[id].map { state.children[$0].map { state.nodes[$0]!.id } } }

    /// The ids from the root down to the node (nil when no node has this id).
    public func path(to id: String) -> [String]? { state.slot[id].map { state.paths[$0]!.ids } }

    /// Not API: the slot of node `id` (a small number, fixed while the node is in the scene, reused after it
    /// is removed), which `SceneHit.nodeSlot` gives back; for tables kept beside the scene (the C interface's
    /// node ids).
    package func slot(of id: String) -> Int? { state.slot[id] }

    /// The state, copied first if another `Scene` value shares it (value semantics).
    private mutating func unique() -> State {
        if !isKnownUniquelyReferenced(&state) { state = state.copy() }
        return state
    }

    /// Reserves room for `n` nodes in all (a scene built by many `add`s grows its tables once).
    public mutating func reserveCapacity(_ n: Int) {
        let st = unique()
        st.nodes.reserveCapacity(n); st.parent.reserveCapacity(n); st.children.reserveCapacity(n)
        st.slot.reserveCapacity(n); st.paths.reserveCapacity(n); st.linear.reserveCapacity(n); st.depth.reserveCapacity(n)
        st.lock.withLock { st.records.reserveCapacity(n); st.dirty.reserveCapacity(n); st.dirtySlots.reserveCapacity(n) }
    }

    /// Adds `node` as the last (topmost) child of `parentID`.
    ///
    /// - Throws: `.duplicateID`, `.unknownNode` (the parent).
    public mutating func add(_ node: Node, to parentID: String) throws(SceneError) {
        guard state.slot[node.id] == nil else { throw .duplicateID(node.id) }
        guard let p = state.slot[parentID] else { throw .unknownNode(parentID) }
        unique().add(node, to: p)
    }

    /// Changes a node in place (its transform, bounds, flags, shape…); its id must stay.
    ///
    /// - Throws: `.unknownNode`, `.idChanged`.
    public mutating func update(_ id: String, _ change: (inout Node) -> Void) throws(SceneError) {
        guard let s = state.slot[id] else { throw .unknownNode(id) }
        var n = state.nodes[s]!
        change(&n)
        guard n.id == id else { throw .idChanged(from: id, to: n.id) }
        unique().update(s, n)
    }

    /// Removes a node and everything below it.
    ///
    /// - Throws: `.unknownNode`, `.cannotRemoveRoot`.
    public mutating func remove(_ id: String) throws(SceneError) {
        guard let s = state.slot[id] else { throw .unknownNode(id) }
        guard s != 0 else { throw .cannotRemoveRoot(id) }
        unique().remove(s)
    }

    /// An immutable, indexed copy of the scene for queries, flattened within `tolerance` view px. Rebuilds
    /// only what changed since the last snapshot of this scene (everything when `tolerance` differs).
    ///
    /// - Throws: `SceneError` naming the first node that cannot be indexed (non-finite or singular
    ///   transforms, non-finite or negative bounds and sizes, shapes that cannot be built). The scene keeps
    ///   its edits: fix the node and ask again.
    public func snapshot(tolerance: Double = HitIndex.defaultTolerance) throws(SceneError) -> SceneSnapshot {
        try snapshot(tolerance: tolerance, budget: SceneBudget())
    }

    /// `snapshot(tolerance:)` within `budget`: the regions it builds are estimated before they are built and
    /// refused beyond the budget's bytes; the deadline is checked between nodes and inside long builds.
    /// Glyph nodes (hole policy `.ink`) take their shapes from `cache` (default: `FontShapeCache.shared`), so
    /// a caller with a bounded cache of its own keeps scene glyphs within it; a text node's glyphs come from
    /// the cache its layout was made with.
    ///
    /// - Throws: as `snapshot(tolerance:)`; `.shapeBytes` beyond `budget.maxShapeBytes`, `.timeLimit` past
    ///   `budget.deadline`, `.shape` for a region beyond `ShapeLimits` (more than a million edges, more than
    ///   256 MiB). The scene keeps its edits and what was built: asking again goes on from there.
    public func snapshot(tolerance: Double = HitIndex.defaultTolerance, budget: SceneBudget,
                         cache: FontShapeCache = .shared) throws(SceneError) -> SceneSnapshot {
        guard tolerance.isFinite, tolerance > 0 else { throw .placement(id: rootID, .invalidTolerance(tolerance)) }
        let root = try BuildDeadline.within(budget.deadline) { () throws(SceneError) -> NodeRecord in
            try state.refresh(tolerance: tolerance, budget: RegionBudget(budget, cache: cache))
        }
        return SceneSnapshot(root: root, tolerance: tolerance, count: count)
    }
}

extension Scene {
    /// What an edit left to rebuild on a node.
    enum Dirty {
        /// The node itself or its map to the root changed: its region and record.
        static let own: UInt8 = 1
        /// Its list of children changed: its box tree is built anew.
        static let structure: UInt8 = 2
        /// Some children's records changed: their paths in its box tree are copied.
        static let child: UInt8 = 4
    }

    /// The scene's nodes, their structure, and what the last snapshot built from them. Edits happen on a
    /// uniquely held state (`Scene.unique()`); `refresh` updates the derived part under `lock`, so snapshots
    /// of one scene value may be taken from several threads.
    ///
    /// Its arrays are read and written without run-time exclusivity checks (`@exclusivity(unchecked)`):
    /// edits hold the only reference, `refresh` holds the lock.
    final class State: @unchecked Sendable {
        @exclusivity(unchecked) var nodes: [Node?] = []
        @exclusivity(unchecked) var parent: [Int] = []
        @exclusivity(unchecked) var children: [[Int]] = []
        @exclusivity(unchecked) var slot: [String: Int] = [:]
        @exclusivity(unchecked) var free: [Int] = []
        @exclusivity(unchecked) var paths: [IDPath?] = []
        /// Local → root linear part (no translation), kept up to date by every edit.
        @exclusivity(unchecked) var linear: [AffineTransform] = []
        @exclusivity(unchecked) var depth: [Int] = []
        // Derived by `refresh`, under `lock`.
        @exclusivity(unchecked) var records: [NodeRecord?] = []
        @exclusivity(unchecked) var dirty: [UInt8] = []
        @exclusivity(unchecked) var dirtySlots: [Int] = []
        @exclusivity(unchecked) var builtTolerance: Double = .nan
        let lock = Lock()

        init(root: Node) {
            nodes = [root]; parent = [-1]; children = [[]]; slot = [root.id: 0]
            paths = [IDPath(id: root.id, parent: nil, slot: 0)]
            linear = [root.transform.linearPart]; depth = [0]
            records = [nil]; dirty = [Dirty.own]; dirtySlots = [0]
        }

        private init(copying o: State) {
            nodes = o.nodes; parent = o.parent; children = o.children; slot = o.slot; free = o.free
            paths = o.paths; linear = o.linear; depth = o.depth
            o.lock.withLock {
                records = o.records; dirty = o.dirty; dirtySlots = o.dirtySlots; builtTolerance = o.builtTolerance
            }
        }

        func copy() -> State { State(copying: self) }

        func markDirty(_ s: Int, _ bits: UInt8) {
            if dirty[s] == 0 { dirtySlots.append(s) }
            dirty[s] |= bits
            var k = parent[s]
            while k >= 0 {
                let was = dirty[k]
                if was == 0 { dirtySlots.append(k) }
                dirty[k] |= Dirty.child
                if was != 0 { break }              // a dirty node's ancestors are dirty already
                k = parent[k]
            }
        }

        func add(_ node: Node, to p: Int) {
            let s: Int
            if let f = free.popLast() {
                s = f
                nodes[s] = node; parent[s] = p; children[s] = []
                paths[s] = IDPath(id: node.id, parent: paths[p], slot: s); depth[s] = depth[p] + 1
                linear[s] = node.transform.linearPart.concatenating(linear[p]); records[s] = nil; dirty[s] = 0
            } else {
                s = nodes.count
                nodes.append(node); parent.append(p); children.append([])
                paths.append(IDPath(id: node.id, parent: paths[p], slot: s)); depth.append(depth[p] + 1)
                linear.append(node.transform.linearPart.concatenating(linear[p])); records.append(nil); dirty.append(0)
            }
            children[p].append(s)
            slot[node.id] = s
            markDirty(s, Dirty.own)
            markDirty(p, Dirty.structure)
        }

        func update(_ s: Int, _ n: Node) {
            let old = nodes[s]!
            nodes[s] = n
            let t = n.transform, o = old.transform
            guard t.a == o.a && t.b == o.b && t.c == o.c && t.d == o.d else {
                // The map to the root turned: every node below re-indexes its region.
                var stack = [s]
                while let k = stack.popLast() {
                    linear[k] = nodes[k]!.transform.linearPart.concatenating(parent[k] >= 0 ? linear[parent[k]] : .identity)
                    markDirty(k, Dirty.own)
                    stack += children[k]
                }
                return
            }
            markDirty(s, Dirty.own)
        }

        func remove(_ s: Int) {
            let p = parent[s]
            children[p].removeAll { $0 == s }
            var stack = [s]
            while let k = stack.popLast() {
                stack += children[k]
                slot[nodes[k]!.id] = nil
                nodes[k] = nil; children[k] = []; parent[k] = -1
                paths[k] = nil; records[k] = nil; dirty[k] = 0
                free.append(k)
            }
            markDirty(p, Dirty.structure)
        }

        /// Rebuilds the records of dirty nodes, deepest first, and returns the root's.
        func refresh(tolerance: Double, budget: RegionBudget) throws(SceneError) -> NodeRecord {
            try lock.withLock { () throws(SceneError) -> NodeRecord in
                if builtTolerance != tolerance {
                    // Every region is flattened for the tolerance: build all anew.
                    for s in nodes.indices where nodes[s] != nil {
                        if dirty[s] == 0 { dirtySlots.append(s) }
                        dirty[s] |= Dirty.own | Dirty.structure
                    }
                    builtTolerance = tolerance
                }
                if dirtySlots.isEmpty, let r = records[0] { return r }
                // Deepest first (a bucket per depth), each slot once.
                var maxDepth = 0
                for s in dirtySlots where nodes[s] != nil { maxDepth = max(maxDepth, depth[s]) }
                var byDepth = [[Int]](repeating: [], count: maxDepth + 1)
                for s in dirtySlots where nodes[s] != nil && dirty[s] != 0 { byDepth[depth[s]].append(s) }
                dirtySlots = []
                var changed: [Int: [Int]] = [:]         // parent → children whose records were replaced
                var checked = 0
                for d in stride(from: maxDepth, through: 0, by: -1) {
                    for s in byDepth[d] where dirty[s] != 0 {
                        do throws(SceneError) {
                            checked += 1
                            if checked & 7 == 0 { try RegionBudget.checkDeadline(nodes[s]!.id) }
                            try rebuild(s, tolerance: tolerance, budget: budget, changed: changed.isEmpty ? [] : changed[s] ?? [])
                        } catch {
                            // Keep what is still to do for the next try; the parents of records already replaced
                            // rebuild their box trees whole (the list of changed children is not kept).
                            for p in changed.keys { dirty[p] |= Dirty.structure }
                            dirtySlots = byDepth[...d].flatMap { $0 }.filter { dirty[$0] != 0 }
                            throw error
                        }
                        // A parent whose box tree is built anew needs no list of what changed under it.
                        if parent[s] >= 0 && dirty[parent[s]] & Dirty.structure == 0 { changed[parent[s], default: []].append(s) }
                    }
                }
                return records[0]!
            }
        }

        /// Builds the record of slot `s` from its node, its region (reused when the node's shape and map to
        /// the root are unchanged) and its children's records.
        func rebuild(_ s: Int, tolerance: Double, budget: RegionBudget, changed: [Int]) throws(SceneError) {
            let node = nodes[s]!
            let old = records[s]
            let bits = dirty[s]
            let L = linear[s]
            try Self.validate(node)
            let t = node.transform
            let identityLinear = t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1      // a move: nothing to factor
            let sv = identityLinear ? SingularValues(max: 1, min: 1) : t.singularValues
            guard sv.isPlaceable, let fromParent = identityLinear
                    ? AffineTransform.translation(-t.tx, -t.ty) : t.inverted() else {
                throw .invalidNode(id: node.id, reason: "its transform is singular (it collapses the node to a line or a point)")
            }
            let lsv = L == .identity ? SingularValues(max: 1, min: 1) : L.singularValues
            guard L.isFinite, lsv.isWithinScaleRange, lsv.isPlaceable else {
                throw .invalidNode(id: node.id, reason: "its transform from the root scales by more than 1e30 or less than 1e-30")
            }
            var region: Region? = nil
            if !node.isOut && node.takesTouchesItself {
                if let old, let r = old.region, (bits & Dirty.own == 0 || (old.linear == L && Self.sameRegion(old.node, node))) {
                    region = r
                } else {
                    let r = try Region.build(node, linear: L, tolerance: tolerance, budget: budget)
                    region = r.bounds.isEmpty ? nil : r
                }
            }
            let kids = children[s]
            var block: ChildBlock? = nil
            var places: ChildPlaces? = nil
            if !kids.isEmpty {
                let oldPlaces = old?.places
                // Replace the changed children in place (their boxes refitted) unless the list changed, many
                // changed, or a wide node's tree has been refitted for a quarter of its children since it was
                // sorted (then sort it again).
                let refits = (oldPlaces?.refits ?? 0) + changed.count
                if let oldBlock = old?.children, bits & Dirty.structure == 0, changed.count <= 4,
                   oldPlaces == nil || refits <= max(ChildBlock.fanout, kids.count / 4) {
                    block = oldBlock
                    for c in changed {
                        guard let z = kids.firstIndex(of: c) else { continue }
                        block = block!.replacing(oldPlaces.map { Int($0.position[z]) } ?? z, with: records[c]!)
                    }
                    places = oldPlaces.map { ChildPlaces(position: $0.position, refits: refits) }
                } else if let built = ChildBlock.build(kids.map { records[$0]! }) {
                    (block, places) = built
                }
            }
            let hitBox = node.hitBox
            records[s] = NodeRecord(node: consume node, path: paths[s]!, fromParent: fromParent, linear: L, hitBox: hitBox,
                                    region: region, children: block, places: places)
            dirty[s] = 0
        }

        /// Whether two versions of a node have the same region up to position (same shape, bounds, slop and
        /// minimum size), judged cheaply: layouts, masks and runs by identity or equality.
        static func sameRegion(_ a: Node, _ b: Node) -> Bool {
            guard a.bounds == b.bounds, a.slop == b.slop, a.minSize == b.minSize else { return false }
            switch (a.shape, b.shape) {
            case (.box, .box), (.ellipse, .ellipse): return true
            case (.roundRect(let x), .roundRect(let y)): return x == y
            case (.path(let x, let r), .path(let y, let q)): return r == q && x == y
            case (.mask(let x), .mask(let y)): return x.storage === y.storage
            case (.glyphs(let x, let h), .glyphs(let y, let k)): return h == k && x == y
            case (.text(let x, let h), .text(let y, let k)): return h == k && x.isSameLayout(as: y)
            default: return false
            }
        }

        static func validate(_ n: Node) throws(SceneError) {
            guard n.transform.isFinite else { throw .invalidNode(id: n.id, reason: "its transform has a NaN or infinite entry") }
            let b = n.bounds
            guard b.isEmpty || (b.minX.isFinite && b.minY.isFinite && b.maxX.isFinite && b.maxY.isFinite) else {
                throw .invalidNode(id: n.id, reason: "its bounds are not finite")
            }
            let s = n.slop
            guard s.top.isFinite, s.left.isFinite, s.bottom.isFinite, s.right.isFinite else {
                throw .invalidNode(id: n.id, reason: "its slop is not finite")
            }
            guard n.minSize.width.isFinite, n.minSize.height.isFinite, n.minSize.width >= 0, n.minSize.height >= 0 else {
                throw .invalidNode(id: n.id, reason: "its minSize must be finite and ≥ 0")
            }
            guard !n.alpha.isNaN else { throw .invalidNode(id: n.id, reason: "its alpha is NaN") }
            if case .roundRect(let r) = n.shape, !(r.isFinite && r >= 0) {
                throw .invalidNode(id: n.id, reason: "its corner radius must be finite and ≥ 0")
            }
        }
    }
}
