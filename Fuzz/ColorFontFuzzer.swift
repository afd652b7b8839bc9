// Structure-aware fuzzer for colour fonts: the input bytes are decoded into a font by a grammar
// (`ColorFont`, `TinyFont` from Tests/InkTestSupport) rather than mutated as bytes, so every input is a font
// FreeType opens and its colour data reaches the code that bounds it:
// - outline glyphs: squares, rings, and contours of up to 32,000 quadratics;
// - a `COLR` v1 paint graph: PaintColrLayers (nested, up to 255 × 40 layers), PaintGlyph, PaintTransform
//   chains up to the ±2²⁴ range, PaintTranslate, PaintColrGlyph (cycles included), PaintComposite, solid
//   fills, and clip boxes that hold the layers, cut them or miss them entirely;
// - `sbix` strikes of PNG images up to 32767 × 32767 (checkerboards, rows, columns, zeros), strikes that
//   share an image's bytes.
// Each colour glyph's ink region is then built at several sizes (16 px to 1e6 px per em), and placed in an
// index. Invariants: every failure is a typed `FontError` with a message; a region has at most the shape
// limit's edges, and an index answers `contains` as its hit at r = 0; no region runs past its deadline
// (3 s an input, `BuildDeadline`) by more than 1.5 s, or past 2 GB (libFuzzer's limits).
// Seeds: written by the fuzzer itself (INKHIT_FUZZ_WRITE_SEEDS=DIR).
//
// Stepped around (the bounded GlyphShape build: `BoundedBuildCLITests.rowsOfBoundedFlattening`):
// glyphs whose ink is their plain outline are not built here (the font fuzzer builds outlines), and a region
// of more than 5,000 edges is not gridded, since a GlyphShape's flattening and grid check no deadline yet.

#if canImport(Glibc)
import Glibc
#endif
import InkGeometry
import InkHit
import InkFreeType

@_cdecl("LLVMFuzzerTestOneInput")
public func colorFontFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var r = ByteReader(UnsafeBufferPointer(start: data, count: size))
    ColorFontFuzz.run(ColorFontFuzz.font(&r), &r)
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func colorFontFuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    if let dir = getenv("INKHIT_FUZZ_WRITE_SEEDS") { ColorFontFuzz.writeSeeds(String(cString: dir)); exit(0) }
    return 0
}

enum ColorFontFuzz {
    /// Glyphs: 0 empty, 1 square, 2 ring, 3 many quadratics, 4…7 colour (COLR) or bitmap (sbix) glyphs.
    static let colorGlyphs = 4..<8

    static func font(_ r: inout ByteReader) -> [UInt8] {
        let quads = [8, 400, 4000, 32_000][Int(r.u8() % 4)]
        let square = [TinyFont.P(x: 100, y: 0), TinyFont.P(x: 100, y: 700), TinyFont.P(x: 800, y: 700), TinyFont.P(x: 800, y: 0)]
        var glyphs: [TinyFont.Glyph] = [.empty, .simple([square]), ringGlyph(), HostileFonts.manyQuadratics(quads)]
        glyphs += [TinyFont.Glyph](repeating: .empty, count: colorGlyphs.count)
        if r.u8() % 3 == 0 {
            return ColorFont.sbixFont(glyphCount: glyphs.count, ppems: strikes(&r), images: images(&r), shared: r.u8() % 2 == 0)
        }
        return ColorFont.colrFont(glyphs, colr: colr(&r))
    }

    static func ringGlyph() -> TinyFont.Glyph {
        let outer = (0..<16).map { k -> TinyFont.P in
            let a = Double(k) * Double.pi / 8
            return TinyFont.P(x: 450 + Int(350 * HostileFonts.cosine(a)), y: 350 + Int(350 * HostileFonts.sine(a)), on: false)
        }
        return .simple([outer])
    }

