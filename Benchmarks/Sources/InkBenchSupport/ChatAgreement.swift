import InkGeometry
import InkScene

/// `SceneSnapshot.hit(at:radius:)` against the baseline walk (`ChatBaseline`) on a set of points: the node
/// each answers (ids compared; both nil is agreement). A disagreement is borderline when the baseline's own
/// answer changes within `borderlinePx` of the point (`ChatBaseline.isNearBoundary`): the point lies on a
/// region, clip, radius or tie boundary, where flattening (0.01 px) and rounding may pick either side.
/// Every other disagreement is wrong and is listed.
public struct SceneAgreement: Sendable, CustomStringConvertible {
    public static let borderlinePx = 0.05

    public struct Example: Sendable {
        public var point: Point
        /// Baseline: node id, inside, distance (root px).
        public var baseline: (id: String, isInside: Bool, distance: Double)?
        /// Scene: node id, inside, signed distance (root px), path from the root.
        public var scene: (id: String, isInside: Bool, distance: Double, path: [String])?
    }

    public var points = 0
    public var radius = 0.0
    /// Points where the two answers name different nodes (or one is nil).
    public var disagreements = 0
    /// Of those, within `borderlinePx` of a boundary.
    public var borderline = 0
    /// Of those, farther from every boundary: real errors of one side.
    public var wrong: Int { disagreements - borderline }
    /// Wrong answers by kind, "baseline leaf → scene leaf" (leaf: the part of the id after the cell's "cN."),
    /// with counts.
    public var wrongKinds: [String: Int] = [:]
    /// Every wrong answer up to `maxExamples`.
    public var examples: [Example] = []
    public static let maxExamples = 200

    public init() {}

    /// The leaf kind of a node id ("c12.message" → "message"; "list" → "list"; nil → "miss").
    public static func kind(_ id: String?) -> String {
        guard let id else { return "miss" }
        return id.split(separator: ".").last.map(String.init) ?? id
    }

    public var description: String {
        var s = "\(points) points at r = \(radius): \(disagreements) disagreements, \(borderline) within "
            + "\(Self.borderlinePx) px of a boundary, \(wrong) beyond"
        if !wrongKinds.isEmpty {
            s += " (" + wrongKinds.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
        }
        for e in examples {
            s += "\n  point (\(e.point.x), \(e.point.y)): baseline "
            s += e.baseline.map { "\($0.id) \($0.isInside ? "inside" : "at \($0.distance) px")" } ?? "miss"
            s += ", scene "
            s += e.scene.map { "\($0.id) \($0.isInside ? "inside" : "outside") distance \($0.distance) path \($0.path.joined(separator: "/"))" } ?? "miss"
        }
        return s
    }

    /// Compares `snapshot` with `baseline` on `points` at `radius` (root px).
    public static func compare(_ snapshot: SceneSnapshot, _ baseline: ChatBaseline, points: ArraySlice<Point>,
                               radius: Double) -> SceneAgreement {
        var c = SceneAgreement()
        c.points = points.count
        c.radius = radius
        for p in points {
            let b = baseline.hit(at: p, radius: radius)
            let s = snapshot.hit(at: p, radius: radius)
            let bid = b.map { baseline.ids[$0.node] }
            if bid == s?.node { continue }
            c.disagreements += 1
            if baseline.isNearBoundary(p, radius: radius, eps: borderlinePx) { c.borderline += 1; continue }
            c.wrongKinds["\(kind(bid)) → \(kind(s?.node))", default: 0] += 1
            if c.examples.count < maxExamples {
                c.examples.append(Example(point: p, baseline: b.map { (baseline.ids[$0.node], $0.isInside, $0.distance) },
                                          scene: s.map { ($0.node, $0.isInside, $0.distance, $0.path) }))
            }
        }
        return c
    }
}

/// The chat scene of a benchmark process, built on first use (a benchmark's setup) and checked against the
/// baseline walk before anything is timed: a disagreement beyond `SceneAgreement.borderlinePx` on the first
/// `checkedPoints` points at r = 0 or r = 8 stops the run (`fatalError`) with the cases.
public enum ChatFixtures {
    public static let chat = checked(try! ChatScene())
    public static let baseline = ChatBaseline(chat)
    /// Points checked in setup, and the radii (root px) of the scene benchmarks.
    public static let checkedPoints = 2_000
    public static let radii = [0.0, 8.0]
    /// The baseline is timed on the first this many points of the same set (it costs µs per query).
    public static let baselinePoints = 20_000

    static func checked(_ chat: ChatScene) -> ChatScene {
        let base = ChatBaseline(chat)
        for r in radii {
            let c = SceneAgreement.compare(chat.snapshot, base, points: chat.points.prefix(checkedPoints), radius: r)
            if c.wrong > 0 { fatalError("SceneSnapshot disagrees with the baseline walk on the chat scene: \(c)") }
        }
        return chat
    }

    /// The mover of `scene.move.snapshot`, kept across iterations (its scene copied from the fixture's once,
    /// in setup, by two steps: the measured edits then change it in place).
    nonisolated(unsafe) public static var mover: ChatScene.Mover = {
        var m = chat.mover()
        _ = try! m.step()
        _ = try! m.step()
        return m
    }()
}
