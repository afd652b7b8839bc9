import InkGeometry
import InkHit
import InkFreeType
import InkText

/// What a point hits in a scene.
public struct SceneHit: Sendable {
    /// The id of the node hit.
    public var node: String
    let pathLink: IDPath
    /// The ids from the root down to that node (built when read: the answer itself carries a shared link).
    public var path: [String] { pathLink.ids }
    /// How many ancestors the node has (0: the root).
    public var depth: Int { pathLink.depth }
    /// Not API: the node's slot in the scene the snapshot came from (`Scene.slot(of:)` when it was taken).
    package var nodeSlot: Int { pathLink.slot }
    /// The point in the node's local coordinates.
    public var local: Point
    /// Signed distance to the node's region, root (view) px: negative inside (the depth inside the part of
    /// the region that holds the point: its shape or its enlarged hit box).
    public var distance: Double
    /// True when the point is inside the node's region.
    public var isInside: Bool
    /// For a text or glyph-run node: the placement hit, an index into `TextLayout.glyphs` or the run (not a
    /// glyph id); nil for an attachment, a decoration or the enlarged box.
    public var placement: Int?
    /// For a text node hit on a glyph, a decoration or an attachment: the character, its UTF-16 range, line,
    /// link, attachment tag and decoration, as `TextLayout.hit` gives them.
    public var text: TextHit?

    /// The 1.0 name of `placement` (it holds a placement, never a glyph id).
    @available(*, deprecated, renamed: "placement")
    public var glyph: Int? {
        get { placement }
        set { placement = newValue }
    }
}

/// An immutable scene, indexed for queries: safe to share between threads, unchanged by later edits of the
/// `Scene` it came from.
///
/// **The rule.** Targets are the nodes that may be hit: not taken out by a flag (hidden, not interactive,
/// alpha < 0.01, `pointerEvents` `.none`: the node and its subtree; `.boxNone`: the node alone; `.boxOnly`:
/// its subtree), and every clipping ancestor's hit box contains the point (edges included). A node's region
/// is its shape, united with its hit box where `slop` or `minSize` make that larger than its bounds (for a
/// `.box`, the hit box itself). The answer is the topmost target whose region contains the point; otherwise,
/// with a radius, the target whose region is nearest within it. Distances `d` within 1e-6 × (1 + d*) of the
/// least distance `d*` are ties, and ties go to the topmost. Topmost means last in pre-order: children above
/// their parent, later siblings above earlier ones. Distances are Euclidean in root px, exact under any
/// affine transform (curves within the snapshot's tolerance; boxes and, under similarities, rounded
/// rectangles measured exactly).
///
/// **How it is indexed.** A node with up to 16 children keeps them in one block of boxes in z-order; a wider
/// node keeps them in a spatial tree of such blocks (split at the median of their centres, with each child's
/// z), all in the node's own coordinates. A query walks down from the root, mapping the point into each
/// node's space (one affine map a level), testing clips on the way, and visits only children whose boxes
/// reach the point (or come within the radius, or within the nearest distance found so far), topmost first,
/// stopping at the first target that contains the point. Text, glyph and path leaves answer through their
/// own `HitIndex`.
/// Queries allocate nothing for scenes up to about 16 levels deep (deeper ones use one heap buffer a query).
public struct SceneSnapshot: Sendable {
    let root: NodeRecord
    /// Flattening tolerance, view px.
    public let tolerance: Double
    /// Number of nodes.
    public let count: Int

    init(root: NodeRecord, tolerance: Double, count: Int) {
        self.root = root; self.tolerance = tolerance; self.count = count
    }

