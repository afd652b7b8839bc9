import InkGeometry
import InkHit
import InkFreeType

/// Runs `ink-hit query` jobs: one JSON job per line in, one JSON answer per query point out.
///
/// Fonts are loaded once per (path, face index) and glyph shapes are shared through a `ShapeCache`, both
/// for the runner's lifetime. Not thread-safe itself (use one runner per thread); what it builds is.
public final class JobRunner {
    /// Flattening tolerance, view px.
    public let tolerance: Double
    public let cache: ShapeCache
    public var limits = JobLimits()
    private var fonts: [GlyphJob.FontRef: Result<Font, FontError>] = [:]

    public init(tolerance: Double = HitIndex.defaultTolerance, cache: ShapeCache = ShapeCache()) {
        self.tolerance = (tolerance.isFinite && tolerance > 0) ? tolerance : HitIndex.defaultTolerance
        self.cache = cache
    }

    /// Answers one job line. Each output line (without newline) goes to `emit`. Returns false when the
    /// job failed (then exactly one `{"job": …, "error": …}` line was emitted and no answers).
    @discardableResult
    public func run(line: String, emit: (String) -> Void) -> Bool {
        var jobID = "null"
        do throws(JobError) {
            let value: JSONValue
            do { value = try JSONParser.parse(line) } catch { throw JobError(error.description) }
            if case .object = value, let id = try? GlyphJob.id(of: value) { jobID = id }
            let job = try GlyphJob(value, limits: limits)
            let index = try buildIndex(job)
            answer(job, index, emit: emit)
            return true
        } catch {
            emit("{\"job\":" + jobID + ",\"error\":" + jsonQuote(error.message) + "}")
            return false
        }
    }

    /// Loads (or reuses) a job's fonts.
    public func font(_ ref: GlyphJob.FontRef) throws(JobError) -> Font {
        let r: Result<Font, FontError>
        if let cached = fonts[ref] { r = cached } else {
            do { r = .success(try Font(path: ref.path, faceIndex: ref.index)) } catch { r = .failure(error) }
            fonts[ref] = r
        }
        switch r {
        case .success(let f): return f
        case .failure(let e): throw JobError("font \(jsonQuote(ref.path)) face \(ref.index): \(e)")
        }
    }

    /// Builds the hit index of a job: placement k is glyph k.
    public func buildIndex(_ job: GlyphJob) throws(JobError) -> HitIndex {
        var loaded: [Font] = []
        for f in job.fonts { loaded.append(try font(f)) }
        var b = HitIndex.Builder(tolerance: tolerance)
        b.reserveCapacity(job.glyphs.count)
        for (i, g) in job.glyphs.enumerated() {
            let font = loaded[g.font]
            guard Int(g.id) < font.glyphCount else {
                throw JobError("glyphs[\(i)].id \(g.id) out of range (font \(g.font) has \(font.glyphCount) glyphs)")
            }
            let k = g.size / Double(font.unitsPerEm)
            let t = AffineTransform(a: k, b: 0, c: 0, d: -k, tx: g.x, ty: g.y).concatenating(job.transform)
            do {
                let shape = try cache.shape(font: font, glyph: g.id, viewTolerance: tolerance, transform: t)
                try b.add(shape, transform: t)
            } catch let e as FontError {
                throw JobError("glyphs[\(i)]: \(e)")
            } catch let e as HitIndexError {
                throw JobError("glyphs[\(i)]: \(e.reason)")
            } catch {
                throw JobError("glyphs[\(i)]: \(error)")
            }
        }
        return b.build()
    }

    func answer(_ job: GlyphJob, _ index: HitIndex, emit: (String) -> Void) {
        let prefix = "{\"job\":" + job.idJSON + ",\"i\":"
        for (i, p) in job.points.enumerated() {
            if let h = index.hit(at: p, radius: job.radius) {
                emit(prefix + String(i) + ",\"hit\":true,\"glyph\":" + String(h.placement)
                     + ",\"distance\":" + formatNumber(h.distance, decimals: 4) + "}")
            } else {
                emit(prefix + String(i) + ",\"hit\":false,\"glyph\":null,\"distance\":null}")
            }
        }
    }
}

