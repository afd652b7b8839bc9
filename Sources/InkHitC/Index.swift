import CInkHit
import CInkHitRuntime
import InkHit
import InkFreeType
import InkGeometry

// Index builders and index queries (inkhit.h, "Index builders" and "Index queries").

/// `inkhit_builder_create` (inkhit.h).
@_cdecl("inkhit_builder_create")
public func inkhit_builder_create(_ tol: Double, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_builder_create") { () throws(CError) in
        guard let out else { throw .null("out") }
        let t = try tolerance(tol)
        let builder: HitIndex.Builder
        do throws(HitIndexError) { builder = try HitIndex.Builder(tolerance: t) } catch { throw CError(error) }
        try publish(BuilderBox(builder), .builder, to: out)
    }
}

/// `inkhit_transform_validate` (inkhit.h): the builder's own checks of a transform (`HitIndex.Builder.validate`).
@_cdecl("inkhit_transform_validate")
public func inkhit_transform_validate(_ t: UnsafePointer<inkhit_transform>?) -> inkhit_status {
    call("inkhit_transform_validate") { () throws(CError) in
        guard let t else { throw .null("transform") }
        let m = AffineTransform(a: t.pointee.a, b: t.pointee.b, c: t.pointee.c, d: t.pointee.d, tx: t.pointee.tx,
                                ty: t.pointee.ty)
        do throws(HitIndexError) { try HitIndex.Builder().validate(transform: m) } catch {
            throw CError(INKHIT_ERROR_PLACEMENT, "transform \(describe(t.pointee)): \(error.reason)")
        }
    }
}

/// A C placement as a `GlyphPlacement`, every number checked finite first (`name` prefixes messages).
func glyphPlacement(_ p: inkhit_glyph_placement, _ name: String) throws(CError) -> GlyphPlacement {
    guard p.font != nil else { throw .null("\(name)font") }
    let font = try resolve(p.font, .font, "\(name)font", as: FontBox.self).font
    let size = try finite(p.size, "\(name)size")
    guard size > 0 else { throw .argument("\(name)size must be > 0 (got \(show(size)))") }
    let origin = try point(p.origin, "\(name)origin")
    let t = try transform(p.transform, "\(name)transform")
    let sv = t.singularValues
    guard sv.isPlaceable else {
        throw CError(INKHIT_ERROR_PLACEMENT, "\(name)transform \(describe(p.transform)) is singular (it collapses the glyph to "
                     + "a line or a point; a struct of zeros is not the identity: start from INKHIT_TRANSFORM_IDENTITY)")
    }
    return GlyphPlacement(font: font, glyph: GlyphID(p.glyph), size: size, origin: origin, transform: t)
}

/// `inkhit_builder_add_glyph` (inkhit.h).
@_cdecl("inkhit_builder_add_glyph")
public func inkhit_builder_add_glyph(_ builder: OpaquePointer?, _ cache: OpaquePointer?,
                                     _ placement: UnsafePointer<inkhit_glyph_placement>?,
                                     _ indexOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_builder_add_glyph") { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let fonts = try optionalCache(cache)?.glyphs ?? .shared
        guard let placement else { throw .null("placement") }
        // A marker glyph id (inkhit.h, INKHIT_GLYPH_EMPTY) is an inkless placement, never an error.
        let gp = isMarker(placement.pointee.glyph) ? nil : try glyphPlacement(placement.pointee, "placement->")
        let k = try CallLimits.bounded { (limits, _) throws(CError) -> Int in
            var tally = ShapeTally(limit: limits.shapeBytes)
            return try box.lock.withLock { () throws(CError) -> Int in
                guard let gp else { return try box.addMarkerLocked(tag: 0, "") }
                return try box.addLocked(gp, cache: fonts, tag: 0, tally: &tally, "")
            }
        }
        indexOut?.pointee = k
    }
}

/// `inkhit_builder_add_glyphs` (inkhit.h).
@_cdecl("inkhit_builder_add_glyphs")
public func inkhit_builder_add_glyphs(_ builder: OpaquePointer?, _ cache: OpaquePointer?,
                                      _ placements: UnsafePointer<inkhit_glyph_placement>?, _ n: Int,
                                      _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    addGlyphs("inkhit_builder_add_glyphs", builder, cache, placements, n, nil, addedOut)
}