    /// The node under `point` (root px) within `radius` (root px) by the rule above; nil when none. A
    /// negative or NaN radius counts as 0; a non-finite point is a miss. Allocates nothing (reading the
    /// answer's `path` builds an array).
    public func hit(at point: Point, radius: Double = 0) -> SceneHit? {
        guard point.isFinite else { return nil }
        let r = radius > 0 ? radius : 0
        return withExtendedLifetime(root) {
            var best = NearestVisitor(radius: r)
            walk(point, &best)
            guard let found = best.found else { return nil }
            if !found.answer.isInside && best.mayTie {
                var tie = TieVisitor(limit: min(r, best.distance + 1e-6 * (1 + best.distance)))
                walk(point, &tie)
                if let t = tie.found { return Self.sceneHit(t) }
            }
            return Self.sceneHit(found)
        }
    }

    /// The answers for many touches, in order: `hit(at:radius:)` for each point (a negative or NaN radius
    /// counts as 0).
    public func hits(for points: [Point], radius: Double = 0) -> [SceneHit?] {
        points.map { hit(at: $0, radius: radius) }
    }

    /// Every target whose region contains `point`, topmost first, each node once (like the web's
    /// `elementsFromPoint`). Allocates the array.
    public func targets(at point: Point) -> [SceneHit] {
        guard point.isFinite else { return [] }
        return withExtendedLifetime(root) {
            var all = AllVisitor()
            walk(point, &all)
            return all.found.map(Self.sceneHit)
        }
    }

    // MARK: The walk

    /// A target found: its record, the point in its local space, and the region's answer.
    struct Found {
        var record: NodeRecord
        var local: Point
        var answer: Region.Answer
    }

    static func sceneHit(_ f: Found) -> SceneHit {
        let node = f.record.node
        var glyph: Int? = nil
        var text: TextHit? = nil
        if case .layer(let k, let placement) = f.answer.part, let region = f.record.region {
            switch region.layers[k].kind {
            case .shape: break
            case .glyphs(let map): glyph = map[placement]
            case .words(let words): glyph = nearestGlyph(node.shape, words[placement], f.local)
            case .attachments:
                if case .text(let layout, _) = node.shape {
                    text = layout.attachmentHit(placement, distance: f.answer.distance, isInside: f.answer.isInside)
                }
            case .decorations:
                if case .text(let layout, _) = node.shape {
                    text = layout.decorationHit(placement, at: f.local, distance: f.answer.distance, isInside: f.answer.isInside)
                }
            }
        }
        if case .text(let layout, _) = node.shape, let g = glyph {
            text = layout.textHit(placement: g, at: f.local, distance: f.answer.distance, isInside: f.answer.isInside)
        }
        return SceneHit(node: node.id, pathLink: f.record.path, local: f.local, distance: f.answer.distance,
                        isInside: f.answer.isInside, placement: glyph, text: text)
    }

    /// The glyph of a word whose ink box is nearest `local` (0 inside; ties to the later glyph).
    static func nearestGlyph(_ shape: NodeShape, _ word: Range<Int>, _ local: Point) -> Int {
        var best = word.lowerBound, bestD = Double.infinity
        for gi in word {
            let p: GlyphPlacement
            switch shape {
            case .text(let layout, _): p = layout.placement(of: gi)
            case .glyphs(let run, _): p = run[gi]
            default: return word.lowerBound
            }
            guard let box = try? p.viewBounds(), !box.isEmpty else { continue }
            let dx = max(box.minX - local.x, 0, local.x - box.maxX), dy = max(box.minY - local.y, 0, local.y - box.maxY)
            let d = dx * dx + dy * dy
            if d <= bestD { best = gi; bestD = d }
        }
        return best
    }

