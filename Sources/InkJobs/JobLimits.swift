/// Limits on the jobs a `JobRunner` answers, so that no input — a huge line, a million glyphs at a
/// million sizes, a font file named through a thousand paths, a radius of 1e300 over a big page, a text of
/// one letter and a million combining marks — can make it allocate without bound or run for minutes. The
/// same limits hold for glyph and text jobs in every `ink-hit` subcommand; each is checked before the work it
/// bounds. Exceeding a limit fails that job with a `JobError` naming the limit; the next job still runs.
///
/// The defaults leave room for any real page: a 200,000-glyph job (8 MB of JSON) is answered in 0.6 s
/// (release build). Memory of one job is bounded by its parsed line (up to ~25 × its bytes, for numbers in
/// tiny arrays) + `maxFontBytesPerJob` + `maxShapeBytesPerJob` + the layout of a text job (~600 bytes per
/// UTF-16 unit) + the index (~64 bytes per glyph beyond shapes), plus the caches kept between jobs
/// (`maxCachedFontBytes` + `maxCachedShapeBytes`); answers take one chunk of 4,096 points at a time.
/// Measured peaks on the largest inputs are in the InkJobs article "Limits and hostile input".
public struct JobLimits: Sendable, Hashable {
    /// Longest job line, in bytes of UTF-8 (64 MiB). Longer lines are refused before they are parsed (and
    /// the CLI does not even hold them in memory).
    public var maxLineBytes = 64 << 20
    /// Most glyphs in one job: a glyph job's `glyphs`, or the glyphs a text job's layout makes.
    public var maxGlyphs = 1_000_000
    /// Longest text of a text job, or of all the text nodes of a scene job together (checked as the job is
    /// read, before any layout is built), in UTF-16 code units.
    public var maxTextLength = 1_000_000
    /// Most links plus attachments in one text job.
    public var maxLinks = 100_000
    /// Most styled runs plus exclusions in one text job (or scene text shape).
    public var maxRunsAndExclusions = 100_000
    /// Most nodes in one scene job.
    public var maxNodes = 100_000
    /// Most query points in one job.
    public var maxPoints = 10_000_000
    /// Most fonts in one job's `fonts` array.
    public var maxFonts = 256
    /// Longest id, tag or font path, in bytes of UTF-8 (4 KiB): they are echoed in answers.
    public var maxStringBytes = 4096
    /// Most bytes of output one job may write (1 GiB, newlines included; enough for 10,000,000 answers).
    /// A job whose answers would go beyond it stops there: the answers written are followed by one error
    /// line that says where it stopped.
    public var maxOutputBytesPerJob = 1 << 30
    /// Wall-clock seconds one job may take, from reading its line to its last answer: parsing, font loading,
    /// layout, index build, queries and writing. Checked between glyphs, layout steps, scene nodes, chunks
    /// of points and lines of output, and inside long shape builds through `BuildDeadline` (color-layer
    /// unions, pixel staircases, scene regions), so a job stops within about 100 ms of its limit. A job out of time before its
    /// first answer gets one error line; one out of time while writing gets its error line after the
    /// answers written. A safety net against pathological work, so it depends on the machine: real jobs take
    /// milliseconds.
    public var maxSecondsPerJob: Double = 60
    /// Bytes of font data (whole files) one job may load: 1 GiB (a font file itself may have up to
    /// `Font.maximumFileSize` bytes). Paths naming the same file share one load.
    public var maxFontBytesPerJob = 1 << 30
    /// Bytes of distinct flattened shapes one job may use: 1 GiB (a glyph of a Latin font takes a few kB; a
    /// million distinct (glyph, size class) pairs would not fit). For a scene job, the shapes of its regions
    /// (ellipses, round rectangles, paths, masks, glyph runs, word hulls), each estimated before it is built
    /// and refused when it would not fit (`SceneBudget`); each text node's layout is held to it too.
    public var maxShapeBytesPerJob = 1 << 30
    /// Between jobs, the runner drops its font and shape caches when they hold more than this many bytes
    /// of shapes (256 MiB) …
    public var maxCachedShapeBytes = 256 << 20
    /// … or of font data (512 MiB) …
    public var maxCachedFontBytes = 512 << 20
    /// … or more than this many font entries (failed loads included).
    public var maxCachedFonts = 64

    /// The default limits listed above.
    public init() {}
}
