import InkGeometry

// The shape's own queries, in shape units: through `ShapeView`, on the form the shape has (`queryForm`).

extension GlyphShape {
    /// Whether the point (shape units) is on the ink: the winding number of the stored polygon there is ink
    /// by `fillRule`. Non-finite points are not.
    public func contains(_ p: Point) -> Bool {
        guard p.isFinite else { return false }
        return withExtendedLifetime(self) { ShapeView(self, form: queryForm).contains(p.x, p.y) }
    }

    /// Winding number of the stored polygon at `p` (shape units); 0 for non-finite points.
    public func winding(at p: Point) -> Int {
        guard p.isFinite else { return 0 }
        return withExtendedLifetime(self) { Int(ShapeView(self, form: queryForm).windingNumber(p.x, p.y)) }
    }

    /// Unsigned distance (shape units) from `p` to the stored polygon's outline; ∞ for an empty shape
    /// or a non-finite point.
    public func distance(to p: Point) -> Double {
        guard p.isFinite else { return .infinity }
        return withExtendedLifetime(self) {
            let v = ShapeView(self, form: queryForm)
            return v.distance(cell: v.cellIndex(p.x, p.y), p.x, p.y, bound: .infinity)
        }
    }

    /// Signed distance (shape units) from `p` to the stored polygon's outline: negative on the ink.
    public func signedDistance(to p: Point) -> Double {
        let d = distance(to: p)
        return contains(p) ? -d : d
    }
}
