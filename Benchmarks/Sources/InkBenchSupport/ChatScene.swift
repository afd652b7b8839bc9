import InkFreeType
import InkGeometry
import InkHit
import InkScene
import InkText

/// The "chat log" hit scene of the scene targets: 1,000 messages, each a cell of exactly 10
/// nodes, under a root "screen" and one scrolling "list" (10,002 nodes in all), and uniform random query
/// points. Built from InkScene's public API only; everything (text layouts, nodes, points) is made once, in
/// setup, deterministically (SplitMix64, fixed seed).
///
/// Coordinates: every node's `transform` is a translation (local px → parent px), so local, list and root
/// (view) px differ only by offsets; the root is the screen, 360 px wide, the list starting 64 px down (a
/// navigation bar's height) and as tall as all its cells (the list's bounds are its whole content, not a
/// window). Each cell, top to bottom (local px of its clipped content container, inset 8 px left, 4 px top):
///
/// | node | shape | where | flags |
/// |---|---|---|---|
/// | `cN` (the cell) | box 360 × h | stacked in the list | `boxNone`, clips |
/// | `cN.content` | box 344 × (h − 8) | (8, 4) | `boxNone`, clips |
/// | `cN.avatar` | `AlphaMask` disc 32 × 32 (one mask value shared by all cells) | left, bottom-aligned with the bubble | |
/// | `cN.name` | text, DejaVu Sans 12 px | (40, 0) | |
/// | `cN.time` | text, DejaVu Sans 11 px | right-aligned at y 0 | |
/// | `cN.bubble` | `roundRect(12)` around the message + 10/6 px padding | (40, 18) | clips |
/// | `cN.message` | text, DejaVu Sans 15 px, width 240, 1–3 lines, one `TextLink` | (10, 6) in the bubble | |
/// | `cN.buttons` | box 68 × 20 | 4 px below the bubble | `boxNone`, does not clip |
/// | `cN.like`, `cN.reply` | boxes 20 × 20 with `minSize` (44, 44) | x 0 and 48 in the row | |
///
/// Containers (screen, list, cell, content, button row) are `boxNone`: only leaves are targets, so the gaps
/// between them miss at r = 0 and a touch radius picks the nearest leaf. The buttons' 44 × 44 boxes reach
/// 12 px over the bubble (they are later siblings: on top) and are clipped by the content container below.
public final class ChatScene: @unchecked Sendable {
    public static let messageCount = 1_000
    public static let nodesPerCell = 10
    /// Screen (and list, cell) width, px.
    public static let width = 360.0
    /// Offset of the list below the top of the screen, px.
    public static let listTop = 64.0
    /// Message wrap width, px, and most lines.
    public static let messageWidth = 240.0, messageMaxLines = 3
    /// Text sizes, px per em: message, name, time.
    public static let messageSize = 15.0, nameSize = 12.0, timeSize = 11.0

    /// Every node in pre-order (parents before children, siblings bottom first), as added to the scene.
    public let nodes: [Node]
    /// Index of each node's parent in `nodes` (-1 for the root).
    public let parents: [Int]
    /// Children of each node, bottom first (indices into `nodes`).
    public let children: [[Int]]
    /// Index in `nodes` of each cell.
    public let cells: [Int]
    /// The list's content in root px (all cells; what the query points cover).
    public let listExtent: Rect
    /// Uniform random points over `listExtent`, root px.
    public let points: [Point]
    /// Taps on one screen at a time: 200 screens (`screenHeight` px of the list from a random scroll offset),
    /// 1,000 uniform points on each, root px (the list scrolled to that offset is what a finger sees).
    public let screenPoints: [Point]
    /// The height of one screen, px.
    public static let screenHeight = 800.0
    /// Lines of each message (1…3).
    public let messageLines: [Int]
    /// Distinct `TextLayout`s made in setup (messages, plus one per distinct name or time string) and the
    /// seconds it took (not part of any measurement).
    public let layoutCount: Int, layoutSeconds: Double
    /// The scene holding `nodes`, and its first snapshot (built once here, for the query benchmarks).
    public let scene: Scene
    public let snapshot: SceneSnapshot

