/*
 * inkhit.h — the C interface of InkHit: hit-testing text by the shape of its ink.
 *
 * InkHit answers "is this point on the text — and on which glyph, character, link or node?" by the
 * outlines of the glyphs (FreeType), not by their boxes: the hole of an "o" and the gap after a line's last
 * word miss, unless the caller asks for a touch radius. This header is the whole contract of the shared
 * library libInkHit.so (`pkg-config --cflags --libs inkhit`); it does not change behind a program's back
 * (see "Versions and the ABI rule").
 *
 *     #include <inkhit.h>
 *     #include <stdio.h>
 *     #include <string.h>
 *
 *     int main(void) {
 *         inkhit_font font;
 *         if (inkhit_font_from_path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0, &font) != INKHIT_OK) {
 *             fprintf(stderr, "%s\n", inkhit_last_error());
 *             return 1;
 *         }
 *         inkhit_layout_options options;
 *         inkhit_layout_options_init(&options);
 *         options.fonts = &font;
 *         options.font_count = 1;
 *         options.size = 16;                                   // px per em
 *         inkhit_text_link link = {8, 12};                     // "link", UTF-8 byte offsets here
 *         options.links = &link;
 *         options.link_count = 1;
 *         const char *text = "Tap the link, not the gap.";
 *         inkhit_layout layout;
 *         if (inkhit_layout_create_utf8(text, strlen(text), &options, &layout) != INKHIT_OK) { ... }
 *         inkhit_text_hit hit;
 *         inkhit_layout_hit(layout, 65.7, 8, 3.5, INKHIT_TEXT_HIT_INK, &hit);  // view px, radius 3.5 px
 *         if (hit.hit) printf("bytes %lld..<%lld, link %lld\n", (long long)hit.utf8_start,
 *                             (long long)hit.utf8_end, (long long)hit.link);  // 8..<9 (the "l"), link 0
 *         inkhit_layout_release(layout);
 *         inkhit_font_release(font);
 *         return 0;
 *     }
 *
 * ---------------------------------------------------------------------------------------------------
 * Coordinate spaces and units
 *
 *   font units   a glyph's design grid, y-up; `units_per_em` of them make one em.
 *   size         px per em: a glyph at size s scales font units by s / units_per_em.
 *   layout px    y-down; a glyph's origin sits on its baseline. A glyph of size s at origin (x, y) puts
 *                font point (u, v) at layout (x + u*s/upem, y - v*s/upem).
 *   view px      where query points and radii live: layout px through an affine transform
 *                [a, b, c, d, tx, ty] (CGAffineTransform order: x' = a*x + c*y + tx, y' = b*x + d*y + ty).
 *   tolerance    the Hausdorff bound between a curve and its polyline, view px (default 0.01). Every point
 *                at least that far from an outline gets the answer of a curve-exact test.
 *   radius       a hit is a point on the ink, or within `radius` view px of the outline (a distance equal
 *                to the radius counts). With several candidates: the topmost (last added) placement whose
 *                ink holds the point, else the one whose outline is nearest within the radius (ties go to
 *                the topmost). Distances are Euclidean in view px, also under non-uniform scale and shear.
 *
 * ---------------------------------------------------------------------------------------------------
 * Vocabulary (docs/vocabulary.md has the whole table; a test keeps it complete)
 *
 *   One name for each thing, written in each layer's case: Swift and JSON `colorLayers`, C
 *   INKHIT_INK_COLOR_LAYERS, Python `color_layers` for identifiers and "colorLayers" for string values (the
 *   JSON ones). "glyph" in an input is a glyph id (a font's number for it): inkhit_glyph_placement.glyph,
 *   inkhit_run_glyph.glyph, inkhit_layout_glyph.glyph. "placement" is a position in a list of placed shapes:
 *   every answer names what it hit by its placement (inkhit_hit.placement, inkhit_text_hit.placement,
 *   inkhit_scene_hit.placement; -1: none). The ink of a placement: INKHIT_INK_OUTLINE, _COLOR_LAYERS,
 *   _COLOR_PAINT, _BITMAP, _BOX, _PATH. A node's shapes: INKHIT_SHAPE_BOX, _ROUND_RECT, _ELLIPSE, ... Node
 *   flags, each the opposite of the default: INKHIT_NODE_HIDDEN, _NOT_INTERACTIVE, _NOT_CLIPS_CHILDREN.
 *
 *   Bad arguments: every call checks its arguments; a negative or NaN radius is INKHIT_ERROR_INVALID_ARGUMENT
 *   in every query (JSON: an error line; Python: InvalidArgumentError; Swift queries, called by programmers
 *   on a path that throws nothing, count it as 0, as their doc comments say). A NaN or infinite point is
 *   INVALID_ARGUMENT in a single query (which writes a miss); a 1.2 batch answers it as a miss and counts it
 *   (INKHIT_NON_FINITE_MISS) or refuses the batch (INKHIT_NON_FINITE_ERROR).
 *   The meaning of 0: in a size, budget or tolerance, 0 means the default, never "nothing" (tolerance 0:
 *   0.01; inkhit_shape_cache_create(0, ...): INKHIT_SHAPE_CACHE_DEFAULT_BYTES; max_shape_bytes_per_call 0:
 *   1 GiB). "No bound" and "keep nothing" are asked for by name: SIZE_MAX, UINT64_MAX, INFINITY,
 *   INKHIT_SHAPE_CACHE_KEEP_NOTHING.
 *
 * ---------------------------------------------------------------------------------------------------
 * Handles and ownership
 *
 * Objects are reached through opaque handles (inkhit_font, inkhit_index, ...). A handle is a token, not an
 * address: never dereference it. Inside the library it names a slot of a registry and the slot's
 * generation, so every call can check the handles it is given:
 *   - a NULL handle gives INKHIT_ERROR_NULL_ARGUMENT;
 *   - a released handle, a handle of another type (a font where an index is expected) or any value the
 *     library did not hand out gives INKHIT_ERROR_INVALID_HANDLE, with a message saying which;
 *   - releasing a slot gives it a new generation, so a stale handle is never taken for a later object in
 *     the same slot (until one slot has been reused 2^31 times).
 * Every function that makes an object (`_create`, `_from_path`, `_from_bytes`, `_build`, `_snapshot`)
 * writes a new handle that the caller owns and must release exactly once with the matching `_release`.
 * A double release is detected: the second call returns INKHIT_ERROR_INVALID_HANDLE and changes nothing.
 * Releasing NULL does nothing and returns INKHIT_OK (as free(NULL) does).
 * Objects keep what they use alive: an index, layout, scene or snapshot keeps its fonts and shapes, and a
 * scene keeps the layouts of its text nodes, so releasing a font or layout handle never breaks an object
 * made from it. inkhit_handle_count() says how many handles are live (a leak check).
 * Pointers passed in are only read during the call (nothing keeps them), except font bytes lent to
 * inkhit_font_from_borrowed_bytes (read in place until its release callback runs); output structs are
 * written by the call and owned by the caller. Strings returned as `const char *` are owned by the library; each
 * function says how long they live.
 *
 * ---------------------------------------------------------------------------------------------------
 * Threads
 *
 * Every function may be called from any thread. Fonts, shape caches, indexes, layouts and snapshots are
 * immutable (or, for shape caches, locked inside): any number of threads may query one at once.
 * Builders and scenes change; each holds a lock, so calls on one builder or scene from several threads
 * are safe and run one at a time. A handle may be released while other threads are inside calls that use
 * it: the release waits until those calls are done with the object (only those: a query holds it for its
 * own duration, other calls for a few instructions, keeping their own reference), and calls that start
 * after it get INKHIT_ERROR_INVALID_HANDLE. Handle lookups take no lock; a query pays a few nanoseconds for
 * this (its thread announces the object it uses; on Linux, releases pay instead, with one membarrier).
 *
 * ---------------------------------------------------------------------------------------------------
 * Errors
 *
 * Every function that can fail returns an inkhit_status: INKHIT_OK (0) or an error code, and on error
 * sets the calling thread's message (inkhit_last_error()), which names the function and the argument.
 * No call traps, aborts or lets an exception escape on bad input: every pointer, length, handle, number,
 * enum value and string is checked before it is used, and every shape is bounded before it is built (see
 * "Limits"): a call that would need more than the limits allow returns INKHIT_ERROR_SHAPE or
 * INKHIT_ERROR_LIMIT. What cannot be checked is left to the caller, as in any C library: pointers that do
 * not point to as much memory as their length says, and a process already out of memory (the Swift
 * runtime then aborts).
 * Output structs: a function that fails leaves `*out` handles unwritten; query functions always write
 * their answer struct when the handle and the pointers are valid (a miss on error), so a caller that
 * ignores the status still reads a defined answer.
 *
 * ---------------------------------------------------------------------------------------------------
 * Signals
 *
 * Loading libInkHit loads the Swift runtime, whose initializer installs a crash handler (the Swift
 * backtracer: SIGQUIT, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP, and an alternate signal stack).
 * libInkHit's own load-time constructor, which runs right after it, puts back what the host had: SIG_DFL,
 * no flags, an empty mask, and no alternate stack, exactly as before the load. Handlers the host installed
 * before loading the library are never touched. The runtime's handler stays when the environment sets
 * SWIFT_BACKTRACE (you asked for it) or when the program itself is a Swift program.
 *
 * ---------------------------------------------------------------------------------------------------
 * Versions and the ABI rule
 *
 * The library's soname is libInkHit.so.<MAJOR>. Within one MAJOR version the ABI only grows: a MINOR
 * release may add functions, status codes, enum values and flag bits; it never removes or changes a
 * function's signature or meaning, the layout of a struct, or the value of a constant. New fields never
 * go into existing structs (new needs get new structs and functions), except at the end of a struct that
 * carries its own size (`struct_size`, set by its init function): the library reads only the fields the
 * caller's size covers, and refuses (INKHIT_ERROR_INVALID_ARGUMENT) a size it does not know — one that is not
 * the size of a version of the struct, unless it is larger than its own version's and every byte past that is
 * zero (a newer header's fields left unset) — so a struct is never read as another version and no field is
 * dropped. A PATCH release changes no declaration. So a program built against header MAJOR.MINOR runs with
 * every library MAJOR.n, n >= MINOR:
 *
 *     uint32_t v = inkhit_version();      // the same MAJOR, and a MINOR at least the header's
 *     if (v / 10000 != INKHIT_VERSION_MAJOR || v / 100 < INKHIT_VERSION / 100) { ... refuse to run ... }
 *
 * Treat an unknown nonzero status as an error, and ignore enum values you do not know in outputs.
 *
 * What 1.2 added, so that no caller guesses: batch queries whose status means one thing
 * (inkhit_index_hit_batch, inkhit_snapshot_hit_batch: INKHIT_OK means every point was answered, and they say
 * how many non-finite points they answered as misses; any error means nothing was written); add calls that
 * say where their placements start (inkhit_builder_add_glyphs_numbered, _add_run_numbered,
 * _add_shaped_numbered); named instances by name (inkhit_font_instance_count, _instance_name,
 * inkhit_font_find_instance, inkhit_font_with_instance); a mask's byte length (inkhit_node_shape.mask_length);
 * job runners with ink-hit's limits, strict mode and warnings (inkhit_job_runner_options). Every growable
 * struct, inkhit_layout_options included, refuses a struct_size it does not know.
 *
 * What 1.3 added: one name for each thing in every layer (docs/vocabulary.md). Answers name the placement
 * `placement` (inkhit_text_hit.placement, inkhit_scene_hit.placement: the same field as the 1.0 name `glyph`,
 * which stays, deprecated); a node that lets its children overflow is INKHIT_NODE_NOT_CLIPS_CHILDREN (the
 * old INKHIT_NODE_NO_CLIP stays, deprecated). The view range has its name (INKHIT_VIEW_LIMIT), and adapters
 * check a renderer's transform with the builder's own rule (inkhit_transform_validate). Deprecated names
 * compile silently; define INKHIT_WARN_DEPRECATED before the #include to have the compiler point them out.
 */
#ifndef INKHIT_H
#define INKHIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A name kept from an older inkhit.h: the same field or value under its old spelling. Silent by default, so
 * that a 1.x program compiles unchanged (also with -Werror); with INKHIT_WARN_DEPRECATED defined, GCC and
 * Clang warn where one is used. */
#if defined(INKHIT_WARN_DEPRECATED) && (defined(__GNUC__) || defined(__clang__))
#define INKHIT_DEPRECATED(use) __attribute__((deprecated("use " use)))
#else
#define INKHIT_DEPRECATED(use)
#endif

/* ================================================================================================ */
/* Versions                                                                                          */
/* ================================================================================================ */

#define INKHIT_VERSION_MAJOR 1
#define INKHIT_VERSION_MINOR 3
#define INKHIT_VERSION_PATCH 0
/** MAJOR * 10000 + MINOR * 100 + PATCH of this header. */
#define INKHIT_VERSION (INKHIT_VERSION_MAJOR * 10000 + INKHIT_VERSION_MINOR * 100 + INKHIT_VERSION_PATCH)

/** The library's version, MAJOR * 10000 + MINOR * 100 + PATCH (compare with INKHIT_VERSION).
 *  Owns: nothing. Threads: any. Errors: never fails. */
uint32_t inkhit_version(void);

/** The library's version as "MAJOR.MINOR.PATCH".
 *  Owns: the string is static storage of the library (never free it). Threads: any. Errors: never fails. */
const char *inkhit_version_string(void);

/* ================================================================================================ */
/* Status codes and the last error                                                                   */
/* ================================================================================================ */

/** The result of every call that can fail: INKHIT_OK or one of the INKHIT_ERROR_ codes below. */
typedef int32_t inkhit_status;

enum {
    INKHIT_OK = 0,
    /** A required pointer or handle argument is NULL. */
    INKHIT_ERROR_NULL_ARGUMENT = 1,
    /** A handle that was released, is of another type, or was never handed out by the library. */
    INKHIT_ERROR_INVALID_HANDLE = 2,
    /** A number that is NaN or infinite where a finite one is needed, out of its range (a negative radius,
     *  a size <= 0, an offset past the end), an unknown enum value or flag bit, path commands that do not
     *  add up. */
    INKHIT_ERROR_INVALID_ARGUMENT = 3,
    /** Text or a path that is not valid UTF-8 (or UTF-16: an unpaired surrogate); an offset inside a
     *  character's encoding. The message gives the offset. */
    INKHIT_ERROR_INVALID_TEXT = 4,
    /** A font file that does not exist, is not a regular file (a directory, a device) or cannot be read. */
    INKHIT_ERROR_FILE = 5,
    /** Font data that is empty, not a font, cut short or corrupt; a face index out of range; a face
     *  without scalable outlines. */
    INKHIT_ERROR_FONT = 6,
    /** A glyph id out of the font's range, a glyph without a vector outline, a broken glyph outline. */
    INKHIT_ERROR_GLYPH = 7,
    /** An outline that cannot be made into a shape: a curve that cannot meet the tolerance, more edges or
     *  bytes than the shape limits, coordinates beyond a 32-bit float. */
    INKHIT_ERROR_SHAPE = 8,
    /** The index refused a placement: a singular transform, a scale beyond 1e-30...1e30, coordinates
     *  beyond +-INKHIT_VIEW_LIMIT view px, a glyph drawn below 1e-6 or above INKHIT_VIEW_LIMIT view px per em. */
    INKHIT_ERROR_PLACEMENT = 9,
    /** Text that cannot be laid out as asked: a link range outside the text or empty, an attachment not
     *  on a U+FFFC or sharing one, invalid attachment sizes. */
    INKHIT_ERROR_LAYOUT = 10,
    /** A scene edit that is refused: a node id already used, an unknown node id, removing the root. */
    INKHIT_ERROR_SCENE = 11,
    /** More than a limit allows: text longer than 4,194,304 UTF-16 units, font data over 1 GiB, more
     *  than 1,000,000 path verbs, more than 50,000,000 placements in one index, more than 67,108,864
     *  live handles; a call past its deadline or beyond its shape bytes (see inkhit_limits). */
    INKHIT_ERROR_LIMIT = 12
};

/** The message of the last call that failed on the calling thread: UTF-8, NUL-terminated, starting with
 *  the function's name ("inkhit_index_hit: radius must be >= 0 and not NaN (got -1)"); "" before any
 *  failure. Successful calls leave it as it is. At most INKHIT_MAX_ERROR_LENGTH bytes: a longer message is
 *  cut at a character boundary and ends in "...".
 *  Owns: the library owns the text (never free it); the pointer stays valid for the thread's lifetime and
 *  its text changes when a later call on the same thread fails.
 *  Threads: any; each thread has its own message. Errors: never fails. */
const char *inkhit_last_error(void);

/** The longest message inkhit_last_error() returns, in bytes (without the NUL). */
#define INKHIT_MAX_ERROR_LENGTH 1023

/** The name of a status code ("INKHIT_ERROR_FONT"), or "INKHIT_UNKNOWN_STATUS" for a value this library
 *  does not know. Owns: static storage of the library. Threads: any. Errors: never fails. */
const char *inkhit_status_name(inkhit_status status);

/** How many handles are live (handed out and not yet released), all types together: a leak check.
 *  Owns: nothing. Threads: any (a snapshot of a number other threads may be changing). Errors: never fails. */
size_t inkhit_handle_count(void);

/* ================================================================================================ */
/* Geometry                                                                                          */
/* ================================================================================================ */

/** A point; its space (view px, layout px, local px, font units) is stated where it is used. */
typedef struct inkhit_point {
    double x;
    double y;
} inkhit_point;

