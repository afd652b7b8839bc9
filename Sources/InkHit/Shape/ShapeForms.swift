// The form choice: which form of each of its shapes an index reads. One rule (`ShapeForms.readsFull`), applied
// by one step of the index build (`ShapeFormChoice`), run on the distinct shapes before the placement table is
// built; the forms it needs are built there (GlyphShape+Forms.swift), never on the query path.

/// Which form of its shapes an index reads. Every shape has a lean form from the start (its polygon and a
/// coarse winding grid: a few KiB and a few µs for a glyph at text sizes); a full form adds a finer grid,
/// near lists for touch radii and raster stamps (several times the memory and build time of the lean form),
/// and answers queries faster, radius queries most. Both answer exactly alike.
public enum ShapeForms: Sendable, Hashable {
    /// A shape's first index reads its lean form; from the second index that places it on, every index reads
    /// its full form, built then. Glyphs seen once stay cheap; glyphs that come back get fast. The default.
    case whenReused
    /// Every shape's full form, built now if it has none: for an index that will answer many queries.
    case full
    /// Lean forms only (the full forms shapes already have are not used).
    case lean

    /// The rule, stated once: whether an index built with these forms reads the full form of a shape that
    /// `builds` index builds have now placed (this one included), `hasFull` saying whether it has one already.
    /// A shape whose full form cannot be built (no edges, or beyond its limits) is read in its lean form.
    func readsFull(builds: Int, hasFull: Bool) -> Bool {
        switch self {
        case .lean: return false
        case .full: return true
        case .whenReused: return hasFull || builds >= 2
        }
    }
}

/// The form of a shape an index reads.
enum ShapeForm {
    case lean(LeanForm)
    case full(FullForm)
}

/// The form choice, a step of the index build (`HitIndex.Storage`): for each distinct shape with ink, counts the
/// build (`GlyphShape.countIndexBuild()`), applies `ShapeForms.readsFull(builds:hasFull:)` and gets that form,
/// building it if the shape has none yet.
enum ShapeFormChoice {
    /// The form the index reads of each of `shapes` (distinct shapes, each counted once for this build).
    static func forms(of shapes: [GlyphShape], wanted: ShapeForms) -> [ShapeForm] {
        shapes.map { shape in
            let (builds, hasFull) = shape.countIndexBuild()
            if wanted.readsFull(builds: builds, hasFull: hasFull), let full = shape.fullForm() { return .full(full) }
            return .lean(shape.leanForm())
        }
    }
}
