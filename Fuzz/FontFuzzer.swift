// Fuzzer for the font path: bytes → Font(bytes:) → outlines of a bounded set of glyphs → GlyphPlacement →
// FontShapeCache / GlyphShape → HitIndex → queries. Every step must return a typed error or an answer;
// answers obey the index's own invariants (contains == hit at r = 0, allHits grow with r, a non-finite point
// misses), and a placement's outline in view px stays inside its view bounds.
// Seeds: system fonts (and subsets of them) copied by scripts/fuzz.sh at run time.

import InkGeometry
import InkHit
import InkFreeType

@_cdecl("LLVMFuzzerTestOneInput")
public func fontFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FontFuzz.run(bytes)
    return 0
}

enum FontFuzz {
    /// Glyphs looked at per input: enough to reach composite glyphs, few enough for tens of inputs/s
    /// under ASan and coverage instrumentation.
    static let maxGlyphs = 16

    static func run(_ bytes: [UInt8]) {
        let font: Font
        do {
            font = try Font(bytes: bytes, faceIndex: 0)
        } catch {
            if error.description.isEmpty { violated("empty FontError message") }
            return
        }
        if font.unitsPerEm <= 0 || font.faceCount < 1 || font.glyphCount < 0 { violated("bad face facts: \(font)") }
        _ = font.description
        // A second face index: out of range is a typed error, never a trap.
        if let other = try? Font(bytes: bytes, faceIndex: font.faceCount), other.faceIndex != font.faceCount {
            violated("face index mismatch")
        }

        // Glyph ids: the first few (.notdef, composites of common fonts live early), some through the cmap,
        // the last one, and one past the end.
        var glyphs: [GlyphID] = (0..<UInt32(min(font.glyphCount, maxGlyphs / 2))).map { GlyphID($0) }
        for scalar in "Hagoé%ÅﬁW" .unicodeScalars { if let g = font.glyph(for: scalar) { glyphs.append(g) } }
        if font.glyphCount > 0 { glyphs.append(GlyphID(UInt32(font.glyphCount - 1))) }
        let stride = max(1, font.glyphCount / (maxGlyphs / 2))
        var g = 0
        while g < font.glyphCount && glyphs.count < maxGlyphs + 12 { glyphs.append(GlyphID(UInt32(g))); g += stride }

        let outOfRange = GlyphID(UInt32(font.glyphCount))
        if (try? font.outline(glyph: outOfRange)) != nil { violated("glyph \(outOfRange) out of range loaded") }
        do {
            try GlyphPlacement(font: font, glyph: outOfRange, size: 16).validate()
            violated("placement of glyph \(outOfRange) out of range validated")
        } catch {
            guard case .glyphOutOfRange = error else { violated("out-of-range placement refused with \(error)") }
        }

        let cache = FontShapeCache(limits: ShapeLimits(maxEdges: 200_000))
        var builder = HitIndex.Builder()
        var x = 0.0
        for (n, glyph) in glyphs.enumerated() {
            let outline: GlyphOutline
            do {
                outline = try font.outline(glyph: glyph, maxPoints: 20_000)
            } catch {
                if error.description.isEmpty { violated("empty FontError message") }
                continue
            }
            // The outline keeps its documented guarantees, and decomposition stays inside its control box.
            if outline.points.count != outline.tags.count { violated("points/tags mismatch") }
            if let last = outline.contourEnds.last, last != outline.points.count - 1 { violated("contour ends") }
            var bounds = BoundsSink()
            outline.decompose(into: &bounds)
            let box = outline.controlBox
            if !outline.isEmpty && !(bounds.bounds.isEmpty || (box.minX <= bounds.bounds.minX && bounds.bounds.maxX <= box.maxX
                                                             && box.minY <= bounds.bounds.minY && bounds.bounds.maxY <= box.maxY)) {
                violated("decomposed bounds \(bounds.bounds) outside control box \(box)")
            }
            _ = try? font.advance(of: glyph)
            _ = font.kerning(glyph, glyphs[(n + 1) % glyphs.count])

            // Two placements: a 16 px line and a large rotated copy (finer tolerance class).
            let p1 = GlyphPlacement(font: font, glyph: glyph, size: 16, origin: Point(x, 20))
            let p2 = GlyphPlacement(font: font, glyph: glyph, size: 160,
                                    transform: AffineTransform.rotation(0.3).concatenating(.translation(40, 300)))
            for p in n % 5 == 0 ? [p1, p2] : [p1] {
                do {
                    let k = try builder.add(p, cache: cache)
                    checkPlacement(p, placement: k)
                } catch {
                    if error.description.isEmpty { violated("empty message") }
                    // Corrupt fonts may have coordinates that land beyond the view limits; the index refuses
                    // nothing else of these placements.
                    if case .placement(let e) = error, e != .coordinateOutOfRange(placement: builder.count) {
                        violated("unexpected HitIndexError \(e)")
                    }
                }
            }
            x += 9
        }
        let index = builder.build()
        query(index)
    }

    /// The placement's outline in view px (`outline(into:)`) lies in its view bounds (`viewBounds()`: the
    /// control box mapped by `fontUnitsToView`), up to the rounding of the mapping.
    static func checkPlacement(_ p: GlyphPlacement, placement k: Int) {
        var sink = BoundsSink()
        let vb: Rect
        do {
            try p.outline(into: &sink)
            vb = try p.viewBounds()
        } catch {
            violated("placement \(k) was added but its outline or view bounds fail: \(error)")
        }
        let b = sink.bounds
        guard !b.isEmpty else { return }
        let slack = 1e-9 * max(1, abs(vb.minX), abs(vb.maxX), abs(vb.minY), abs(vb.maxY))
        if !(b.minX >= vb.minX - slack && b.maxX <= vb.maxX + slack && b.minY >= vb.minY - slack && b.maxY <= vb.maxY + slack) {
            violated("placement \(k): outline bounds \(b) outside view bounds \(vb)")
        }
    }

    static func query(_ index: HitIndex) {
        let b = index.bounds
        var points: [Point] = [Point(.nan, 1), Point(1, .infinity)]
        if !b.isEmpty {
            for i in 0..<6 {
                for j in 0..<4 {
                    points.append(Point(b.minX + b.width * Double(i) / 5, b.minY + b.height * Double(j) / 3))
                }
            }
        }
        for p in points {
            let c = index.contains(p)
            let h0 = index.hit(at: p)
            if c != (h0 != nil) { violated("contains \(c) vs hit \(String(describing: h0))") }
            var previous: Set<Int> = []
            var hadHit = false
            for r in [0, 3.5, Double.infinity] {
                let h = index.hit(at: p, radius: r)
                let all = index.allHits(at: p, radius: r)
                if !p.isFinite && (h != nil || !all.isEmpty) { violated("non-finite point hit") }
                if hadHit && h == nil { violated("hit vanished as r grew to \(r) at \(p)") }
                let set = Set(all.map(\.placement))
                if !previous.isSubset(of: set) { violated("hits shrank at r \(r), \(p)") }
                if let h, !set.contains(h.placement) { violated("hit \(h) not in hits") }
                if let h, h.distance.isNaN { violated("NaN distance") }
                previous = set
                hadHit = h != nil
            }
            if p.isFinite && index.count > 0 && index.uniqueShapeCount > 0 && index.hit(at: p, radius: .infinity) == nil {
                violated("r = ∞ found no glyph at \(p)")
            }
        }
    }
}