/** An affine transform, CGAffineTransform order: x' = a*x + c*y + tx, y' = b*x + d*y + ty. A struct of
 *  zeros is singular, not the identity: start from INKHIT_TRANSFORM_IDENTITY. */
typedef struct inkhit_transform {
    double a, b, c, d, tx, ty;
} inkhit_transform;

/** The identity transform, as an initializer: `inkhit_transform t = INKHIT_TRANSFORM_IDENTITY;`. */
#define INKHIT_TRANSFORM_IDENTITY {1.0, 0.0, 0.0, 1.0, 0.0, 0.0}

/** The view range, px: every view coordinate a placement, a layout, a scene node or an exclusion reaches lies
 *  within +-INKHIT_VIEW_LIMIT, and a glyph is drawn at most INKHIT_VIEW_LIMIT view px per em; beyond it the
 *  call is refused (INKHIT_ERROR_PLACEMENT, INVALID_ARGUMENT or LAYOUT, as each function says), never clamped.
 *  Swift's ViewSpace.limit, Python's inkhit.VIEW_LIMIT. Since 1.3. */
#define INKHIT_VIEW_LIMIT 1e9

/** Whether an index places shapes with `transform` (shape units -> view px): INKHIT_OK when it is finite, not
 *  singular (its least scale at least 1e-12 of its largest) and its scales lie within 1e-30...1e30; otherwise
 *  INKHIT_ERROR_PLACEMENT with the reason inkhit_builder_add_* would give. The library's one check of a
 *  transform: an adapter calls it once for its renderer's transform before it adds anything.
 *  Owns: nothing (reads *transform). Threads: any. Errors: NULL_ARGUMENT, PLACEMENT. Since 1.3. */
inkhit_status inkhit_transform_validate(const inkhit_transform *transform);

/** An axis-aligned rectangle [min_x, max_x] x [min_y, max_y]; empty when min_x > max_x or min_y > max_y. */
typedef struct inkhit_rect {
    double min_x, min_y, max_x, max_y;
} inkhit_rect;

/** Which winding numbers are ink. */
enum {
    /** Nonzero winding (TrueType and CFF glyphs; the default). */
    INKHIT_FILL_NONZERO = 0,
    /** Odd winding (SVG's evenodd). */
    INKHIT_FILL_EVEN_ODD = 1
};

/** Path verbs, one byte each in a verb array. Each consumes points from the point array, in order:
 *  MOVE 1 (the new start), LINE 1 (the end), QUAD 2 (control, end), CUBIC 3 (control 1, control 2, end),
 *  CLOSE 0; CONIC (since 1.2, inkhit_builder_add_path only) 2 (control, end) and one weight. With
 *  INKHIT_PATH_START_POINTS each LINE, QUAD, CONIC and CUBIC first gives its start point (one more point).
 *  A contour left open is closed; drawing before any MOVE starts at (0, 0); after CLOSE the path is at the
 *  contour's start. */
enum {
    INKHIT_VERB_MOVE = 0,
    INKHIT_VERB_LINE = 1,
    INKHIT_VERB_QUAD = 2,
    INKHIT_VERB_CUBIC = 3,
    INKHIT_VERB_CLOSE = 4,
    /** A conic section: the rational quadratic from the current point to `end` with control point `control`
     *  and a weight w (finite, > 0) from the weight array: Skia's kConic_Verb (an ellipse arc for w < 1, a
     *  parabola for w = 1, a hyperbola for w > 1). Drawn as quadratics within half the builder's tolerance:
     *  halved at t = 1/2 until each half is within |w - 1| / (w + 1) * max(|control - start|, |control - end|)
     *  <= tolerance / 2 of the quadratic with its points (a bound on the distance, not an estimate), at most
     *  2^12 quadratics (SHAPE beyond). Since 1.2. */
    INKHIT_VERB_CONIC = 5
};

/** The most verbs one path may have. */
#define INKHIT_MAX_PATH_VERBS 1000000

/* ================================================================================================ */
/* Handles                                                                                           */
/* ================================================================================================ */

/** One face of a font file. Immutable. */
typedef struct inkhit_font_s *inkhit_font;
/** A cache of flattened shapes, shared by indexes and layouts: font glyphs by (font, glyph, size class),
 *  custom outlines by the caller's 64-bit keys. Thread-safe. */
typedef struct inkhit_shape_cache_s *inkhit_shape_cache;
/** Collects placements for an index. Mutable, locked. */
typedef struct inkhit_builder_s *inkhit_builder;
/** A built spatial index of placed shapes. Immutable. */
typedef struct inkhit_index_s *inkhit_index;
/** Laid-out text with its hit indexes. Immutable. */
typedef struct inkhit_layout_s *inkhit_layout;
/** A tree of nodes (views, buttons, text) to hit-test the UIKit way. Mutable, locked. */
typedef struct inkhit_scene_s *inkhit_scene;
/** An immutable, indexed copy of a scene for queries. */
typedef struct inkhit_snapshot_s *inkhit_snapshot;

/* ================================================================================================ */
/* Fonts                                                                                             */
/* ================================================================================================ */

/** Loads face `face_index` of the font file at `path` (UTF-8, NUL-terminated). The whole file is read
 *  into memory (at most 1 GiB); later changes to the file do not affect the font. A face_index above
 *  0xFFFF packs a named instance (see inkhit_font_from_borrowed_bytes); a file whose bytes equal a loaded
 *  font's is held once, and the two share their glyph shapes.
 *  Owns: `*out` is a new handle the caller releases with inkhit_font_release; `path` is only read.
 *  Threads: any.
 *  Errors: NULL_ARGUMENT (path or out); INVALID_TEXT (path not UTF-8: load such files with
 *  inkhit_font_from_bytes); FILE (missing, not a regular file, unreadable, over 1 GiB); FONT (empty, not
 *  a font, corrupt, face_index negative or >= the file's face count, no scalable outlines); LIMIT (too
 *  many live handles). */
inkhit_status inkhit_font_from_path(const char *path, int32_t face_index, inkhit_font *out);

/** Loads face `face_index` (packed as for inkhit_font_from_path) of a font held in memory: `length` bytes
 *  at `bytes`, copied during the call (the caller may free them afterwards; inkhit_font_from_borrowed_bytes
 *  reads them in place).
 *  Owns: `*out` is a new handle the caller releases with inkhit_font_release. Threads: any.
 *  Errors: NULL_ARGUMENT (bytes with length > 0, or out); FONT (length 0, not a font, corrupt, face index
 *  out of range, no scalable outlines); LIMIT (more than 1 GiB, too many live handles). */
inkhit_status inkhit_font_from_bytes(const uint8_t *bytes, size_t length, int32_t face_index, inkhit_font *out);

/** Facts about a font face, read once at load. Font units are y-up. */
typedef struct inkhit_font_info {
    /** Valid glyph ids are 0 ..< glyph_count (glyph 0 is .notdef). */
    int64_t glyph_count;
    /** Font units per em (> 0). */
    int64_t units_per_em;
    /** Which face of the file this is, and how many the file has. */
    int64_t face_index;
    int64_t face_count;
    /** Typographic ascender and descender (usually negative), font units. */
    int64_t ascender;
    int64_t descender;
    /** Baseline-to-baseline distance, font units. */
    int64_t height;
} inkhit_font_info;

/** Writes the font's facts into `*out`. Owns: `*out` is the caller's, written. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE. */
inkhit_status inkhit_font_get_info(inkhit_font font, inkhit_font_info *out);

/** The glyph the font's Unicode cmap maps `codepoint` to, or 0 (.notdef) when it maps none (FreeType's
 *  convention). For text, prefer a layout: it shapes with HarfBuzz and falls back between fonts.
 *  Owns: `*glyph_out` is written. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (codepoint above 0x10FFFF or a surrogate). */
inkhit_status inkhit_font_glyph(inkhit_font font, uint32_t codepoint, uint32_t *glyph_out);

/** The horizontal advance of `glyph`, font units (unscaled, unhinted). Owns: `*advance_out` is written.
 *  Threads: any. Errors: NULL_ARGUMENT, INVALID_HANDLE, GLYPH (out of range, no outline), FONT (corrupt
 *  metrics). */
inkhit_status inkhit_font_advance(inkhit_font font, uint32_t glyph, double *advance_out);

/** Releases a font handle. Indexes, layouts and scenes made with the font keep working.
 *  Owns: ends the caller's ownership of the handle; NULL does nothing (INKHIT_OK).
 *  Threads: any (calls using the handle on other threads finish first).
 *  Errors: INVALID_HANDLE (already released — a double release is detected —, another type, unknown). */
inkhit_status inkhit_font_release(inkhit_font font);

/* ================================================================================================ */
/* Shape caches                                                                                      */
/* ================================================================================================ */

/** The budget `inkhit_shape_cache_create(0, …)` gives: 64 MiB of glyph shapes and as many of outlines. */
#define INKHIT_SHAPE_CACHE_DEFAULT_BYTES ((size_t)64 << 20)
/** A budget no shape fits in: a cache that keeps nothing (every layout builds every shape). */
#define INKHIT_SHAPE_CACHE_KEEP_NOTHING ((size_t)1)

/** A new shape cache keeping at most `max_bytes` bytes of font glyph shapes and as many of custom
 *  outlines, oldest evicted first. 0 means the default, INKHIT_SHAPE_CACHE_DEFAULT_BYTES (as 0 means the
 *  default everywhere in this header; docs/vocabulary.md); SIZE_MAX: no bound;
 *  INKHIT_SHAPE_CACHE_KEEP_NOTHING: no caching. Calls that take a cache use the process-wide one (64 MiB
 *  of glyph shapes, no custom outlines) when given NULL.
 *  Owns: `*out` is a new handle the caller releases. Threads: any; the cache itself is thread-safe.
 *  Errors: NULL_ARGUMENT, LIMIT (too many live handles). */
inkhit_status inkhit_shape_cache_create(size_t max_bytes, inkhit_shape_cache *out);

/** How much a cache holds. */
typedef struct inkhit_shape_cache_info {
    /** Shapes kept: font glyphs and custom outlines. */
    int64_t glyph_shapes;
    int64_t outline_shapes;
    /** Bytes they take. */
    int64_t glyph_bytes;
    int64_t outline_bytes;
} inkhit_shape_cache_info;

/** Writes what `cache` holds into `*out`. Owns: `*out` is written. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE. */
inkhit_status inkhit_shape_cache_get_info(inkhit_shape_cache cache, inkhit_shape_cache_info *out);

/** Drops every shape the cache holds. Owns: indexes and layouts that use its shapes keep them.
 *  Threads: any. Errors: NULL_ARGUMENT, INVALID_HANDLE. */
inkhit_status inkhit_shape_cache_clear(inkhit_shape_cache cache);

/** Releases a cache handle. Owns: ends the caller's ownership; indexes and layouts that took shapes from it
 *  keep them; NULL does nothing (INKHIT_OK). Threads: any (calls using the handle on other threads finish first).
 *  Errors: INVALID_HANDLE (double release, another type, unknown). */
inkhit_status inkhit_shape_cache_release(inkhit_shape_cache cache);

/* ================================================================================================ */
/* Index builders                                                                                    */
/* ================================================================================================ */

/** A new builder whose placements must meet `tolerance` view px (0: the default, 0.01).
 *  Owns: `*out` is a new handle the caller releases. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_ARGUMENT (negative, NaN or infinite tolerance), LIMIT. */
inkhit_status inkhit_builder_create(double tolerance, inkhit_builder *out);

/** The radius (view px) a new builder prepares its indexes for: touch radii up to it are the fast ones. */
#define INKHIT_DEFAULT_PREPARED_RADIUS 3.5
/** The largest prepared radius, view px; larger values (INFINITY too) are clamped to it. */
#define INKHIT_MAX_PREPARED_RADIUS 256.0

/** Sets the largest query radius (view px) the indexes this builder builds from now on are prepared for
 *  (default INKHIT_DEFAULT_PREPARED_RADIUS). A query with a radius up to it reads only its point's own page
 *  cell; a larger radius is answered exactly too, by a wider search. Answers never depend on it; memory
 *  does (page cells list every placement within the radius: about (glyph size + 2 x radius)^2 per
 *  placement). Values above INKHIT_MAX_PREPARED_RADIUS are clamped to it.
 *  Owns: nothing. Threads: any (calls on one builder run one at a time).
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (negative or NaN radius: the builder keeps its
 *  value). */
inkhit_status inkhit_builder_set_prepared_radius(inkhit_builder builder, double radius);

/** Which form of its shapes an index reads (a shape has a lean form, made on first sight: a coarse winding
 *  grid, a few KiB; and a full form: a finer grid, near lists and raster stamps, several times the memory
 *  and build time, whose queries are faster, radius queries most). Both answer exactly alike. */
typedef enum inkhit_shape_forms {
    /** A shape's first index reads its lean form; every later index that places it reads its full form,
     *  built then. The default. */
    INKHIT_SHAPE_FORMS_WHEN_REUSED = 0,
    /** Every shape's full form, built by this build if it has none: for an index that answers many queries. */
    INKHIT_SHAPE_FORMS_FULL = 1,
    /** Lean forms only. */
    INKHIT_SHAPE_FORMS_LEAN = 2
} inkhit_shape_forms;

/** Sets which form of its shapes the indexes this builder builds from now on read (`inkhit_shape_forms`;
 *  default INKHIT_SHAPE_FORMS_WHEN_REUSED). An index built once from a fresh cache and queried many times
 *  wants INKHIT_SHAPE_FORMS_FULL (queries of the page benchmark: 3.3x faster at radius 0). Answers never
 *  depend on it. Owns: nothing. Threads: any (calls on one builder run one at a time).
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (not one of the three values: the builder keeps
 *  its setting). */
inkhit_status inkhit_builder_set_shape_forms(inkhit_builder builder, int32_t forms);

/** One glyph of one font at one size and origin, seen through a transform. */
typedef struct inkhit_glyph_placement {
    inkhit_font font;
    /** The glyph id in `font` (0 ..< glyph_count). */
    uint32_t glyph;
    /** px per em, layout px (finite, > 0). */
    double size;
    /** The glyph's origin on the baseline, layout px. */
    inkhit_point origin;
    /** Layout px -> view px (INKHIT_TRANSFORM_IDENTITY when they are the same). */
    inkhit_transform transform;
} inkhit_glyph_placement;

/** Adds one glyph placement on top of the ones added before; its shape comes from `cache` (NULL: the
 *  process-wide cache), flattened there once per font, glyph and size class. A glyph without ink (a
 *  space) is added too and never hit. Writes the placement's number (how many were added before it) to
 *  `*index_out` unless it is NULL. A failed call adds nothing.
 *  Owns: nothing is kept from `placement` but the font (the builder keeps what it needs alive).
 *  Threads: any (calls on one builder run one at a time).
 *  Errors: NULL_ARGUMENT (builder, placement, placement->font); INVALID_HANDLE (builder, cache, font);
 *  INVALID_ARGUMENT (NaN/infinite size, origin or transform; size <= 0); GLYPH (glyph id out of range,
 *  broken outline, no outline); FONT (corrupt glyph data); SHAPE; PLACEMENT; LIMIT. */
inkhit_status inkhit_builder_add_glyph(inkhit_builder builder, inkhit_shape_cache cache,
                                       const inkhit_glyph_placement *placement, size_t *index_out);

/** Adds `count` placements in order, as inkhit_builder_add_glyph would one by one, stopping at the first
 *  that fails (the message names it: "placements[12]: ..."). Writes how many were added to `*added_out`
 *  unless it is NULL (on success: count).
 *  Owns: `placements` is only read; the builder keeps the fonts' shapes alive.
 *  Threads: any; the whole batch runs under the builder's lock (no other call's placement lands inside it).
 *  Errors: as inkhit_builder_add_glyph; NULL_ARGUMENT also for placements == NULL with count > 0. */
inkhit_status inkhit_builder_add_glyphs(inkhit_builder builder, inkhit_shape_cache cache,
                                        const inkhit_glyph_placement *placements, size_t count, size_t *added_out);

/** As inkhit_builder_add_glyphs, and says where its placements start: writes the number of the first
 *  placement it adds (the builder's count when the batch started, under the builder's lock) to `*first_out`
 *  unless it is NULL, so the placements it added are exactly *first_out ..< *first_out + *added_out, also when
 *  it stops at a glyph that fails or when other threads add to the builder. On an error found before the batch
 *  starts (a handle, an array) nothing is added and both are 0.
 *  Owns: as inkhit_builder_add_glyphs. Threads: any; the whole batch runs under the builder's lock.
 *  Errors: as inkhit_builder_add_glyphs. Since 1.2. */
inkhit_status inkhit_builder_add_glyphs_numbered(inkhit_builder builder, inkhit_shape_cache cache,
                                                 const inkhit_glyph_placement *placements, size_t count,
                                                 size_t *first_out, size_t *added_out);

/** Adds an outline of the caller's own (from CoreText, Skia, a font parser...), given as path commands
 *  in its own units (`verb_count` verbs, `point_count` points; see INKHIT_VERB_MOVE) and placed by
 *  `transform` (outline units -> view px; NULL: the identity). Curves are flattened finely enough for the
 *  builder's tolerance at the transform's largest scale; an outline without curves is exact.
 *  With a cache, the shape is kept under `key` (with the fill rule and the tolerance class) and reused by
 *  later calls with the same key: give one key the same commands every time (the first ones are kept).
 *  With cache NULL, `key` is ignored and the shape is built for this call alone.
 *  Writes the placement's number to `*index_out` unless it is NULL. A failed call adds nothing.
 *  Owns: verbs and points are only read. Threads: any (calls on one builder run one at a time).
 *  Errors: NULL_ARGUMENT (builder; verbs or points with a count > 0); INVALID_HANDLE; INVALID_ARGUMENT
 *  (an unknown verb, points that do not match the verbs, a NaN or infinite point or transform entry, an
 *  unknown fill rule); SHAPE; PLACEMENT (singular transform, coordinates out of range); LIMIT (more than
 *  INKHIT_MAX_PATH_VERBS verbs). */
