#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry
@_spi(RawBuffers) import InkHit
import InkFreeType

/// Runs `ink-hit query` jobs: one JSON job per line in, one JSON answer per query point out.
///
/// Fonts are loaded once per file and face index (paths naming the same file share one load) and glyph
/// shapes are shared through a `FontShapeCache`; both caches live across jobs, within the bounds of `limits`
/// (over them, the runner empties both before the next job). Not thread-safe itself (use one runner per
/// thread); what it builds is.
public final class JobRunner {
    /// Flattening tolerance, view px.
    public let tolerance: Double
    /// The shapes of every job this runner answered (its own cache, bounded by `limits`).
    public let cache: FontShapeCache
    /// The limits every job is held to.
    public var limits = JobLimits()
    /// Called with a sentence when a job is answered but something in it was adjusted rather than refused
    /// (a variation coordinate outside its axis, clamped as FreeType clamps it). `ink-hit` writes these to
    /// standard error; nil drops them.
    public var warn: ((String) -> Void)?
    /// When true, a job with a member its format does not know (`JobMembers`) fails with an error line
    /// naming it (`ink-hit --strict`); when false (the default) it is answered, and `warn` names the member
    /// once for the job.
    public var strict = false

    /// A font file's identity (device, inode, size, modification time) and face index; a path that cannot
    /// be stat'ed is keyed by itself (its load fails anyway).
    enum FontKey: Hashable {
        case file(device: UInt64, inode: UInt64, size: Int64, modified: Int64, modifiedNanos: Int64, face: Int)
        case path(String, face: Int)
    }
    private var fonts: [FontKey: Result<Font, FontError>] = [:]
    /// Instances of variable fonts, by file, face, named instance and coordinates as the job wrote them.
    private var instances: [InstanceKey: Result<Font, FontError>] = [:]
    struct InstanceKey: Hashable {
        var file: FontKey
        var instance: NamedInstanceSelector?
        var variations: [FontVariation]
    }
    private var fontBytes = 0

    /// A runner at the default tolerance (`HitIndex.defaultTolerance`) with a cache of its own.
    public convenience init() {
        self.init(validTolerance: HitIndex.defaultTolerance, cache: FontShapeCache())
    }

    /// A runner at `tolerance` view px.
    ///
    /// - Throws: `HitIndexError.invalidTolerance` unless `tolerance` is finite and > 0.
    public convenience init(tolerance: Double, cache: FontShapeCache = FontShapeCache()) throws(HitIndexError) {
        guard tolerance.isFinite, tolerance > 0 else { throw .invalidTolerance(tolerance) }
        self.init(validTolerance: tolerance, cache: cache)
    }

    private init(validTolerance: Double, cache: FontShapeCache) {
        self.tolerance = validTolerance
        self.cache = cache
    }

    /// Answers one `ink-hit query` line (a glyph job or a text job). Each output line (without newline)
    /// goes to `emit`. Returns false when the job failed (then exactly one `{"job": …, "error": …}` line was
    /// emitted and no answers).
    @discardableResult
    public func run(line: String, emit: (String) -> Void) -> Bool {
        JobLoop.process(line, limits: limits, emit: emit) { (job, emit) throws(JobError) in try answer(job, emit: emit) }
    }

    /// Answers a job the loop has read: a text job or a glyph job, one line per point.
    public func answer(_ line: JobLine, emit: (String) -> Void) throws(JobError) {
        trimCaches()
        try checkMembers(line)
        let parsed = try Job(line.value, limits: limits)
        do throws(JobError) {
            switch parsed {
            case .scene(let job): try answerScene(job, line: line, emit: emit)
            case .text(let job): try answerText(job, line: line, emit: emit)
            case .glyph(let job): try answerGlyphs(job, line: line, emit: emit)
            }
        } catch {
            line.keepUntilWritten(parsed)                 // freed after the error line (a scene's nodes)
            throw error
        }
    }

