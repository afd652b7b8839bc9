#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry
import InkHit
import InkScene
import InkText

/// The baseline of the hit-scene benchmark: the straightforward recursive walk that tests every child
/// (UIKit's `hitTest:` / `pointInside:`), over the chat scene's own tree of `Node` values.
///
/// For each node, children in reverse order (topmost first), then the node itself — reverse pre-order, so
/// the first target found to contain the point is the topmost one and ends the walk. A node is skipped with
/// its subtree when hidden, not interactive, alpha < 0.01 or `pointerEvents == .none`; `boxNone` skips only
/// the node, `boxOnly` only its children; a clipping node's children are visited only when the point (in
/// the node's local px) is inside its hit box. A target's region is tested the plain way: a box by its hit
/// box; a round rect analytically; text by `TextLayout.hit(at:radius:)` (the layout's own index); a mask by
/// the pixel under the point (alpha ≥ threshold); united with the hit box where `slop` or `minSize` enlarge
/// it. With a radius r > 0 and no target containing the point, the walk visits every reachable target and
/// keeps the nearest within r (distances equal within 1e-6 × (1 + d) go to the topmost, the one met first).
///
/// Distances are computed in local px; they equal root (view) px because every transform of the chat scene
/// is a translation (checked at init). Inverse transforms are computed once at init, not per query.
public final class ChatBaseline: @unchecked Sendable {
    enum Kind: UInt8 { case box, roundRect, text, mask }
    struct Info {
        /// Parent px → local px.
        var inverse: AffineTransform
        var hitBox: Rect, bounds: Rect
        var kind: Kind
        /// Corner radius of a round rect (clamped to half the shorter side), local px.
        var cornerRadius: Double
        /// Index into `layouts` or `masks`.
        var extra: Int
        var isOut: Bool, takesItself: Bool, passesToChildren: Bool, clips: Bool
        /// The hit box reaches beyond `bounds` (slop or minSize): part of the region.
        var enlarged: Bool
    }
    /// A mask's pixels, copied out of the `AlphaMask` once.
    struct MaskPixels {
        let width: Int, height: Int, alpha: [UInt8], threshold: UInt8

        /// Pixel (x, y) of the mask mapped onto `b` (local px), or nil outside it.
        func pixel(_ p: Point, _ b: Rect) -> (Int, Int)? {
            let x = Int(((p.x - b.minX) / b.width * Double(width)).rounded(.down))
            let y = Int(((p.y - b.minY) / b.height * Double(height)).rounded(.down))
            return x >= 0 && y >= 0 && x < width && y < height ? (x, y) : nil
        }
        func contains(_ p: Point, _ b: Rect) -> Bool {
            guard let (x, y) = pixel(p, b) else { return false }
            return alpha[y * width + x] >= threshold
        }
        /// Distance from `p` to the nearest hit pixel's square (local px), scanning the pixels within `limit`.
        func distance(_ p: Point, _ b: Rect, limit: Double) -> Double {
            let sx = b.width / Double(width), sy = b.height / Double(height)
            let x0 = max(0, Int(((p.x - limit - b.minX) / sx).rounded(.down))), x1 = min(width - 1, Int(((p.x + limit - b.minX) / sx).rounded(.down)))
            let y0 = max(0, Int(((p.y - limit - b.minY) / sy).rounded(.down))), y1 = min(height - 1, Int(((p.y + limit - b.minY) / sy).rounded(.down)))
            var best = Double.infinity
            guard x0 <= x1, y0 <= y1 else { return best }
            for y in y0...y1 {
                for x in x0...x1 where alpha[y * width + x] >= threshold {
                    let r = Rect(minX: b.minX + Double(x) * sx, minY: b.minY + Double(y) * sy,
                                 maxX: b.minX + Double(x + 1) * sx, maxY: b.minY + Double(y + 1) * sy)
                    best = min(best, r.distance(to: p))
                }
            }
            return best
        }
    }

    /// The baseline's answer: a node (index into the tree's nodes), inside its region or at `distance` root px.
    public struct Answer: Sendable, Equatable {
        public var node: Int
        public var isInside: Bool
        /// 0 when inside (the baseline does not measure depth), else the distance to the region, root px.
        public var distance: Double
    }

    /// Per node, and children as one list (node i's are `childList[childStart[i] ..< childStart[i + 1]]`,
    /// bottom first): raw buffers, so the walk reads a node's fields in place instead of copying them.
    let info: UnsafeMutableBufferPointer<Info>
    let childStart: UnsafeMutableBufferPointer<Int32>, childList: UnsafeMutableBufferPointer<Int32>
    let layouts: [TextLayout]
    let masks: [MaskPixels]
    /// Node ids, by node index.
    public let ids: [String]