inkhit_status inkhit_builder_add_outline(inkhit_builder builder, inkhit_shape_cache cache, uint64_t key,
                                         const uint8_t *verbs, size_t verb_count,
                                         const inkhit_point *points, size_t point_count,
                                         int32_t fill_rule, const inkhit_transform *transform, size_t *index_out);

/** inkhit_builder_add_path's flags. */
enum {
    /** Each LINE, QUAD, CONIC and CUBIC verb gives its start point first, as a renderer's path iterator hands
     *  segments over (SkPath::Iter's pts[0]): it must equal the current point exactly (the last end point, the
     *  MOVE's point, the contour's start after CLOSE, (0, 0) before any MOVE), else INVALID_ARGUMENT naming the
     *  verb. Since 1.2. */
    INKHIT_PATH_START_POINTS = 1u << 0
};

/** inkhit_builder_add_outline with conics and start points: the path as a renderer iterates it. `verbs`
 *  (INKHIT_VERB_*, CONIC included) consume `points` as INKHIT_VERB_MOVE says (one more point per segment
 *  with INKHIT_PATH_START_POINTS in `flags`) and each CONIC one of `weights` in order (weight_count = the
 *  number of CONIC verbs; weights may be NULL when it is 0). Everything else is as inkhit_builder_add_outline:
 *  units, transform, cache and key, the placement's number in `*index_out`; a failed call adds nothing.
 *  Owns: verbs, points and weights are only read. Threads: any (calls on one builder run one at a time).
 *  Errors: as inkhit_builder_add_outline; INVALID_ARGUMENT also for a weight that is not finite and > 0, a
 *  weight count that does not match the conics, a start point that is not the current point, unknown flag
 *  bits; SHAPE for a conic that needs more than 2^12 quadratics. Since 1.2. */
inkhit_status inkhit_builder_add_path(inkhit_builder builder, inkhit_shape_cache cache, uint64_t key,
                                      const uint8_t *verbs, size_t verb_count,
                                      const inkhit_point *points, size_t point_count,
                                      const double *weights, size_t weight_count, uint32_t flags,
                                      int32_t fill_rule, const inkhit_transform *transform, size_t *index_out);

/** How many placements the builder holds. Owns: `*count_out` is written. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE. */
inkhit_status inkhit_builder_count(inkhit_builder builder, size_t *count_out);

/** Builds an immutable index of the placements added so far (the builder can go on collecting for
 *  another). Owns: `*out` is a new handle the caller releases. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, LIMIT. */
inkhit_status inkhit_builder_build(inkhit_builder builder, inkhit_index *out);

/** Releases a builder handle (indexes built from it are not affected). Owns: ends the caller's ownership;
 *  NULL does nothing (INKHIT_OK). Threads: any (calls using the handle on other threads finish first).
 *  Errors: INVALID_HANDLE (double release, another type, unknown). */
inkhit_status inkhit_builder_release(inkhit_builder builder);

/* ================================================================================================ */
/* Index queries                                                                                     */
/* ================================================================================================ */

/** One answer of an index. */
typedef struct inkhit_hit {
    /** 1 when the point hit a placement, 0 on a miss. */
    int32_t hit;
    /** 1 when the point is on the placement's ink (nonzero winding), 0 when it is only within the radius. */
    int32_t inside;
    /** The placement's number, in the order placements were added; -1 on a miss. */
    int64_t placement;
    /** Signed distance from the point to the placement's outline, view px, negative on the ink; NaN on
     *  a miss. */
    double distance;
} inkhit_hit;

/** The answer at point (x, y), view px, within `radius` view px (>= 0; INFINITY finds the nearest
 *  placement anywhere), by the hit rule (see "Coordinate spaces and units"). Allocates nothing.
 *  Owns: `*out` is written. Threads: any, any number at once on one index.
 *  Errors: NULL_ARGUMENT (index, out); INVALID_HANDLE; INVALID_ARGUMENT (radius negative or NaN; x or y
 *  NaN or infinite). On INVALID_HANDLE and INVALID_ARGUMENT `*out` is written as a miss. */
inkhit_status inkhit_index_hit(inkhit_index index, double x, double y, double radius, inkhit_hit *out);

/** The answers for `count` points (view px) into `out[0 ..< count]`, each as inkhit_index_hit would
 *  give it. Allocates nothing. A point with a NaN or infinite coordinate is answered as a miss and makes
 *  the call return INVALID_ARGUMENT (naming the first such point) after answering every point.
 *  Owns: `points` is only read; `out` is written. Threads: any, any number at once on one index.
 *  Errors: NULL_ARGUMENT (index; points or out with count > 0); INVALID_HANDLE; INVALID_ARGUMENT
 *  (radius negative or NaN: nothing is answered; non-finite points: see above: everything is answered).
 *  Since 1.2, inkhit_index_hit_batch gives these two cases two statuses. */
inkhit_status inkhit_index_hits(inkhit_index index, const inkhit_point *points, size_t count, double radius,
                                inkhit_hit *out);

/** What a batch query does with a point that has a NaN or infinite coordinate (the `non_finite` argument of
 *  inkhit_index_hit_batch and inkhit_snapshot_hit_batch; shapely's handle_nan). Since 1.2. */
typedef enum inkhit_non_finite {
    /** Answer it as a miss (it can hit nothing) and count it in `*skipped_out`; the call returns INKHIT_OK. */
    INKHIT_NON_FINITE_MISS = 0,
    /** Refuse the batch: answer nothing and return INKHIT_ERROR_INVALID_ARGUMENT, naming the first such point. */
    INKHIT_NON_FINITE_ERROR = 1
} inkhit_non_finite;

/** The answers for `count` points (view px) into `out[0 ..< count]`, each as inkhit_index_hit would give it,
 *  with a status that means one thing:
 *    - INKHIT_OK: every point was answered. With INKHIT_NON_FINITE_MISS, the points with a NaN or infinite
 *      coordinate were answered as misses and `*skipped_out` says how many (0: none).
 *    - any error: nothing was written to `out`, and `*skipped_out` is 0.
 *  inkhit_index_hits (1.0) answers the same; its INVALID_ARGUMENT meant either. Allocates nothing.
 *  Owns: `points` is only read; `out` and `*skipped_out` (unless NULL) are written.
 *  Threads: any, any number at once on one index.
 *  Errors: (nothing is written) NULL_ARGUMENT (index; points or out with count > 0), INVALID_HANDLE,
 *  INVALID_ARGUMENT (radius negative or NaN; `non_finite` not an INKHIT_NON_FINITE_ value; with
 *  INKHIT_NON_FINITE_ERROR, a non-finite point, named in the message). Since 1.2. */
inkhit_status inkhit_index_hit_batch(inkhit_index index, const inkhit_point *points, size_t count, double radius,
                                     int32_t non_finite, inkhit_hit *out, size_t *skipped_out);

/** Whether (x, y), view px, is on the ink of any placement (containment only: faster than a hit).
 *  Writes 1 or 0 to `*inside_out`. Owns: `*inside_out` is written. Allocates nothing.
 *  Threads: any, any number at once on one index.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (non-finite point; `*inside_out` is then 0). */
inkhit_status inkhit_index_contains(inkhit_index index, double x, double y, int32_t *inside_out);

/** The topmost placement whose ink contains (x, y), view px, written to `*placement_out` (-1: none):
 *  containment only, no distance measured, the cheapest question an index answers (the placement
 *  inkhit_index_hit would give at radius 0, for points on ink). Allocates nothing.
 *  Owns: `*placement_out` is written. Threads: any, any number at once on one index.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (non-finite point; `*placement_out` is then
 *  -1). */
inkhit_status inkhit_index_topmost(inkhit_index index, double x, double y, int64_t *placement_out);

/** Facts about an index. */
typedef struct inkhit_index_info {
    /** Number of placements, with the ones without ink. */
    int64_t placements;
    /** Distinct shapes the placements use. */
    int64_t unique_shapes;
    /** Memory the index holds beyond the shared shapes, bytes. */
    int64_t bytes_beyond_shapes;
    /** The flattening tolerance every placement meets, view px. */
    double tolerance;
    /** Union of the placements' ink boxes, view px (empty when nothing has ink). */
    inkhit_rect bounds;
} inkhit_index_info;

/** Writes the index's facts into `*out`. Owns: `*out` is written. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE. */
inkhit_status inkhit_index_get_info(inkhit_index index, inkhit_index_info *out);

/** Releases an index handle. Owns: ends the caller's ownership; NULL does nothing (INKHIT_OK).
 *  Threads: any (calls using the handle on other threads finish first).
 *  Errors: INVALID_HANDLE (double release, another type, unknown). */
inkhit_status inkhit_index_release(inkhit_index index);

/* ================================================================================================ */
/* What the renderer drew: lent fonts, variations, glyph styles, shaper output, tags (since 1.1)    */
/* ================================================================================================ */

/** Where these calls fit. A layout engine (Pango, Skia's SkShaper, its own HarfBuzz loop) hands InkHit the
 *  glyphs it drew, as it drew them:
 *    - fonts it already holds, without a copy (inkhit_font_from_borrowed_bytes: the bytes of an hb_blob_t,
 *      an mmap), at the named instance and design coordinates it uses (a packed face index,
 *      inkhit_font_with_variations);
 *    - the synthetic styles its rasterizer applies (inkhit_glyph_style: fontconfig's FC_EMBOLDEN and
 *      FC_MATRIX, cairo's hint style);
 *    - HarfBuzz's arrays as hb_shape() leaves them (inkhit_builder_add_shaped), or its own positions
 *      (inkhit_builder_add_run);
 *    - a 64-bit tag per placement (a byte offset, a pointer), read back from a hit's placement.
 *  The README's "Glyphs from your own shaper" is a complete program.
 *
 *  Units. Sizes are px per em and positions layout px, y-down, a glyph's origin on its baseline (see
 *  "Coordinate spaces and units"). Converting from an engine: Pango units / PANGO_SCALE (1024) = px;
 *  HarfBuzz positions x position_scale = px, where position_scale is size / (the hb_font_t's scale) —
 *  size / units_per_em for an hb_font_t left at its default scale, 1 / 64 for one scaled in 26.6 px —
 *  and HarfBuzz's y offsets and advances point up (InkHit subtracts them); fontconfig's FC_MATRIX is
 *  y-up like inkhit_glyph_style's matrix and is copied as it is.
 *
 *  Renderers draw at device size. A renderer hints and emboldens at the size a glyph has on the device
 *  (cairo: font size x CTM scale). When the transform scales (a 2x HiDPI surface), give `size` in view
 *  px and a transform without that scale, so hinting and emboldening happen where the renderer did them.
 *  cairo 1.16's image surfaces also draw each glyph at a whole device pixel, floor(x + 0.5): give those
 *  origins to match its pixels (the Pango adapter does both: inkhit_pango.h). */

/** Called once with the `user_data` it was given when InkHit no longer reads borrowed font bytes. */
typedef void (*inkhit_release_func)(void *user_data);

/** Loads face `face_index` of `length` font bytes at `bytes` without copying them: the font reads them in
 *  place until `release(user_data)` is called. face_index may be FreeType's packed form (see below).
 *  `release` (may be NULL) is called exactly once, on the thread that drops the last font using the bytes
 *  (fonts made from this one by inkhit_font_with_variations too; indexes and layouts hold shapes, not
 *  bytes, but layouts hold their fonts): when the call fails, before it returns; when the process already
 *  holds a font with equal bytes, also before it returns (the new font shares those, one copy per content).
 *  The bytes must stay valid and unchanged until then. To lend a HarfBuzz blob:
 *
 *      unsigned int n; const char *data = hb_blob_get_data(blob, &n);
 *      inkhit_font_from_borrowed_bytes((const uint8_t *)data, n, index, (inkhit_release_func)hb_blob_destroy,
 *                                      hb_blob_reference(blob), &font);
 *
 *  An FT_Face's bytes are lent the same way when you made it with FT_New_Memory_Face (lend that memory
 *  and FT_Reference_Face/FT_Done_Face it around the font); for a face FreeType opened from a file, lend an
 *  mmap of the file, or give the path.
 *  Packed face indexes. Here and in inkhit_font_from_path / inkhit_font_from_bytes a face_index above
 *  0xFFFF is (n << 16) | face, as FreeType and fontconfig's FC_INDEX write it: named instance n (1-based,
 *  0 for none) of a variable font's face `face` (fontconfig's Inter Bold: 458752 = 7 << 16).
 *  One copy per content. Fonts whose bytes are equal (one file loaded twice, a file and its bytes) share
 *  one copy and, for one face and set of design coordinates, their glyph shapes in every cache.
 *  Owns: `*out` is a new handle the caller releases; the bytes stay the caller's (see above).
 *  Threads: any; `release` may run on any thread that releases a handle.
 *  Errors: NULL_ARGUMENT (bytes with length > 0, out); FONT (length 0, not a font, face index out of range,
 *  a packed instance the font lacks); LIMIT (more than 1 GiB, too many live handles). */
inkhit_status inkhit_font_from_borrowed_bytes(const uint8_t *bytes, size_t length, int32_t face_index,
                                              inkhit_release_func release, void *user_data, inkhit_font *out);

/** A design coordinate of a variable font: axis `tag` (INKHIT_TAG('w','g','h','t')) at `value` (the axis's
 *  units: wght 100...900, wdth %, slnt degrees). Laid out as HarfBuzz's hb_variation_t, so an array
 *  hb_variation_from_string() filled can be passed as it is. */
typedef struct inkhit_variation {
    uint32_t tag;
    float value;
} inkhit_variation;

/** An OpenType tag from four characters, as HB_TAG and FT_MAKE_TAG make it. */
#define INKHIT_TAG(a, b, c, d) \
    ((uint32_t)(uint8_t)(a) << 24 | (uint32_t)(uint8_t)(b) << 16 | (uint32_t)(uint8_t)(c) << 8 | (uint32_t)(uint8_t)(d))

/** A new font: `font`'s file and face at other design coordinates. They start from the named instance
 *  `font` was opened at (a packed face index) or the defaults, then each of variations[0 ..< count]
 *  sets its axis (a later entry for the same axis wins): cairo's order for FC_INDEX then
 *  FC_FONT_VARIATIONS. Values beyond an axis's range are clamped as FreeType clamps them
 *  (inkhit_font_get_variations says what was used). The bytes are shared, not copied.
 *  Owns: `*out` is a new handle the caller releases; `variations` is only read. Threads: any.
 *  Errors: NULL_ARGUMENT (font, out; variations with count > 0); INVALID_HANDLE; INVALID_ARGUMENT (a NaN
 *  or infinite value, a tag that is not four printable ASCII characters); FONT (not a variable font, an
 *  axis the font lacks); LIMIT. */
inkhit_status inkhit_font_with_variations(inkhit_font font, const inkhit_variation *variations, size_t count,
                                          inkhit_font *out);

/** The design coordinates `font` draws with, one per axis in the font's (fvar) order: writes the first
 *  min(capacity, axes) to `out` and the axis count to `*count_out` (0 for a font that does not vary; call
 *  with capacity 0 to ask for the count).
 *  Owns: `out[0 ..< capacity]` and `*count_out` are written. Threads: any.
 *  Errors: NULL_ARGUMENT (font, count_out; out with capacity > 0), INVALID_HANDLE. */
inkhit_status inkhit_font_get_variations(inkhit_font font, inkhit_variation *out, size_t capacity, size_t *count_out);

/** Named instances of a variable font (the `fvar` table's, in its order, numbered from 0 here; a packed face
 *  index numbers them from 1): their names come from the font's `name` table as FreeType reads it (Windows
 *  Unicode English first). inkhit_font_find_instance looks one up by name, inkhit_font_with_instance makes a
 *  font at it: together what fontconfig's FC_STYLE or a job's "instance" ("Bold") needs, with nothing read
 *  from the file but by the library. Since 1.2. */

/** How many named instances `font`'s face has (0 for a font that does not vary) into `*count_out`.
 *  Owns: `*count_out` is written (0 on error). Threads: any. Errors: NULL_ARGUMENT, INVALID_HANDLE. Since 1.2. */
inkhit_status inkhit_font_instance_count(inkhit_font font, size_t *count_out);

/** The name of named instance `instance` (0 ..< inkhit_font_instance_count) as UTF-8: its length in bytes (without
 *  a NUL) into `*length_out`, and, when `capacity` > 0, the name into `name[0 ..< capacity]`, cut at a character
 *  boundary to leave room for its NUL (call with capacity 0 to ask for the length; an instance the name table
 *  gives no name has the name ""). Owns: `name[0 ..< capacity]` and `*length_out` are written (0 on error).
 *  Threads: any. Errors: NULL_ARGUMENT (font, length_out; name with capacity > 0), INVALID_HANDLE,
 *  INVALID_ARGUMENT (instance or capacity beyond the address space), FONT (no such instance). Since 1.2. */
inkhit_status inkhit_font_instance_name(inkhit_font font, size_t instance, char *name, size_t capacity,
                                        size_t *length_out);