    /// Walks the targets that may answer, topmost first (reverse pre-order), skipping every subtree whose box
    /// is farther than `visitor.bound` root px from the point or that a clip keeps the point out of, until
    /// the visitor says stop. Allocates nothing unless the walk holds more than `FrameStack.inline` frames.
    func walk<V: SceneVisitor>(_ point: Point, _ visitor: inout V) {
        withUnsafeTemporaryAllocation(of: Frame.self, capacity: FrameStack.inline) { buffer in
            var stack = FrameStack(base: buffer.baseAddress!, capacity: FrameStack.inline)
            defer { stack.free() }
            stack.push(Frame(node: root, x: point.x, y: point.y))
            while let f = stack.pop() {
                switch f.kind {
                case Frame.node:
                    Unmanaged<NodeRecord>.fromOpaque(f.ref).withBorrowed { r in
                        let t = r.fromParent
                        let x = t.a * f.x + t.c * f.y + t.tx, y = t.b * f.x + t.d * f.y + t.ty
                        let flags = r.flags
                        if flags.contains(.target) { stack.push(Frame(own: r, x: x, y: y)) }
                        if flags.contains(.passes), let c = r.children,
                           !flags.contains(.clips) || (x >= r.hitBox.minX && x <= r.hitBox.maxX && y >= r.hitBox.minY && y <= r.hitBox.maxY) {
                            // The least root px per local px, rounded down (a bound in this space is never too small).
                            let scale = Float(r.minScale).nextDown
                            if c.height == 0 {
                                stack.push(Frame(block: c, from: c.n - 1, x: x, y: y, scale: scale))
                            } else {
                                // A wide node: the children its spatial tree puts near the point, topmost last.
                                let limit = visitor.bound / Double(scale) * (1 + 1e-9)
                                let start = stack.count
                                Self.collect(c, x, y, limit, &stack)
                                stack.sortByZ(from: start)
                            }
                        }
                    }
                case Frame.block:
                    Unmanaged<ChildBlock>.fromOpaque(f.ref).withBorrowed { b in
                        // The bound in this space: root px over the least root px per local px (rounded down).
                        let limit = visitor.bound / Double(f.scale) * (1 + 1e-9)
                        let px = f.x, py = f.y
                        b.withUnsafeMutablePointerToElements { slots in
                            var j = f.index
                            while j >= 0 && !slots[j].isWithin(limit, of: px, py) { j -= 1 }
                            guard j >= 0 else { return }
                            if j > 0 { stack.push(Frame(block: b, from: j - 1, x: px, y: py, scale: f.scale)) }
                            let o = Unmanaged<AnyObject>.passUnretained(slots[j].object).toOpaque()
                            if b.height == 0 {
                                stack.push(Frame(ref: o, x: px, y: py, kind: Frame.node))
                            } else {
                                let c = Unmanaged<ChildBlock>.fromOpaque(o).takeUnretainedValue()
                                stack.push(Frame(block: c, from: c.n - 1, x: px, y: py, scale: f.scale))
                            }
                        }
                    }
                default:
                    let stop = Unmanaged<NodeRecord>.fromOpaque(f.ref).withBorrowed { r in
                        visitor.visit(r, local: Point(f.x, f.y))
                    }
                    if stop { return }
                }
            }
        }
    }
}

extension ChildSlot {
    /// Whether the slot's box is within `limit` (px of the parent's space) of (x, y); with `limit` 0, whether
    /// it contains the point (edges included).
    @inline(__always) func isWithin(_ limit: Double, of x: Double, _ y: Double) -> Bool {
        let dx = max(Double(minX) - x, 0, x - Double(maxX))
        let dy = max(Double(minY) - y, 0, y - Double(maxY))
        return dx <= limit && dy <= limit && (dx == 0 && dy == 0 || (dx * dx + dy * dy).squareRoot() <= limit)
    }
}

extension SceneSnapshot {
    /// Pushes a node frame (its `z` in the tag) for every child under `b` whose box is within `limit` (local
    /// px of the parent) of (x, y). Recursion as deep as the spatial tree (4 levels for 65,536 children).
    static func collect(_ b: ChildBlock, _ x: Double, _ y: Double, _ limit: Double, _ stack: inout FrameStack) {
        b.withUnsafeMutablePointerToElements { slots in
            for j in 0..<b.n {
                let s = slots[j]
                guard s.isWithin(limit, of: x, y) else { continue }
                let o = Unmanaged<AnyObject>.passUnretained(s.object).toOpaque()
                if b.height == 0 {
                    var f = Frame(ref: o, x: x, y: y, kind: Frame.node)
                    f.tag = Frame.node | s.z << 2
                    stack.push(f)
                } else {
                    collect(Unmanaged<ChildBlock>.fromOpaque(o).takeUnretainedValue(), x, y, limit, &stack)
                }
            }
        }
    }
}

