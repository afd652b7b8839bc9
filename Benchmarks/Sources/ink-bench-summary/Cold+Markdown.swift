import Foundation
import InkBenchSupport
import InkFreeType
import InkHit

// `ink-bench-summary cold`'s Markdown (Cold.swift measures).
extension Cold.Numbers {
    static func fmt(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
    static func times(_ r: Double) -> String { r >= 10 ? String(format: "%.1f×", r) : String(format: "%.2f×", r) }
    static func verdict(_ ok: Bool) -> String { ok ? "met" : "**missed**" }

    var markdown: String {
        typealias N = Cold.Numbers
        var s = "## Cold: the first sight of a glyph\n\n"
        s += "One process, alternated rounds (FreeType, InkHit, FreeType, InkHit, …: one warm-up pair, then at least "
        s += "\(rounds.rounds) pairs and \(N.fmt(rounds.seconds)) s of timed rounds per comparison; the number of pairs "
        s += "is printed); medians, and the median of the per-round ratios InkHit / FreeType. FreeType: `FT_Load_Glyph(face, g, "
        s += "FT_LOAD_NO_HINTING)` + `FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)` at `FT_Set_Char_Size(face, 0, size × 64, "
        s += "72, 72)`, on a fresh `FT_New_Memory_Face` each round. InkHit: a fresh `FontShapeCache()` and a freshly loaded "
        s += "`Font` each round (the loads are not timed).\n\n"
        s += shapesMarkdown + memoryMarkdown + pageMarkdown + layoutMarkdown + formsMarkdown + targetsMarkdown
        return s
    }

    var shapesMarkdown: String {
        typealias N = Cold.Numbers
        var s = "### Shape creation per distinct glyph\n\n"
        s += "`FontShapeCache.shape(font:glyph:maxScale:)` per glyph (outline load, flattening, the shape's first-sight "
        s += "structures; what `HitIndex.Builder.add` gets from the cache), µs per glyph.\n\n"
        s += "| glyphs | passes a round, pairs | InkHit µs | FreeType load + render µs | ratio (median of rounds) | ratio of CPU times | target | verdict |\n"
        s += "|---|---|---|---|---|---|---|---|\n"
        for r in shapeRows {
            let us = 1e6 / r.perGlyph
            s += "| \(r.set.name) | \(r.passes), \(r.pairs.base.count) | **\(N.fmt(r.pairs.oursMedian * us, 2))** | \(N.fmt(r.pairs.baseMedian * us, 2)) "
            s += "| **\(N.times(r.pairs.ratio))** | \(N.times(r.pairs.cpuRatio)) | ≤ 3× | \(N.verdict(r.pairs.ratio <= 3)) |\n"
        }
        s += "\nTimes are wall clock; the ratio of CPU times (the thread's, `CLOCK_THREAD_CPUTIME_ID`, median of rounds) "
        s += "leaves out time other processes held the core. Verdicts use the wall-clock ratio.\n"
        return s + "\n"
    }

    var memoryMarkdown: String {
        typealias N = Cold.Numbers
        let m = memory, g = Double(max(m.glyphs, 1))
        var s = "### Shape memory: \(m.glyphs) CJK ideographs at 16 px (fresh cache)\n\n"
        s += "| what | bytes per glyph |\n|---|---|\n"
        s += "| `FontShapeCache.byteCount / count` (the shapes' own count) | **\(N.fmt(Double(m.cacheBytes) / g, 0))** |\n"
        if m.counted {
            s += "| malloc during creation: left allocated at the end (usable sizes; shapes, cache table, the font's per-glyph records) | \(N.fmt(Double(m.malloc.liveBytes) / g, 0)) |\n"
            s += "| malloc during creation: bytes requested (transient buffers included) | \(N.fmt(Double(m.malloc.bytes) / g, 0)) |\n"
            s += "| malloc during creation: allocations | \(N.fmt(Double(m.malloc.allocations) / g, 1)) |\n"
            s += "| malloc during creation: peak live growth, per glyph | \(N.fmt(Double(m.malloc.peakLiveBytes) / g, 0)) |\n"
        } else {
            s += "| malloc during creation | not counted (the malloc wrapper is not active in this process) |\n"
        }
        s += "| FreeType's 1× coverage bitmap of the glyph (rows × pitch) | \(N.fmt(Double(m.bitmapBytes) / g, 0)) |\n\n"
        return s
    }

    var pageMarkdown: String {
        typealias N = Cold.Numbers
        guard let p = page else { return "" }
        let build = Cold.median(p.builds)
        var s = "### Cold page: \(p.page.name)\n\n"
        s += "`TextLayout` lays the ideographs out once (not timed): \(p.page.placements.count) placements, \(p.page.distinctGlyphs) "
        s += "distinct glyphs, \(p.page.lines.count) lines, \(N.fmt(p.page.bounds.width, 0))×\(N.fmt(p.page.bounds.height, 0)) px. "
        s += "Each InkHit round moves the placements to a freshly loaded `Font` and adds them to a fresh `FontShapeCache` "
        s += "(`HitIndex.Builder.add(_:cache:)` each, then `build()`, default `shapeForms` `.whenReused`); FreeType loads "
        s += "and renders the page's glyphs on a fresh face.\n\n"
        s += "| pairs | InkHit ms (of which `build()`) | FreeType ms | ratio (median of rounds) | ratio of CPU times | target | verdict |\n|---|---|---|---|---|---|---|\n"
        s += "| \(p.pairs.base.count) | **\(N.fmt(p.pairs.oursMedian * 1e3, 2))** (\(N.fmt(build * 1e3, 2))) | \(N.fmt(p.pairs.baseMedian * 1e3, 2)) "
        s += "| **\(N.times(p.pairs.ratio))** | \(N.times(p.pairs.cpuRatio)) | ≤ 4× | \(N.verdict(p.pairs.ratio <= 4)) |\n\n"
        s += "The cold index: \(p.uniqueShapes) unique shapes, \(N.fmt(Double(p.shapeBytes) / 1024, 1)) KiB of shapes, "
        s += "\(N.fmt(Double(p.indexBytes) / 1024, 1)) KiB of index (`bytesBeyondShapes`); against brute force on 2,000 "
        s += "uniform points: \(p.check0.wrong) wrong at r = 0, \(p.check35.wrong) at r = 3.5.\n\n"
        return s
    }

    var layoutMarkdown: String {
        typealias N = Cold.Numbers
        var s = "### Text layout from a fresh cache\n\n"
        s += "`LayoutWorkload` (\(layout.glyphs) glyphs; DejaVu Sans → Droid Sans Fallback, 16 px, 300 px), a new "
        s += "`FontShapeCache` per layout; ms per layout, median (fastest).\n\n"
        s += "| fonts | ms per layout | target | verdict |\n|---|---|---|---|\n"
        s += "| loaded once (as the Layout section) | **\(N.fmt(layout.freshCache.median * 1e3, 3))** (\(N.fmt(layout.freshCache.min * 1e3, 3))) "
        s += "| ≤ 2 ms | \(N.verdict(layout.freshCache.median <= 2e-3)) |\n"
        s += "| loaded again before each layout (not timed) | \(N.fmt(layout.freshFonts.median * 1e3, 3)) (\(N.fmt(layout.freshFonts.min * 1e3, 3))) | — | — |\n\n"
        return s
    }

    var formsMarkdown: String {
        typealias N = Cold.Numbers
        var s = "### Queries through lean and full shape forms (context)\n\n"
        s += "The same placements indexed with `HitIndex.Builder.shapeForms = .lean` (what a glyph seen once is "
        s += "queried through) and `.full`; ns per point, median; batch: `hits(for:radius:into:)`, single: a loop of "
        s += "`hit(at:radius:)`; alternated rounds (full, lean, …: one warm-up pair, then at least "
        s += "\(queryRounds.rounds) pairs and \(N.fmt(queryRounds.seconds)) s). Both "
        s += "indexes agree with brute force on 2,000 of the points at r = 0 and 3.5.\n\n"
        s += "| workload | points | forms | r = 0 batch | r = 0 single | r = 3.5 batch | r = 3.5 single | index bytes |\n"
        s += "|---|---|---|---|---|---|---|---|\n"
        for r in forms {
            for (k, name) in ["lean", "full"].enumerated() where k < r.ns.count {
                let t = r.ns[k]
                s += "| \(r.name) | \(r.points) | \(name) | \(N.fmt(t[0])) | \(N.fmt(t[1])) | \(N.fmt(t[2])) | \(N.fmt(t[3])) | \(r.bytes[k]) |\n"
            }
            s += "| \(r.name) | | lean / full (median of rounds) | \(r.ratios.map { N.times($0) }.joined(separator: " | ")) | |\n"
        }
        return s + "\n"
    }

    var targetsMarkdown: String {
        typealias N = Cold.Numbers
        var s = "### Targets of the first sight, this run\n\n| target | measured | verdict |\n|---|---|---|\n"
        let worst = shapeRows.map(\.pairs.ratio).max() ?? .nan
        s += "| shape creation ≤ 3× FreeType load + render (every set) | \(shapeRows.map { N.times($0.pairs.ratio) }.joined(separator: ", ")) | \(N.verdict(worst <= 3)) |\n"
        let perGlyph = Double(memory.cacheBytes) / Double(max(memory.glyphs, 1))
        s += "| ≤ 4 KiB per CJK shape at 16 px | \(N.fmt(perGlyph, 0)) B (cache count)"
        if memory.counted { s += ", \(N.fmt(Double(memory.malloc.liveBytes) / Double(max(memory.glyphs, 1)), 0)) B (malloc, left allocated)" }
        s += " | \(N.verdict(perGlyph <= 4096)) |\n"
        if let p = page {
            s += "| cold page ≤ 4× FreeType | \(N.times(p.pairs.ratio)) | \(N.verdict(p.pairs.ratio <= 4)) |\n"
        }
        s += "| text layout from a fresh cache ≤ 2 ms | \(N.fmt(layout.freshCache.median * 1e3, 3)) ms | \(N.verdict(layout.freshCache.median <= 2e-3)) |\n"
        s += "| one-off process ≤ 1.5× hb-view, memory ≤ 2× | `ink-bench-summary cold --process` | — |\n"
        return s
    }
}