/** The number (0-based) of the named instance called `name` (UTF-8, NUL-terminated; compared ASCII
 *  case-insensitively, as a job's "instance": "semibold italic" finds "SemiBold Italic") into `*instance_out`.
 *  Owns: `*instance_out` is written on success; `name` is only read. Threads: any.
 *  Errors: NULL_ARGUMENT (font, name, instance_out), INVALID_HANDLE, INVALID_TEXT (name not UTF-8), FONT (no
 *  instance has that name: the message lists the names the font has; a font that does not vary has none).
 *  Since 1.2. */
inkhit_status inkhit_font_find_instance(inkhit_font font, const char *name, size_t *instance_out);

/** A new font: `font`'s file and face at named instance `instance` (0-based; its design coordinates, as a packed
 *  face index with (instance + 1) << 16 would open it). inkhit_font_with_variations on it starts from the
 *  instance. The bytes are shared, not copied, and the file is not read again.
 *  Owns: `*out` is a new handle the caller releases. Threads: any.
 *  Errors: NULL_ARGUMENT (font, out), INVALID_HANDLE, INVALID_ARGUMENT (instance beyond the address space), FONT
 *  (not a variable font, no such instance), LIMIT (too many live handles). Since 1.2. */
inkhit_status inkhit_font_with_instance(inkhit_font font, size_t instance, inkhit_font *out);

/** Synthetic bold (inkhit_glyph_style.embolden). */
enum {
    /** Not emboldened. */
    INKHIT_EMBOLDEN_NONE = 0,
    /** FT_GlyphSlot_Embolden's strength, 1/24 em in both directions at the glyph's size: what cairo draws for
     *  fontconfig's FC_EMBOLDEN (CAIRO_FT_SYNTHESIZE_BOLD). Like STRENGTH it moves points right and up: the
     *  ink grows to the right of the origin and upwards, not on every side. */
    INKHIT_EMBOLDEN_FREETYPE = 1,
    /** FT_Outline_EmboldenXY with embolden_x, embolden_y (layout px at the glyph's size, as 1/64 px): the ink
     *  grows by embolden_x in width (rightwards) and embolden_y in height (upwards). */
    INKHIT_EMBOLDEN_STRENGTH = 2,
    /** The fill united with its outline stroked centred, stroke_width layout px wide, corners joined by
     *  stroke_join (and miter_limit): the ink grows stroke_width / 2 on every side; advances do not change.
     *  The stroke follows FreeType's outline at the glyph's size (hinted or not, after the matrix), before
     *  `oblique`. Since 1.2. */
    INKHIT_EMBOLDEN_STROKE = 3,
    /** Skia's fake bold (SkFont::setEmbolden with a fill paint) for a glyph whose size is the SkFont's size:
     *  STROKE with width size * r, r = 1/24 up to 9 px, 1/32 from 36 px, linear between, a miter join with
     *  limit 4 (stroke_width, stroke_join and miter_limit are not read). Under a canvas scale, give the width
     *  with STROKE (inkhit_skia_fake_bold_width). Since 1.2. */
    INKHIT_EMBOLDEN_SKIA = 4
};

/** How a stroke's corners are joined (inkhit_glyph_style.stroke_join). Since 1.2. */
enum {
    /** The outer edges extended until they meet, unless the miter is longer than miter_limit times the width
     *  (1 / sin(angle / 2) > miter_limit, Skia's and SVG's test): then BEVEL. Skia's default, limit 4. */
    INKHIT_JOIN_MITER = 0,
    /** A circular arc. */
    INKHIT_JOIN_ROUND = 1,
    /** A straight line across the corner. */
    INKHIT_JOIN_BEVEL = 2
};

/** Hinting (inkhit_glyph_style.hinting), as FreeType applies it at the glyph's size. The ecosystems' names:
 *  cairo / fontconfig NONE -> INKHIT_HINTING_NONE, SLIGHT -> LIGHT, MEDIUM and FULL -> FULL (gray
 *  antialiasing: both load FT_LOAD_TARGET_NORMAL); Skia kNone -> NONE, kSlight -> LIGHT, kNormal and kFull ->
 *  FULL (kFull is kNormal unless LCD), and any of them but kNone with kAlias edging -> MONO; Qt
 *  PreferNoHinting -> NONE, PreferVerticalHinting -> LIGHT, PreferFullHinting -> FULL. */
enum {
    /** Unhinted (the default): the exact outline, or FreeType's at the size when emboldened. */
    INKHIT_HINTING_NONE = 0,
    /** FT_LOAD_TARGET_LIGHT: vertical-only grid fitting. */
    INKHIT_HINTING_LIGHT = 1,
    /** FT_LOAD_TARGET_NORMAL: the font's own hinting or the auto-hinter. */
    INKHIT_HINTING_FULL = 2,
    /** FT_LOAD_TARGET_MONO: the hinting FreeType gives 1-bit (aliased) text: TrueType bytecode in its full
     *  mode, the auto-hinter snapping both axes (CFF as FULL). Skia loads it for kAlias edging, cairo for
     *  CAIRO_ANTIALIAS_NONE. Since 1.2. */
    INKHIT_HINTING_MONO = 3
};

/** When a renderer leaves hinting off for a transformed glyph (inkhit_glyph_style.hinting_under_transform).
 *  Since 1.2. */
enum {
    /** Hint whatever the transform (the default). */
    INKHIT_HINTING_UNDER_TRANSFORM_KEEP = 0,
    /** Skia's rule: hint only while the glyph's whole linear map (matrix, oblique, the run's transform) keeps
     *  the axes on the axes: zeros off its diagonal or on it, compared exactly (scales, flips and quarter turns
     *  keep hinting; other rotations and skews turn it off). */
    INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_NOT_AXIS_ALIGNED = 1,
    /** Hint only while the transform's linear part is exactly the identity (a translation); the style's own
     *  matrix and oblique do not count. (Qt keeps hinting under a pure rotation too: inkhit_builder_add_qt_glyph_run
     *  applies Qt's rule exactly.) */
    INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_SCALED_OR_ROTATED = 2
};

/** How FreeType's size follows a matrix that scales the axes apart (inkhit_glyph_style.ppem), for a style
 *  that hints, emboldens or darkens stems. Since 1.2. */
enum {
    /** FT_Set_Char_Size(size, size), then the whole matrix after hinting (cairo). The default. */
    INKHIT_PPEM_UNIFORM = 0,
    /** FT_Set_Char_Size(size * sx, size * sy), sx = hypot(xx, yx) and sy = |det| / sx the matrix's axis
     *  scales, then matrix * diag(1/sx, 1/sy) after hinting: Skia's scaleX hints at an x ppem of
     *  scaleX * size. */
    INKHIT_PPEM_PER_AXIS = 1,
    /** Sizes in view px, as a renderer that rasterises on the device sets them (Skia): the glyph's whole
     *  linear map to view px (size * matrix, then the run transform's 2x2) is split into its axis scales
     *  (FT_Set_Char_Size, each rounded to single precision and truncated to 1/64 px as Skia does) and the
     *  rest (FT_Set_Transform); the outline is mapped back into the glyph's frame by the inverse of the
     *  transform's 2x2, so a STROKE embolden is applied in layout px (Skia strokes fake bold in user space).
     *  A 2x canvas hints at twice the size. View sizes must be 1/64 ... 16384 px per em when the glyph is
     *  hinted, emboldened or darkened (checked when it is added). Since 1.2. */
    INKHIT_PPEM_VIEW = 2
};

/** One axis of an origin rounding (inkhit_origin_rounding): v' = grid * floor((v + bias) / grid), view px;
 *  grid 0 (and bias 0) leaves the axis as it is. Since 1.2. */
typedef struct inkhit_origin_rounding_axis {
    /** The spacing of the positions a glyph may land on (finite, 0 ... 1024). */
    double grid;
    /** Added before flooring (finite, |bias| <= 1024): grid / 2 rounds to the nearest, ties up. */
    double bias;
} inkhit_origin_rounding_axis;

/** How a renderer snaps a glyph's origin in view (device) px: the origin is mapped by the run's transform,
 *  rounded axis by axis, and the glyph drawn from there with its shape unchanged. Glyph origins only, never
 *  decorations. The renderers' rules, {x grid, x bias}, {y grid, y bias}:
 *    cairo 1.16 image surfaces, Skia without subpixel positioning: {1, 0.5}, {1, 0.5};
 *    Skia with subpixel positioning, axis-aligned text: {0.25, 0.125}, {1, 0.5}; rotated or skewed: both
 *      {0.25, 0.125};
 *    Qt's raster engine: {0.25, 1.0 / 64}, {1, 0.5} ({1, 0} in x with full hinting; inkhit_builder_add_qt_glyph_run
 *      applies Qt's whole rule, the 1/64 px truncation before it included);
 *    GTK 4's GL renderer at scale s = 1 or 2: {1, 0.5 + 0.125 * s} on both axes (lround(v + 0.125 * s); the Pango
 *      adapter's INKHIT_PANGO_GSK_GL applies its rule at any scale).
 *  All zero (the default): origins as given. Since 1.2. */
typedef struct inkhit_origin_rounding {
    inkhit_origin_rounding_axis x, y;
} inkhit_origin_rounding;

/** How a renderer draws a glyph beyond its font's outline. Fill it with inkhit_glyph_style_init, then set
 *  what you need. The order is FreeType's, as cairo uses it: the outline is loaded at the glyph's size
 *  (hinted or not), transformed by the matrix, emboldened, then sheared by `oblique`.
 *  A style that neither hints nor emboldens is exact (its matrix and shear are part of the placement's
 *  transform); one that does is FreeType's outline at the glyph's size on a 1/64 px grid. */
typedef struct inkhit_glyph_style {
    /** sizeof(inkhit_glyph_style) as the caller's header declares it (inkhit_glyph_style_init sets it): a
     *  later library reads only the fields it covers. At least the size of this version's struct. */
    size_t struct_size;
    /** INKHIT_EMBOLDEN_*. Default none. */
    int32_t embolden;
    /** INKHIT_HINTING_*. Default none. */
    int32_t hinting;
    /** Strengths for INKHIT_EMBOLDEN_STRENGTH, layout px at the glyph's size (finite, at most one em in
     *  magnitude): the ink grows by embolden_x in width and embolden_y in height. */
    double embolden_x, embolden_y;
    /** A 2x2 matrix about the glyph's origin, in its y-up frame: x' = xx*x + xy*y, y' = yx*x + yy*y, as
     *  fontconfig's FcMatrix (FC_MATRIX) and FreeType's FT_Matrix write it; fontconfig's synthetic slant is
     *  xx 1, xy 0.2, yx 0, yy 1. Applied after hinting and before emboldening (FT_Set_Transform, entries as
     *  16.16 truncated toward zero, as cairo converts them), or exactly when the style neither hints nor
     *  emboldens. Finite, entries at most 1024 in magnitude, not singular. Default the identity. */
    double matrix_xx, matrix_xy, matrix_yx, matrix_yy;
    /** A shear x += oblique * y after emboldening, as FT_GlyphSlot_Oblique (0.2126) and cairo's
     *  CAIRO_FT_SYNTHESIZE_OBLIQUE apply it (|oblique| <= 4). Default 0. */
    double oblique;
    /** For bitmap glyphs (colour emoji strikes), the least alpha that is ink, as a fraction: 0 < t <= 1.
     *  Default 0.5. */
    double alpha_threshold;
    /** For INKHIT_EMBOLDEN_STROKE: the stroke's width, layout px at the glyph's size (finite, 0 ... one em).
     *  Default 0. Since 1.2 (the fields from here on are read when struct_size covers them). */
    double stroke_width;
    /** For INKHIT_EMBOLDEN_STROKE: INKHIT_JOIN_*. Default INKHIT_JOIN_MITER. Since 1.2. */
    int32_t stroke_join;
    /** INKHIT_HINTING_UNDER_TRANSFORM_*. Default KEEP. Since 1.2. */
    int32_t hinting_under_transform;
    /** For INKHIT_JOIN_MITER: the miter limit (0 ... 1000; <= 1 bevels every corner). Default 4. Since 1.2. */
    double miter_limit;
    /** How the glyph's origin is snapped in view px. Default all zero: not at all. Since 1.2. */
    inkhit_origin_rounding origin_rounding;
    /** INKHIT_PPEM_*. Default UNIFORM. Since 1.2. */
    int32_t ppem;
    /** 1: CFF stem darkening for this glyph (FreeType's FT_PARAM_TAG_STEM_DARKENING on the face for its load,
     *  never process-wide): the CFF engine darkens hinted and unhinted loads alike, as Qt draws CFF fonts.
     *  Fonts with PostScript outlines only (CFF, CFF2, Type 1, CID); others ignore it (the auto-hinter's
     *  darkening is not used, as in Qt). 0 (the default): off, FreeType's default. Since 1.2. */
    int32_t stem_darkening;
} inkhit_glyph_style;

/** Fills the fields of version 1.1 of `*style` with the defaults and sets `struct_size` to that version's
 *  size, so the fields after alpha_threshold are not read: what a program built against 1.1 calls. Programs
 *  built against this header call it through the macro below, which fills every field.
 *  Owns: `*style` is the caller's, written. Threads: any. Errors: NULL_ARGUMENT. */
inkhit_status inkhit_glyph_style_init(inkhit_glyph_style *style);

/** Fills `*style` with the defaults, `size` bytes of it: `size` is sizeof(inkhit_glyph_style) as the caller
 *  was compiled (the size of version 1.1, or this header's). Sets `struct_size` to `size`. Since 1.2.
 *  Owns: `*style` is the caller's, written. Threads: any. Errors: NULL_ARGUMENT; INVALID_ARGUMENT (a size
 *  this library does not know). */
inkhit_status inkhit_glyph_style_init_sized(inkhit_glyph_style *style, size_t size);

/** Fills every field this header knows. */
#define inkhit_glyph_style_init(style) inkhit_glyph_style_init_sized((style), sizeof(inkhit_glyph_style))

/** The stroke width of Skia's fake bold at a text size of `text_size` px (an SkFont's size, finite, > 0):
 *  text_size * r, r = 1/24 up to 9 px, 1/32 from 36 px, linear between (SkScalerContext's
 *  kStdFakeBoldInterp). Multiply by the layout px per SkFont px (a canvas scale given in `size`) and use it
 *  with INKHIT_EMBOLDEN_STROKE, INKHIT_JOIN_MITER and miter_limit 4. Owns: `*width_out` is written.
 *  Threads: any. Errors: NULL_ARGUMENT, INVALID_ARGUMENT (a size that is not finite and > 0). Since 1.2. */
inkhit_status inkhit_skia_fake_bold_width(double text_size, double *width_out);

/** SkFontHinting's values (inkhit_skia_font.hinting). Since 1.2. */
enum {
    INKHIT_SKIA_HINTING_NONE = 0,
    INKHIT_SKIA_HINTING_SLIGHT = 1,
    INKHIT_SKIA_HINTING_NORMAL = 2,
    INKHIT_SKIA_HINTING_FULL = 3
};

/** SkFont::Edging's values (inkhit_skia_font.edging). Since 1.2. */
enum {
    INKHIT_SKIA_EDGING_ALIAS = 0,
    INKHIT_SKIA_EDGING_ANTI_ALIAS = 1,
    /** LCD coverage where the surface's pixel geometry allows it; InkHit models it as ANTI_ALIAS, which is
     *  what Skia draws on A8 surfaces and surfaces without a pixel geometry. */
    INKHIT_SKIA_EDGING_SUBPIXEL_ANTI_ALIAS = 2
};

/** What an SkFont says about how Skia draws its glyphs (inkhit_glyph_style_for_skia): each field is the
 *  SkFont getter of the same name, cast (`(int32_t)font.getHinting()`, `font.isSubpixel()`). Fill it with
 *  inkhit_skia_font_init (SkFont's defaults), then copy the getters. isLinearMetrics changes advances only
 *  (positions are given); embedded bitmaps (isEmbeddedBitmaps, off by default) are not modelled. The
 *  typeface is the run's font (its file, face and variation position: inkhit_font_with_variations).
 *  The struct grows at its end: `struct_size`. Since 1.2. */
typedef struct inkhit_skia_font {
    /** sizeof(inkhit_skia_font) as the caller's header declares it (inkhit_skia_font_init sets it). */
    size_t struct_size;
    /** getSize(): px per em in the canvas's local space (finite, > 0, <= 16384). Default 12. */
    double size;
    /** getScaleX() (finite, not 0, |scale_x| <= 1024). Default 1. */
    double scale_x;
    /** getSkewX(): x += skew_x * y, y down (finite, |skew_x| <= 1024; negative leans right). Default 0. */
    double skew_x;
    /** (int32_t)getHinting(): INKHIT_SKIA_HINTING_*. Default NORMAL. */
    int32_t hinting;
    /** (int32_t)getEdging(): INKHIT_SKIA_EDGING_*. Default ANTI_ALIAS. */
    int32_t edging;
    /** isEmbolden(): 0 or 1. Default 0. */
    int32_t embolden;
    /** isSubpixel(): 0 or 1. Default 0. */
    int32_t subpixel;
    /** isBaselineSnap(): 0 or 1. Default 1. */
    int32_t baseline_snap;
    /** isForceAutoHinting(): 0 (1, FT_LOAD_FORCE_AUTOHINT, is not modelled: INVALID_ARGUMENT). Default 0. */
    int32_t force_auto_hinting;
} inkhit_skia_font;

/** Fills `*font` with SkFont's defaults, `size` bytes of it (sizeof(inkhit_skia_font) as the caller was
 *  compiled; call it through the macro below). Owns: `*font` is the caller's, written. Threads: any.
 *  Errors: NULL_ARGUMENT; INVALID_ARGUMENT (a size this library does not know). Since 1.2. */
inkhit_status inkhit_skia_font_init_sized(inkhit_skia_font *font, size_t size);