    /// The avatar: a 32 × 32 disc of radius 16 px with a one-pixel anti-aliased rim (alpha = coverage of the
    /// pixel centre's distance), hit where alpha ≥ 128.
    public static let avatarMask: AlphaMask = {
        var alpha = [UInt8](repeating: 0, count: 32 * 32)
        for y in 0..<32 {
            for x in 0..<32 {
                let dx = Double(x) + 0.5 - 16, dy = Double(y) + 0.5 - 16
                let cover = min(1, max(0, 16 - (dx * dx + dy * dy).squareRoot() + 0.5))
                alpha[y * 32 + x] = UInt8((cover * 255).rounded())
            }
        }
        return AlphaMask(width: 32, height: 32, alpha: alpha, threshold: 128)!
    }()

    /// Lays out the texts (through `FontShapeCache.shared`), builds the nodes, the scene, its first snapshot
    /// and `pointCount` points.
    public init(pointCount: Int = 200_000, seed: UInt64 = 0xC4A7_10C5) throws {
        let font = try Font(path: FontFiles.dejaVuSans)
        var rng = SplitMix64(seed: seed)
        let words = SampleText.english.split(separator: " ").map(String.init)
        let clock = ContinuousClock()
        let t0 = clock.now
        var labels: [String: TextLayout] = [:]
        func label(_ s: String, size: Double) throws -> TextLayout {
            let key = "\(size)|\(s)"
            if let l = labels[key] { return l }
            let l = try TextLayout(text: s, style: TextStyle(fonts: [font], size: size), cache: .shared)
            labels[key] = l
            return l
        }
        func box(_ l: TextLayout) -> Rect { l.lines.reduce(Rect.empty) { $0.union($1.box) } }
        let names = ["Alice", "White Rabbit", "Dodo", "Mouse", "Duchess", "Hatter", "Caterpillar", "Queen"]

        var nodes: [Node] = [], parents: [Int] = [], cells: [Int] = [], lines: [Int] = []
        nodes.reserveCapacity(2 + Self.messageCount * Self.nodesPerCell)
        func add(_ n: Node, _ parent: Int) -> Int { nodes.append(n); parents.append(parent); return nodes.count - 1 }
        func rect(_ w: Double, _ h: Double) -> Rect { Rect(minX: 0, minY: 0, maxX: w, maxY: h) }

        _ = add(Node(id: "screen", bounds: rect(Self.width, 0), pointerEvents: .boxNone), -1)   // height set below
        let list = add(Node(id: "list", bounds: rect(Self.width, 0), transform: .translation(0, Self.listTop),
                            pointerEvents: .boxNone), 0)
        var y = 0.0
        let contentWidth = Self.width - 16
        for i in 0..<Self.messageCount {
            // 2…15 consecutive words of the sample text; one of them (or two) is the link.
            let count = 2 + rng.int(14), start = rng.int(words.count - count)
            let msgWords = Array(words[start..<(start + count)])
            let linkWord = rng.int(count), linkWords = min(count - linkWord, 1 + rng.int(2))
            let text = msgWords.joined(separator: " ")
            let linkStart = msgWords[..<linkWord].reduce(0) { $0 + $1.utf16.count + 1 }
            let linkEnd = linkStart + msgWords[linkWord..<(linkWord + linkWords)].joined(separator: " ").utf16.count
            let message = try TextLayout(text: text, style: TextStyle(fonts: [font], size: Self.messageSize),
                                         paragraph: ParagraphStyle(width: Self.messageWidth, maxLines: Self.messageMaxLines),
                                         links: [TextLink(range: linkStart..<linkEnd, tag: "https://example.org/\(i)")],
                                         cache: .shared)
            lines.append(message.lines.count)
            let name = try label(names[rng.int(names.count)], size: Self.nameSize)
            let time = try label("\(9 + (i / 60) % 12):" + (i % 60 < 10 ? "0" : "") + "\(i % 60)", size: Self.timeSize)
            let messageBox = box(message), nameBox = box(name), timeBox = box(time)
            let bubble = rect(messageBox.maxX + 20, messageBox.maxY + 12)
            let contentHeight = 18 + bubble.height + 4 + 20 + 4
            let id = "c\(i)"

            let cell = add(Node(id: id, bounds: rect(Self.width, contentHeight + 8), transform: .translation(0, y),
                                pointerEvents: .boxNone), list)
            cells.append(cell)
            let content = add(Node(id: id + ".content", bounds: rect(contentWidth, contentHeight),
                                   transform: .translation(8, 4), pointerEvents: .boxNone), cell)
            _ = add(Node(id: id + ".avatar", bounds: rect(32, 32), transform: .translation(0, 18 + bubble.height - 32),
                         shape: .mask(Self.avatarMask)), content)
            _ = add(Node(id: id + ".name", bounds: rect(nameBox.maxX, nameBox.maxY), transform: .translation(40, 0),
                         shape: .text(name)), content)
            _ = add(Node(id: id + ".time", bounds: rect(timeBox.maxX, timeBox.maxY),
                         transform: .translation(contentWidth - timeBox.maxX, 0), shape: .text(time)), content)
            let b = add(Node(id: id + ".bubble", bounds: bubble, transform: .translation(40, 18),
                             shape: .roundRect(radius: 12)), content)
            _ = add(Node(id: id + ".message", bounds: rect(messageBox.maxX, messageBox.maxY), transform: .translation(10, 6),
                         shape: .text(message)), b)
            let row = add(Node(id: id + ".buttons", bounds: rect(68, 20), transform: .translation(40, 18 + bubble.height + 4),
                               clipsChildren: false, pointerEvents: .boxNone), content)
            _ = add(Node(id: id + ".like", bounds: rect(20, 20), minSize: (44, 44)), row)
            _ = add(Node(id: id + ".reply", bounds: rect(20, 20), transform: .translation(48, 0), minSize: (44, 44)), row)
            y += contentHeight + 8
        }
        nodes[list].bounds = rect(Self.width, y)
        nodes[0].bounds = rect(Self.width, Self.listTop + y)
        layoutSeconds = (clock.now - t0).seconds
        layoutCount = Self.messageCount + labels.count

        var children = [[Int]](repeating: [], count: nodes.count)
        for (i, p) in parents.enumerated() where p >= 0 { children[p].append(i) }
        self.nodes = nodes
        self.parents = parents
        self.children = children
        self.cells = cells
        self.messageLines = lines
        listExtent = Rect(minX: 0, minY: Self.listTop, maxX: Self.width, maxY: Self.listTop + y)
        var points: [Point] = []
        points.reserveCapacity(pointCount)
        for _ in 0..<pointCount { points.append(Point(rng.range(0, Self.width), rng.range(Self.listTop, Self.listTop + y))) }
        self.points = points
        var screens: [Point] = []
        screens.reserveCapacity(200 * 1000)
        for _ in 0..<200 {
            let top = rng.range(Self.listTop, Self.listTop + max(y - Self.screenHeight, 0))
            for _ in 0..<1000 { screens.append(Point(rng.range(0, Self.width), rng.range(top, top + Self.screenHeight))) }
        }
        screenPoints = screens
        scene = try Self.build(nodes, parents)
        snapshot = try scene.snapshot()
    }