/// `inkhit_builder_add_glyphs_numbered` (inkhit.h, 1.2).
@_cdecl("inkhit_builder_add_glyphs_numbered")
public func inkhit_builder_add_glyphs_numbered(_ builder: OpaquePointer?, _ cache: OpaquePointer?,
                                               _ placements: UnsafePointer<inkhit_glyph_placement>?, _ n: Int,
                                               _ firstOut: UnsafeMutablePointer<Int>?,
                                               _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    addGlyphs("inkhit_builder_add_glyphs_numbered", builder, cache, placements, n, firstOut, addedOut)
}

/// Adds `placements` under one lock, writing the first one's number (the builder's count when the lock was
/// taken) and how many were added as they are.
func addGlyphs(_ function: StaticString, _ builder: OpaquePointer?, _ cache: OpaquePointer?,
               _ placements: UnsafePointer<inkhit_glyph_placement>?, _ n: Int,
               _ firstOut: UnsafeMutablePointer<Int>?, _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    firstOut?.pointee = 0
    addedOut?.pointee = 0
    return call(function) { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let fonts = try optionalCache(cache)?.glyphs ?? .shared
        let list = try buffer(placements, n, "placements", countName: "count")
        // One lock for the whole batch: another thread's placements never land in the middle of it. One
        // deadline and one shape budget for the batch.
        try CallLimits.bounded { (limits, _) throws(CError) in
            var tally = ShapeTally(limit: limits.shapeBytes)
            try box.lock.withLock { () throws(CError) in
                firstOut?.pointee = box.builder.count
                for (i, p) in list.enumerated() {
                    if isMarker(p.glyph) {
                        _ = try box.addMarkerLocked(tag: 0, "placements[\(i)]: ")
                    } else {
                        _ = try box.addLocked(try glyphPlacement(p, "placements[\(i)]."), cache: fonts, tag: 0, tally: &tally,
                                              "placements[\(i)]: ")
                    }
                    addedOut?.pointee = i + 1
                }
            }
        }
    }
}

/// `inkhit_builder_add_outline` (inkhit.h).
@_cdecl("inkhit_builder_add_outline")
public func inkhit_builder_add_outline(_ builder: OpaquePointer?, _ cache: OpaquePointer?, _ key: UInt64,
                                       _ verbs: UnsafePointer<UInt8>?, _ verbCount: Int,
                                       _ points: UnsafePointer<inkhit_point>?, _ pointCount: Int,
                                       _ fill: Int32, _ transformIn: UnsafePointer<inkhit_transform>?,
                                       _ indexOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_builder_add_outline") { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let outlines = try optionalCache(cache)?.outlines
        let commands = try PathCommands(verbs: verbs, verbCount: verbCount, points: points, pointCount: pointCount)
        // Not `indexOut?.pointee = try addCommands(…)`: optional chaining would skip the call when indexOut is NULL.
        let k = try addCommands(box, outlines, key, commands, fill, transformIn)
        indexOut?.pointee = k
    }
}

/// `inkhit_builder_add_path` (inkhit.h).
@_cdecl("inkhit_builder_add_path")
public func inkhit_builder_add_path(_ builder: OpaquePointer?, _ cache: OpaquePointer?, _ key: UInt64,
                                    _ verbs: UnsafePointer<UInt8>?, _ verbCount: Int,
                                    _ points: UnsafePointer<inkhit_point>?, _ pointCount: Int,
                                    _ weights: UnsafePointer<Double>?, _ weightCount: Int, _ flags: UInt32,
                                    _ fill: Int32, _ transformIn: UnsafePointer<inkhit_transform>?,
                                    _ indexOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_builder_add_path") { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let outlines = try optionalCache(cache)?.outlines
        guard flags & ~UInt32(INKHIT_PATH_START_POINTS) == 0 else {
            throw .argument("flags 0x\(String(flags, radix: 16)) has bits other than INKHIT_PATH_START_POINTS")
        }
        let commands = try PathCommands(verbs: verbs, verbCount: verbCount, points: points, pointCount: pointCount,
                                        weights: weights, weightCount: weightCount, conics: true,
                                        withStarts: flags & UInt32(INKHIT_PATH_START_POINTS) != 0)
        // Not `indexOut?.pointee = try addCommands(…)`: optional chaining would skip the call when indexOut is NULL.
        let k = try addCommands(box, outlines, key, commands, fill, transformIn)
        indexOut?.pointee = k
    }
}