/** Fills every field this header knows. */
#define inkhit_skia_font_init(font) inkhit_skia_font_init_sized((font), sizeof(inkhit_skia_font))

/** The glyph style Skia draws glyphs of `*font` with on a canvas whose total matrix (SkCanvas::getTotalMatrix,
 *  local -> device px, no perspective) is `*transform`, written to `*style_out` (filled first with
 *  inkhit_glyph_style_init). Add the glyphs with inkhit_builder_add_run: run.size = font->size, run.transform =
 *  *transform, run.style = style_out, each glyph at the canvas-local position given to
 *  SkTextBlobBuilder::allocRunPos (plus the blob's x, y in run.origin). Skia's rules:
 *    - matrix (scale_x, -skew_x, 0, 1), ppem INKHIT_PPEM_VIEW (FreeType's sizes on the device);
 *    - hinting: NONE unless the text is axis-aligned on the device (skew_x 0; the canvas only scales, flips or
 *      turns by quarter turns); SLIGHT -> LIGHT, NORMAL and FULL -> FULL; with ALIAS edging any but NONE ->
 *      MONO; hinting_under_transform OFF_WHEN_NOT_AXIS_ALIGNED;
 *    - embolden: STROKE, size * r wide (inkhit_skia_fake_bold_width), JOIN_MITER, miter_limit 4;
 *    - origin_rounding (device px): {1, 0.5} on both axes; with subpixel {0.25, 0.125} along x while the
 *      text's x axis stays horizontal on the device (transform->b == 0), along y while it is vertical
 *      (transform->a == 0), on both axes otherwise or when baseline_snap is 0; the other axis {1, 0.5};
 *    - glyphs over 256 device px per em along a text axis are drawn as paths (SkStrikeSpec::ShouldDrawAsPath):
 *      hinting NONE, no origin rounding, ppem PER_AXIS, a stroke size / 32 wide.
 *  Owns: `*font` and `*transform` are only read; `*style_out` is the caller's, written (its struct_size
 *  kept). Threads: any. Errors: NULL_ARGUMENT; INVALID_ARGUMENT (struct sizes, a value out of its range or
 *  not an enum value, force_auto_hinting 1, a transform that is not finite and invertible, a style_out
 *  smaller than version 1.2's). Since 1.2. */
inkhit_status inkhit_glyph_style_for_skia(const inkhit_skia_font *font, const inkhit_transform *transform,
                                          inkhit_glyph_style *style_out);

/** Sets the calling thread's message (what inkhit_last_error() returns) to `message` (UTF-8,
 *  NUL-terminated; NULL: "") and returns `status`: for libraries built on this interface (the Pango adapter),
 *  so that their failures read like InkHit's own ("inkhit_pango_add_layout: layout is NULL"). Cut as
 *  inkhit_last_error() says (INKHIT_MAX_ERROR_LENGTH bytes).
 *  Owns: `message` is copied. Threads: any (each thread has its own message). Errors: never fails (returns
 *  `status`). */
inkhit_status inkhit_report_error(inkhit_status status, const char *message);

/** Glyph ids that stand for no glyph: added as placements without ink (never hit; their number and tag
 *  kept), never an error, in every call that adds glyphs. PANGO_GLYPH_EMPTY (a line-end space) is
 *  INKHIT_GLYPH_EMPTY; ids with INKHIT_GLYPH_UNKNOWN_FLAG set are Pango's unknown-glyph (hex box) ids,
 *  PANGO_GLYPH_INVALID_INPUT (0xFFFFFFFF) among them. (Pango's adapter draws the hex boxes' ink itself.) */
#define INKHIT_GLYPH_EMPTY 0x0FFFFFFFu
#define INKHIT_GLYPH_UNKNOWN_FLAG 0x10000000u
/** 1 when glyph id `g` is a marker (see INKHIT_GLYPH_EMPTY), else 0. */
#define INKHIT_GLYPH_IS_MARKER(g) ((uint32_t)(g) == INKHIT_GLYPH_EMPTY || ((uint32_t)(g) & INKHIT_GLYPH_UNKNOWN_FLAG) != 0)

/** Glyphs of one font, size, transform and style: what inkhit_builder_add_run and inkhit_builder_add_shaped
 *  share. Fill it with inkhit_glyph_run_init, then set what you need. */
typedef struct inkhit_glyph_run {
    /** sizeof(inkhit_glyph_run) as the caller's header declares it (inkhit_glyph_run_init sets it). */
    size_t struct_size;
    /** The font (required). */
    inkhit_font font;
    /** px per em, layout px (finite, > 0). Default 16. */
    double size;
    /** Where the run starts on its baseline, layout px: the pen's start for inkhit_builder_add_shaped, the
     *  point glyph positions are relative to for inkhit_builder_add_run. Default (0, 0). */
    inkhit_point origin;
    /** Layout px -> view px (finite, invertible). Default identity. */
    inkhit_transform transform;
    /** How the glyphs are drawn; NULL: plain. Read during the call only. Default NULL. */
    const inkhit_glyph_style *style;
    /** inkhit_builder_add_shaped: layout px per HarfBuzz position unit (finite, > 0). Default 1. */
    double position_scale;
    /** inkhit_builder_add_shaped: added to each glyph's cluster to make its tag (a text's offset of the
     *  run). Default 0. */
    uint64_t tag_base;
} inkhit_glyph_run;

/** Fills `*run` with the defaults (no font: set `font`). Owns: `*run` is the caller's, written.
 *  Threads: any. Errors: NULL_ARGUMENT. */
inkhit_status inkhit_glyph_run_init(inkhit_glyph_run *run);

/** One glyph of a run placed by the caller. */
typedef struct inkhit_run_glyph {
    /** The glyph id in the run's font, or a marker (INKHIT_GLYPH_EMPTY, INKHIT_GLYPH_UNKNOWN_FLAG). */
    uint32_t glyph;
    /** 0 (reserved for flags). */
    uint32_t reserved;
    /** The glyph's origin on the baseline, layout px, relative to the run's origin. */
    double x, y;
    /** The caller's value for this placement (inkhit_index_placement_tag). */
    uint64_t tag;
} inkhit_run_glyph;

/** Adds glyphs[0 ..< count] in order, each as a placement of the run's font, size, transform and style at
 *  run->origin + (x, y), with its tag. Markers are added without ink. Stops at the first glyph that fails
 *  (the message names it: "glyphs[12]: ..."); writes how many were added to `*added_out` unless NULL.
 *  Owns: `run`, `glyphs` and the style are only read; the builder keeps what it needs.
 *  Threads: any; the batch runs under the builder's lock.
 *  Errors: NULL_ARGUMENT (builder, run, run->font; glyphs with count > 0); INVALID_HANDLE (builder, cache,
 *  font); INVALID_ARGUMENT (struct_size too small, NaN or infinite numbers, size <= 0, a nonzero reserved
 *  field, a style out of its ranges); GLYPH (an id out of the font's range); FONT; SHAPE; PLACEMENT; LIMIT. */
inkhit_status inkhit_builder_add_run(inkhit_builder builder, inkhit_shape_cache cache, const inkhit_glyph_run *run,
                                     const inkhit_run_glyph *glyphs, size_t count, size_t *added_out);

/** HarfBuzz's hb_glyph_info_t, field for field: pass hb_buffer_get_glyph_infos()'s array, cast. */
typedef struct inkhit_hb_glyph_info {
    /** After hb_shape: the glyph id. */
    uint32_t codepoint;
    uint32_t mask;
    /** The cluster: the tag of the glyph's placement is run->tag_base + cluster. */
    uint32_t cluster;
    uint32_t var1, var2;
} inkhit_hb_glyph_info;

/** HarfBuzz's hb_glyph_position_t, field for field: pass hb_buffer_get_glyph_positions()'s array, cast.
 *  Units of the hb_font_t's scale; y up. */
typedef struct inkhit_hb_glyph_position {
    int32_t x_advance, y_advance, x_offset, y_offset;
    uint32_t var;
} inkhit_hb_glyph_position;

/** Adds a shaped run as hb_shape() leaves it: for each glyph i in order, with k = run->position_scale and
 *  a pen (px, py) starting at 0, a placement at layout (origin.x + (px + x_offset) * k,
 *  origin.y - (py + y_offset) * k), tagged run->tag_base + cluster; then px += x_advance, py += y_advance
 *  (the pen sums whole position units, so a long run does not drift). `positions` may be NULL: every
 *  glyph at the run's origin. Markers are added without ink. Writes how many were added to `*added_out`
 *  and, on success, the pen after the run (layout px, origin.x + px * k, origin.y - py * k) to `*pen_out`
 *  (each unless NULL). Stops at the first glyph that fails ("glyphs[12]: ...").
 *  Owns: the arrays, `run` and the style are only read. Threads: any; the batch runs under the builder's
 *  lock. Errors: as inkhit_builder_add_run (position_scale not finite and > 0 is INVALID_ARGUMENT). */
inkhit_status inkhit_builder_add_shaped(inkhit_builder builder, inkhit_shape_cache cache, const inkhit_glyph_run *run,
                                        const inkhit_hb_glyph_info *infos, const inkhit_hb_glyph_position *positions,
                                        size_t count, inkhit_point *pen_out, size_t *added_out);

/** As inkhit_builder_add_run, and writes the first placement's number to `*first_out` (unless NULL), as
 *  inkhit_builder_add_glyphs_numbered says: its placements are *first_out ..< *first_out + *added_out.
 *  Owns: as inkhit_builder_add_run. Threads: any; the batch runs under the builder's lock.
 *  Errors: as inkhit_builder_add_run. Since 1.2. */
inkhit_status inkhit_builder_add_run_numbered(inkhit_builder builder, inkhit_shape_cache cache,
                                              const inkhit_glyph_run *run, const inkhit_run_glyph *glyphs, size_t count,
                                              size_t *first_out, size_t *added_out);

/** As inkhit_builder_add_shaped, and writes the first placement's number to `*first_out` (unless NULL), as
 *  inkhit_builder_add_glyphs_numbered says. Owns: as inkhit_builder_add_shaped. Threads: any; the batch runs
 *  under the builder's lock. Errors: as inkhit_builder_add_shaped. Since 1.2. */
inkhit_status inkhit_builder_add_shaped_numbered(inkhit_builder builder, inkhit_shape_cache cache,
                                                 const inkhit_glyph_run *run, const inkhit_hb_glyph_info *infos,
                                                 const inkhit_hb_glyph_position *positions, size_t count,
                                                 inkhit_point *pen_out, size_t *first_out, size_t *added_out);

/* ------------------------------------------------------------------------------------------------ */
/* Qt's raster engine (since 1.3)                                                                    */
/* ------------------------------------------------------------------------------------------------ */

/** Where Qt fits. QPainter's raster engine (a QImage, a widget's backing store) draws a QGlyphRun (of
 *  QPainter::drawGlyphRun, or one of QTextLayout::glyphRuns() as QTextLayout::draw draws it) with Qt's own
 *  rules: which glyphs come from its glyph cache and which are filled as paths, where a cached glyph's
 *  origin lands, when hinting is off, when bold and italic are synthesized and in which order with the
 *  painter's transform, CFF stem darkening. An adapter reads the run's QRawFont into an
 *  inkhit_qt_raw_font and calls inkhit_builder_add_qt_glyph_run with the painter's transform; the rules
 *  live in the library (InkFreeType's QtRawFont documents each, with the Qt source it was read from).
 *  C++ programs use adapters/qt/inkhit_qt.hpp, which does the reading; Python, inkhit.qt. */

/** QFont::Style (inkhit_qt_raw_font.style). Since 1.3. */
enum {
    INKHIT_QT_STYLE_NORMAL = 0,
    INKHIT_QT_STYLE_ITALIC = 1,
    INKHIT_QT_STYLE_OBLIQUE = 2
};

/** inkhit_qt_raw_font.flags. Since 1.3. */
enum {
    /** The painter has QPainter::VerticalSubpixelPositioning set. */
    INKHIT_QT_VERTICAL_SUBPIXEL_POSITIONING = 1u << 0,
    /** probe_glyph and probe_bounds are set: check them against the font (see probe_bounds). */
    INKHIT_QT_PROBE = 1u << 1,
    /** The run is one of QTextLayout::glyphRuns() drawn by QTextLayout::draw (or QTextLine::draw) at the
     *  `origin` of inkhit_builder_add_qt_glyph_run: Qt truncates that position to 1/64 px toward zero before
     *  it adds the runs' positions (QPainter::drawGlyphRun adds its position as it is). */
    INKHIT_QT_LAYOUT_DRAW = 1u << 2
};

/** What Qt's FreeType font engine knows of a font it draws a glyph run with (a QGlyphRun's QRawFont). Fill
 *  it with inkhit_qt_raw_font_init, then set what you read. Since 1.3. */
typedef struct inkhit_qt_raw_font {
    /** sizeof(inkhit_qt_raw_font) as the caller's header declares it (inkhit_qt_raw_font_init sets it). */
    size_t struct_size;
    /** QRawFont::pixelSize(): px per em in the painter's user space (finite, > 0, at most 16384). */
    double pixel_size;
    /** The font engine's hint style, INKHIT_HINTING_*: NONE for HintNone, LIGHT for HintLight, FULL for
     *  HintMedium and HintFull. QRawFont::hintingPreference() when it names one; the raw fonts of a
     *  QTextLayout's glyph runs say PreferDefaultHinting whatever their QFont asked (inkhit_qt.hpp finds the
     *  engine's style out; inkhit_qt_hinting maps a preference as Qt's fontconfig database does). Default
     *  NONE. */
    int32_t hinting;
    /** QRawFont::weight() (QFont::Weight, 1 ... 1000): the requested weight. Default 400. */
    int32_t weight;
    /** QRawFont::style(): INKHIT_QT_STYLE_*. Default NORMAL. */
    int32_t style;
    /** The stretch Qt synthesizes, percent (1 ... 4000; 100: none): a QFont's stretch when no face of that
     *  width matched. A QRawFont does not say it: 0 (the default) infers it from the probe (Qt's box is that
     *  much wider than the font's), 100 without one. */
    int32_t stretch;
    /** The Qt version whose rules apply, as QT_VERSION writes it (0x060402 for 6.4.2; qVersion() at run
     *  time is the one that draws). 0 (the default): the newest rules this library knows. */
    uint32_t qt_version;
    /** INKHIT_QT_* flags. Default 0. */
    uint32_t flags;
    /** With INKHIT_QT_PROBE: a glyph of the run and QRawFont::pathForGlyph(glyph).boundingRect() (px at
     *  pixel_size, y-down, origin (0, 0); min_x = left, min_y = top), the exact box of Qt's outline with its
     *  synthetic bold, oblique and stretch. The library makes the same box from the font with Qt's rules and refuses the font
     *  (FONT) when an edge is more than 1/32 px + 0.2 % of pixel_size away: another file, design coordinates
     *  (a variable font's instance), weight or synthesis than Qt drew. */
    uint32_t probe_glyph;
    inkhit_rect probe_bounds;
    /** QRawFont::fontTable("head"), `head_length` bytes, checked against the font's own head table (equal
     *  tables: the same file); NULL (the default): not checked. */
    const uint8_t *head;
    size_t head_length;
} inkhit_qt_raw_font;

/** Fills `*font` with the defaults (pixel_size 16), `size` bytes of it: sizeof(inkhit_qt_raw_font) as the
 *  caller was compiled. Sets struct_size to `size`. Programs call it through the macro below.
 *  Owns: `*font` is the caller's, written. Threads: any. Errors: NULL_ARGUMENT; INVALID_ARGUMENT (a size
 *  this library does not know). Since 1.3. */
inkhit_status inkhit_qt_raw_font_init_sized(inkhit_qt_raw_font *font, size_t size);

/** Fills every field this header knows. */
#define inkhit_qt_raw_font_init(font) inkhit_qt_raw_font_init_sized((font), sizeof(inkhit_qt_raw_font))

/** The hint style Qt's fontconfig database gives a font engine (QFontconfigDatabase's
 *  defaultHintStyleFromMatch), written to `*hinting_out` as INKHIT_HINTING_*: `preference` is a
 *  QFont::HintingPreference (0 default, 1 none -> NONE, 2 vertical -> LIGHT, 3 full -> FULL); for the
 *  default, NONE when `high_dpi` is 1 (QHighDpiScaling active), else fontconfig's FC_HINT_STYLE for the font
 *  (`fontconfig_hint_style`: 0 none -> NONE, 1 slight -> LIGHT, 2 medium and 3 full -> FULL; -1: fontconfig
 *  has none -> FULL).
 *  Owns: `*hinting_out` is written. Threads: any. Errors: NULL_ARGUMENT; INVALID_ARGUMENT (a value out of
 *  those ranges; high_dpi not 0 or 1). Since 1.3. */
inkhit_status inkhit_qt_hinting(int32_t preference, int32_t fontconfig_hint_style, int32_t high_dpi, int32_t *hinting_out);

/** Writes the glyph style Qt's rules give glyphs of `font` drawn as `qt` says through a painter whose
 *  transform (user space -> device px) is `*transform` (NULL: the identity) to `*style_out` (its struct_size
 *  says how much: fill it with inkhit_glyph_style_init first), and to `*cached_out` (unless NULL) 1 when
 *  Qt draws them from its glyph cache (device size <= 64 px: the style then carries the
 *  transform's linear part in its matrix and Qt's origin rounding, for placements at device origins with
 *  an identity transform) or 0 when it fills them as paths (placed through the transform). For inspection:
 *  inkhit_builder_add_qt_glyph_run places glyphs with it.
 *  Owns: `*style_out` and `*cached_out` are written. Threads: any.
 *  Errors: NULL_ARGUMENT (font, qt, style_out); INVALID_HANDLE; INVALID_ARGUMENT (struct sizes, values out of
 *  range, a transform that is not finite); PLACEMENT (a singular transform); FONT (the font is not the face
 *  Qt drew: another head table, or the probe's box differs). Since 1.3. */