/// What a walk does at each target it reaches.
protocol SceneVisitor {
    /// Root px: subtrees farther than this from the point are skipped (0: only those whose boxes contain it).
    var bound: Double { get }
    /// A target reached (topmost first); true stops the walk.
    mutating func visit(_ r: NodeRecord, local: Point) -> Bool
}

extension NodeRecord {
    /// The region's answer at local point `p` within `bound` root px, or nil.
    @inline(__always) func answer(_ p: Point, bound: Double) -> Region.Answer? {
        guard let region else { return nil }
        let b = region.bounds
        let dx = max(b.minX - p.x, 0, p.x - b.maxX), dy = max(b.minY - p.y, 0, p.y - b.maxY)
        if dx != 0 || dy != 0 {
            guard bound > 0, (dx * dx + dy * dy).squareRoot() * minScale <= bound * (1 + 1e-9) + 1e-12 else { return nil }
        }
        return region.answer(local: p, lspace: p.applying(linear), linear: linear, scale: maxScale, bound: bound)
    }
}

/// The rule's first pass: the topmost target holding the point, else the nearest within the radius, noting
/// whether another target may tie with it.
struct NearestVisitor: SceneVisitor {
    let radius: Double
    var found: SceneSnapshot.Found? = nil
    /// Least distance so far (the radius until a target is within it).
    var distance: Double
    var runnerUp = Double.infinity
    private(set) var bound: Double

    init(radius: Double) { self.radius = radius; distance = radius; bound = radius }

    mutating func visit(_ r: NodeRecord, local: Point) -> Bool {
        guard let a = r.answer(local, bound: bound) else { return false }
        if a.isInside { found = SceneSnapshot.Found(record: r, local: local, answer: a); return true }
        if found == nil || a.distance < distance {
            if found != nil { runnerUp = distance }
            found = SceneSnapshot.Found(record: r, local: local, answer: a)
            distance = a.distance
            bound = min(radius, a.distance + 2e-6 * (1 + a.distance))
        } else {
            runnerUp = min(runnerUp, a.distance)
        }
        return false
    }

    /// Whether another target came within the tie window of the nearest.
    var mayTie: Bool { runnerUp <= distance + 1e-6 * (1 + distance) }
}

/// The rule's second pass, when targets may tie: the topmost within the tie window.
struct TieVisitor: SceneVisitor {
    let bound: Double
    var found: SceneSnapshot.Found? = nil
    init(limit: Double) { bound = limit }
    mutating func visit(_ r: NodeRecord, local: Point) -> Bool {
        guard let a = r.answer(local, bound: bound), a.isInside || a.distance <= bound else { return false }
        found = SceneSnapshot.Found(record: r, local: local, answer: a)
        return true
    }
}

/// Every target holding the point, topmost first.
struct AllVisitor: SceneVisitor {
    var bound: Double { 0 }
    var found: [SceneSnapshot.Found] = []
    mutating func visit(_ r: NodeRecord, local: Point) -> Bool {
        if let a = r.answer(local, bound: 0), a.isInside { found.append(SceneSnapshot.Found(record: r, local: local, answer: a)) }
        return false
    }
}

/// One step of a walk: a node to enter (the point in its parent's space), a block of children to go on with
/// (from slot `index` down; the point in their parent's space, whose least scale to the root is `scale`,
/// rounded down), or a target to test (the point in its own space). References are unretained: the
/// snapshot's root keeps everything alive for the walk. 32 bytes.
struct Frame {
    static let node: Int32 = 0, block: Int32 = 1, own: Int32 = 2
    var ref: UnsafeMutableRawPointer
    var x: Double, y: Double
    var scale: Float
    /// kind | index << 2
    var tag: Int32