    /// Answers a glyph job, one line per point.
    func answerGlyphs(_ job: GlyphJob, line: JobLine, emit: (String) -> Void) throws(JobError) {
        var inks: [GlyphInk] = []
        let index = try buildIndex(job, deadline: line.deadline, inks: &inks)
        if let decorations = try decorationIndex(job) {
            try answerWithDecorations(job, line: line, index: index, decorations: decorations, inks: inks, emit: emit)
            return
        }
        try Self.answerInChunks(job.points, line: line, seconds: limits.maxSecondsPerJob, emit: emit) { points, results in
            index.unsafeHits(for: points, radius: job.radius, into: results)
        } line: { h in
            guard let h else { return Self.glyphMiss }
            return ",\"hit\":true" + Self.placementFields(h.placement) + Self.inkField(inks[h.placement])
                + Self.insideField(h.isInside) + ",\"distance\":" + DecimalText.string(h.distance, maxFractionDigits: 4) + "}"
        }
    }

    /// Answers a glyph job that has decorations: glyphs first, then decorations, as a text job answers.
    func answerWithDecorations(_ job: GlyphJob, line: JobLine, index: HitIndex, decorations: HitIndex, inks: [GlyphInk],
                               emit: (String) -> Void) throws(JobError) {
        try Self.answerInChunks(job.points, line: line, seconds: limits.maxSecondsPerJob, emit: emit) { points, results in
            for k in points.indices {
                results[k] = Self.withDecorations(index.hit(at: points[k], radius: job.radius), decorations, at: points[k], radius: job.radius)
            }
        } line: { answer in
            guard let (h, isDecoration) = answer else { return Self.glyphMiss }
            let what = isDecoration
                ? Self.placementFields(nil) + Self.decorationField(job.decorations[h.placement].kind)
                : Self.placementFields(h.placement) + Self.inkField(inks[h.placement])
            return ",\"hit\":true" + what + Self.insideField(h.isInside)
                + ",\"distance\":" + DecimalText.string(h.distance, maxFractionDigits: 4) + "}"
        }
    }

    /// A glyph job's answer on a miss (after `{"job":ID,"i":N`).
    static let glyphMiss = ",\"hit\":false" + placementFields(nil) + insideField(false) + ",\"distance\":null}"

    /// `,"glyph":G,"placement":G`: the index of the placement that answered (into the job's `"glyphs"`, the
    /// layout's glyphs, or a scene node's glyphs), under its documented name `"glyph"` and under the
    /// vocabulary's name `"placement"` (docs/vocabulary.md); both null when no glyph answered.
    static func placementFields(_ index: Int?) -> String {
        let v = index.map(String.init) ?? "null"
        return ",\"glyph\":" + v + ",\"placement\":" + v
    }

    /// `,"inside":true` when the point is on the ink (or inside the answer's box or region), `false` when it
    /// is only within the radius, and on a miss.
    static func insideField(_ inside: Bool) -> String { inside ? ",\"inside\":true" : ",\"inside\":false" }

    /// `,"ink":"colorLayers"`, `"colorPaint"`, `"bitmap"` or `"box"` (an SVG glyph hit as its box): how a hit
    /// glyph's ink was made (`GlyphInk`'s names), when it is not a plain outline (then nothing, so outline
    /// answers keep their form). Before 1.3 both COLR kinds answered `"colr"`.
    static func inkField(_ ink: GlyphInk?) -> String {
        guard let ink, ink != .outline else { return "" }
        return ",\"ink\":\"" + ink.rawValue + "\""
    }

