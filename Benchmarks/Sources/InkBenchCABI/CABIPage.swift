import CInkHit
import Foundation
import InkBenchSupport
import InkFreeType
import InkGeometry
@_spi(RawBuffers) import InkHit

/// The page workload through the C interface (inkhit.h), next to the same queries through the Swift API:
/// what a C, C++ or Python caller of libInkHit pays per query beyond a Swift caller.
///
/// The C index is built from the workload's own placements (the font loaded again from the workload's path
/// with `inkhit_font_from_path`, every placement added with `inkhit_builder_add_glyphs`), and `init` checks
/// that it answers every point exactly as the workload's Swift index does at r = 0 and r = 3.5 (hit,
/// placement, inside, distance bit for bit): a difference stops the run before anything is timed.
///
/// The pairs timed (each answers all points once):
/// - single: `inkhit_index_hit` per point (through the library's exported function: a call the compiler
///   cannot inline, a handle lookup, the argument checks, the answer converted) vs `HitIndex.hit(at:radius:)`
///   per point (`PageQueries.single`);
/// - batch: `inkhit_index_hit_batch` on the whole array vs `HitIndex.unsafeHits(for:radius:into:)` on raw buffers
///   (`PageQueries.rawBuffers`).
public final class CABIPage: @unchecked Sendable {
    public let workload: Workload
    /// The C index (released never: it lives as long as the process's fixtures).
    public let index: inkhit_index
    public let points: UnsafeMutableBufferPointer<inkhit_point>
    public let answers: UnsafeMutableBufferPointer<inkhit_hit>
    let swift: PageQueries

    public init(_ w: Workload) throws {
        workload = w
        swift = PageQueries(w)
        var font: inkhit_font?
        guard inkhit_font_from_path(w.fontPath, 0, &font) == 0, let font else { throw CABIError(String(cString: inkhit_last_error())) }
        let placements: [inkhit_glyph_placement] = w.placements.map { p in
            precondition(p.font == w.font, "the page workload has one font")
            let t = p.transform
            return inkhit_glyph_placement(font: font, glyph: p.glyph.rawValue, size: p.size,
                                          origin: inkhit_point(x: p.origin.x, y: p.origin.y),
                                          transform: inkhit_transform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty))
        }
        // Full forms, as the Swift page's index (built warm) reads: a first build would otherwise read the
        // lean forms (`INKHIT_SHAPE_FORMS_WHEN_REUSED`), and this would measure them, not the C call.
        var builder: inkhit_builder?
        var built: inkhit_index?
        var added = 0
        guard inkhit_builder_create(0, &builder) == 0,
              inkhit_builder_set_shape_forms(builder, Int32(INKHIT_SHAPE_FORMS_FULL.rawValue)) == 0,
              inkhit_builder_add_glyphs(builder, nil, placements, placements.count, &added) == 0,
              inkhit_builder_build(builder, &built) == 0, let built else {
            throw CABIError(String(cString: inkhit_last_error()))
        }
        _ = inkhit_builder_release(builder)
        _ = inkhit_font_release(font)
        index = built
        points = .allocate(capacity: w.points.count)
        for (i, p) in w.points.enumerated() { points[i] = inkhit_point(x: p.x, y: p.y) }
        answers = .allocate(capacity: w.points.count)
        answers.initialize(repeating: inkhit_hit())
        for r in [0.0, 3.5] {
            batch(radius: r)
            for (i, p) in w.points.enumerated() {
                let s = w.index.hit(at: p, radius: r), c = answers[i]
                let same = s.map {
                    c.hit == 1 && c.placement == Int64($0.placement) && c.inside == ($0.isInside ? 1 : 0)
                        && c.distance.bitPattern == $0.distance.bitPattern
                } ?? (c.hit == 0)
                guard same else { throw CABIError("the C index answers point \(i) (\(p)) at r = \(r) differently: \(c) vs \(String(describing: s))") }
            }
        }
    }

    /// All points once, one `inkhit_index_hit` call each.
    public func single(radius: Double) {
        let index = self.index, pts = points, out = answers.baseAddress!
        for i in 0..<pts.count { _ = inkhit_index_hit(index, pts[i].x, pts[i].y, radius, out + i) }
    }

    /// All points once through `inkhit_index_hit_batch` (1.2: non-finite points answered as misses and counted).
    public func batch(radius: Double) {
        _ = inkhit_index_hit_batch(index, points.baseAddress, points.count, radius, Int32(INKHIT_NON_FINITE_MISS.rawValue),
                                   answers.baseAddress, nil)
    }

    /// Points `range` once, one `inkhit_index_hit` call each.
    public func single(radius: Double, _ range: Range<Int>) {
        let index = self.index, pts = points, out = answers.baseAddress!
        for i in range { _ = inkhit_index_hit(index, pts[i].x, pts[i].y, radius, out + i) }
    }

    /// Points `range` once, one `hit(at:radius:)` call each (as `PageQueries.single`).
    public func swiftSingle(radius: Double, _ range: Range<Int>) {
        let index = workload.index, pts = workload.pointBuffer, answers = workload.answers
        for i in range { answers[i] = index.hit(at: pts[i], radius: radius) }
    }

    /// Points `range` through `inkhit_index_hit_batch`.
    public func batch(radius: Double, _ range: Range<Int>) {
        _ = inkhit_index_hit_batch(index, points.baseAddress! + range.lowerBound, range.count, radius,
                                   Int32(INKHIT_NON_FINITE_MISS.rawValue), answers.baseAddress! + range.lowerBound, nil)
    }

    /// Points `range` through `unsafeHits(for:radius:into:)` (as `PageQueries.rawBuffers`).
    public func swiftBatch(radius: Double, _ range: Range<Int>) {
        workload.index.unsafeHits(for: UnsafeBufferPointer(rebasing: workload.pointBuffer[range]), radius: radius,
                                  into: UnsafeMutableBufferPointer(rebasing: workload.answers[range]))
    }

    /// The Swift counterparts, on the same workload.
    public func swiftSingle(radius: Double) { swift.single(radius: radius) }
    public func swiftBatch(radius: Double) { swift.rawBuffers(radius: radius) }
}