/// Adds checked path commands as an outline of the caller's own: what inkhit_builder_add_outline and
/// inkhit_builder_add_path share. Returns the placement's number.
private func addCommands(_ box: BuilderBox, _ outlines: ShapeCache<UInt64>?, _ key: UInt64, _ commands: PathCommands,
                         _ fill: Int32, _ transformIn: UnsafePointer<inkhit_transform>?) throws(CError) -> Int {
    let rule = try fillRule(fill, "fill_rule")
    let t = try transformIn.map { (p) throws(CError) in try transform(p.pointee, "transform") } ?? .identity
    return try CallLimits.bounded { (limits, _) throws(CError) -> Int in try box.lock.withLock { () throws(CError) -> Int in
        // The checks the index would make, first: a singular transform has no largest scale to flatten for.
        let placement = box.builder.count
        let sv = t.singularValues
        guard sv.isPlaceable else { throw CError(HitIndexError.singularTransform(placement: placement)) }
        let tolerance = box.builder.tolerance
        let shape: GlyphShape
        do throws(ShapeError) {
            if let outlines {
                shape = try outlines.shape(for: key, viewTolerance: tolerance, maxScale: sv.max, fillRule: rule) { sink in
                    commands.replay(into: &sink)
                }
            } else {
                shape = try GlyphShape(viewTolerance: tolerance, maxScale: sv.max, fillRule: rule) { sink in
                    commands.replay(into: &sink)
                }
            }
        } catch {
            throw CError(error)
        }
        var tally = ShapeTally(limit: limits.shapeBytes)
        try tally.add(shape)
        let k: Int
        do throws(HitIndexError) { k = try box.builder.add(shape, transform: t, singularValues: sv) } catch { throw CError(error) }
        box.meta.record(k, tag: 0, ink: Int32(shape.edgeCount == 0 ? INKHIT_INK_NONE : INKHIT_INK_PATH))
        return k
    } }
}

/// `inkhit_builder_set_prepared_radius` (inkhit.h).
@_cdecl("inkhit_builder_set_prepared_radius")
public func inkhit_builder_set_prepared_radius(_ builder: OpaquePointer?, _ radius: Double) -> inkhit_status {
    call("inkhit_builder_set_prepared_radius") { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        guard radius >= 0 else {   // NaN fails this too
            throw .argument("the prepared radius must be >= 0 view px (got \(show(radius)))")
        }
        box.lock.withLock { box.builder.preparedRadius = min(radius, HitIndex.Builder.maxPreparedRadius) }
    }
}

/// `inkhit_builder_set_shape_forms` (inkhit.h).
@_cdecl("inkhit_builder_set_shape_forms")
public func inkhit_builder_set_shape_forms(_ builder: OpaquePointer?, _ forms: Int32) -> inkhit_status {
    call("inkhit_builder_set_shape_forms") { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let value: ShapeForms
        switch forms {
        case Int32(INKHIT_SHAPE_FORMS_WHEN_REUSED.rawValue): value = .whenReused
        case Int32(INKHIT_SHAPE_FORMS_FULL.rawValue): value = .full
        case Int32(INKHIT_SHAPE_FORMS_LEAN.rawValue): value = .lean
        default:
            throw .argument("shape forms must be INKHIT_SHAPE_FORMS_WHEN_REUSED (0), _FULL (1) or _LEAN (2) (got \(forms))")
        }
        box.lock.withLock { box.builder.shapeForms = value }
    }
}

/// `inkhit_builder_count` (inkhit.h).
@_cdecl("inkhit_builder_count")
public func inkhit_builder_count(_ builder: OpaquePointer?, _ countOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_builder_count") { () throws(CError) in
        guard let countOut else { throw .null("count_out") }
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        countOut.pointee = box.lock.withLock { box.builder.count }
    }
}

/// `inkhit_builder_build` (inkhit.h).
@_cdecl("inkhit_builder_build")
public func inkhit_builder_build(_ builder: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_builder_build") { () throws(CError) in
        guard let out else { throw .null("out") }
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let (index, meta) = box.lock.withLock { (box.builder.build(), box.meta.prefix(box.builder.count)) }
        try publish(IndexBox(index, meta: meta), .index, to: out, hot: index.unsafeStorage)
    }
}

/// `inkhit_builder_release` (inkhit.h).
@_cdecl("inkhit_builder_release")
public func inkhit_builder_release(_ builder: OpaquePointer?) -> inkhit_status {
    releaseHandle(builder, .builder, function: "inkhit_builder_release")
}

// MARK: Queries

let missHit = inkhit_hit(hit: 0, inside: 0, placement: -1, distance: .nan)

@inline(__always) func cHit(_ h: Hit?) -> inkhit_hit {
    guard let h else { return missHit }
    return inkhit_hit(hit: 1, inside: h.isInside ? 1 : 0, placement: Int64(h.placement), distance: h.distance)
}