    @inline(__always) init(ref: UnsafeMutableRawPointer, x: Double, y: Double, kind: Int32) {
        self.ref = ref; self.x = x; self.y = y; scale = 0; tag = kind
    }
    @inline(__always) init(node r: NodeRecord, x: Double, y: Double) {
        self.init(ref: Unmanaged.passUnretained(r).toOpaque(), x: x, y: y, kind: Self.node)
    }
    @inline(__always) init(own r: NodeRecord, x: Double, y: Double) {
        self.init(ref: Unmanaged.passUnretained(r).toOpaque(), x: x, y: y, kind: Self.own)
    }
    @inline(__always) init(block b: ChildBlock, from index: Int, x: Double, y: Double, scale: Float) {
        ref = Unmanaged.passUnretained(b).toOpaque(); self.x = x; self.y = y
        self.scale = scale; tag = Self.block | Int32(truncatingIfNeeded: index) << 2
    }
    @inline(__always) var kind: Int32 { tag & 3 }
    @inline(__always) var index: Int { Int(tag >> 2) }
}

/// A stack of frames over a caller's buffer (on its stack), moving to the heap (doubling) when it fills.
struct FrameStack {
    /// Frames held in place: 32 × 32 bytes, the most `withUnsafeTemporaryAllocation` keeps on the stack.
    static let inline = 32
    var base: UnsafeMutablePointer<Frame>
    var capacity: Int
    var count = 0
    var heap = false

    init(base: UnsafeMutablePointer<Frame>, capacity: Int) { self.base = base; self.capacity = capacity }

    @inline(__always) mutating func push(_ f: Frame) {
        if count == capacity { grow() }
        (base + count).initialize(to: f)
        count += 1
    }

    @inline(__always) mutating func pop() -> Frame? {
        guard count > 0 else { return nil }
        count -= 1
        return base[count]
    }

    mutating func grow() {
        let bigger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
        bigger.initialize(from: base, count: count)
        if heap { base.deallocate() }
        base = bigger; capacity *= 2; heap = true
    }

    mutating func free() { if heap { base.deallocate(); heap = false } }

    /// Sorts the frames from `start` up by their tag (a node frame's `z`), so the topmost child pops first:
    /// insertion sort for the few a query usually reaches, heapsort (in place, O(k log k)) for many.
    mutating func sortByZ(from start: Int) {
        let a = base + start, k = count - start
        guard k > 1 else { return }
        if k <= 32 {
            for i in 1..<k {
                let f = a[i]
                var j = i
                while j > 0 && a[j - 1].tag > f.tag { a[j] = a[j - 1]; j -= 1 }
                a[j] = f
            }
            return
        }
        func siftDown(_ root: Int, _ end: Int) {
            var r = root
            while 2 * r + 1 < end {
                var c = 2 * r + 1
                if c + 1 < end && a[c].tag < a[c + 1].tag { c += 1 }
                guard a[r].tag < a[c].tag else { return }
                a.swapAt(r, c)
                r = c
            }
        }
        for r in stride(from: k / 2 - 1, through: 0, by: -1) { siftDown(r, k) }
        for end in stride(from: k - 1, to: 0, by: -1) {
            a.swapAt(0, end)
            siftDown(0, end)
        }
    }
}

extension UnsafeMutablePointer where Pointee == Frame {
    @inline(__always) func swapAt(_ i: Int, _ j: Int) { let t = self[i]; self[i] = self[j]; self[j] = t }
}

extension Unmanaged {
    /// `body` applied to the object, borrowed for the call without taking ownership of it: the caller
    /// guarantees that something else keeps it alive meanwhile (in the walk, the snapshot that owns every
    /// record and block a frame points to). The walk's one use of underscored standard-library API: the
    /// public form (`takeUnretainedValue()` inside `withExtendedLifetime`) adds a `swift_retain`/`swift_release`
    /// pair per frame, atomic operations on counts shared by every thread querying the snapshot.
    @inline(__always)
    func withBorrowed<R>(_ body: (Instance) -> R) -> R {
        _withUnsafeGuaranteedRef(body)
    }
}
