import CFreeTypeRaster
import InkGeometry

// The only file that calls FreeType in the benchmarks.

/// One glyph to render: its id and its font units → view px transform.
public struct RasterGlyph: Sendable {
    public var id: UInt32
    public var transform: AffineTransform
    public init(id: UInt32, transform: AffineTransform) { self.id = id; self.transform = transform }
}

public enum RasterError: Error, CustomStringConvertible {
    case freeType(String, Int32)
    public var description: String {
        switch self { case .freeType(let call, let code): return "\(call) failed with FreeType error \(code)" }
    }
}

/// Baseline 3: a pre-rendered coverage bitmap of the page, as a renderer would draw it, sampled per point
/// (coverage ≥ 128 of 255 counts as a hit).
///
/// FreeType's own anti-aliasing rasteriser (`FT_Outline_Render`, exact area coverage) draws each glyph's
/// unhinted outline, transformed in `Double` straight from font units to bitmap pixels with the glyph's
/// subpixel position (26.6 fixed point, as FreeType requires), into one page-sized 8-bit buffer;
/// overlapping glyphs are composited with "source over". Nothing of InkHit (its flattening or answers) is
/// used, so the comparison with InkHit is not circular.
///
/// `scale` is bitmap pixels per view px: 1 (a 1× screen) or 4 (a 4× supersampled bitmap).
public final class CoverageBitmap: @unchecked Sendable {
    public let width: Int, height: Int
    public let scale: Double
    public let originX: Double, originY: Double
    public let pixels: UnsafeMutableBufferPointer<UInt8>
    /// Bytes of the bitmap.
    public var byteCount: Int { pixels.count }

    public init(fontPath: String, glyphs: [RasterGlyph], viewBox: Rect, scale: Double) throws {
        self.scale = scale
        originX = viewBox.minX
        originY = viewBox.minY
        width = max(1, Int((viewBox.width * scale).rounded(.up)) + 1)
        height = max(1, Int((viewBox.height * scale).rounded(.up)) + 1)
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: 0)

        var maybeLibrary: FT_Library?
        var err = FT_Init_FreeType(&maybeLibrary)
        guard err == 0, let library = maybeLibrary else { throw RasterError.freeType("FT_Init_FreeType", err) }
        defer { FT_Done_FreeType(library) }
        var maybeFace: FT_Face?
        err = FT_New_Face(library, fontPath, 0, &maybeFace)
        guard err == 0, let face = maybeFace else { throw RasterError.freeType("FT_New_Face", err) }
        defer { FT_Done_Face(face) }

        var target = RasterTarget(base: pixels.baseAddress!, width: width, height: height)
        let loadFlags = FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
        for g in glyphs {
            err = FT_Load_Glyph(face, FT_UInt(g.id), loadFlags)
            guard err == 0 else { throw RasterError.freeType("FT_Load_Glyph(\(g.id))", err) }
            let slot = face.pointee.glyph!
            guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { continue }
            var outline = slot.pointee.outline
            let n = Int(outline.n_points)
            if n == 0 { continue }
            // Font units → view px (Double) → bitmap px, y up from the bottom row (FreeType's raster space).
            let t = g.transform
            for i in 0..<n {
                let p = outline.points[i]
                let v = (Point(Double(p.x), Double(p.y))).applying(t)
                let bx = (v.x - originX) * scale
                let by = Double(height) - (v.y - originY) * scale
                outline.points[i] = FT_Vector(x: FT_Pos((bx * 64).rounded()), y: FT_Pos((by * 64).rounded()))
            }
            var params = FT_Raster_Params()
            params.flags = Int32(FT_RASTER_FLAG_AA | FT_RASTER_FLAG_DIRECT | FT_RASTER_FLAG_CLIP)
            params.gray_spans = { y, count, spans, user in
                guard let spans, let user else { return }
                let t = user.assumingMemoryBound(to: RasterTarget.self).pointee
                let row = t.height - 1 - Int(y)
                guard row >= 0, row < t.height else { return }
                let base = t.base + row * t.width
                for s in 0..<Int(count) {
                    let span = spans[s]
                    let c = Int(span.coverage)
                    let x0 = max(0, Int(span.x)), x1 = min(t.width, Int(span.x) + Int(span.len))
                    if x0 >= x1 { continue }
                    for x in x0..<x1 {
                        let o = Int(base[x])
                        base[x] = UInt8(o + (c * (255 - o) + 127) / 255)     // source over
                    }
                }
            }
            params.clip_box = FT_BBox(xMin: 0, yMin: 0, xMax: FT_Pos(width), yMax: FT_Pos(height))
            err = withUnsafeMutablePointer(to: &target) { tp in
                params.user = UnsafeMutableRawPointer(tp)
                return FT_Outline_Render(library, &outline, &params)
            }
            guard err == 0 else { throw RasterError.freeType("FT_Outline_Render(\(g.id))", err) }
        }
    }

    deinit { pixels.deallocate() }

    /// Coverage (0…255) of the bitmap pixel holding the view point (x, y); 0 outside the bitmap.
    @inline(__always) public func coverage(_ x: Double, _ y: Double) -> UInt8 {
        let fx = (x - originX) * scale, fy = (y - originY) * scale
        guard fx >= 0, fy >= 0, fx < Double(width), fy < Double(height) else { return 0 }
        return pixels[Int(fy) * width + Int(fx)]
    }

    /// The bitmap's answer at radius 0: coverage ≥ 128.
    @inline(__always) public func isHit(_ p: Point) -> Bool { coverage(p.x, p.y) >= 128 }
}

struct RasterTarget {
    var base: UnsafeMutablePointer<UInt8>
    var width: Int
    var height: Int
}