inkhit_status inkhit_qt_glyph_style(inkhit_font font, const inkhit_qt_raw_font *qt, const inkhit_transform *transform,
                                    inkhit_glyph_style *style_out, int32_t *cached_out);

/** Adds glyphs[0 ..< count] of a Qt glyph run in order, as Qt's raster engine draws them: glyph `glyph` of
 *  `font` (the face Qt drew from; the head table and probe in `*qt`, when given, are checked) at user
 *  space `origin + (x, y)` — a QGlyphRun's positions and the point given to QPainter::drawGlyphRun (0, 0 for
 *  QTextLayout::draw's runs placed by the transform) — through the painter's transform `*transform` (NULL:
 *  the identity), with the run's tags. Each cached glyph is placed at its device origin truncated to 1/64 px
 *  and rounded as Qt rounds it (inkhit_qt_glyph_style's style); each path at its exact position. Markers are
 *  added without ink. Stops at the first glyph that fails ("glyphs[12]: ..."); writes how many were added
 *  to `*added_out` and the first placement's number to `*first_out` (each unless NULL), as
 *  inkhit_builder_add_glyphs_numbered says. Query in device px.
 *  Owns: `qt`, `glyphs` are only read. Threads: any; the batch runs under the builder's lock.
 *  Errors: as inkhit_qt_glyph_style and inkhit_builder_add_run; NULL_ARGUMENT also for glyphs == NULL with
 *  count > 0. Since 1.3. */
inkhit_status inkhit_builder_add_qt_glyph_run(inkhit_builder builder, inkhit_shape_cache cache, inkhit_font font,
                                              const inkhit_qt_raw_font *qt, const inkhit_transform *transform,
                                              inkhit_point origin, const inkhit_run_glyph *glyphs, size_t count,
                                              size_t *first_out, size_t *added_out);

/** Sets the tag of placement `placement` (0 ..< inkhit_builder_count) to `tag`. Placements start with tag
 *  0, or the tag their call gave; an index keeps the tags its placements had when it was built.
 *  Owns: nothing. Threads: any (calls on one builder run one at a time).
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (no such placement). */
inkhit_status inkhit_builder_set_tag(inkhit_builder builder, size_t placement, uint64_t tag);

/** The tag of placement `placement` (a hit's placement) in `*tag_out`: the caller's value given when it was
 *  added (inkhit_builder_add_run, inkhit_builder_add_shaped: its cluster) or set (inkhit_builder_set_tag),
 *  else 0. Allocates nothing.
 *  Owns: `*tag_out` is written (0 on error). Threads: any, any number at once on one index.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (placement out of 0 ..< placements: a miss's -1
 *  too). */
inkhit_status inkhit_index_placement_tag(inkhit_index index, int64_t placement, uint64_t *tag_out);

/** What a placement's ink is made of (inkhit_index_placement_ink). */
enum {
    /** No ink: a space, a marker glyph id. Never hit. */
    INKHIT_INK_NONE = 0,
    /** A glyph's own outline. */
    INKHIT_INK_OUTLINE = 1,
    /** COLR version 0 layers (their union). */
    INKHIT_INK_COLOR_LAYERS = 2,
    /** A COLR version 1 paint graph (the union of its glyphs). */
    INKHIT_INK_COLOR_PAINT = 3,
    /** A bitmap strike (CBDT, sbix, EBDT): its pixels whose alpha reaches the threshold. */
    INKHIT_INK_BITMAP = 4,
    /** An SVG glyph without an outline: its box. */
    INKHIT_INK_BOX = 5,
    /** An outline of the caller's own (inkhit_builder_add_outline). */
    INKHIT_INK_PATH = 6
};

/** What placement `placement`'s ink is made of (INKHIT_INK_*) in `*ink_out`: for a hit, which kind of ink
 *  it landed on. Allocates nothing.
 *  Owns: `*ink_out` is written (INKHIT_INK_NONE on error). Threads: any, any number at once on one index.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (placement out of range). */
inkhit_status inkhit_index_placement_ink(inkhit_index index, int64_t placement, int32_t *ink_out);

/* ================================================================================================ */
/* Text layout                                                                                       */
/* ================================================================================================ */

/** Offsets: links, attachments and caret offsets given to a layout are in the units of its text — bytes
 *  for a layout made from UTF-8, UTF-16 code units for one made from UTF-16 — and must fall on character
 *  (scalar) boundaries. Answers give both UTF-16 and UTF-8 offsets. */

/** A link over text[start ..< end] (half-open, non-empty). Hits name it by its index in the array given. */
typedef struct inkhit_text_link {
    uint64_t start;
    uint64_t end;
} inkhit_text_link;

/** An inline object (image, formula) standing on a U+FFFC placeholder at offset `at`: `width` wide,
 *  `ascent` above and `descent` below the baseline, corners rounded by `corner_radius` (all layout px,
 *  finite; width >= 0, ascent + descent >= 0, corner_radius >= 0). Hit as its box, on top of the text. */
typedef struct inkhit_text_attachment {
    uint64_t at;
    double width;
    double ascent;
    double descent;
    double corner_radius;
} inkhit_text_attachment;

enum {
    /** Where each line sits within `width`. */
    INKHIT_ALIGN_LEFT = 0,
    INKHIT_ALIGN_CENTER = 1,
    INKHIT_ALIGN_RIGHT = 2
};

enum {
    /** A paragraph's base direction: from its first strong character (left to right when none). */
    INKHIT_DIRECTION_AUTO = 0,
    INKHIT_DIRECTION_LEFT_TO_RIGHT = 1,
    INKHIT_DIRECTION_RIGHT_TO_LEFT = 2
};

/** How a run is underlined (inkhit_text_run.underline). */
enum {
    INKHIT_UNDERLINE_NONE = 0,
    INKHIT_UNDERLINE_SINGLE = 1,
    /** Two strokes of the same thickness, the second one's top two thicknesses below the first one's. */
    INKHIT_UNDERLINE_DOUBLE = 2
};

/** Which members of an inkhit_text_run it sets (bits of `set`); the others keep the paragraph's (or an
 *  earlier run's) value. */
enum {
    INKHIT_RUN_FONTS = 1 << 0,
    INKHIT_RUN_SIZE = 1 << 1,
    INKHIT_RUN_UNDERLINE = 1 << 2,
    INKHIT_RUN_STRIKETHROUGH = 1 << 3,
    INKHIT_RUN_OVERLINE = 1 << 4,
    INKHIT_RUN_BASELINE_SHIFT = 1 << 5,
    INKHIT_RUN_LETTER_SPACING = 1 << 6
};

/** A styled run over text[start ..< end] (half-open, non-empty, offsets in the text's units). Runs may
 *  overlap: for each member the last run in the array that sets it wins. Shaping breaks at a run's edges
 *  only where the font that draws a character or the size changes. Since 1.1. */
typedef struct inkhit_text_run {
    uint64_t start;
    uint64_t end;
    /** INKHIT_RUN_* bits: the members below that the run sets. */
    uint32_t set;
    /** INKHIT_UNDERLINE_*. */
    int32_t underline;
    /** The font fallback chain: indexes into options.fonts (1 to 4096 of them). */
    const uint32_t *fonts;
    size_t font_count;
    /** px per em, layout px (finite, > 0, at most 1e6). */
    double size;
    /** 1 for a strikethrough (overline) stroke, 0 for none. */
    int32_t strikethrough;
    int32_t overline;
    /** Moves the run's baseline up, layout px (finite, at most 1e6 in magnitude; CoreText's baseline
     *  offset). */
    double baseline_shift;
    /** Layout px after each grapheme (CSS letter-spacing; finite, at most 1e6 in magnitude). */
    double letter_spacing;
} inkhit_text_run;

/** Exclusion shapes (inkhit_exclusion.kind). */
enum {
    /** The rectangle `rect`. */
    INKHIT_EXCLUSION_RECT = 0,
    /** The ellipse inscribed in `rect`. */
    INKHIT_EXCLUSION_ELLIPSE = 1,
    /** SVG path data (`path`, `path_length` bytes of UTF-8), filled nonzero. */
    INKHIT_EXCLUSION_PATH = 2
};

/** A shape, layout px (the space of options.origin, not relative to it), that lines flow around: no
 *  glyph's ink box and no attachment overlaps it; lines split into fragments left and right of it
 *  (TextKit's exclusion paths). Since 1.1. */
typedef struct inkhit_exclusion {
    /** INKHIT_EXCLUSION_*. */
    int32_t kind;
    /** RECT and ELLIPSE: finite, min <= max, within +-INKHIT_VIEW_LIMIT px. */
    inkhit_rect rect;
    /** PATH: SVG path data (M L H V C S Q T Z, absolute or relative; no arcs), not NUL-terminated. */
    const char *path;
    size_t path_length;
} inkhit_exclusion;

/** How a layout is made. Fill it with inkhit_layout_options_init, then set what you need.
 *
 *  The struct grows: `struct_size` (which fits in the padding that ended the struct of version 1.0, so
 *  the fields before it keep their offsets) says which fields the caller knows. inkhit_layout_options_init
 *  (a macro for inkhit_layout_options_init_sized with the struct's size as this header defines it) sets it.
 *  The library reads the struct as the version its struct_size names: version 1.0's fields for 1.0's size,
 *  every field for this header's; any other value (0, a struct filled by hand; a newer header's size with
 *  fields set that this library does not know) is refused with INKHIT_ERROR_INVALID_ARGUMENT, never laid out
 *  as 1.0 with runs and exclusions dropped. A
 *  program built against 1.0 calls the function inkhit_layout_options_init, which writes 1.0's size there
 *  (since 1.2; 1.1 wrote 0), so the fields after it stay unread. */
typedef struct inkhit_layout_options {
    /** Fonts in fallback order (at least one): each character takes the first font that has it. */
    const inkhit_font *fonts;
    size_t font_count;
    /** px per em, layout px (finite, > 0). Default 16. */
    double size;
    /** Wrap width, layout px (finite, > 0); 0: no wrapping, only newlines break lines. Default 0. */
    double width;
    /** Top-left of the text box, layout px. Default (0, 0). */
    inkhit_point origin;
    /** Layout px -> view px, the space of query points and radii (finite, invertible). Default identity. */
    inkhit_transform transform;
    /** Flattening tolerance, view px; 0: the default 0.01. */
    double tolerance;
    /** Links (NULL when link_count is 0). */
    const inkhit_text_link *links;
    size_t link_count;
    /** Attachments (NULL when attachment_count is 0). */
    const inkhit_text_attachment *attachments;
    size_t attachment_count;
    /** Where glyph shapes come from; NULL: the process-wide cache. */
    inkhit_shape_cache cache;
    /** Most lines; the last kept line ends in "..." when text was cut. 0: no limit. Default 0. */
    uint32_t max_lines;
    /** INKHIT_ALIGN_*. Default left. */
    int32_t alignment;
    /** INKHIT_DIRECTION_*. Default auto. */
    int32_t direction;
    /** Since 1.1: sizeof(inkhit_layout_options) as the caller was compiled (set by the init functions). */
    uint32_t struct_size;
    /** Styled runs (NULL when run_count is 0). Since 1.1. */
    const inkhit_text_run *runs;
    size_t run_count;
    /** Shapes the lines flow around (NULL when exclusion_count is 0). Since 1.1. */
    const inkhit_exclusion *exclusions;
    size_t exclusion_count;
    /** A multiple of the natural line height (finite, > 0, at most 1000); 0: 1. Default 0. Since 1.1. */
    double line_height;
    /** Layout px after each paragraph but the last (finite, >= 0, at most 1e6). Default 0. Since 1.1. */
    double paragraph_spacing;
    /** Layout px the first line of each paragraph is indented by at its start edge (finite, at most 1e6 in
     *  magnitude). Default 0. Since 1.1. */
    double first_line_indent;
} inkhit_layout_options;

/** Fills the fields of version 1.0 of `*options` with the defaults (no fonts: set `fonts` and
 *  `font_count`) and sets `struct_size` to the size of version 1.0's struct (since 1.2; 1.1 set 0), so the
 *  fields after it are not read: what a program built against 1.0 calls. Programs built against this header
 *  call it through the macro below, which fills every field. Owns: `*options` is the caller's, written.
 *  Threads: any. Errors: NULL_ARGUMENT. */
inkhit_status inkhit_layout_options_init(inkhit_layout_options *options);

/** Fills `*options` with the defaults, `size` bytes of it: `size` is sizeof(inkhit_layout_options) as the
 *  caller was compiled (the size of version 1.0, or this header's). Sets `struct_size` to `size`. Since 1.1.
 *  Owns: `*options` is the caller's, written. Threads: any. Errors: NULL_ARGUMENT; INVALID_ARGUMENT (a
 *  size this library does not know). */
inkhit_status inkhit_layout_options_init_sized(inkhit_layout_options *options, size_t size);

/** Fills every field this header knows. */
#define inkhit_layout_options_init(options) inkhit_layout_options_init_sized((options), sizeof(inkhit_layout_options))

/** Lays out `length` bytes of UTF-8 text (NUL bytes are characters, not an end): HarfBuzz shaping with
 *  font fallback, bidi, wrapping at `width` around the exclusions, truncation at `max_lines`, styled runs,
 *  links and attachments (offsets in bytes). Owns: `*out` is a new handle the caller releases; the text and the options' arrays are copied
 *  during the call; the layout keeps its fonts and cache alive. Threads: any.
 *  Errors: NULL_ARGUMENT (text with length > 0, options, out, a NULL font or array with a count > 0);
 *  INVALID_HANDLE (a font, the cache); INVALID_TEXT (not UTF-8, an offset inside a character);
 *  INVALID_ARGUMENT (a struct_size this library does not know, no fonts, size, width, origin, transform,
 *  tolerance, line height, paragraph spacing or indent out of range, unknown alignment, direction, underline
 *  or exclusion kind); LAYOUT (a link,
 *  attachment or run out of range, not on U+FFFC, a run naming an unknown font, a bad exclusion); GLYPH, FONT,
 *  SHAPE, PLACEMENT (a glyph that cannot be placed: the message names it); LIMIT. */
inkhit_status inkhit_layout_create_utf8(const char *text, size_t length, const inkhit_layout_options *options,
                                        inkhit_layout *out);

/** As inkhit_layout_create_utf8, for `length` UTF-16 code units (native byte order; offsets in code
 *  units, NSRange-compatible). Owns: as inkhit_layout_create_utf8. Threads: any.
 *  Errors: as inkhit_layout_create_utf8; INVALID_TEXT for an unpaired surrogate. */
inkhit_status inkhit_layout_create_utf16(const uint16_t *text, size_t length, const inkhit_layout_options *options,
                                         inkhit_layout *out);

/** Facts about a layout. */
typedef struct inkhit_layout_info {
    int64_t glyph_count;
    int64_t line_count;
    /** Length of the text, UTF-16 units and UTF-8 bytes. */
    int64_t utf16_length;
    int64_t utf8_length;
    /** The UTF-16 range cut by max_lines; -1, -1 when nothing was cut. */
    int64_t truncated_start;
    int64_t truncated_end;
    /** Union of the line boxes, layout px. */
    inkhit_rect bounds;
} inkhit_layout_info;

/** Writes the layout's facts into `*out`. Owns: `*out` is written. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE. */
inkhit_status inkhit_layout_get_info(inkhit_layout layout, inkhit_layout_info *out);

/** One positioned glyph of a layout (what a renderer draws). */
typedef struct inkhit_layout_glyph {
    /** Index into the layout's fonts (options.fonts). */
    int64_t font;
    /** The glyph id in that font. */
    uint32_t glyph;
    /** 1 in a right-to-left run, else 0. */
    uint16_t right_to_left;
    /** 1 for the "..." that ends a line cut by max_lines, else 0. */
    uint16_t ellipsis;
    /** Origin on the baseline, layout px; size in px per em; advance along the line, layout px. */
    double x, y, size, advance;
    /** The UTF-16 range of the glyph's cluster (for the ellipsis: the range it cut). */
    int64_t utf16_start, utf16_end;
    /** Index into the layout's lines. */
    int64_t line;
} inkhit_layout_glyph;

/** Copies glyphs first ..< first + count (line by line, left to right) into `out`.
 *  Owns: `out[0 ..< count]` is the caller's, written. Threads: any.
 *  Errors: NULL_ARGUMENT (layout; out with count > 0), INVALID_HANDLE, INVALID_ARGUMENT (the range goes
 *  past glyph_count). */
inkhit_status inkhit_layout_glyphs(inkhit_layout layout, size_t first, size_t count, inkhit_layout_glyph *out);

/** One line of a layout. */
typedef struct inkhit_layout_line {
    /** Line box (layout px): from the tallest ascent to the bottom of the line gap. */
    inkhit_rect box;
    /** The baseline's y, layout px. */
    double baseline;
    /** The line's UTF-16 range (trailing spaces and the newline included). */
    int64_t utf16_start, utf16_end;
    /** The inked and advancing content (no trailing spaces), layout px. */
    inkhit_rect content_box;
} inkhit_layout_line;

/** Copies lines first ..< first + count (top to bottom) into `out`. Owns: `out[0 ..< count]` is written.
 *  Threads: any. Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (the range goes past line_count). */
inkhit_status inkhit_layout_lines(inkhit_layout layout, size_t first, size_t count, inkhit_layout_line *out);

