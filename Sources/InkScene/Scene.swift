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
/// snapshot.hit(at: Point(95, 195))?.node        // "button": its 20 × 20 box grew to 44 × 44
/// ```
///
/// Edits never change a snapshot already taken. Nodes are kept in flat arrays (no recursion anywhere), so
/// trees 10,000 levels deep are built, edited and queried like flat ones.
public struct Scene: Sendable {
    var nodes: [Node?] = []
    var parent: [Int] = []
    var children: [[Int]] = []
    var slot: [String: Int] = [:]
    var free: [Int] = []

    /// A scene holding only `root`.
    public init(root: Node) {
        nodes = [root]; parent = [-1]; children = [[]]; slot = [root.id: 0]
    }

    /// The root's id.
    public var rootID: String { nodes[0]!.id }
    /// Number of nodes.
    public var count: Int { slot.count }

    /// The node with this id.
    public func node(_ id: String) -> Node? { slot[id].flatMap { nodes[$0] } }

    /// The ids of a node's children, bottom first.
    public func children(of id: String) -> [String]? { slot[id].map { children[$0].map { nodes[$0]!.id } } }

    /// Adds `node` as the last (topmost) child of `parentID`.
    ///
    /// - Throws: `.duplicateID`, `.unknownNode` (the parent).
    public mutating func add(_ node: Node, to parentID: String) throws(SceneError) {
        guard slot[node.id] == nil else { throw .duplicateID(node.id) }
        guard let p = slot[parentID] else { throw .unknownNode(parentID) }
        let s: Int
        if let f = free.popLast() {
            s = f; nodes[s] = node; parent[s] = p; children[s] = []
        } else {
            s = nodes.count; nodes.append(node); parent.append(p); children.append([])
        }
        children[p].append(s)
        slot[node.id] = s
    }

    /// Changes a node in place (its transform, bounds, flags, shape…); its id must stay.
    ///
    /// - Throws: `.unknownNode`, `.idChanged`.
    public mutating func update(_ id: String, _ change: (inout Node) -> Void) throws(SceneError) {
        guard let s = slot[id] else { throw .unknownNode(id) }
        var n = nodes[s]!
        change(&n)
        guard n.id == id else { throw .idChanged(from: id, to: n.id) }
        nodes[s] = n
    }

    /// Removes a node and everything below it.
    ///
    /// - Throws: `.unknownNode`, `.cannotRemoveRoot`.
    public mutating func remove(_ id: String) throws(SceneError) {
        guard let s = slot[id] else { throw .unknownNode(id) }
        guard s != 0 else { throw .cannotRemoveRoot(id) }
        let p = parent[s]
        children[p].removeAll { $0 == s }
        var stack = [s]
        while let k = stack.popLast() {
            stack += children[k]
            slot[nodes[k]!.id] = nil
            nodes[k] = nil; children[k] = []; parent[k] = -1
            free.append(k)
        }
    }

    /// An immutable, indexed copy of the scene for queries, flattened within `tolerance` view px.
    ///
    /// - Throws: `SceneError` naming the first node that cannot be indexed (non-finite or singular
    ///   transforms, non-finite or negative bounds and sizes, shapes that cannot be built).
    public func snapshot(tolerance: Double = HitIndex.defaultTolerance) throws(SceneError) -> SceneSnapshot {
        try SceneSnapshot(self, tolerance: tolerance)
    }
}
