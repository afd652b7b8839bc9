import CInkHit

// The growable structs of inkhit.h (each carries its `struct_size`, set by its init function) and the sizes
// this library knows for each: every version's sizeof, oldest first. A struct is read as the version its size
// names, never past it; any other size is refused (`checkStructSize`).

enum StructSizes {
    /// inkhit_glyph_style: 1.1 (up to `alpha_threshold`), 1.2 (the renderer rules: stroke, origin rounding, …).
    static let glyphStyle = [GlyphStyleLayout.size11, GlyphStyleLayout.size]
    /// inkhit_glyph_run: 1.1.
    static let glyphRun = [MemoryLayout<inkhit_glyph_run>.size]
    /// inkhit_node_shape: 1.1 (up to `mask_threshold`), 1.2 (with `mask_length`).
    static let nodeShape11 = MemoryLayout<inkhit_node_shape>.offset(of: \inkhit_node_shape.mask_length)!
    static let nodeShape = [nodeShape11, MemoryLayout<inkhit_node_shape>.size]
    /// inkhit_job_runner_options: 1.2.
    static let jobRunnerOptions = [MemoryLayout<inkhit_job_runner_options>.size]
    /// inkhit_skia_font: 1.2.
    static let skiaFont = [MemoryLayout<inkhit_skia_font>.size]
    /// inkhit_qt_raw_font: 1.3.
    static let qtRawFont = [MemoryLayout<inkhit_qt_raw_font>.size]
}

/// The `struct_size` a growable struct's first field holds (read alone, before anything else of the struct).
func structSize<T>(of p: UnsafePointer<T>) -> Int {
    UnsafeRawPointer(p).load(as: Int.self)
}
