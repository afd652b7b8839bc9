import InkGeometry

extension HitIndex {
    /// Not API: the class raster's code at `point` (see ClassRaster.swift), -1 outside the raster, nil
    /// without one. For tests and benchmarks.
    @_spi(InkInternals) public func rasterCode(at point: Point) -> Int? {
        let s = storage
        return withExtendedLifetime(s) {
            guard let r = s.raster else { return nil }
            return s.rasterLookup(r, point.x, point.y).code
        }
    }

    /// Not API: the class raster's cell side (view px) and bytes, nil without one.
    @_spi(InkInternals) public var rasterGeometry: (cell: Double, bytes: Int)? {
        let s = storage
        guard s.raster != nil else { return nil }
        return (1 / s.invRasterCell, s.nx * s.ny * s.rasterTileBytes)
    }
}