/// `inkhit_index_hit` (inkhit.h). The hot path: one registry lookup (no lock, no retain; the slot gives the
/// index's storage directly: `lookupHot`), three comparisons, the Swift query, the answer stored; every failure
/// goes to `indexHitFailed`, out of line, so this function saves no registers for messages it does not build.
@_cdecl("inkhit_index_hit")
public func inkhit_index_hit(_ index: OpaquePointer?, _ x: Double, _ y: Double, _ radius: Double,
                             _ out: UnsafeMutablePointer<inkhit_hit>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    guard let out, let storage = lookupHot(index, .index, in: thread), queryIsValid(x, y, radius) else {
        return indexHitFailed(index, x, y, radius, out)
    }
    out.pointee = cHit(HitIndex.unsafeHit(storage: storage, at: Point(x, y), radius: radius))
    return inkhit_status(INKHIT_OK)
}

/// Why `inkhit_index_hit` refused its arguments: writes a miss (when `out` is there) and reports.
@inline(never)
func indexHitFailed(_ index: OpaquePointer?, _ x: Double, _ y: Double, _ radius: Double,
                    _ out: UnsafeMutablePointer<inkhit_hit>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    let function: StaticString = "inkhit_index_hit"
    guard let out else { return CError.null("out").report(function) }
    out.pointee = missHit
    guard lookup(index, .index, as: IndexBox.self, in: thread) != nil else { return handleError(index, .index, "index").report(function) }
    return (radiusIsValid(radius) ? pointError(x, y) : radiusError(radius)).report(function)
}

/// `inkhit_index_contains` (inkhit.h).
@_cdecl("inkhit_index_contains")
public func inkhit_index_contains(_ index: OpaquePointer?, _ x: Double, _ y: Double,
                                  _ insideOut: UnsafeMutablePointer<Int32>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    guard let insideOut else { return CError.null("inside_out").report("inkhit_index_contains") }
    insideOut.pointee = 0
    guard let storage = lookupHot(index, .index, in: thread) else {
        return handleError(index, .index, "index").report("inkhit_index_contains")
    }
    guard x.isFinite, y.isFinite else { return pointError(x, y).report("inkhit_index_contains") }
    insideOut.pointee = HitIndex.unsafeTopmost(storage: storage, at: Point(x, y)) >= 0 ? 1 : 0
    return inkhit_status(INKHIT_OK)
}

/// `inkhit_index_topmost` (inkhit.h).
@_cdecl("inkhit_index_topmost")
public func inkhit_index_topmost(_ index: OpaquePointer?, _ x: Double, _ y: Double,
                                 _ placementOut: UnsafeMutablePointer<Int64>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    guard let placementOut else { return CError.null("placement_out").report("inkhit_index_topmost") }
    placementOut.pointee = -1
    guard let storage = lookupHot(index, .index, in: thread) else {
        return handleError(index, .index, "index").report("inkhit_index_topmost")
    }
    guard x.isFinite, y.isFinite else { return pointError(x, y).report("inkhit_index_topmost") }
    placementOut.pointee = Int64(HitIndex.unsafeTopmost(storage: storage, at: Point(x, y)))
    return inkhit_status(INKHIT_OK)
}

/// `inkhit_index_get_info` (inkhit.h).
@_cdecl("inkhit_index_get_info")
public func inkhit_index_get_info(_ index: OpaquePointer?, _ out: UnsafeMutablePointer<inkhit_index_info>?) -> inkhit_status {
    call("inkhit_index_get_info") { () throws(CError) in
        guard let out else { throw .null("out") }
        let i = try resolve(index, .index, "index", as: IndexBox.self).index
        out.pointee = inkhit_index_info(placements: Int64(i.count), unique_shapes: Int64(i.uniqueShapeCount),
                                        bytes_beyond_shapes: Int64(i.bytesBeyondShapes), tolerance: i.tolerance,
                                        bounds: cRect(i.bounds))
    }
}

/// `inkhit_index_release` (inkhit.h).
@_cdecl("inkhit_index_release")
public func inkhit_index_release(_ index: OpaquePointer?) -> inkhit_status {
    releaseHandle(index, .index, function: "inkhit_index_release")
}

func cRect(_ r: Rect) -> inkhit_rect { inkhit_rect(min_x: r.minX, min_y: r.minY, max_x: r.maxX, max_y: r.maxY) }
func cPoint(_ p: Point) -> inkhit_point { inkhit_point(x: p.x, y: p.y) }