    /// Points answered a chunk at a time, each chunk written before the next is computed, so answers take
    /// memory for one chunk whatever the number of points. Each line is `{"job":ID,"i":N` followed by what
    /// `line` gives for the answer (the rest of the object). The deadline is checked every 16 points; a job
    /// out of time throws (after the chunks already written), one whose output stopped (`line.isStopped`)
    /// returns.
    static func answerInChunks<Answer>(_ points: [Point], line job: JobLine, seconds: Double, emit: (String) -> Void,
                                       answer: (UnsafeBufferPointer<Point>, UnsafeMutableBufferPointer<Answer?>) -> Void,
                                       line: (Answer?) -> String) throws(JobError) {
        let chunk = 4096, step = 16
        let prefix = "{\"job\":" + job.idJSON + ",\"i\":"
        var results = [Answer?](repeating: nil, count: min(chunk, points.count))
        var lo = 0
        while lo < points.count && !job.isStopped {
            let hi = min(points.count, lo + chunk)
            var failedAt = -1
            points.withUnsafeBufferPointer { pts in
                results.withUnsafeMutableBufferPointer { res in
                    var k = lo
                    while k < hi {
                        if job.deadline.isPast { failedAt = k; return }
                        let e = min(hi, k + step)
                        answer(UnsafeBufferPointer(rebasing: pts[k..<e]), UnsafeMutableBufferPointer(rebasing: res[(k - lo)..<(e - lo)]))
                        k = e
                    }
                }
            }
            if failedAt >= 0 {
                throw .timeLimit(seconds: seconds, during: "answering point \(failedAt) of \(points.count)"
                                 + (lo > 0 ? " (the answers to the \(lo) points before it were written)" : ""))
            }
            for k in lo..<hi {
                emit(prefix + String(k) + line(results[k - lo]))
                if job.isStopped { return }
            }
            lo = hi
        }
    }

    /// Loads (or reuses) a job's font: the file's face, at the design coordinates the entry asks for.
    ///
    /// - Throws: `JobError.font` with the font's error (an unknown axis or instance among them).
    public func font(_ ref: GlyphJob.FontRef) throws(JobError) -> Font {
        let key = Self.key(ref)
        let r: Result<Font, FontError>
        if let cached = fonts[key] { r = cached } else {
            do { r = .success(try Font(path: ref.path, faceIndex: ref.index)) } catch { r = .failure(error) }
            fonts[key] = r
            if case .success(let f) = r { fontBytes += f.byteCount }
        }
        var font: Font
        switch r {
        case .success(let f): font = f
        case .failure(let e): throw .font(path: ref.path, faceIndex: ref.index, e)
        }
        guard !ref.variations.isEmpty || ref.instance != nil else { return font }
        let ik = InstanceKey(file: key, instance: ref.instance, variations: ref.variations)
        let instance: Result<Font, FontError>
        if let cached = instances[ik] { instance = cached } else {
            do { instance = .success(try font.withVariations(ref.variations, instance: ref.instance)) } catch { instance = .failure(error) }
            instances[ik] = instance
        }
        switch instance {
        case .success(let f): font = f
        case .failure(let e): throw .font(path: ref.path, faceIndex: ref.index, e)
        }
        return font
    }

    /// Builds the hit index of a job (placement k is glyph k), within `limits.maxSecondsPerJob`.
    public func buildIndex(_ job: GlyphJob) throws(JobError) -> HitIndex {
        try buildIndex(job, deadline: Deadline(seconds: limits.maxSecondsPerJob))
    }

    /// `buildIndex(_:)` for the job `line` holds, within its deadline (the one its answers are held to).
    public func buildIndex(_ job: GlyphJob, for line: JobLine) throws(JobError) -> HitIndex {
        try buildIndex(job, deadline: line.deadline)
    }

    /// Loads (or reuses) a job's fonts, within `limits.maxFontBytesPerJob` (a file named twice counts once,
    /// and so do instances of one file). Clamped variation coordinates are reported through `warn`, naming
    /// job `id`.
    func loadFonts(_ refs: [GlyphJob.FontRef], job id: String) throws(JobError) -> [Font] {
        var loaded: [Font] = []
        var seen = Set<FontKey>()
        var bytes = 0
        for (i, f) in refs.enumerated() {
            let font = try font(f)
            loaded.append(font)
            if seen.insert(Self.key(f)).inserted { bytes += font.byteCount }
            guard bytes <= limits.maxFontBytesPerJob else { throw .fontBytes(limit: limits.maxFontBytesPerJob) }
            if let warn, !font.clampedVariations.isEmpty {
                warn("job \(id): fonts[\(i)].variations: " + font.clampedVariations.map(\.description).joined(separator: ", ")
                     + " (the axis range)")
            }
        }
        return loaded
    }

    func buildIndex(_ job: GlyphJob, deadline: Deadline) throws(JobError) -> HitIndex {
        var inks: [GlyphInk] = []
        return try buildIndex(job, deadline: deadline, inks: &inks)
    }

