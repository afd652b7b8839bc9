import ArgumentParser
import InkHit
import InkJobs

struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer hit-test jobs: one JSON job per line in, one JSON answer per point out.",
        discussion: """
        Each input line is a job (lines end at \\n; a \\r before it is ignored; blank lines are skipped).
        Answers are written as soon as a job's line is complete, so a program can keep one `ink-hit query`
        running and pipe jobs to it one at a time.

          {"id": "para-1",                       string or number, echoed as "job"
           "fonts": [{"path": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "index": 0}],
           "size": 16,                           px per em (a glyph may override it with "size")
           "glyphs": [{"font": 0, "id": 36, "x": 10.0, "y": 20.0, "cluster": 0}, ...],
                                                 origins in layout space (px, y-down, on the baseline)
           "transform": [1, 0, 0, 1, 0, 0],      optional, layout -> view: x' = a*x + c*y + tx, y' = b*x + d*y + ty
           "radius": 0,                          optional, view px, >= 0
           "points": [[12.5, 14.0], ...]}        view px

        A glyph at origin (x, y) puts font point (u, v) at layout (x + u*s/upem, y - v*s/upem). Outlines are
        unhinted, filled with the nonzero rule, unless the job, a font entry or a glyph says how the renderer
        drew them: "embolden" (px, [x, y], "freetype", "skia", {"stroke": px, "join": "miter"}), "oblique",
        "hinting" ("none", "light"/"slight", "full"/"normal"), "matrix", "originRounding" ("wholePixels",
        "quarterPixelX", {"x": {"grid": 0.25, "bias": 0.015625}, "y": "wholePixel"}), "hintingUnderTransform",
        "ppem", "stemDarkening", "alphaThreshold" (InkJobs' article "Job formats"). A font entry's "qt"
        ({"pixelSize": 16, "hinting": "full", "weight": 700, "style": "italic", "version": "6.4.2"}) places its
        glyphs by Qt's raster-engine rules, the job's "transform" being the painter's.

        Output, one line per point:
          {"job":"para-1","i":0,"hit":true,"glyph":0,"placement":0,"inside":true,"distance":-0.42}
        "glyph" indexes the job's "glyphs" (null on a miss); "placement" is the same index under the name
        docs/vocabulary.md gives it. "inside" is true on the ink, false within the radius only or on a miss. Rule: the topmost (last) glyph whose ink
        contains the point; otherwise the glyph with the nearest outline within "radius"; distances equal
        within 1e-6 of (distance + glyph size) are ties, which go to the topmost.
        "distance" is the signed distance in view px to that glyph's outline (negative inside; null on a miss).
        A point with a coordinate beyond the range of a double is a miss.

        Text jobs have "text" instead of "glyphs" and are laid out first (HarfBuzz shaping, bidi, wrapping):

          {"id": "t1", "text": "Tap the link",
           "fonts": [{"path": ".../DejaVuSans.ttf"}, {"path": ".../DroidSansFallbackFull.ttf"}],  fallbacks in order
           "size": 16, "width": 300,             optional wrap width, layout px
           "origin": [0, 0],                     optional top-left of the text box, layout px
           "maxLines": 2, "alignment": "left",   optional; cut text ends with "…"
           "lineHeight": 1.25, "paragraphSpacing": 6, "firstLineIndent": 12,   optional
           "runs": [{"start": 0, "end": 4, "fonts": [1, 0], "size": 20, "underline": "single"|"double"|false,
                     "strikethrough": true, "overline": true, "baselineShift": 2, "letterSpacing": 0.5,
                     "embolden": "freetype", "oblique": 0.2, "hinting": "light", ...}],  optional; later runs win
           "exclusions": [{"rect": [x, y, w, h]}, {"ellipse": [x, y, w, h]}, {"path": "M0 0 L40 0 L0 40 Z"}],
                                                 optional, layout px: lines flow around them
           "links": [{"start": 8, "end": 12, "tag": "url"}],                 UTF-16 offsets, half-open
           "attachments": [{"at": 5, "width": 20, "ascent": 16, "descent": 4, "tag": "img"}],  at = offset of a U+FFFC
           "transform": [...], "radius": 3.5, "points": [[x, y], ...]}

        and answer, per point:
          {"job":"t1","i":0,"hit":true,"glyph":9,"placement":9,"utf16":[8,9],"char":8,"line":0,"link":"url","attachment":null,"inside":true,"distance":-0.3}
        "glyph" and "placement" index the laid-out glyphs (`ink-hit layout` lists them), "utf16" is the character under the
        point (inside a ligature, its component; on the ellipsis, the cut range), "char" its grapheme index.
        Attachments are hit as their boxes, before text. Decorations (underlines, strikethrough, overlines)
        are ink under the glyphs: a hit on one answers "glyph": null, "decoration": "underline" (or
        "strikethrough", "overline") and the character whose advance holds the point's x, with its link.

        A job that cannot be answered (malformed JSON, unreadable font, glyph id or font index out of range,
        wrong types, singular transform, negative radius, a line over the limit) gets one
        {"job": ..., "error": "..."} line and no answers; the next job still runs; the exit status is 1 if
        any job failed, 2 if the input could not be read or the output not written. Unknown keys are ignored.

        Limits (each exceeded limit fails that job only, with an error naming it; each has a flag that can
        lower it): lines of 64 MiB, 1,000,000 glyphs, 1,000,000 UTF-16 units of text, 100,000 links and
        attachments, 100,000 runs and exclusions, 10,000,000 points and 256 fonts per job, ids/tags/paths of 4 KiB, 1 GiB of output,
        of font files and of glyph shapes per job, and --time-limit seconds per job (parsing to the last line
        of output). A job that runs out of time or output while writing keeps the answers written and ends
        with its error line.
        """
    )

    @OptionGroup var options: JobOptions

    func run() throws {
        let runner = try options.runner()
        try options.run(limits: runner.limits) { (job, emit) throws(JobError) in try runner.answer(job, emit: emit) }
    }
}
