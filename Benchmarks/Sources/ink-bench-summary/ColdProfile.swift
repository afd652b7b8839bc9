import Foundation
import InkBenchRaster
import InkBenchSupport
import InkFreeType

/// `ink-bench-summary profile first-sight|freetype SET`: one pass over a cold glyph set, the measured part in
/// a function of its own (`runFirstSight`, `runFreeType`) so callgrind can count its instructions alone
/// (`--toggle-collect`). Instruction counts are the same on a loaded machine and an idle one, so before/after
/// comparisons of first-sight work use them (BENCHMARKS.md, "Cold").
enum ColdProfile {
    static func set(_ name: String) throws -> ColdGlyphSet {
        switch name {
        case "cjk48": return try ColdWorkloads.cjk(size: 48)
        case "dejavu": return try ColdWorkloads.dejaVuASCII()
        case "cantarell": return try ColdWorkloads.cantarellASCII()
        default: return try ColdWorkloads.cjk(size: 16)
        }
    }

    static func run(kind: String, set name: String) throws {
        let set = try set(name)
        if kind == "freetype" {
            let renderer = try GlyphRenderer(fontPath: set.fontPath)
            warmUpFreeType(try renderer.face(size: set.size), set.glyphs)     // as for first sight
            let face = try renderer.face(size: set.size)
            runFreeType(face, set.glyphs)
            print("profile freetype \(name): \(set.glyphs.count) glyphs")
        } else {
            // A first pass on another font and cache instantiates the runtime's metadata (once per process),
            // so the measured pass counts what every later first sight costs.
            _ = try warmUp(try Font(path: set.fontPath), set)
            let font = try Font(path: set.fontPath)
            let n = try runFirstSight(font, set)
            print("profile first-sight \(name): \(n) shapes")
        }
    }

    @inline(never) static func runFirstSight(_ font: Font, _ set: ColdGlyphSet) throws -> Int {
        let cache = FontShapeCache()
        let scale = set.size / Double(set.unitsPerEm)
        for g in set.glyphs { _ = try cache.shape(font: font, glyph: g, maxScale: scale) }
        return cache.count
    }

    /// The warm-up pass (in reverse order, so the optimizer cannot fold it into the measured function).
    @inline(never) static func warmUp(_ font: Font, _ set: ColdGlyphSet) throws -> Int {
        let cache = FontShapeCache()
        let scale = set.size / Double(set.unitsPerEm)
        for g in set.glyphs.reversed() { _ = try cache.shape(font: font, glyph: g, maxScale: scale) }
        return cache.count
    }

    @inline(never) static func warmUpFreeType(_ face: GlyphRenderer.Face, _ glyphs: [GlyphID]) {
        let ids = glyphs.reversed().map { UInt32($0.rawValue) }
        _ = ids.withUnsafeBufferPointer { face.loadAndRender($0) }
    }

    @inline(never) static func runFreeType(_ face: GlyphRenderer.Face, _ glyphs: [GlyphID]) {
        let ids = glyphs.map { UInt32($0.rawValue) }
        let r = ids.withUnsafeBufferPointer { face.loadAndRender($0) }
        precondition(r.rendered == ids.count, "FreeType failed on glyph \(r.failedGlyph)")
    }
}
