// The cell types of a shape's full form (`FullForm`); the lean form (`LeanForm`) shares `HotCell` and `FEdge`.

/// A stored edge, shape units.
struct FEdge: Sendable {
    var x0: Float, y0: Float, x1: Float, y1: Float
}

/// An edge of a winding cell's crossing list, in canonical direction (smaller x first, then smaller y, so an
/// edge and its reverse make exactly opposite decisions), with what the cell's reference point makes
/// constant: the edge's original direction (`sign`) and the side of the edge line the reference point is on.
struct CrossEdge: Sendable {
    var ax: Float, ay: Float, bx: Float, by: Float
    /// +1 when the edge runs a → b as stored in the polygon, −1 when it was reversed.
    var sign: Int16
    /// 1 when the reference point lies strictly left of a → b (cross product > 0), else 0.
    var refLeft: Int16

    init(_ e: FEdge, refX rx: Double, refY ry: Double) {
        var ax = e.x0, ay = e.y0, bx = e.x1, by = e.y1
        sign = 1
        if ax > bx || (ax == bx && ay > by) { swap(&ax, &bx); swap(&ay, &by); sign = -1 }
        self.ax = ax; self.ay = ay; self.bx = bx; self.by = by
        let ex = Double(bx) - Double(ax), ey = Double(by) - Double(ay)
        refLeft = ex * (ry - Double(ay)) - ey * (rx - Double(ax)) > 0 ? 1 : 0
    }
}

/// An edge prepared for distance queries: start, direction and 1/|direction|² (no division per query).
struct NearEdge: Sendable {
    var ax: Float, ay: Float, ex: Float, ey: Float, invLen2: Float
    init(_ e: FEdge) {
        ax = e.x0; ay = e.y0
        ex = e.x1 - e.x0; ey = e.y1 - e.y0
        let l2 = Double(ex) * Double(ex) + Double(ey) * Double(ey)
        let inv = Float(1 / l2)
        // Edges so long that 1/length² is not a normal Float (beyond ~1e19 units) divide at query time.
        invLen2 = (l2 > 0 && inv.isNormal) ? inv : -1
    }
}

/// A near-list entry: an edge of `prepared` and (a hair less than) its distance from the centre of the
/// 2×2 block of cells the list belongs to — the corner shared by the block's four cells. For a point p,
/// `centerDistance − |p − centre|` is a lower bound on the edge's distance from p.
struct NearRef: Sendable {
    var edge: UInt32
    var centerDistance: Float
}

/// One grid cell of a shape.
struct ShapeCell: Sendable {
    /// Reference point (boundary cells): a point of the cell, away from every edge, whose winding is `winding`.
    var refX: Float = 0, refY: Float = 0
    var crossStart: UInt32 = 0
    var nearStart: UInt32 = 0
    /// Lower bound on the distance from any point of the cell to the outline (0 for boundary cells).
    var lower: Float = 0
    var crossCount: UInt32 = 0
    var nearCount: UInt32 = 0
    /// Winding number at the reference point (boundary cells) or of the whole cell (others).
    var winding: Int32 = 0
    /// 0 = no edge meets the cell, 1 = edges meet the cell.
    var isBoundary: Bool = false
    /// True when `near` lists every edge that can be nearest to a point of the cell.
    var hasNear: Bool = false
}

/// The part of a cell the winding test reads (16 bytes).
struct HotCell: Sendable {
    var refX: Float, refY: Float
    var crossStart: UInt32
    var winding: Int32
}

/// The part of a cell distance queries read.
struct ColdCell: Sendable {
    var nearStart: UInt32, nearEnd: UInt32
    var lower: Float
    var hasNear: Bool
}

/// Geometry of a shape's grid (shape units).
struct ShapeGrid: Sendable {
    var originX: Double = 0, originY: Double = 0
    var cellSize: Double = 1
    var invCell: Double = 1
    var nx: Int = 0, ny: Int = 0
    /// Margin in cells on every side of the glyph box; the winding grid is the `wx × wy` cells starting
    /// at cell (margin, margin), i.e. at `winding origin = origin + margin * cellSize`.
    var margin: Int = 0
    var wx: Int = 0, wy: Int = 0
    /// The winding grid's corner: exactly the glyph box's (the lean form's too, so a placement's anchor, and
    /// with it every point mapped into the shape, is the same whichever form an index reads); `origin` is it
    /// moved out by the margin, to within rounding.
    var windingOriginX: Double = 0, windingOriginY: Double = 0
}