/** Decoration strokes (inkhit_layout_decoration.kind). */
enum {
    INKHIT_DECORATION_UNDERLINE = 0,
    INKHIT_DECORATION_STRIKETHROUGH = 1,
    INKHIT_DECORATION_OVERLINE = 2
};

/** One decoration stroke of a layout: hit as ink under the glyphs. A segment runs from the pen before its
 *  first glyph on the line to the pen after its last (letter spacing included, trailing spaces not);
 *  its geometry is the primary font's post, OS/2 and hhea values at the run's size, from the run's
 *  baseline. A double underline is two strokes. Since 1.1. */
typedef struct inkhit_layout_decoration {
    /** INKHIT_DECORATION_*. */
    int32_t kind;
    int32_t reserved;
    /** The stroke, layout px. */
    inkhit_rect rect;
    /** The UTF-16 range of the characters it runs under on its line. */
    int64_t utf16_start, utf16_end;
    /** Index into the layout's lines. */
    int64_t line;
} inkhit_layout_decoration;

/** The number of decoration strokes of a layout into `*out`. Since 1.1. Owns: `*out` is written.
 *  Threads: any. Errors: NULL_ARGUMENT, INVALID_HANDLE. */
inkhit_status inkhit_layout_decoration_count(inkhit_layout layout, size_t *out);

/** Copies decorations first ..< first + count (line by line) into `out`. Since 1.1. Owns: `out[0 ..< count]`
 *  is written. Threads: any. Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (the range goes past
 *  the count). */
inkhit_status inkhit_layout_decorations(inkhit_layout layout, size_t first, size_t count, inkhit_layout_decoration *out);

/** How inkhit_layout_hit decides. */
enum {
    /** By the ink (the default): holes and gaps miss. */
    INKHIT_TEXT_HIT_INK = 0,
    /** By the ink, and glyphs without ink (spaces, bitmap-only emoji) as their advance boxes. */
    INKHIT_TEXT_HIT_INK_OR_EMPTY_GLYPH_BOXES = 1,
    /** Per-character boxes (advance x line height): what box-based hit-testing does. */
    INKHIT_TEXT_HIT_CHARACTER_BOXES = 2,
    /** Line boxes. */
    INKHIT_TEXT_HIT_LINE_BOXES = 3
};

/** How a text hit was decided. */
enum {
    /** On the glyph's ink, or inside an attachment's box. */
    INKHIT_TEXT_HIT_KIND_INK = 0,
    /** Within the radius of the ink (or of an attachment's box). */
    INKHIT_TEXT_HIT_KIND_RADIUS = 1,
    /** A box mode decided. */
    INKHIT_TEXT_HIT_KIND_BOX = 2
};

/** What a point on laid-out text hit. On a miss: hit 0, the indexes and offsets -1, distance NaN. */
typedef struct inkhit_text_hit {
    /** 1 on a hit, 0 on a miss. */
    int32_t hit;
    /** INKHIT_TEXT_HIT_KIND_*. */
    int32_t kind;
    /** The placement hit, an index into inkhit_layout_glyphs (not a glyph id); -1 for an attachment, a
     *  decoration or a line box. `glyph` is its 1.0 name (the same field, deprecated). */
    union {
        int64_t placement;
        int64_t glyph INKHIT_DEPRECATED("placement");
    };
    /** Index into options.links of the link over the character (the last one given when links overlap);
     *  -1 when none. */
    int64_t link;
    /** Index into options.attachments of the attachment hit; -1 when the hit is on text. */
    int64_t attachment;
    /** The character under the point (inside a ligature: the component under it; on the ellipsis: the
     *  range it cut), as UTF-16 and as UTF-8 offsets, half-open. */
    int64_t utf16_start, utf16_end;
    int64_t utf8_start, utf8_end;
    /** Index of the grapheme (user-perceived character) where the range starts. */
    int64_t character;
    /** Index of the line. */
    int64_t line;
    /** Signed distance to the hit outline (or box), view px, negative inside; 0 for box modes. */
    double distance;
} inkhit_text_hit;

/** The character, link and attachment under (x, y), view px, within `radius` view px (>= 0), decided by
 *  `mode` (INKHIT_TEXT_HIT_*): attachments first (their boxes), then the glyph by the hit rule.
 *  Owns: `*out` is written (indexes, not strings: nothing to free). Allocates nothing.
 *  Threads: any, any number at once on one layout.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (radius negative or NaN, non-finite point,
 *  unknown mode; `*out` is then a miss). */
inkhit_status inkhit_layout_hit(inkhit_layout layout, double x, double y, double radius, int32_t mode,
                                inkhit_text_hit *out);

/** As inkhit_layout_hit in INKHIT_TEXT_HIT_INK mode, with the decoration hit: the text's decorations
 *  are ink under its glyphs (at radius 0 a decoration answers only where no glyph's ink holds the point;
 *  within a radius the nearest ink wins, ties going to the glyph). On a decoration, `out->placement` and
 *  `out->attachment` are -1, the character is the one whose advance on the line holds the point's x (or the
 *  nearest), `out->link` its link; `*decoration_out` is the decoration's index (inkhit_layout_decorations),
 *  else -1. inkhit_layout_hit answers the same, without saying which decoration. Since 1.1.
 *  Owns: `*out` and `*decoration_out` are written. Allocates nothing. Threads: any.
 *  Errors: as inkhit_layout_hit (NULL_ARGUMENT also for decoration_out). */
inkhit_status inkhit_layout_hit_decoration(inkhit_layout layout, double x, double y, double radius, inkhit_text_hit *out,
                                           int64_t *decoration_out);

/** The link under (x, y), view px, within `radius`: the topmost link glyph (or attachment in a link)
 *  whose ink holds the point, else the one whose outline is nearest within the radius. `out->link` names
 *  it; the other fields say where on it the point is. Spaces have no ink: the space after a link never
 *  hits it. Owns: `*out` is written. Threads: any. Errors: as inkhit_layout_hit. */
inkhit_status inkhit_layout_link_hit(inkhit_layout layout, double x, double y, double radius, inkhit_text_hit *out);

enum {
    /** Which side an offset at a line break sticks to: the start of the later line ... */
    INKHIT_AFFINITY_DOWNSTREAM = 0,
    /** ... or the end of the earlier one. */
    INKHIT_AFFINITY_UPSTREAM = 1
};

/** Where a caret goes. */
typedef struct inkhit_caret {
    /** 1 when there is a caret position (the layout has lines), else 0. */
    int32_t found;
    /** INKHIT_AFFINITY_*. */
    int32_t affinity;
    /** The insertion offset, UTF-16 units and UTF-8 bytes (0 ... length). */
    int64_t utf16;
    int64_t utf8;
    /** Index of the line. */
    int64_t line;
} inkhit_caret;

/** Where a caret goes for (x, y), view px: the nearest line, then the nearest character edge on it (as
 *  CTLineGetStringIndexForPosition). Not the character under the point: that is inkhit_layout_hit.
 *  Owns: `*out` is written. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (non-finite point; `*out` then has found 0). */
inkhit_status inkhit_layout_caret(inkhit_layout layout, double x, double y, inkhit_caret *out);

/** Where a caret is drawn: a vertical segment at `x` from `top` to `bottom`, layout px, and the same
 *  segment in view px. */
typedef struct inkhit_caret_rect {
    int32_t found;
    int32_t affinity;
    int64_t line;
    double x, top, bottom;
    inkhit_point view_top;
    inkhit_point view_bottom;
} inkhit_caret_rect;

/** The caret for `offset` (in the layout's text units, 0 ... length) with `affinity`
 *  (INKHIT_AFFINITY_*; in mixed-direction text one offset can have two positions).
 *  Owns: `*out` is written (found 0 on error). Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (offset past the end, unknown affinity),
 *  INVALID_TEXT (an offset inside a character). */
inkhit_status inkhit_layout_caret_rect(inkhit_layout layout, uint64_t offset, int32_t affinity,
                                       inkhit_caret_rect *out);

/** Releases a layout handle (scenes whose text nodes show it keep it). Owns: ends the caller's ownership;
 *  NULL does nothing (INKHIT_OK). Threads: any (calls using the handle on other threads finish first).
 *  Errors: INVALID_HANDLE (double release, another type, unknown). */
inkhit_status inkhit_layout_release(inkhit_layout layout);

/* ================================================================================================ */
/* Hit scenes                                                                                        */
/* ================================================================================================ */

/** A node's flags (bits of inkhit_node.flags; unknown bits are refused). */
enum {
    /** Hidden: the node and everything below it are never hit (UIKit's isHidden). */
    INKHIT_NODE_HIDDEN = 1u << 0,
    /** Not interactive: the node and everything below it are out (isUserInteractionEnabled = NO). */
    INKHIT_NODE_NOT_INTERACTIVE = 1u << 1,
    /** Children may overflow: they are hit outside the node's hit box too (the web's overflow). By default
     *  children are reachable only inside their parent's hit box (UIKit, Flutter): Swift's clipsChildren,
     *  JSON's "clipsChildren", Python's clips_children. Since 1.3; 1.0 called it INKHIT_NODE_NO_CLIP. */
    INKHIT_NODE_NOT_CLIPS_CHILDREN = 1u << 2,
    /** The 1.0 name of INKHIT_NODE_NOT_CLIPS_CHILDREN (deprecated). */
    INKHIT_NODE_NO_CLIP INKHIT_DEPRECATED("INKHIT_NODE_NOT_CLIPS_CHILDREN") = INKHIT_NODE_NOT_CLIPS_CHILDREN
};

/** Which part of a node takes touches (React Native's pointerEvents). */
enum {
    /** The node and its children (the default). */
    INKHIT_POINTER_AUTO = 0,
    /** Neither the node nor anything below it. */
    INKHIT_POINTER_NONE = 1,
    /** Only its children (the node itself is never the answer; it still clips them). */
    INKHIT_POINTER_BOX_NONE = 2,
    /** Only the node (its children are never the answer). */
    INKHIT_POINTER_BOX_ONLY = 3
};

/** A node's own region, in its local coordinates. */
enum {
    /** Its bounds (the default). */
    INKHIT_SHAPE_BOX = 0,
    /** Its bounds with corners rounded by corner_radius (clamped to half the shorter side). */
    INKHIT_SHAPE_ROUND_RECT = 1,
    /** The ellipse inscribed in its bounds. */
    INKHIT_SHAPE_ELLIPSE = 2,
    /** A path in local px (verbs, points, fill_rule). */
    INKHIT_SHAPE_PATH = 3,
    /** A layout whose view space is the node's local space, hit by its ink (or `holes`); answers carry
     *  the character, link and attachment. */
    INKHIT_SHAPE_TEXT = 4,
    /** Glyphs placed in local px, hit by their ink (or `holes`); answers carry the glyph's index. Its data
     *  (inkhit_node_shape) goes to inkhit_scene_add_shaped / inkhit_scene_update_shaped. Since 1.1. */
    INKHIT_SHAPE_GLYPHS = 5,
    /** An alpha mask stretched over the node's bounds: a pixel whose alpha reaches the threshold is ink.
     *  Its data (inkhit_node_shape) goes to inkhit_scene_add_shaped / inkhit_scene_update_shaped. Since 1.1. */
    INKHIT_SHAPE_MASK = 6
};

/** What a text node does with the holes of its ink. */
enum {
    /** By the ink: the hole of an "o" and the gaps between letters miss (the default). */
    INKHIT_HOLES_INK = 0,
    /** Every contour filled: the hole of an "o" hits; gaps between letters miss. */
    INKHIT_HOLES_FILLED_COUNTERS = 1,
    /** The convex hull of each word's ink: holes and gaps inside a word hit; spaces between words miss. */
    INKHIT_HOLES_WORD_HULL = 2
};

/** One node of a scene. Fill it with inkhit_node_init, then set what you need. Local px are the node's
 *  own coordinates; `transform` maps them to its parent's (the root's parent space is view px). */
typedef struct inkhit_node {
    /** The node's id, unique in its scene, chosen by the caller (a counter, a view's address). */
    uint64_t id;
    /** Local px -> parent px (finite). Default identity. */
    inkhit_transform transform;
    /** The node's box, local px (finite; may be empty). Default empty. */
    inkhit_rect bounds;
    /** INKHIT_NODE_* bits. Default 0. */
    uint32_t flags;
    /** INKHIT_POINTER_*. Default auto. */
    int32_t pointer_events;
    /** Below 0.01 takes the node and everything below it out (UIKit's rule). Default 1. */
    double alpha;
    /** Insets of the hit box from the bounds, local px (UIEdgeInsets order); negative values enlarge it
     *  (hit slop). Default 0. */
    double slop_top, slop_left, slop_bottom, slop_right;
    /** The least hit box size, local px (>= 0): a smaller box grows about its centre (the 44 x 44 rule).
     *  Default 0 (no minimum). */
    double min_width, min_height;
    /** INKHIT_SHAPE_*. Default box. */
    int32_t shape;
    /** INKHIT_FILL_* for a path. */
    int32_t fill_rule;
    /** Corner radius of a round rect, local px (>= 0). */
    double corner_radius;
    /** A path's commands (as for inkhit_builder_add_outline), local px; copied by the call. */
    const uint8_t *verbs;
    size_t verb_count;
    const inkhit_point *points;
    size_t point_count;
    /** A text node's layout (the scene keeps it alive). */
    inkhit_layout text;
    /** INKHIT_HOLES_* for a text node. */
    int32_t holes;
} inkhit_node;

/** Fills `*node` with the defaults and the id `id`. Owns: `*node` is the caller's, written.
 *  Threads: any. Errors: NULL_ARGUMENT. */
inkhit_status inkhit_node_init(inkhit_node *node, uint64_t id);

/** A new scene holding only `root`. Nodes are checked when added; what only the whole tree can tell (a
 *  transform singular once composed, a shape that cannot be built) is reported by inkhit_scene_snapshot.
 *  Owns: `*out` is a new handle the caller releases; the node is copied (its path arrays too) and its
 *  layout kept alive. Threads: any.
 *  Errors: NULL_ARGUMENT (root, out; a NULL array with a count > 0; a text node without a layout);
 *  INVALID_HANDLE (the layout); INVALID_ARGUMENT (a NaN or infinite number, negative sizes, an unknown
 *  flag bit, pointer_events, shape, fill rule or holes value, path commands that do not add up, a
 *  glyph-run or mask shape, whose data only inkhit_scene_add_shaped takes); LIMIT. */
inkhit_status inkhit_scene_create(const inkhit_node *root, inkhit_scene *out);

/** Adds `node` as the last (topmost) child of node `parent`. Later siblings lie on top of earlier ones,
 *  children on top of their parent. Owns: as inkhit_scene_create (the node is copied, its layout kept).
 *  Threads: any (calls on one scene run one at a time).
 *  Errors: as inkhit_scene_create; SCENE (node->id already used, no node `parent`). */
inkhit_status inkhit_scene_add(inkhit_scene scene, uint64_t parent, const inkhit_node *node);

/** Replaces every setting of node `node->id` with `*node` (its place in the tree stays).
 *  Owns: as inkhit_scene_create. Threads: any (calls on one scene run one at a time).
 *  Errors: as inkhit_scene_create; SCENE (no such node). */
inkhit_status inkhit_scene_update(inkhit_scene scene, const inkhit_node *node);

/** The data of a glyph-run node (INKHIT_SHAPE_GLYPHS) or a mask node (INKHIT_SHAPE_MASK), for which
 *  inkhit_node has no room. Fill it with inkhit_node_shape_init, then set what the shape needs. The struct
 *  grows at its end: `struct_size` (set by the init function) says which fields the caller has. Since 1.1. */
typedef struct inkhit_node_shape {
    /** sizeof(inkhit_node_shape) as the caller was compiled; set by inkhit_node_shape_init. */
    size_t struct_size;
    /** INKHIT_SHAPE_GLYPHS: `glyph_count` glyphs, each placed in the node's local px as
     *  inkhit_builder_add_glyph places one in layout px (glyph ids, sizes, origins, transforms; finite,
     *  invertible). Owns: the array is copied by the call; the scene keeps their fonts alive (releasing a
     *  font handle never breaks the node). At most 1,000,000 glyphs a node. */
    const inkhit_glyph_placement *glyphs;
    size_t glyph_count;
    /** INKHIT_HOLES_* for the glyphs. Default INKHIT_HOLES_INK. */
    int32_t holes;
    /** INKHIT_SHAPE_MASK: `mask_width` x `mask_height` alpha bytes, row by row, top row first, stretched
     *  over the node's bounds. Owns: the bytes are copied by the call. At most 4096 x 4096 pixels
     *  (INKHIT_ERROR_LIMIT beyond); a mask of zero pixels (a width or height of 0; `mask_alpha` may then be
     *  NULL) is never hit, as a box of zero size is never hit. */
    uint32_t mask_width, mask_height;
    const uint8_t *mask_alpha;
    /** The alpha from which a mask pixel is ink (1 ... 255); 0: the default, 128. */
    uint32_t mask_threshold;
    /** Since 1.2: how many bytes `mask_alpha` holds; it must be mask_width x mask_height (INVALID_ARGUMENT
     *  otherwise: the library reads no more than it is given, and uses all of it). A struct of 1.1's size
     *  (a program built against 1.1) has no mask_length: its mask is read as width x height bytes. */
    size_t mask_length;
} inkhit_node_shape;

/** Fills `*shape` with the defaults (no glyphs, holes by the ink, no mask, threshold 0: the default) and
 *  struct_size. Owns: `*shape` is the caller's, written. Threads: any. Errors: NULL_ARGUMENT. Since 1.1. */
