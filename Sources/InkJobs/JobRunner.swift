#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry
import InkHit
import InkFreeType

/// Runs `ink-hit query` jobs: one JSON job per line in, one JSON answer per query point out.
///
/// Fonts are loaded once per file and face index (paths naming the same file share one load) and glyph
/// shapes are shared through a `ShapeCache`; both caches live across jobs, within the bounds of `limits`
/// (over them, the runner empties both before the next job). Not thread-safe itself (use one runner per
/// thread); what it builds is.
public final class JobRunner {
    /// Flattening tolerance, view px.
    public let tolerance: Double
    public let cache: ShapeCache
    public var limits = JobLimits()

    /// A font file's identity (device, inode, size, modification time) and face index; a path that cannot
    /// be stat'ed is keyed by itself (its load fails anyway).
    enum FontKey: Hashable {
        case file(device: UInt64, inode: UInt64, size: Int64, modified: Int64, modifiedNanos: Int64, face: Int)
        case path(String, face: Int)
    }
    private var fonts: [FontKey: Result<Font, FontError>] = [:]
    private var fontBytes = 0

    public init(tolerance: Double = HitIndex.defaultTolerance, cache: ShapeCache = ShapeCache()) {
        self.tolerance = (tolerance.isFinite && tolerance > 0) ? tolerance : HitIndex.defaultTolerance
        self.cache = cache
    }

    /// The error line for a job line of `byteCount` bytes, longer than `limits.maxLineBytes` (for readers
    /// that stop reading such a line instead of passing it to `run(line:emit:)`).
    public func lineTooLongError(byteCount: Int) -> String {
        "{\"job\":null,\"error\":" + jsonQuote("the line has \(byteCount) bytes, more than the limit of \(limits.maxLineBytes)") + "}"
    }

    /// Answers one job line. Each output line (without newline) goes to `emit`. Returns false when the
    /// job failed (then exactly one `{"job": …, "error": …}` line was emitted and no answers).
    @discardableResult
    public func run(line: String, emit: (String) -> Void) -> Bool {
        let byteCount = line.utf8.count
        guard byteCount <= limits.maxLineBytes else {
            emit(lineTooLongError(byteCount: byteCount))
            return false
        }
        let deadline = Deadline(seconds: limits.maxSecondsPerJob)
        trimCaches()
        var jobID = "null"
        do throws(JobError) {
            let value: JSONValue
            do { value = try JSONParser.parse(line) } catch { throw JobError(error.description) }
            if case .object = value, let id = try? GlyphJob.id(of: value) { jobID = id }
            if case .object = value, value["text"] != nil, value["glyphs"] == nil {
                try runText(value, deadline: deadline, emit: emit)
                return true
            }
            let job = try GlyphJob(value, limits: limits)
            let index = try buildIndex(job, deadline: deadline)
            let answers = try answers(job, index, deadline: deadline)
            emitAnswers(job, answers, emit: emit)
            return true
        } catch {
            emit("{\"job\":" + jobID + ",\"error\":" + jsonQuote(error.message) + "}")
            return false
        }
    }

    /// Loads (or reuses) a job's font.
    public func font(_ ref: GlyphJob.FontRef) throws(JobError) -> Font {
        let key = Self.key(ref)
        let r: Result<Font, FontError>
        if let cached = fonts[key] { r = cached } else {
            do { r = .success(try Font(path: ref.path, faceIndex: ref.index)) } catch { r = .failure(error) }
            fonts[key] = r
            if case .success(let f) = r { fontBytes += f.byteCount }
        }
        switch r {
        case .success(let f): return f
        case .failure(let e): throw JobError("font \(jsonQuote(ref.path)) face \(ref.index): \(e)")
        }
    }

    /// Builds the hit index of a job (placement k is glyph k), within `limits.maxSecondsPerJob`.
    public func buildIndex(_ job: GlyphJob) throws(JobError) -> HitIndex {
        try buildIndex(job, deadline: Deadline(seconds: limits.maxSecondsPerJob))
    }