    /// A fresh `Scene` with every node of `nodes` added (root first, then `add(_:to:)` in pre-order): what
    /// `scene.build` times, together with the first `snapshot()`.
    public static func build(_ nodes: [Node], _ parents: [Int]) throws -> Scene {
        var scene = Scene(root: nodes[0])
        scene.reserveCapacity(nodes.count)
        for i in 1..<nodes.count { try scene.add(nodes[i], to: nodes[parents[i]].id) }
        return scene
    }

    /// `build(nodes, parents)` and its first snapshot.
    public func buildAndSnapshot() throws -> SceneSnapshot { try Self.build(nodes, parents).snapshot() }

    /// `build(nodes, parents)` and its first snapshot, both returned, so a caller can time the build without
    /// the freeing of the scene.
    public func buildSceneAndSnapshot() throws -> (Scene, SceneSnapshot) {
        let scene = try Self.build(nodes, parents)
        return (scene, try scene.snapshot())
    }

    /// A copy of `scene` and the edit `scene.move.snapshot` repeats: move cell `cells[count / 2]` down by 1 px
    /// and back, alternately, each time taking a new snapshot.
    public func mover() -> Mover { Mover(scene: scene, id: nodes[cells[cells.count / 2]].id, base: nodes[cells[cells.count / 2]].transform) }

    /// Moves one cell by 1 px, alternately down and back, and snapshots.
    public struct Mover {
        public var scene: Scene
        let id: String
        let base: AffineTransform
        var down = false
        /// One edit (the cell's transform translated by 1 px, or back) and one `snapshot()`.
        public mutating func step() throws -> SceneSnapshot {
            down.toggle()
            let t = down ? base.concatenating(.translation(0, 1)) : base
            try scene.update(id) { $0.transform = t }
            return try scene.snapshot()
        }
    }
}