inkhit_status inkhit_node_shape_init(inkhit_node_shape *shape);

/** inkhit_scene_add for a node of any shape, `*shape` giving the data of a glyph-run or mask node (read
 *  only when node->shape is INKHIT_SHAPE_GLYPHS or INKHIT_SHAPE_MASK; NULL is then an error, and is
 *  allowed otherwise). inkhit_scene_add and inkhit_scene_create refuse those two shapes, which need their
 *  data. Owns: as inkhit_scene_create; the glyph array and mask bytes are copied, the glyphs' fonts kept.
 *  Threads: any (calls on one scene run one at a time).
 *  Errors: as inkhit_scene_add; INVALID_ARGUMENT (struct_size, a bad glyph placement or holes value, a
 *  threshold over 255, a mask whose bytes are NULL, a mask_length that is not width x height); INVALID_HANDLE
 *  (a glyph's font); LIMIT (a mask over 4096 x 4096 pixels, more than 1,000,000 glyphs). Since 1.1. */
inkhit_status inkhit_scene_add_shaped(inkhit_scene scene, uint64_t parent, const inkhit_node *node,
                                      const inkhit_node_shape *shape);

/** inkhit_scene_update for a node of any shape, `*shape` as for inkhit_scene_add_shaped.
 *  Owns: as inkhit_scene_add_shaped. Threads: any (calls on one scene run one at a time).
 *  Errors: as inkhit_scene_add_shaped; SCENE (no such node). Since 1.1. */
inkhit_status inkhit_scene_update_shaped(inkhit_scene scene, const inkhit_node *node, const inkhit_node_shape *shape);

/** Sets node `id`'s transform (local px -> parent px): the cheap edit for moving a node (its region is
 *  reused; a snapshot after moving one node of 10,000 costs microseconds).
 *  Owns: `*transform` is copied. Threads: any (calls on one scene run one at a time).
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (NaN or infinite entry), SCENE (no such node). */
inkhit_status inkhit_scene_set_transform(inkhit_scene scene, uint64_t id, const inkhit_transform *transform);

/** Removes node `id` and everything below it. Owns: snapshots taken before keep them.
 *  Threads: any (calls on one scene run one at a time).
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, SCENE (no such node; the root cannot be removed). */
inkhit_status inkhit_scene_remove(inkhit_scene scene, uint64_t id);

/** The ids from the root down to node `id`: writes the first min(capacity, depth + 1) of them to `ids`
 *  and the full count to `*count_out` (call with capacity 0 to ask for the count).
 *  Owns: `ids[0 ..< capacity]` and `*count_out` are written. Threads: any.
 *  Errors: NULL_ARGUMENT (scene, count_out; ids with capacity > 0), INVALID_HANDLE, SCENE (no such node). */
inkhit_status inkhit_scene_path(inkhit_scene scene, uint64_t id, uint64_t *ids, size_t capacity, size_t *count_out);

/** How many nodes the scene has. Owns: `*count_out` is written. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE. */
inkhit_status inkhit_scene_count(inkhit_scene scene, size_t *count_out);

/** An immutable, indexed copy of the scene, flattened within `tolerance` view px (0: the default 0.01).
 *  Rebuilds only what changed since the scene's last snapshot. Later edits never change it.
 *  Owns: `*out` is a new handle the caller releases. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (tolerance; a node whose transform, bounds or
 *  sizes are unusable: the message names it), SHAPE, PLACEMENT, GLYPH, FONT (a node that cannot be
 *  indexed, named), LIMIT. The scene keeps its edits: fix the node and ask again. */
inkhit_status inkhit_scene_snapshot(inkhit_scene scene, double tolerance, inkhit_snapshot *out);

/** Releases a scene handle (its snapshots keep working). Owns: ends the caller's ownership; NULL does
 *  nothing (INKHIT_OK). Threads: any (calls using the handle on other threads finish first).
 *  Errors: INVALID_HANDLE (double release, another type, unknown). */
inkhit_status inkhit_scene_release(inkhit_scene scene);

/** What a point hits in a scene. On a miss: hit 0, node 0, depth and glyph -1, distance NaN, text a miss. */
typedef struct inkhit_scene_hit {
    /** 1 on a hit, 0 on a miss. */
    int32_t hit;
    /** 1 when the point is inside the node's region, 0 when only within the radius. */
    int32_t inside;
    /** The id of the node hit. */
    uint64_t node;
    /** How many ancestors it has (0: the root); inkhit_scene_path gives them. */
    int64_t depth;
    /** The point in the node's local px. */
    inkhit_point local;
    /** Signed distance to the node's region, view px, negative inside. */
    double distance;
    /** The placement hit, for a text node an index into inkhit_layout_glyphs, for a glyph-run node into
     *  inkhit_node_shape.glyphs (not a glyph id); -1 for an attachment, a decoration, other nodes or the
     *  enlarged box. `glyph` is its 1.0 name (the same field, deprecated). */
    union {
        int64_t placement;
        int64_t glyph INKHIT_DEPRECATED("placement");
    };
    /** For a text node hit on a glyph or an attachment: the character, link and attachment (offsets and
     *  indexes of that node's layout); text.hit is 0 otherwise. */
    inkhit_text_hit text;
} inkhit_scene_hit;

/** The node under (x, y), view px, within `radius` view px (>= 0), the UIKit way: hidden,
 *  non-interactive and transparent subtrees out, children clipped to their parent's hit box, later
 *  siblings on top; the topmost node whose region holds the point, else the one nearest within the
 *  radius. Owns: `*out` is written (numbers only: nothing to free). Allocates nothing.
 *  Threads: any, any number at once on one snapshot.
 *  Errors: NULL_ARGUMENT, INVALID_HANDLE, INVALID_ARGUMENT (radius negative or NaN, non-finite point;
 *  `*out` is then a miss). */
inkhit_status inkhit_snapshot_hit(inkhit_snapshot snapshot, double x, double y, double radius, inkhit_scene_hit *out);

/** The answers for `count` points (view px) into `out[0 ..< count]`, as inkhit_snapshot_hit gives them;
 *  non-finite points as for inkhit_index_hits. Owns: `points` is only read; `out` is written.
 *  Threads: any, any number at once on one snapshot. Errors: as inkhit_index_hits. */
inkhit_status inkhit_snapshot_hits(inkhit_snapshot snapshot, const inkhit_point *points, size_t count, double radius,
                                   inkhit_scene_hit *out);

/** The answers for `count` points (view px) into `out[0 ..< count]`, as inkhit_snapshot_hit gives them, with
 *  the statuses of inkhit_index_hit_batch: INKHIT_OK when every point was answered (non-finite ones as misses
 *  with INKHIT_NON_FINITE_MISS, counted in `*skipped_out`); on any error nothing written.
 *  Owns: `points` is only read; `out` and `*skipped_out` (unless NULL) are written.
 *  Threads: any, any number at once on one snapshot. Errors: as inkhit_index_hit_batch. Since 1.2. */
inkhit_status inkhit_snapshot_hit_batch(inkhit_snapshot snapshot, const inkhit_point *points, size_t count,
                                        double radius, int32_t non_finite, inkhit_scene_hit *out, size_t *skipped_out);

/** Releases a snapshot handle. Owns: ends the caller's ownership; NULL does nothing (INKHIT_OK).
 *  Threads: any (calls using the handle on other threads finish first).
 *  Errors: INVALID_HANDLE (double release, another type, unknown). */
inkhit_status inkhit_snapshot_release(inkhit_snapshot snapshot);

/* ================================================================================================ */
/* Jobs: the `ink-hit query` formats in-process (since 1.1)                                         */
/* ================================================================================================ */

/** Answers the JSON-lines jobs of `ink-hit query` (glyph, text and scene jobs; the README's "Command line")
 *  inside the calling process, with the same answers, bit for bit, line for line: for bindings and data
 *  pipelines that hold jobs as text and want no child process. Keeps fonts (by file) and glyph shapes
 *  across jobs, within the job limits. Mutable, locked. */
typedef struct inkhit_job_runner_s *inkhit_job_runner;

/** Receives one output line: `length` bytes of UTF-8 JSON (one answer object or one
 *  `{"job": ..., "error": ...}` line), without a newline, not NUL-terminated, valid only during the call. */
typedef void (*inkhit_job_emit_func)(void *user_data, const char *line, size_t length);

/** A new job runner flattening at `tolerance` view px (0: the default, 0.01; at most 1, as ink-hit's
 *  --tolerance), with the default job limits (ink-hit's: time, points, glyphs, bytes per job), not strict,
 *  its warnings dropped: inkhit_job_runner_create_with_options with the defaults and this tolerance.
 *  Owns: `*out` is a new handle the caller releases. Threads: any.
 *  Errors: NULL_ARGUMENT, INVALID_ARGUMENT (tolerance negative, NaN, infinite or above 1), LIMIT. */
inkhit_status inkhit_job_runner_create(double tolerance, inkhit_job_runner *out);

/** Receives one warning about a job that was answered but had something ignored or adjusted: a member its
 *  format does not know ("job 7: unknown member \"radious\" ignored"), a variation coordinate clamped to its
 *  axis. `length` bytes of UTF-8, not NUL-terminated, valid only during the call. What ink-hit writes to
 *  standard error (Swift: JobRunner.warn). Since 1.2. */
typedef void (*inkhit_job_warn_func)(void *user_data, const char *message, size_t length);

/** How a job runner answers: ink-hit query's options. Fill it with inkhit_job_runner_options_init (which
 *  writes the defaults, the values below), then set what you need. Every limit may be lowered, not raised (as
 *  ink-hit's flags); 0 in any field means its default. A job beyond a limit gets its error line, naming the
 *  limit; the next job still runs. Since 1.2. */
typedef struct inkhit_job_runner_options {
    /** sizeof(inkhit_job_runner_options) as the caller was compiled (set by the init function). */
    size_t struct_size;
    /** Flattening tolerance, view px (0 < t <= 1; ink-hit's --tolerance). Default 0.01. */
    double tolerance;
    /** Seconds one job may take, from reading its line to its last answer (0 < s <= 86400; --time-limit).
     *  Default 60. A job out of time stops within about 100 ms of it with its error line. */
    double max_seconds_per_job;
    /** Longest job line, bytes (--max-line-bytes). Default 67108864 (64 MiB). */
    size_t max_line_bytes;
    /** Most glyphs per job: a glyph job's glyphs, or the glyphs a text job's layout makes (--max-glyphs).
     *  Default 1000000. */
    size_t max_glyphs;
    /** Longest text of a text job, UTF-16 code units (--max-text-length). Default 1000000. */
    size_t max_text_length;
    /** Most links plus attachments per text job (--max-links). Default 100000. */
    size_t max_links;
    /** Most styled runs plus exclusions per text job or scene text shape (--max-runs-and-exclusions).
     *  Default 100000. */
    size_t max_runs_and_exclusions;
    /** Most nodes per scene job (--max-nodes). Default 100000. */
    size_t max_nodes;
    /** Most query points per job (--max-points). Default 10000000. */
    size_t max_points;
    /** Most fonts in a job's "fonts" (--max-fonts). Default 256. */
    size_t max_fonts;
    /** Longest id, tag or font path, bytes (--max-string-bytes). Default 4096. */
    size_t max_string_bytes;
    /** Most bytes of output per job, newlines included (--max-output-bytes). Default 1073741824 (1 GiB). */
    size_t max_output_bytes_per_job;
    /** Most bytes of font files one job may load (--max-font-bytes). Default 1073741824. */
    size_t max_font_bytes_per_job;
    /** Most bytes of distinct shapes one job may use (--max-shape-bytes). Default 1073741824. */
    size_t max_shape_bytes_per_job;
    /** 1: a job with a member its format does not know fails with an error line naming it (ink-hit
     *  --strict); 0 (the default): it is answered and `warn` gets a warning naming the member. */
    int32_t strict;
    /** Gets the runner's warnings (NULL, the default: they are dropped); called on the thread that calls
     *  inkhit_job_runner_run, during that call, with `warn_user_data`. It must not call into the runner. */
    inkhit_job_warn_func warn;
    void *warn_user_data;
} inkhit_job_runner_options;

/** Fills `*options` with the defaults listed in the struct (and struct_size). Owns: `*options` is the caller's,
 *  written. Threads: any. Errors: NULL_ARGUMENT. Since 1.2. */
inkhit_status inkhit_job_runner_options_init(inkhit_job_runner_options *options);

/** A new job runner as `options` say (copied; the warn callback and its user data are kept for the runner's
 *  life). Owns: `*out` is a new handle the caller releases. Threads: any.
 *  Errors: NULL_ARGUMENT (options, out); INVALID_ARGUMENT (a struct_size this library does not know, a
 *  tolerance outside (0, 1], seconds outside (0, 86400], a limit above its default, strict not 0 or 1);
 *  LIMIT (too many live handles). Since 1.2. */
inkhit_status inkhit_job_runner_create_with_options(const inkhit_job_runner_options *options, inkhit_job_runner *out);

/** Runs the job lines in `length` bytes at `text` as `ink-hit query` runs a file: lines end at "\n" (a "\r"
 *  before it is dropped; the last line needs none), blank lines are skipped, invalid UTF-8 is read as
 *  U+FFFD, and each job's output lines go to `emit(user_data, ...)` in order, as they are made. A job that
 *  cannot be answered gets one error line, as in ink-hit, and the next job still runs: that is not a
 *  failed call. Writes the number of jobs (non-blank lines) run to `*jobs_out` and of jobs that got an error
 *  line to `*failed_out`, each unless NULL. `emit` (and the runner's warn callback) must not call into
 *  this runner.
 *  Each job is held to its runner's limits (inkhit_job_runner_options) and, as every call, to inkhit_limits:
 *  a job gets at most what is left of the call's max_seconds_per_call, and at most max_shape_bytes_per_call
 *  bytes of shapes. When the call's time runs out, the job running then ends with its error line (a time
 *  limit) and the call returns INKHIT_ERROR_LIMIT without running the lines after it.
 *  Owns: `text` is only read; the line given to `emit` is the library's. Threads: any (calls on one runner
 *  run one at a time; `emit` runs on the calling thread).
 *  Errors: NULL_ARGUMENT (runner, emit; text with length > 0), INVALID_HANDLE, LIMIT (the call's time limit,
 *  after the jobs it ran: `*jobs_out` says how many). */
inkhit_status inkhit_job_runner_run(inkhit_job_runner runner, const char *text, size_t length, inkhit_job_emit_func emit,
                                    void *user_data, size_t *jobs_out, size_t *failed_out);

/** Releases a job runner handle (its fonts and shapes with it). Owns: ends the caller's ownership; NULL
 *  does nothing (INKHIT_OK). Threads: any (calls using the handle on other threads finish first).
 *  Errors: INVALID_HANDLE (double release, another type, unknown). */
inkhit_status inkhit_job_runner_release(inkhit_job_runner runner);

/* ================================================================================================ */
/* Limits                                                                                            */
/* ================================================================================================ */

/** Bounds on the work of one call that builds shapes: inkhit_builder_add_glyph, inkhit_builder_add_glyphs (and
 *  the other add calls), inkhit_builder_add_outline, inkhit_layout_create_utf8 / _utf16, inkhit_scene_snapshot
 *  and inkhit_job_runner_run (each of its jobs within what is left of the call). Whatever the
 *  limits, every shape is bounded before it is built: its segments are counted from its curves' control
 *  polygons at its scale (color glyphs: every layer, clipped ones included), a bitmap's size is read before
 *  it is decoded, a mask's or bitmap's edges are bounded by its runs of pixels, a scene region's bytes are
 *  estimated from its size; a shape beyond the shape limits (1,000,000 edges, 256 MiB) is INKHIT_ERROR_SHAPE,
 *  never an abort. These limits add a deadline and a byte budget per call. */
typedef struct inkhit_limits {
    /** Wall-clock seconds one call may take (> 0); 0 or INFINITY: no limit (the default). Checked between
     *  glyphs, layers, nodes and lines and inside long shape builds (every few thousand segments, pixels or
     *  cells), so a call past it returns INKHIT_ERROR_LIMIT within about 100 ms of it. */
    double max_seconds_per_call;
    /** Bytes of distinct shapes one call may build or use (each counted once): the glyph shapes of a
     *  builder call or a layout, the regions of a snapshot (estimated before each is built). Beyond it:
     *  INKHIT_ERROR_LIMIT. Default 1 GiB (1073741824), as `ink-hit`'s --max-shape-bytes; 0: the default
     *  (as 0 means the default everywhere in this header); UINT64_MAX: no limit (inkhit_limits_get then
     *  reports UINT64_MAX). */
    uint64_t max_shape_bytes_per_call;
} inkhit_limits;

/** The limits calls use now: no time limit and INKHIT_DEFAULT_MAX_SHAPE_BYTES_PER_CALL until
 *  inkhit_limits_set changes them.
 *  Owns: `*out` is written. Threads: any. Errors: NULL_ARGUMENT. */
inkhit_status inkhit_limits_get(inkhit_limits *out);

/** Sets the limits of every later call on every thread (a call already running keeps the ones it started
 *  with). Owns: `*limits` is copied. Threads: any (the last set wins).
 *  Errors: NULL_ARGUMENT, INVALID_ARGUMENT (negative or NaN seconds; nothing changes). */
inkhit_status inkhit_limits_set(const inkhit_limits *limits);

/** The default of inkhit_limits.max_shape_bytes_per_call: 1 GiB. */
#define INKHIT_DEFAULT_MAX_SHAPE_BYTES_PER_CALL 1073741824ull

#ifdef __cplusplus
}
#endif

#endif /* INKHIT_H */
