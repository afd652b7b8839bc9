import InkGeometry

// The class raster: a page-sized grid of small square view cells (4 bits each, tile by tile: one tile per page
// cell) saying, conservatively, what may lie in or near each cell, so that most queries end after one load.
//
// Per cell, from the placements listed in its page cell (topmost first; their position there is `k`):
//
// | code | meaning | r = 0 | 0 < r ≤ prepared radius |
// |---|---|---|---|
// | 0 `far` | no ink within the prepared radius R of any point of the cell | miss | miss |
// | 1 `nearMany` | no ink in the cell; ink of two or more placements within R | miss | distances of the cell's list |
// | 2 `mixed` | ink of two or more placements may meet the cell | the cell's list | the cell's list |
// | 4 + k `nearOne` | no ink in the cell; only placement k has ink within R | miss | distance of k |
// | 8 + k `touchOne` | only k's ink may meet the cell, and only k's is within R | winding of k | k alone |
// | 12 + k `touchMany` | only k's ink may meet the cell; others' within R | winding of k | k's winding, then distances |
//
// "May meet" and "within R" are supersets of the truth: a cell grown on every side by a margin (the phase bucket
// of the placement's stamp, see below, and the rounding of the query path) is tested against the placement's
// stored edges. So `far` and `nearOne` are exact answers, and `touch*` name the only placement whose ink can
// contain a point of the cell.
//
// Each placed shape contributes a *stamp*: its touch and near bit planes on the raster's lattice, computed for
// the shape's linear map and for one of Q × Q sub-cell positions (phase buckets) of its translation, with cells
// grown by half a bucket so that the stamp holds for every position in its bucket. Stamps are cached in the
// shape (`StampCache`), so an index of the same shapes at the same size builds its raster by copying bits.

/// The class raster's parameters.
enum ClassRaster {
    /// Raster cells are at least this wide, view px (4 bits per px²: half the bytes of a 1× coverage bitmap).
    static let minCell = 1.0
    /// No raster for page cells wider than this (view px): glyphs that large (or layouts that sparse) keep the
    /// two-level grid alone.
    static let maxTile = 256.0
    /// Most raster cells per page-cell side.
    static let maxCellsPerTile = 64
    /// Phase buckets per axis: stamps hold for translations within 1/(2Q) cell of their bucket's centre.
    static let phases = 4
    /// Most cells one stamp may cover; a placement whose footprint is larger marks its page cells `mixed`.
    static let maxStampCells = 1 << 20
    /// Most bytes of raster per placement with ink (beyond a floor of 64 KiB): over it, cells get coarser.
    static let maxBytesPerPlacement = 512

    static let far: UInt8 = 0, nearMany: UInt8 = 1, mixed: UInt8 = 2

    /// Margin (view px) by which cells are grown against the rounding of the query path (Float32 inverse and
    /// anchor, ~1e-7 of the glyph's size plus its distance and page cell) and of view coordinates (within
    /// `ViewSpace.limit`: 4 ulp ≈ 5e-7 px).
    static func margin(extent: Double, radius: Double) -> Double { 1e-5 * (extent + radius + maxTile) + 1e-4 }
}

// MARK: - Geometry

extension ClassRaster {
    /// The raster's geometry: `m` cells per page-cell side (a power of two), cell side `cell` view px.
    struct Geometry {
        var m: Int, shift: Int, cell: Double
        var tileBytes: Int { max(1, m * m / 2) }
    }

    /// The geometry for a page grid, or nil when the grid gets no raster.
    /// Placements without a full form (`stamped` counts those with one) get no stamp and make their page
    /// cells `mixed` or `touch`: a raster pays only when at least half the placements have stamps.
    static func geometry(_ grid: HitIndex.PageGrid, inked: Int, stamped: Int) -> Geometry? {
        guard inked > 0, stamped * 2 >= inked, grid.nx > 0, grid.cellSize <= maxTile else { return nil }
        var m = 2
        while m < maxCellsPerTile && grid.cellSize / Double(2 * m) >= minCell { m *= 2 }
        // Coarser cells while over the byte cap; none at all when even 2 × 2 per page cell is over.
        let cap = Double(max(1 << 16, maxBytesPerPlacement * inked))
        func bytes(_ m: Int) -> Double { Double(grid.nx) * Double(grid.ny) * Double(max(1, m * m / 2)) }
        while m > 2 && bytes(m) > cap { m /= 2 }
        guard bytes(m) <= cap else { return nil }
        return Geometry(m: m, shift: m.trailingZeroBitCount, cell: grid.cellSize / Double(m))
    }

    /// A stamp's rows, for the tile loop.
    struct StampRef {
        var bits: UnsafePointer<UInt64>
        var packed: UnsafePointer<UInt64>?
        var words: Int, width: Int, height: Int
    }

    /// Where a placement's stamp lies on the raster: the stamp (an index into the build's `StampRef`s, -1:
    /// none — no ink, or a footprint over the cap) and the raster cell of its bit (0, 0). 24 bytes, so a
    /// build's scratch stays small (it is mapped afresh by some allocators every build).
    struct Placed {
        var stamp: Int32 = -1
        var baseX = 0, baseY = 0
    }
}