public struct CABIError: Error, CustomStringConvertible {
    public var description: String
    init(_ s: String) { description = s }
}

/// The calling thread's CPU time, seconds (what a busy machine's other processes do not add to).
func threadSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// `ink-bench-summary cabi`: the four pairs at r = 0 and r = 3.5 as a Markdown table, ns per point. Rounds of
/// the Swift and C forms alternate (three medians of each, the median of those), so a machine that slows
/// down during the run slows both. Then the single query alone in `pairs` paired rounds (`pairedSingle`).
public enum CABINumbers {
    /// The single query through C and Swift in `pairs` pairs of short rounds (20,000 points each, the same
    /// points for both, their order alternating from pair to pair), each round timed by the thread's CPU time:
    /// the medians of each form's rounds and of the pairs' differences (C − Swift), ns per point. On a shared
    /// machine the differences of adjacent rounds cancel most of what other processes do to both.
    public static func pairedSingle(_ page: CABIPage, radius: Double, pairs: Int) -> (swift: Double, c: Double, difference: Double) {
        paired(page, pairs: pairs, c: { page.single(radius: radius, $0) }, swift: { page.swiftSingle(radius: radius, $0) })
    }

    /// `pairedSingle` for the batch calls (`inkhit_index_hit_batch` and `unsafeHits` on the same 20,000 points).
    public static func pairedBatch(_ page: CABIPage, radius: Double, pairs: Int) -> (swift: Double, c: Double, difference: Double) {
        paired(page, pairs: pairs, c: { page.batch(radius: radius, $0) }, swift: { page.swiftBatch(radius: radius, $0) })
    }