    /// A paint graph over glyphs 1…3: each colour glyph's root is drawn from a small grammar, paints referring
    /// to later paints (Offset24s point forward) and to other colour glyphs (PaintColrGlyph: cycles possible).
    static func colr(_ r: inout ByteReader) -> [UInt8] {
        var paints: [[ColorFont.Part]] = []
        var layerList: [Int] = []
        var base: [(glyph: Int, paint: Int)] = []
        var clips: [ColorFont.Clip] = []
        /// Appends a paint subtree of at most `depth` levels; returns its index.
        func paint(_ depth: Int) -> Int {
            let me = paints.count
            paints.append([])
            let kind = depth <= 0 || paints.count > 4000 ? 0 : Int(r.u8() % 8)     // a bounded table
            switch kind {
            case 1:                                                          // PaintColrLayers
                let n = 1 + Int(r.u8() % 40)
                let wide = r.u8() % 8 == 0                                  // 255 layers each
                let first = layerList.count
                layerList += [Int](repeating: 0, count: n)
                paints[me] = ColorFont.layers(n, first: first)
                for k in 0..<n { layerList[first + k] = wide ? paintGlyphs(255) : paint(depth - 1) }
            case 2:                                                          // PaintTransform
                let s = [0.5, 4, 64, 4096, -4096][Int(r.u8() % 5)]
                let child = paint(depth - 1)
                paints[me] = ColorFont.transform(child, [s, Double(Int8(bitPattern: r.u8())) / 64, 0, s, Double(r.i16()), 0])
                _ = child
            case 3:                                                          // PaintTranslate
                paints[me] = ColorFont.translate(paint(depth - 1), dx: Int(r.i16()), dy: Int(r.i16()))
            case 4:                                                          // PaintColrGlyph
                paints[me] = ColorFont.colrGlyph(colorGlyphs.lowerBound + Int(r.u8()) % colorGlyphs.count)
            case 5:                                                          // PaintComposite
                let a = paint(depth - 1), b = paint(depth - 1)
                paints[me] = [.bytes([32]), .ref(a), .bytes([Int(r.u8() % 28)].map(UInt8.init)), .ref(b)]
            default:                                                         // PaintGlyph of an outline glyph
                let fill = paints.count
                paints.append(ColorFont.solid)
                paints[me] = ColorFont.paintGlyph(fill, glyph: 1 + Int(r.u8() % 3))
            }
            return me
        }
        /// A PaintColrLayers of `n` PaintGlyph layers (the same glyph, one fill).
        func paintGlyphs(_ n: Int) -> Int {
            let me = paints.count
            paints.append([])
            let first = layerList.count
            let glyph = paints.count
            paints.append([])
            paints.append(ColorFont.solid)
            paints[glyph] = ColorFont.paintGlyph(glyph + 1, glyph: 1 + Int(r.u8() % 3))
            layerList += [Int](repeating: glyph, count: n)
            paints[me] = ColorFont.layers(n, first: first)
            return me
        }
        for g in colorGlyphs where r.u8() % 4 != 0 {
            base.append((g, paint(2 + Int(r.u8() % 3))))
            if r.u8() % 2 == 0 {
                // A clip box holding the layers, cutting them, or missing them (a 1 × 1 box far off).
                let boxes = [(0, 0, 1000, 1000), (300, 200, 600, 500), (-5000, -5000, -4999, -4999), (500, 500, 501, 501)]
                let b = boxes[Int(r.u8() % 4)]
                clips.append(ColorFont.Clip(first: g, last: g, xMin: b.0, yMin: b.1, xMax: b.2, yMax: b.3))
            }
        }
        if base.isEmpty { base.append((colorGlyphs.lowerBound, paint(1))) }
        return ColorFont.colrV1(base: base, layers: layerList, paints: paints, clips: clips)
    }

    static func strikes(_ r: inout ByteReader) -> [Int] {
        (0..<(1 + Int(r.u8() % 4))).map { _ in [8, 16, 64, 109, 512][Int(r.u8() % 5)] }
    }

    static func images(_ r: inout ByteReader) -> [ColorFont.Image] {
        colorGlyphs.compactMap { g -> ColorFont.Image? in
            guard r.u8() % 4 != 0 else { return nil }
            let sizes = r.u8() % 8 == 0 ? [4096, 32767] : [1, 16, 300]
            let w = sizes[Int(r.u8()) % sizes.count], h = sizes[Int(r.u8()) % sizes.count]
            let kind = r.u8() % 4
            // Beyond 16 Mpx (which must be refused before it is decoded): zeros, one bit a pixel, a small file.
            if w * h > 4096 * 4096 { return ColorFont.Image(glyph: g, png: ColorFont.png(width: w, height: h, colorType: 0, bitDepth: 1)) }
            let on: [UInt8] = [0, 255], off: [UInt8] = [0, 0]
            let png = ColorFont.png(width: w, height: h, colorType: 4, bitDepth: 8) { y in
                switch kind {
                case 0: return nil
                case 1: return y % 2 == 0 ? on : nil
                case 2: return on + off
                default: return y % 2 == 0 ? on + off : off + on
                }
            }
            return ColorFont.Image(glyph: g, png: png)
        }
    }

