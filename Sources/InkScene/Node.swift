import InkGeometry
import InkHit
import InkFreeType
import InkText

/// Which part of a node takes touches (React Native's `pointerEvents`).
public enum PointerEvents: String, Sendable, Hashable, CaseIterable {
    /// The node and its children.
    case auto
    /// Neither the node nor any node below it.
    case none
    /// Only its children (the node itself is never the answer; it still clips them).
    case boxNone = "box-none"
    /// Only the node (its children are never the answer).
    case boxOnly = "box-only"
}

/// Distances from a rect's edges, in the node's local units (UIKit's `UIEdgeInsets` order: top, left,
/// bottom, right). Positive values move an edge inwards; negative values enlarge the rect (like
/// `hitTestEdgeInsets` or React Native's `hitSlop`, with the opposite sign).
public struct EdgeInsets: Sendable, Hashable {
    /// Inset of the top (minimum y) edge.
    public var top: Double
    /// Inset of the left (minimum x) edge.
    public var left: Double
    /// Inset of the bottom (maximum y) edge.
    public var bottom: Double
    /// Inset of the right (maximum x) edge.
    public var right: Double
    /// No insets.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
    /// Insets from their four values.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// The same inset on every edge (negative: enlarge by that much all round).
    public init(all v: Double) { self.init(top: v, left: v, bottom: v, right: v) }
}

/// What a node's own region is, in its local coordinates.
public enum NodeShape: Sendable {
    /// Its `bounds` (the default).
    case box
    /// Its `bounds` with corners rounded by `radius` (clamped to half the shorter side).
    case roundRect(radius: Double)
    /// The ellipse inscribed in its `bounds`.
    case ellipse
    /// A path in local coordinates, filled by `fillRule`.
    case path([PathElement], fillRule: FillRule)
    /// A laid-out text whose view space (the layout's `transform` applied) is the node's local space: hit by
    /// its ink, its filled glyphs or its words' hulls (`holes`); answers carry the character, link and line.
    /// Attachments lie on top of the glyphs and answer with their tags. (Boxed, so a shape stays a few words
    /// whatever the layout's size.)
    indirect case text(TextLayout, holes: HolePolicy = .ink)
    /// A glyph run in local coordinates (each placement's `transform` maps layout → local), hit by `holes`;
    /// answers carry the glyph's index in the run.
    case glyphs([GlyphPlacement], holes: HolePolicy = .ink)
    /// An alpha image stretched over the node's `bounds`, hit where its alpha reaches the mask's threshold.
    case mask(AlphaMask)
}

/// One node of a scene: a view, cell, button or leaf. Coordinates are local px; `transform` maps them to the
/// parent's space (CGAffineTransform order: x' = a·x + c·y + tx, y' = b·x + d·y + ty).
public struct Node: Sendable {
    /// The node's name, unique in its scene; answers name the node by it.
    public var id: String
    /// Local → parent.
    public var transform: AffineTransform
    /// The node's box in local px.
    public var bounds: Rect
    /// Hidden nodes and everything below them are never hit (UIKit's `isHidden`).
    public var isHidden: Bool
    /// False takes the node and everything below it out (UIKit's `isUserInteractionEnabled`).
    public var isInteractive: Bool
    /// Below 0.01 takes the node and everything below it out (UIKit's rule).
    public var alpha: Double
    /// True (the default, as in UIKit and Flutter): the node's children are reachable only where the point
    /// is inside the node's hit box. False lets them overflow (as on the web).
    public var clipsChildren: Bool
    /// Which of the node and its children take touches.
    public var pointerEvents: PointerEvents
    /// Insets of the hit box from `bounds`; negative values enlarge it.
    public var slop: EdgeInsets
    /// The least hit box size, local px (width, height): a smaller box grows symmetrically to it (the
    /// 44 × 44 pt rule). Zero: no minimum.
    public var minSize: (width: Double, height: Double)
    /// The node's own shape.
    public var shape: NodeShape

    /// A node with every flag at its default: visible, interactive, opaque, clipping, `auto`, no slop.
    public init(id: String, bounds: Rect, transform: AffineTransform = .identity, shape: NodeShape = .box,
                isHidden: Bool = false, isInteractive: Bool = true, alpha: Double = 1, clipsChildren: Bool = true,
                pointerEvents: PointerEvents = .auto, slop: EdgeInsets = .zero,
                minSize: (width: Double, height: Double) = (0, 0)) {
        self.id = id; self.bounds = bounds; self.transform = transform; self.shape = shape
        self.isHidden = isHidden; self.isInteractive = isInteractive; self.alpha = alpha
        self.clipsChildren = clipsChildren; self.pointerEvents = pointerEvents; self.slop = slop; self.minSize = minSize
    }

    /// The hit box: `bounds` moved in by `slop`, then grown symmetrically to `minSize` (local px). Empty
    /// when slop shrinks it away.
    public var hitBox: Rect {
        guard !bounds.isEmpty else { return bounds }
        var minX = bounds.minX + slop.left, maxX = bounds.maxX - slop.right
        var minY = bounds.minY + slop.top, maxY = bounds.maxY - slop.bottom
        if maxX - minX < minSize.width { let c = (minX + maxX) / 2; minX = c - minSize.width / 2; maxX = c + minSize.width / 2 }
        if maxY - minY < minSize.height { let c = (minY + maxY) / 2; minY = c - minSize.height / 2; maxY = c + minSize.height / 2 }
        guard minX < maxX, minY < maxY else { return .empty }
        return Rect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// The least `alpha` at which a node still takes touches: `0.01` (UIKit's rule); below it, or NaN, the
    /// node and its subtree are taken out.
    public static let minimumHitAlpha: Double = 0.01

    /// Why a node and its whole subtree are taken out of hit-testing, by the flags of the node alone (the
    /// first that applies, in this order).
    public enum TakenOut: Sendable, Hashable {
        /// `isHidden`.
        case hidden
        /// `isInteractive` is false.
        case notInteractive
        /// `alpha` below ``Node/minimumHitAlpha`` (or NaN).
        case transparent
        /// `pointerEvents` is `.none`.
        case pointerEventsNone
    }

    /// Why the node and its subtree are taken out altogether, by its own flags (its ancestors' are applied
    /// by the scene: a node below a taken-out node or a `.boxOnly` node is out too); nil when they are not.
    /// The scene's one rule for it; ``isOut`` is `takenOut != nil`.
    public var takenOut: TakenOut? {
        if isHidden { return .hidden }
        if !isInteractive { return .notInteractive }
        if !(alpha >= Node.minimumHitAlpha) { return .transparent }
        if pointerEvents == .none { return .pointerEventsNone }
        return nil
    }

    /// Whether the node and its subtree are taken out altogether by the node's own flags: hidden, not
    /// interactive, `alpha` below ``Node/minimumHitAlpha`` or `pointerEvents` `.none` (see ``takenOut``).
    public var isOut: Bool { takenOut != nil }

    /// Whether the node itself can be the answer (`pointerEvents` `.auto` or `.boxOnly`), given the flags
    /// that apply to it alone: it must also not be ``isOut``, nor under a node that keeps touches from its
    /// children.
    public var takesTouchesItself: Bool { pointerEvents == .auto || pointerEvents == .boxOnly }

    /// Whether anything below the node can be the answer (`pointerEvents` `.auto` or `.boxNone`; false for
    /// `.boxOnly`, whose subtree is taken out, and for `.none`).
    public var passesTouchesToChildren: Bool { pointerEvents == .auto || pointerEvents == .boxNone }
}