    func buildIndex(_ job: GlyphJob, deadline: Deadline) throws(JobError) -> HitIndex {
        var loaded: [Font] = []
        var seenFonts = Set<UInt64>()
        var jobFontBytes = 0
        for f in job.fonts {
            let font = try font(f)
            loaded.append(font)
            if seenFonts.insert(font.id).inserted { jobFontBytes += font.byteCount }
            guard jobFontBytes <= limits.maxFontBytesPerJob else {
                throw JobError("the job's fonts have more than \(limits.maxFontBytesPerJob) bytes (the limit)")
            }
        }
        var b = HitIndex.Builder(tolerance: tolerance)
        b.reserveCapacity(job.glyphs.count)
        var seenShapes = Set<ObjectIdentifier>()
        var shapeBytes = 0
        for (i, g) in job.glyphs.enumerated() {
            if i & 63 == 63 && deadline.isPast {
                throw JobError("the job took more than \(formatNumber(limits.maxSecondsPerJob)) s (the limit) "
                               + "while placing glyph \(i) of \(job.glyphs.count)")
            }
            let font = loaded[g.font]
            guard Int(g.id) < font.glyphCount else {
                throw JobError("glyphs[\(i)].id \(g.id) out of range (font \(g.font) has \(font.glyphCount) glyphs)")
            }
            let k = g.size / Double(font.unitsPerEm)
            let t = AffineTransform(a: k, b: 0, c: 0, d: -k, tx: g.x, ty: g.y).concatenating(job.transform)
            let em = g.size * job.transform.maxScale            // view px per em
            guard em <= 1e9 else {
                throw JobError("glyphs[\(i)]: \(formatNumber(em)) view px per em (size × transform scale) is beyond "
                               + "the ±1e9 px view range")
            }
            do {
                let shape = try cache.shape(font: font, glyph: g.id, viewTolerance: tolerance, transform: t)
                if seenShapes.insert(ObjectIdentifier(shape)).inserted {
                    shapeBytes += shape.byteCount
                    if shapeBytes > limits.maxShapeBytesPerJob {
                        throw JobError("glyphs[\(i)]: the job's glyph shapes need more than \(limits.maxShapeBytesPerJob) bytes "
                                       + "(the limit; each distinct glyph and size class has its own shape)")
                    }
                }
                try b.add(shape, transform: t)
            } catch let e as JobError {
                throw e
            } catch let e as FontError {
                throw JobError("glyphs[\(i)]: \(e)")
            } catch let e as HitIndexError {
                throw JobError("glyphs[\(i)]: \(e.reason)")
            } catch let e as ShapeError {
                if case .toleranceNotMet = e {
                    throw JobError("glyphs[\(i)]: at \(formatNumber(em)) view px per em, \(e); use a larger tolerance or a smaller size")
                }
                throw JobError("glyphs[\(i)]: \(e)")
            } catch {
                throw JobError("glyphs[\(i)]: \(error)")
            }
        }
        return b.build()
    }

    /// Answers every point, checking the deadline between chunks; nothing is emitted until all are known.
    func answers(_ job: GlyphJob, _ index: HitIndex, deadline: Deadline) throws(JobError) -> [Hit?] {
        var out = [Hit?](repeating: nil, count: job.points.count)
        let chunk = 16
        var failedAt = -1
        job.points.withUnsafeBufferPointer { points in
            out.withUnsafeMutableBufferPointer { results in
                var lo = 0
                while lo < points.count {
                    if lo > 0 && deadline.isPast { failedAt = lo; return }
                    let hi = min(points.count, lo + chunk)
                    index.hit(at: UnsafeBufferPointer(rebasing: points[lo..<hi]), radius: job.radius,
                              into: UnsafeMutableBufferPointer(rebasing: results[lo..<hi]))
                    lo = hi
                }
            }
        }
        if failedAt >= 0 {
            throw JobError("the job took more than \(formatNumber(limits.maxSecondsPerJob)) s (the limit) "
                           + "while answering point \(failedAt) of \(job.points.count)")
        }
        return out
    }

    func emitAnswers(_ job: GlyphJob, _ answers: [Hit?], emit: (String) -> Void) {
        let prefix = "{\"job\":" + job.idJSON + ",\"i\":"
        for (i, h) in answers.enumerated() {
            if let h {
                emit(prefix + String(i) + ",\"hit\":true,\"glyph\":" + String(h.placement)
                     + ",\"distance\":" + formatNumber(h.distance, decimals: 4) + "}")
            } else {
                emit(prefix + String(i) + ",\"hit\":false,\"glyph\":null,\"distance\":null}")
            }
        }
    }

    /// Empties both caches when they hold more than the limits allow (shapes are keyed by font, so they
    /// go together).
    private func trimCaches() {
        guard fonts.count > limits.maxCachedFonts || fontBytes > limits.maxCachedFontBytes
                || cache.byteCount > limits.maxCachedShapeBytes else { return }
        fonts.removeAll()
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

/// A point in time `seconds` from now on the monotonic clock (never, for a non-finite or huge limit).
struct Deadline {
    private let end: ContinuousClock.Instant?

    init(seconds: Double) {
        if seconds.isFinite && seconds < 1e9 {
            end = ContinuousClock.now.advanced(by: .nanoseconds(Int64(max(0, seconds) * 1e9)))
        } else {
            end = nil
        }
    }

    var isPast: Bool {
        guard let end else { return false }
        return ContinuousClock.now >= end
    }
}