    static func run(_ bytes: [UInt8], _ r: inout ByteReader) {
        let font: Font
        do { font = try Font(bytes: bytes) } catch {
            violated("a font of the grammar does not open: \(error)")
        }
        let cache = FontShapeCache(maxBytes: 64 << 20)
        // One deadline for the whole input (libFuzzer gives an input 10 s): each build stops at it.
        let deadline = ContinuousClock.now + .seconds(3)
        for g in colorGlyphs {
            let glyph = GlyphID(UInt32(g))
            let ink: GlyphInk
            do { ink = try font.ink(of: glyph) } catch { expectMessage(error); continue }
            guard ink != .outline else { continue }                     // see the note at the top
            for size in [16.0, 300.0, 1e4, 1e6] where ContinuousClock.now < deadline {
                fuzzContext = ["glyph \(g) (\(ink)) at \(size) px per em"]
                let p = GlyphPlacement(font: font, glyph: glyph, size: size)
                // The region (layers' union, pixel staircase) within its deadline, bounded before it is built.
                let start = ContinuousClock.now, cpuStart = processCPUSeconds()
                let region = BuildDeadline.within(deadline) { () -> InkRegion? in
                    do throws(FontError) {
                        return try font.inkRegion(of: glyph, rendering: p.rendering, viewPxPerEm: size, tolerance: 0.01 * 1000 / size)
                    } catch {
                        expectMessage(error)
                        return nil
                    }
                }
                let took = ContinuousClock.now - start
                if ContinuousClock.now > deadline + .seconds(1.5) && processCPUSeconds() - cpuStart > 1.5 {
                    violated("glyph \(g) at \(size) px per em took \(took), past the input's deadline by more than 1.5 s")
                }
                guard let region else { continue }
                let edges = region.polygon.contours.reduce(0) { $0 + $1.count }
                if edges > cache.limits.maxEdges { violated("a region of \(edges) edges") }
                // Its hit shape and index, for regions whose grid builds quickly (larger grids are bounded by
                // GlyphShape's own build: see the note at the top).
                guard edges <= 5_000 else { continue }
                do throws(FontError) {
                    var builder = HitIndex.Builder()
                    try builder.add(p, cache: cache)
                    let index = builder.build()
                    let b = index.bounds.isEmpty ? Rect(minX: 0, minY: 0, maxX: 1, maxY: 1) : index.bounds
                    for k in 0..<16 {
                        let q = Point(b.minX + b.width * Double(k % 4) / 3, b.minY + b.height * Double(k / 4) / 3)
                        if index.contains(q) != (index.hit(at: q) != nil) { violated("contains and hit disagree at \(q)") }
                    }
                    _ = try p.viewBounds()
                } catch {
                    expectMessage(error)
                }
            }
        }
    }

    static func expectMessage(_ e: FontError) {
        if e.description.isEmpty { violated("a FontError without a message") }
    }

    static func writeSeeds(_ dir: String) {
        let seeds: [(String, [UInt8])] = [
            ("colr-layers", [1, 1, 1, 20, 0, 0, 0, 0]), ("colr-transform", [3, 1, 2, 3, 2, 3, 0, 0, 0, 0, 0, 0]),
            ("colr-clip", [0, 1, 1, 5, 0, 0, 0, 0, 0, 0, 2]), ("colr-cycle", [0, 1, 4, 0, 1, 4, 1]),
            ("sbix-big", [0, 0, 1, 4, 1, 4, 4, 0, 1, 3, 3, 3]), ("sbix-shared", [0, 0, 2, 1, 2, 1, 2, 2, 2, 3, 0]),
        ]
        for (name, bytes) in seeds {
            guard let f = fopen(dir + "/" + name, "wb") else { continue }
            _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
        }
    }
}