    /// The walk over `nodes` (pre-order, `children` bottom first, node 0 the root).
    public init(nodes: [Node], children: [[Int]]) {
        var layouts: [TextLayout] = [], masks: [MaskPixels] = []
        let info = nodes.map { n in
            let t = n.transform
            precondition(t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1, "the baseline measures distances in local px: translations only")
            var kind = Kind.box, radius = 0.0, extra = -1
            switch n.shape {
            case .box: break
            case .roundRect(let r): kind = .roundRect; radius = min(r, n.bounds.width / 2, n.bounds.height / 2)
            case .text(let layout, let holes):
                precondition(holes == .ink, "the baseline tests text by its ink")
                kind = .text; extra = layouts.count; layouts.append(layout)
            case .mask(let m):
                kind = .mask; extra = masks.count
                masks.append(MaskPixels(width: m.width, height: m.height, alpha: m.alpha, threshold: m.threshold))
            default: preconditionFailure("the chat scene's baseline handles boxes, round rects, text and masks")
            }
            let box = n.hitBox, b = n.bounds
            let enlarged = !box.isEmpty && (b.isEmpty || box.minX < b.minX || box.minY < b.minY || box.maxX > b.maxX || box.maxY > b.maxY)
            return Info(inverse: t.inverted()!, hitBox: box, bounds: b, kind: kind, cornerRadius: radius, extra: extra,
                        isOut: n.isHidden || !n.isInteractive || !(n.alpha >= 0.01) || n.pointerEvents == .none,
                        takesItself: n.pointerEvents == .auto || n.pointerEvents == .boxOnly,
                        passesToChildren: n.pointerEvents == .auto || n.pointerEvents == .boxNone,
                        clips: n.clipsChildren, enlarged: enlarged)
        }
        self.info = .allocate(capacity: info.count)
        _ = self.info.initialize(from: info)
        childStart = .allocate(capacity: nodes.count + 1)
        childList = .allocate(capacity: max(1, children.reduce(0) { $0 + $1.count }))
        var k = 0
        for (i, cs) in children.enumerated() {
            childStart[i] = Int32(k)
            for c in cs { childList[k] = Int32(c); k += 1 }
        }
        childStart[nodes.count] = Int32(k)
        self.layouts = layouts
        self.masks = masks
        ids = nodes.map(\.id)
    }

    deinit {
        info.deallocate()
        childStart.deallocate()
        childList.deallocate()
    }

    /// The walk over the chat scene's nodes.
    public convenience init(_ chat: ChatScene) { self.init(nodes: chat.nodes, children: chat.children) }

    /// The node under `point` (root px) within `radius` (root px) by the walk above; nil when none.
    public func hit(at point: Point, radius: Double = 0) -> Answer? {
        var best: Answer? = nil
        _ = visit(0, point, radius > 0 ? radius : 0, &best)
        return best
    }

    /// Visits node `i` with the point in its parent's px; true when a target containing it was found.
    func visit(_ i: Int, _ inParent: Point, _ r: Double, _ best: inout Answer?) -> Bool {
        let n = info.baseAddress! + i
        if n.pointee.isOut { return false }
        let p = inParent.applying(n.pointee.inverse)
        if n.pointee.passesToChildren && (!n.pointee.clips || n.pointee.hitBox.contains(p)) {
            let first = Int(childStart[i])
            var k = Int(childStart[i + 1])
            while k > first {
                k -= 1
                if visit(Int(childList[k]), p, r, &best) { return true }
            }
        }
        guard n.pointee.takesItself else { return false }
        if contains(n.pointee, p) {
            best = Answer(node: i, isInside: true, distance: 0)
            return true
        }
        if r > 0 {
            let d = distance(n.pointee, p, limit: r)
            if d <= r, best.map({ d < $0.distance - 1e-6 * (1 + $0.distance) }) ?? true {
                best = Answer(node: i, isInside: false, distance: d)
            }
        }
        return false
    }

    func contains(_ n: Info, _ p: Point) -> Bool {
        switch n.kind {
        case .box: return n.hitBox.contains(p)
        case .roundRect: if Self.roundRectDistance(n.bounds, n.cornerRadius, p) <= 0 { return true }
        case .text: if let h = layouts[n.extra].hit(at: p, radius: 0), h.kind == .ink { return true }
        case .mask: if masks[n.extra].contains(p, n.bounds) { return true }
        }
        return n.enlarged && n.hitBox.contains(p)
    }

    /// Distance from `p` (outside the region) to the region, local px; +∞ when farther than `limit` (text
    /// and masks look no farther).
    func distance(_ n: Info, _ p: Point, limit: Double) -> Double {
        var d = Double.infinity
        switch n.kind {
        case .box: d = n.hitBox.distance(to: p)
        case .roundRect: d = max(0, Self.roundRectDistance(n.bounds, n.cornerRadius, p))
        case .text: d = layouts[n.extra].hit(at: p, radius: limit).map { max(0, $0.distance) } ?? .infinity
        case .mask: d = masks[n.extra].distance(p, n.bounds, limit: limit)
        }
        return n.enlarged ? min(d, n.hitBox.distance(to: p)) : d
    }

    /// Signed distance from `p` to the rect `b` with corners rounded by `radius` (≤ half the shorter side),
    /// negative inside, local px.
    static func roundRectDistance(_ b: Rect, _ radius: Double, _ p: Point) -> Double {
        let qx = abs(p.x - (b.minX + b.maxX) / 2) - (b.width / 2 - radius)
        let qy = abs(p.y - (b.minY + b.maxY) / 2) - (b.height / 2 - radius)
        let ox = max(qx, 0), oy = max(qy, 0)
        return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
    }

    /// True when the walk's answer at `point` changes within `eps` px: at one of 8 points around it at
    /// eps / cos(22.5°) px (so every straight boundary within eps is crossed), i.e. the point lies within
    /// about eps of a region, clip, radius or tie boundary.
    public func isNearBoundary(_ point: Point, radius: Double, eps: Double = 0.05) -> Bool {
        let here = hit(at: point, radius: radius)?.node
        let s = eps / cos(Double.pi / 8)
        for k in 0..<8 {
            let a = Double(k) * Double.pi / 4
            if hit(at: Point(point.x + s * cos(a), point.y + s * sin(a)), radius: radius)?.node != here { return true }
        }
        return false
    }
}
