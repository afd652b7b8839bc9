import InkGeometry

extension HitIndex {
    /// Collects placements, validates them and builds the index.
    ///
    /// Every check happens when a placement is added, so `build()` cannot fail: a built index holds only
    /// finite, invertible placements whose shapes meet `tolerance`.
    ///
    /// Placements come in two ways, both here:
    /// - `add(_:transform:)`: a `GlyphShape` (from any outline source) and the transform from its units to view
    ///   px;
    /// - `add(_:cache:)`: a font glyph (`GlyphPlacement`): its shape from a `FontShapeCache`, placed by its
    ///   font-units → view transform. It is declared in InkFreeType (HitIndex.Builder+GlyphPlacement.swift),
    ///   the module that knows fonts, and comes down to `add(_:transform:)`'s checks after the cache's.
    ///
    /// `build()` then runs the index build's steps (see `HitIndex.Storage`).
    public struct Builder: Sendable {
        /// Flattening tolerance every placement must meet, view px.
        public let tolerance: Double
        /// Most placements one index may hold.
        public static let maxPlacements = 50_000_000
        /// The largest prepared radius, view px: larger values are clamped to it.
        public static let maxPreparedRadius = 256.0

        /// The largest query radius (view px) the index is prepared for; default
        /// `HitIndex.defaultPreparedRadius` (3.5 px). A query with a radius up to it finds every candidate in the
        /// point's own page cell, whose list holds every placement whose box lies within this radius; a larger
        /// radius is still answered exactly, by a wider search. Larger values make page cells list more
        /// placements (memory grows about with (glyph size + 2 × radius)²). NaN and negative values count as 0;
        /// values above `maxPreparedRadius` as that.
        public var preparedRadius: Double = HitIndex.defaultPreparedRadius

        /// Which form of its shapes the index reads (see `GlyphShape`): `.whenReused` by default.
        public var shapeForms: ShapeForms = .whenReused

        /// A placement as added: its shape, its transform, and what `add` worked out from the transform
        /// (computed once: the build reuses them).
        struct Item {
            var shape: GlyphShape
            var transform: AffineTransform
            var inverse: AffineTransform
            var singularValues: SingularValues
        }
        var items: [Item] = []

        /// A builder whose placements must meet `HitIndex.defaultTolerance` (0.01 view px).
        public init() { tolerance = HitIndex.defaultTolerance }

        /// A builder whose placements must meet `tolerance` view px: shapes must have been flattened at
        /// `tolerance / maxScale` shape units or finer (see `GlyphShape.tolerance`).
        ///
        /// - Throws: `HitIndexError.invalidTolerance` unless `tolerance` is finite and > 0.
        public init(tolerance: Double) throws(HitIndexError) {
            guard tolerance.isFinite, tolerance > 0 else { throw .invalidTolerance(tolerance) }
            self.tolerance = tolerance
        }

        /// Number of placements added so far.
        public var count: Int { items.count }
        /// Reserves room for `n` placements.
        public mutating func reserveCapacity(_ n: Int) { items.reserveCapacity(n) }

        /// Adds `shape` placed by `transform` (shape units → view px). Returns the placement's index: the
        /// number of placements added before it. Later placements lie on top of earlier ones.
        ///
        /// - Throws: `.nonFiniteTransform`, `.singularTransform`, `.shapeTooCoarse` (the shape's tolerance
        ///   times the transform's largest scale exceeds the builder's tolerance), `.coordinateOutOfRange`,
        ///   `.tooManyPlacements`. A failed `add` leaves the builder as it was.
        @discardableResult
        public mutating func add(_ shape: GlyphShape, transform: AffineTransform) throws(HitIndexError) -> Int {
            guard transform.isFinite else { throw .nonFiniteTransform(placement: items.count) }
            return try add(shape, transform: transform, singularValues: transform.singularValues)
        }

        /// Not API: `add(_:transform:)` with the transform's singular values already at hand (a caller that
        /// needed them to choose the shape passes them on instead of having them computed again).
        @discardableResult
        package mutating func add(_ shape: GlyphShape, transform: AffineTransform,
                                 singularValues sv: SingularValues) throws(HitIndexError) -> Int {
            let k = items.count
            guard k < Self.maxPlacements else { throw .tooManyPlacements(limit: Self.maxPlacements) }
            let inverse = try Self.inverse(of: transform, singularValues: sv, placement: k)
            let inView = shape.tolerance * sv.max
            if inView > tolerance * (1 + 1e-9) {
                throw .shapeTooCoarse(placement: k, shapeTolerance: inView, required: tolerance)
            }
            if !shape.bounds.isEmpty {
                let box = shape.bounds.applying(transform)
                guard ViewSpace.contains(box) else {
                    throw .coordinateOutOfRange(placement: k)
                }
            }
            items.append(Item(shape: shape, transform: transform, inverse: inverse, singularValues: sv))
            return k
        }

        /// Checks `transform` (shape units → view px) as `add(_:transform:)` does before it looks at the shape:
        /// finite, not singular (`SingularValues.isPlaceable`: its least scale at least
        /// `AffineTransform.minScaleRatio` of its largest), and its scales within `AffineTransform.scaleLimit`.
        /// For an adapter that checks a renderer's transform once before it adds anything (the C interface's
        /// `inkhit_transform_validate`).
        ///
        /// - Throws: `.nonFiniteTransform`, `.singularTransform`, `.scaleOutOfRange`, naming the placement the
        ///   next `add` would make (`count`).
        public func validate(transform: AffineTransform) throws(HitIndexError) {
            guard transform.isFinite else { throw .nonFiniteTransform(placement: items.count) }
            _ = try Self.inverse(of: transform, singularValues: transform.singularValues, placement: items.count)
        }

        /// The transform's checks, and its inverse: the one rule for every placement's transform.
        private static func inverse(of transform: AffineTransform, singularValues sv: SingularValues,
                                    placement k: Int) throws(HitIndexError) -> AffineTransform {
            guard transform.isFinite else { throw .nonFiniteTransform(placement: k) }
            guard sv.isMaxWithinScaleRange else { throw .scaleOutOfRange(placement: k, scale: sv.max) }
            guard sv.isPlaceable else { throw .singularTransform(placement: k) }
            guard sv.isMinWithinScaleRange else { throw .scaleOutOfRange(placement: k, scale: sv.min) }
            guard let inverse = transform.inverted(singularValues: sv) else { throw .scaleOutOfRange(placement: k, scale: sv.max) }
            return inverse
        }

        /// Builds the immutable index (the builder can go on collecting for another).
        public func build() -> HitIndex {
            let r = preparedRadius >= 0 ? min(preparedRadius, Self.maxPreparedRadius) : 0    // NaN → 0
            return HitIndex(storage: Storage(items: items, tolerance: tolerance, preparedRadius: r, forms: shapeForms))
        }
    }
}
