import InkGeometry

// What the Benchmarks package (a package of its own, which `package` access does not reach) reads of an index
// beyond the API: the class raster's codes and size, for its class-raster tables and quick checks. Behind
// `@_spi(Benchmarks)`; the package's own tests read them through the same import.

extension HitIndex {
    /// The class raster's code at `point` (view px): the class `ClassRaster` gives the point's raster cell
    /// (ClassRaster.swift has the table of codes), -1 outside the raster, nil for an index without one.
    @_spi(Benchmarks) public func rasterCode(at point: Point) -> Int? {
        let s = storage
        return withExtendedLifetime(s) {
            guard let r = s.raster else { return nil }
            return s.rasterLookup(r, point.x, point.y).code
        }
    }

    /// The class raster's cell side (view px) and bytes, nil for an index without one.
    @_spi(Benchmarks) public var rasterGeometry: (cell: Double, bytes: Int)? {
        let s = storage
        guard s.raster != nil else { return nil }
        return (1 / s.invRasterCell, s.nx * s.ny * s.rasterTileBytes)
    }
}