    /// `buildIndex(_:deadline:)`, with each placement's ink in `inks` (placement k's at k).
    func buildIndex(_ job: GlyphJob, deadline: Deadline, inks: inout [GlyphInk]) throws(JobError) -> HitIndex {
        let loaded = try loadFonts(job.fonts, job: job.idJSON)
        let drawings = try job.qtDrawings(loaded)
        inks = []
        inks.reserveCapacity(job.glyphs.count)
        var b: HitIndex.Builder
        do { b = try HitIndex.Builder(tolerance: tolerance) } catch { preconditionFailure("the runner's tolerance is valid") }
        b.reserveCapacity(job.glyphs.count)
        var seenShapes = Set<ObjectIdentifier>()
        var shapeBytes = 0
        for i in job.glyphs.indices {
            if i & 7 == 7 && deadline.isPast {
                throw .timeLimit(seconds: limits.maxSecondsPerJob, during: "placing glyph \(i) of \(job.glyphs.count)")
            }
            let font = loaded[job.glyphs[i].font]
            let p = job.placement(i, font: font, qt: drawings[job.glyphs[i].font])
            guard Int(p.glyph.rawValue) < font.glyphCount else {
                throw .invalid(field: "glyphs[\(i)].id",
                               problem: "\(p.glyph) out of range (font \(job.glyphs[i].font) has \(font.glyphCount) glyphs)")
            }
            let shape: GlyphShape, t: AffineTransform, sv: SingularValues
            do throws(FontError) {
                (shape, t, sv) = try p.shape(cache: cache, viewTolerance: tolerance)
                inks.append(try p.ink)
            } catch .shape(_, _, .timeLimit) {
                throw .timeLimit(seconds: limits.maxSecondsPerJob, during: "building the shape of glyph \(i) of \(job.glyphs.count)")
            } catch {
                throw .glyph(index: i, error)
            }
            if seenShapes.insert(ObjectIdentifier(shape)).inserted {
                shapeBytes += shape.byteCount
                guard shapeBytes <= limits.maxShapeBytesPerJob else {
                    throw .shapeBytes(glyph: i, limit: limits.maxShapeBytesPerJob)
                }
                // A new shape may have been flattened and gridded just now (tens of ms at huge sizes).
                if deadline.isPast {
                    throw .timeLimit(seconds: limits.maxSecondsPerJob, during: "placing glyph \(i) of \(job.glyphs.count)")
                }
            }
            do { try b.add(shape, transform: t, singularValues: sv) } catch { throw .glyph(index: i, .placement(error)) }
        }
        b.shapeForms = Self.shapeForms(points: job.points.count, shapes: seenShapes.count)
        return b.build()
    }

    /// The shape forms a job's index reads: full forms (built for the job if the cache's shapes lack them)
    /// when the job asks at least 1,024 points per distinct shape, where their faster queries repay their build
    /// (about 0.2 ms a glyph against about 0.2 µs a query); otherwise the cheapest on first sight.
    static func shapeForms(points: Int, shapes: Int) -> ShapeForms {
        points >= 1024 * max(shapes, 1) ? .full : .whenReused
    }

    /// Empties both caches when they hold more than the limits allow (shapes are keyed by font, so they
    /// go together).
    private func trimCaches() {
        guard fonts.count + instances.count > limits.maxCachedFonts || fontBytes > limits.maxCachedFontBytes
                || cache.byteCount > limits.maxCachedShapeBytes else { return }
        fonts.removeAll()
        instances.removeAll()
        fontBytes = 0
        cache.removeAll()
    }

    static func key(_ ref: GlyphJob.FontRef) -> FontKey {
        var info = stat()
        guard !ref.path.isEmpty, !ref.path.utf8.contains(0), stat(ref.path, &info) == 0,
              info.st_mode & S_IFMT == S_IFREG else {
            return .path(ref.path, face: ref.index)
        }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                     modified: Int64(modified.tv_sec), modifiedNanos: Int64(modified.tv_nsec), face: ref.index)
    }
}