    static func paired(_ page: CABIPage, pairs: Int, c cForm: (Range<Int>) -> Void,
                       swift swiftForm: (Range<Int>) -> Void) -> (swift: Double, c: Double, difference: Double) {
        let chunk = 20_000, n = page.points.count
        var s: [Double] = [], c: [Double] = [], d: [Double] = []
        cForm(0..<chunk)
        swiftForm(0..<chunk)
        for k in 0..<pairs {
            let lo = (k * chunk) % (n - chunk), range = lo..<(lo + chunk)
            func time(_ body: () -> Void) -> Double {
                let t0 = threadSeconds()
                body()
                return (threadSeconds() - t0) * 1e9 / Double(chunk)
            }
            var ts = 0.0, tc = 0.0
            if k % 2 == 0 {
                ts = time { swiftForm(range) }
                tc = time { cForm(range) }
            } else {
                tc = time { cForm(range) }
                ts = time { swiftForm(range) }
            }
            s.append(ts); c.append(tc); d.append(tc - ts)
        }
        func median(_ v: [Double]) -> Double { let w = v.sorted(); return w.count % 2 == 1 ? w[w.count / 2] : (w[w.count / 2 - 1] + w[w.count / 2]) / 2 }
        return (median(s), median(c), median(d))
    }

    public static func markdown(rounds: Int, seconds: Double) throws -> String {
        let page = try CABIPage(try Workloads.page())
        let n = Double(page.points.count)
        func ns(_ body: () -> Void) -> Double { Timing.median(rounds: rounds, minSeconds: seconds, body) * 1e9 / n }
        func pair(_ swift: () -> Void, _ c: () -> Void) -> (Double, Double) {
            var s: [Double] = [], k: [Double] = []
            for _ in 0..<3 {
                s.append(ns(swift))
                k.append(ns(c))
            }
            return (s.sorted()[1], k.sorted()[1])
        }
        func fmt(_ x: Double) -> String { String(format: "%.1f", x) }
        func diff(_ x: Double) -> String { String(format: "%+.1f", x) }
        var out = "## C interface vs Swift, page (\(Int(n)) points), ns per point (median)\n\n"
        out += "| query | Swift | through inkhit.h | difference | ratio |\n|---|---|---|---|---|\n"
        for (r, tag) in [(0.0, "r = 0"), (3.5, "r = 3.5")] {
            let (ss, cs) = pair({ page.swiftSingle(radius: r) }, { page.single(radius: r) })
            out += "| single, \(tag): `hit(at:radius:)` / `inkhit_index_hit` | \(fmt(ss)) | \(fmt(cs)) | \(diff(cs - ss)) | \(String(format: "%.3f", cs / ss)) |\n"
            let (sb, cb) = pair({ page.swiftBatch(radius: r) }, { page.batch(radius: r) })
            out += "| batch, \(tag): `unsafeHits` / `inkhit_index_hit_batch` | \(fmt(sb)) | \(fmt(cb)) | \(diff(cb - sb)) | \(String(format: "%.3f", cb / sb)) |\n"
        }
        out += "\nTargets of the C interface: a single query at most 5 ns more through the C interface; a batch equal per point. "
        out += "The C index was checked equal to the Swift one on every point first.\n"
        let pairs = max(61, 20 * rounds + 1)
        out += "\n### In \(pairs) paired rounds of 20,000 points, thread CPU time, ns per point (median)\n\n"
        out += "| query | Swift | through inkhit.h | difference (median of the pairs' differences) |\n|---|---|---|---|\n"
        for (r, tag) in [(0.0, "r = 0"), (3.5, "r = 3.5")] {
            let p = pairedSingle(page, radius: r, pairs: pairs)
            out += "| single, \(tag) | \(fmt(p.swift)) | \(fmt(p.c)) | \(diff(p.difference)) |\n"
            let b = pairedBatch(page, radius: r, pairs: pairs)
            out += "| batch, \(tag) | \(fmt(b.swift)) | \(fmt(b.c)) | \(diff(b.difference)) |\n"
        }
        return out
    }
}
