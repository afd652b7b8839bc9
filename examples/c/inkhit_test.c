/*
 * inkhit_test.c — every function of inkhit.h called from C, as a C user calls them: compiled against the
 * installed header and library (scripts/c-abi-test.sh: `cc inkhit_test.c $(pkg-config --cflags --libs
 * inkhit)`), and once more under AddressSanitizer with LeakSanitizer on.
 *
 * Answers are checked against what is known without the library: analytic shapes (a square frame with a
 * hole, exact distances), font facts (DejaVu Sans has 2048 units per em; an "l" is a vertical stem centred
 * in its advance), the README's scene example, and the rules of the header (statuses, messages, misses).
 * Hostile calls — NULL handles and pointers, released and foreign handles, double releases, invalid UTF-8
 * and UTF-16, NaN points and radii, glyph ids out of range, a file that is not a font, path commands that do
 * not add up — must each give the documented status and a message that starts with the function's name.
 *
 * Prints one line per failure and a summary; exits 1 on any failure.
 */
#define _POSIX_C_SOURCE 200809L   /* fdopen, mkstemp */
#include <inkhit.h>

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

static int checks, failures;

static void check(int ok, const char *what, int line) {
    checks++;
    if (!ok) {
        failures++;
        fprintf(stderr, "FAIL line %d: %s\n", line, what);
    }
}
#define CHECK(cond) check((cond) ? 1 : 0, #cond, __LINE__)

/* `call` returned `want`; on an error, the thread's message starts with the function's name (the text of
 * `expr` up to its "(") and contains `needle` (when not NULL). */
static void expect(inkhit_status got, inkhit_status want, const char *needle, const char *expr, int line) {
    checks++;
    char function[96];
    size_t n = strcspn(expr, "(");
    if (n >= sizeof function) n = sizeof function - 1;
    memcpy(function, expr, n);
    function[n] = 0;
    const char *message = inkhit_last_error();
    int ok = got == want;
    if (ok && want != INKHIT_OK) {
        ok = strncmp(message, function, n) == 0 && message[n] == ':';
        if (ok && needle != NULL) ok = strstr(message, needle) != NULL;
    }
    if (!ok) {
        failures++;
        fprintf(stderr, "FAIL line %d: %s\n  got %s (%s), want %s%s%s\n", line, expr, inkhit_status_name(got), message,
                inkhit_status_name(want), needle ? " with a message containing " : "", needle ? needle : "");
    }
}
#define EXPECT(call, want, needle) expect((call), (want), (needle), #call, __LINE__)
#define OK(call) expect((call), INKHIT_OK, NULL, #call, __LINE__)

static int near(double a, double b, double tolerance) { return fabs(a - b) <= tolerance; }

/* Handles in the order they were made, for the final releases (each exactly once). */
static inkhit_font sans;

/* ============================================================================================== */

static void test_version_and_errors(void) {
    CHECK(inkhit_version() == INKHIT_VERSION);
    CHECK(inkhit_version() / 10000 == INKHIT_VERSION_MAJOR);
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", INKHIT_VERSION_MAJOR, INKHIT_VERSION_MINOR, INKHIT_VERSION_PATCH);
    CHECK(strcmp(inkhit_version_string(), expected) == 0);
    CHECK(strcmp(inkhit_last_error(), "") == 0);
    CHECK(inkhit_handle_count() == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_OK), "INKHIT_OK") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_NULL_ARGUMENT), "INKHIT_ERROR_NULL_ARGUMENT") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_INVALID_HANDLE), "INKHIT_ERROR_INVALID_HANDLE") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_INVALID_ARGUMENT), "INKHIT_ERROR_INVALID_ARGUMENT") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_INVALID_TEXT), "INKHIT_ERROR_INVALID_TEXT") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_FILE), "INKHIT_ERROR_FILE") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_FONT), "INKHIT_ERROR_FONT") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_GLYPH), "INKHIT_ERROR_GLYPH") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_SHAPE), "INKHIT_ERROR_SHAPE") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_PLACEMENT), "INKHIT_ERROR_PLACEMENT") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_LAYOUT), "INKHIT_ERROR_LAYOUT") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_SCENE), "INKHIT_ERROR_SCENE") == 0);
    CHECK(strcmp(inkhit_status_name(INKHIT_ERROR_LIMIT), "INKHIT_ERROR_LIMIT") == 0);
    CHECK(strcmp(inkhit_status_name(99), "INKHIT_UNKNOWN_STATUS") == 0);
    CHECK(strcmp(inkhit_status_name(-1), "INKHIT_UNKNOWN_STATUS") == 0);
}

/* A message longer than INKHIT_MAX_ERROR_LENGTH is cut at a character boundary and ends in "…". */
static void test_long_message(void) {
    char path[3000];
    strcpy(path, "/nonexistent/");
    size_t n = strlen(path);
    while (n + 2 < sizeof path - 1) { memcpy(path + n, "\xc3\xa9", 2); n += 2; }  /* "é" repeated */
    path[n] = 0;
    inkhit_font f = NULL;
    EXPECT(inkhit_font_from_path(path, 0, &f), INKHIT_ERROR_FILE, "not found");
    const char *m = inkhit_last_error();
    size_t len = strlen(m);
    CHECK(len <= INKHIT_MAX_ERROR_LENGTH);
    CHECK(len >= 3 && strcmp(m + len - 3, "\xe2\x80\xa6") == 0);
    /* No "é" is split: the bytes before "…" end on a complete character. */
    CHECK(len >= 4 && ((unsigned char)m[len - 4] == 0xa9 || (unsigned char)m[len - 4] < 0x80));
    CHECK(f == NULL);
}

/* ============================================================================================== */

static unsigned char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)n);
    if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) { free(bytes); bytes = NULL; }
    fclose(f);
    *length = (size_t)n;
    return bytes;
}

static void test_fonts(void) {
    OK(inkhit_font_from_path(SANS, 0, &sans));
    inkhit_font_info info;
    OK(inkhit_font_get_info(sans, &info));
    CHECK(info.units_per_em == 2048);
    CHECK(info.face_index == 0 && info.face_count == 1);
    CHECK(info.glyph_count > 3000);
    CHECK(info.ascender > 0 && info.descender < 0 && info.height >= info.ascender - info.descender);

    /* The same file from memory: the same face. */
    size_t length = 0;
    unsigned char *bytes = read_file(SANS, &length);
    CHECK(bytes != NULL);
    inkhit_font copy = NULL;
    OK(inkhit_font_from_bytes(bytes, length, 0, &copy));
    free(bytes);                                    /* the font copied them */
    inkhit_font_info info2;
    OK(inkhit_font_get_info(copy, &info2));
    CHECK(info2.glyph_count == info.glyph_count && info2.units_per_em == 2048);

    uint32_t o = 0, o2 = 0, none = 1;
    OK(inkhit_font_glyph(sans, 'o', &o));
    OK(inkhit_font_glyph(copy, 'o', &o2));
    CHECK(o != 0 && o == o2);
    OK(inkhit_font_glyph(sans, 0x10FFFD, &none));   /* a private-use scalar DejaVu lacks */
    CHECK(none == 0);
    double advance = 0;
    OK(inkhit_font_advance(sans, o, &advance));
    CHECK(advance > 500 && advance < 2048);         /* an "o" is narrower than an em */
    OK(inkhit_font_release(copy));

    /* Hostile calls. */
    inkhit_font f = NULL;
    EXPECT(inkhit_font_from_path(NULL, 0, &f), INKHIT_ERROR_NULL_ARGUMENT, "path is NULL");
    EXPECT(inkhit_font_from_path(SANS, 0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out is NULL");
    EXPECT(inkhit_font_from_path("/nonexistent/font.ttf", 0, &f), INKHIT_ERROR_FILE, "not found");
    EXPECT(inkhit_font_from_path("/usr/share/fonts", 0, &f), INKHIT_ERROR_FILE, "not a regular file");
    EXPECT(inkhit_font_from_path("/usr/share/fonts/\xff\xfe.ttf", 0, &f), INKHIT_ERROR_INVALID_TEXT, "UTF-8");
    EXPECT(inkhit_font_from_path(SANS, 1, &f), INKHIT_ERROR_FONT, "face index 1 is out of range");
    EXPECT(inkhit_font_from_path(SANS, -1, &f), INKHIT_ERROR_FONT, "face index -1");
    char not_font[] = "/tmp/inkhit-test-not-a-font-XXXXXX";
    FILE *tmp = fdopen(mkstemp(not_font), "w");
    fputs("This is a text file, not a font. It is long enough for FreeType to probe every format it knows.\n", tmp);
    fclose(tmp);
    EXPECT(inkhit_font_from_path(not_font, 0, &f), INKHIT_ERROR_FONT, "not a font");
    remove(not_font);
    const uint8_t junk[64] = {1, 2, 3, 4, 5};
    EXPECT(inkhit_font_from_bytes(junk, sizeof junk, 0, &f), INKHIT_ERROR_FONT, "not a font");
    EXPECT(inkhit_font_from_bytes(junk, 0, 0, &f), INKHIT_ERROR_FONT, "empty");
    EXPECT(inkhit_font_from_bytes(NULL, 100, 0, &f), INKHIT_ERROR_NULL_ARGUMENT, "bytes");
    EXPECT(inkhit_font_from_bytes(junk, (size_t)1 << 31, 0, &f), INKHIT_ERROR_LIMIT, "limit");
    EXPECT(inkhit_font_from_bytes(junk, SIZE_MAX, 0, &f), INKHIT_ERROR_INVALID_ARGUMENT, "beyond the address space");
    CHECK(f == NULL);
    EXPECT(inkhit_font_get_info(NULL, &info), INKHIT_ERROR_NULL_ARGUMENT, "font is NULL");
    EXPECT(inkhit_font_get_info(sans, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out is NULL");
    EXPECT(inkhit_font_glyph(sans, 0xD800, &o), INKHIT_ERROR_INVALID_ARGUMENT, "surrogate");
    EXPECT(inkhit_font_glyph(sans, 0x110000, &o), INKHIT_ERROR_INVALID_ARGUMENT, "0x110000");
    EXPECT(inkhit_font_glyph(sans, 'o', NULL), INKHIT_ERROR_NULL_ARGUMENT, "glyph_out");
    EXPECT(inkhit_font_advance(sans, 70000, &advance), INKHIT_ERROR_GLYPH, "out of range");
    EXPECT(inkhit_font_advance(sans, o, NULL), INKHIT_ERROR_NULL_ARGUMENT, "advance_out");
    /* A released handle, a double release, a value the library never handed out, another type. */
    EXPECT(inkhit_font_get_info(copy, &info), INKHIT_ERROR_INVALID_HANDLE, "already released");
    EXPECT(inkhit_font_release(copy), INKHIT_ERROR_INVALID_HANDLE, "already released");
    EXPECT(inkhit_font_get_info((inkhit_font)(uintptr_t)0x1234567, &info), INKHIT_ERROR_INVALID_HANDLE, "not a handle");
    EXPECT(inkhit_font_get_info((inkhit_font)(uintptr_t)0xFFFFFFFFFFFFFFFFu, &info), INKHIT_ERROR_INVALID_HANDLE, "not a handle");
    inkhit_builder b = NULL;
    OK(inkhit_builder_create(0, &b));
    EXPECT(inkhit_font_get_info((inkhit_font)b, &info), INKHIT_ERROR_INVALID_HANDLE, "is a builder handle, not a font handle");
    EXPECT(inkhit_font_release((inkhit_font)b), INKHIT_ERROR_INVALID_HANDLE, "not a font handle");
    OK(inkhit_builder_release(b));
    OK(inkhit_font_release(NULL));
}

/* ============================================================================================== */

/* A 1 x 1 square frame (even-odd: its inner square, drawn the same way round, is a hole), in em units y-up,
 * placed at 24 px per unit with its top-left at (0, 36): outer box [0, 24] x [36, 60], hole [7.2, 16.8] x
 * [43.2, 52.8] (view px). */
static const uint8_t frame_verbs[] = {INKHIT_VERB_MOVE, INKHIT_VERB_LINE, INKHIT_VERB_LINE, INKHIT_VERB_LINE, INKHIT_VERB_CLOSE,
                                      INKHIT_VERB_MOVE, INKHIT_VERB_LINE, INKHIT_VERB_LINE, INKHIT_VERB_LINE, INKHIT_VERB_CLOSE};
static const inkhit_point frame_points[] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.3, 0.3}, {0.7, 0.3}, {0.7, 0.7}, {0.3, 0.7}};
static const inkhit_transform frame_transform = {24, 0, 0, -24, 0, 60};

static inkhit_glyph_placement placement(inkhit_font font, uint32_t glyph, double size, double x, double y) {
    inkhit_glyph_placement p;
    inkhit_transform identity = INKHIT_TRANSFORM_IDENTITY;
    p.font = font;
    p.glyph = glyph;
    p.size = size;
    p.origin.x = x;
    p.origin.y = y;
    p.transform = identity;
    return p;
}

static inkhit_index index_for_threads;

static void test_index(void) {
    inkhit_shape_cache cache;
    OK(inkhit_shape_cache_create(SIZE_MAX, &cache));
    inkhit_shape_cache_info ci;
    OK(inkhit_shape_cache_get_info(cache, &ci));
    CHECK(ci.glyph_shapes == 0 && ci.outline_shapes == 0 && ci.glyph_bytes == 0 && ci.outline_bytes == 0);

    inkhit_builder builder;
    OK(inkhit_builder_create(0, &builder));
    /* Placement 0: the frame (custom outline, cached under key 7). */
    size_t k = 99;
    OK(inkhit_builder_add_outline(builder, cache, 7, frame_verbs, 10, frame_points, 8, INKHIT_FILL_EVEN_ODD, &frame_transform, &k));
    CHECK(k == 0);
    /* Placements 1 ... 5: "Hello" at 32 px on the baseline y = 200, pens from the advances. */
    const char *hello = "Hello";
    inkhit_glyph_placement glyphs[5];
    double pen = 10;
    for (int i = 0; i < 5; i++) {
        uint32_t g = 0;
        OK(inkhit_font_glyph(sans, (uint32_t)hello[i], &g));
        glyphs[i] = placement(sans, g, 32, pen, 200);
        double a = 0;
        OK(inkhit_font_advance(sans, g, &a));
        pen += a * 32 / 2048;
    }
    OK(inkhit_builder_add_glyph(builder, cache, &glyphs[0], &k));
    CHECK(k == 1);
    size_t added = 0;
    OK(inkhit_builder_add_glyphs(builder, cache, glyphs + 1, 4, &added));
    CHECK(added == 4);
    /* Placement 6: the frame again, 100 px to the right, from the cache (no new outline shape). */
    inkhit_transform moved = frame_transform;
    moved.tx = 100;
    OK(inkhit_builder_add_outline(builder, cache, 7, frame_verbs, 10, frame_points, 8, INKHIT_FILL_EVEN_ODD, &moved, NULL));
    /* Placement 7: the frame without a cache and without a transform (identity: a 1 x 1 px frame at the origin). */
    OK(inkhit_builder_add_outline(builder, NULL, 0, frame_verbs, 10, frame_points, 8, INKHIT_FILL_NONZERO, NULL, &k));
    CHECK(k == 7);
    OK(inkhit_shape_cache_get_info(cache, &ci));
    CHECK(ci.outline_shapes == 1 && ci.outline_bytes > 0);
    CHECK(ci.glyph_shapes == 4 && ci.glyph_bytes > 0);        /* H, e, l, o: "l" twice, one shape */
    size_t count = 0;
    OK(inkhit_builder_count(builder, &count));
    CHECK(count == 8);

    /* Hostile adds: each fails and adds nothing. */
    inkhit_glyph_placement bad = glyphs[0];
    bad.glyph = 70000;
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_GLYPH, "glyph id 70000 is out of range");
    bad = glyphs[0];
    bad.size = NAN;
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_INVALID_ARGUMENT, "placement->size must be finite");
    bad.size = 0;
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_INVALID_ARGUMENT, "placement->size must be > 0");
    bad = glyphs[0];
    bad.origin.x = INFINITY;
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_INVALID_ARGUMENT, "placement->origin");
    bad = glyphs[0];
    bad.transform.a = 0;
    bad.transform.d = 0;                            /* a struct of zeros is singular, not the identity */
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_PLACEMENT, "is singular (");
    bad = glyphs[0];
    bad.transform.c = NAN;
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_INVALID_ARGUMENT, "placement->transform");
    /* The builder's own transform check (1.3), for adapters: the rule every add applies. */
    inkhit_transform plain = INKHIT_TRANSFORM_IDENTITY, rank_one = {1, 2, 2, 4, 0, 0}, tiny = {1e-31, 0, 0, 1e-31, 0, 0};
    inkhit_transform inf = {1, 0, 0, 1, INFINITY, 0};
    EXPECT(inkhit_transform_validate(&plain), INKHIT_OK, "");
    EXPECT(inkhit_transform_validate(&rank_one), INKHIT_ERROR_PLACEMENT, "singular");
    EXPECT(inkhit_transform_validate(&tiny), INKHIT_ERROR_PLACEMENT, "out of range");
    EXPECT(inkhit_transform_validate(&inf), INKHIT_ERROR_PLACEMENT, "NaN or infinite");
    EXPECT(inkhit_transform_validate(NULL), INKHIT_ERROR_NULL_ARGUMENT, "transform is NULL");
    CHECK(INKHIT_VIEW_LIMIT == 1e9);
    bad = glyphs[0];
    bad.size = 1e-12;
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_PLACEMENT, "too small");
    bad = glyphs[0];
    bad.font = NULL;
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_NULL_ARGUMENT, "placement->font");
    bad.font = (inkhit_font)builder;
    EXPECT(inkhit_builder_add_glyph(builder, cache, &bad, &k), INKHIT_ERROR_INVALID_HANDLE, "placement->font is a builder handle");
    EXPECT(inkhit_builder_add_glyph(builder, cache, NULL, &k), INKHIT_ERROR_NULL_ARGUMENT, "placement is NULL");
    EXPECT(inkhit_builder_add_glyph(NULL, cache, &glyphs[0], &k), INKHIT_ERROR_NULL_ARGUMENT, "builder is NULL");
    EXPECT(inkhit_builder_add_glyph(builder, (inkhit_shape_cache)builder, &glyphs[0], &k), INKHIT_ERROR_INVALID_HANDLE, "cache");
    inkhit_glyph_placement batch[3] = {glyphs[0], glyphs[1], glyphs[2]};
    batch[2].glyph = 70000;
    added = 99;
    EXPECT(inkhit_builder_add_glyphs(builder, cache, batch, 3, &added), INKHIT_ERROR_GLYPH, "placements[2]: glyph id 70000");
    CHECK(added == 2);                              /* the two before it were added */
    EXPECT(inkhit_builder_add_glyphs(builder, cache, NULL, 3, &added), INKHIT_ERROR_NULL_ARGUMENT, "placements");
    CHECK(added == 0);
    OK(inkhit_builder_add_glyphs(builder, cache, NULL, 0, &added));
    const uint8_t bad_verbs[] = {INKHIT_VERB_MOVE, 9, INKHIT_VERB_CLOSE};
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, bad_verbs, 3, frame_points, 1, INKHIT_FILL_NONZERO, NULL, &k),
           INKHIT_ERROR_INVALID_ARGUMENT, "verbs[1] is 9");
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, frame_verbs, 10, frame_points, 7, INKHIT_FILL_NONZERO, NULL, &k),
           INKHIT_ERROR_INVALID_ARGUMENT, "take 8 points");
    inkhit_point nan_points[8];
    memcpy(nan_points, frame_points, sizeof nan_points);
    nan_points[2].y = NAN;
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, frame_verbs, 10, nan_points, 8, INKHIT_FILL_NONZERO, NULL, &k),
           INKHIT_ERROR_INVALID_ARGUMENT, "points[2]");
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, frame_verbs, 10, frame_points, 8, 7, NULL, &k),
           INKHIT_ERROR_INVALID_ARGUMENT, "fill_rule 7");
    inkhit_transform flat = {1, 0, 2, 0, 0, 0};      /* collapses the plane to a line */
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, frame_verbs, 10, frame_points, 8, INKHIT_FILL_NONZERO, &flat, &k),
           INKHIT_ERROR_PLACEMENT, "singular");
    inkhit_transform far = {1, 0, 0, 1, 2e9, 0};
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, frame_verbs, 10, frame_points, 8, INKHIT_FILL_NONZERO, &far, &k),
           INKHIT_ERROR_PLACEMENT, "1e9");
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, NULL, 10, frame_points, 8, INKHIT_FILL_NONZERO, NULL, &k),
           INKHIT_ERROR_NULL_ARGUMENT, "verbs");
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, frame_verbs, 2000000, frame_points, 8, INKHIT_FILL_NONZERO, NULL, &k),
           INKHIT_ERROR_LIMIT, "verb_count 2000000");
    /* An empty outline is a placement without ink. */
    OK(inkhit_builder_add_outline(builder, NULL, 0, NULL, 0, NULL, 0, INKHIT_FILL_NONZERO, NULL, &k));
    CHECK(k == 10);
    OK(inkhit_builder_count(builder, &count));
    CHECK(count == 11);                             /* 8, the 2 of the failed batch, the empty outline */
    EXPECT(inkhit_builder_count(builder, NULL), INKHIT_ERROR_NULL_ARGUMENT, "count_out");
    EXPECT(inkhit_builder_create(-1, &builder), INKHIT_ERROR_INVALID_ARGUMENT, "tolerance");
    EXPECT(inkhit_builder_create(NAN, &builder), INKHIT_ERROR_INVALID_ARGUMENT, "tolerance");

    inkhit_index index;
    OK(inkhit_builder_build(builder, &index));
    EXPECT(inkhit_builder_build(builder, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    inkhit_index_info ii;
    OK(inkhit_index_get_info(index, &ii));
    CHECK(ii.placements == 11);
    CHECK(ii.unique_shapes >= 5 && ii.bytes_beyond_shapes > 0);
    CHECK(near(ii.tolerance, 0.01, 1e-15));
    CHECK(ii.bounds.min_x <= 0 && ii.bounds.max_x >= 124 && ii.bounds.max_y > 199);

    /* The frame: exact answers (an outline without curves is exact). */
    inkhit_hit h;
    OK(inkhit_index_hit(index, 12, 48, 0, &h));     /* the hole */
    CHECK(h.hit == 0 && h.placement == -1 && isnan(h.distance));
    OK(inkhit_index_hit(index, 3, 48, 0, &h));      /* on the frame, 3 px inside its left edge */
    CHECK(h.hit == 1 && h.inside == 1 && h.placement == 0 && near(h.distance, -3, 1e-4));
    OK(inkhit_index_hit(index, -2, 48, 3, &h));     /* 2 px left of it: within 3 px */
    CHECK(h.hit == 1 && h.inside == 0 && h.placement == 0 && near(h.distance, 2, 1e-4));
    OK(inkhit_index_hit(index, -2, 48, 1.5, &h));   /* ... not within 1.5 px */
    CHECK(h.hit == 0);
    OK(inkhit_index_hit(index, -2, 48, 2.001, &h));
    CHECK(h.hit == 1 && h.placement == 0);
    OK(inkhit_index_hit(index, 12, 48, 5, &h));     /* in the hole, 4.8 px from its edges */
    CHECK(h.hit == 1 && h.inside == 0 && near(h.distance, 4.8, 1e-4));
    OK(inkhit_index_hit(index, 103, 48, 0, &h));    /* the moved frame */
    CHECK(h.hit == 1 && h.placement == 6 && near(h.distance, -3, 1e-4));
    OK(inkhit_index_hit(index, 0.5, 0.15, 0, &h));  /* the 1 px frame at the origin (nonzero: no hole) */
    CHECK(h.hit == 1 && h.placement == 7);
    OK(inkhit_index_hit(index, 0.5, 0.5, 0, &h));   /* its inner square: nonzero winding 2, ink */
    CHECK(h.hit == 1 && h.placement == 7 && h.inside == 1);
    /* "Hello": the H's left stem (x 13.1 ... 16.3 px) holds the H of placement 1 and, on top of it, the H the
     * failed batch added (placement 8): the topmost wins. Far away a miss; with an infinite radius the
     * nearest glyph. */
    OK(inkhit_index_hit(index, 14, 190, 0, &h));
    CHECK(h.hit == 1 && h.inside == 1 && h.placement == 8 && h.distance < 0);
    OK(inkhit_index_hit(index, 12, 190, 0, &h));
    CHECK(h.hit == 0);
    OK(inkhit_index_hit(index, 12, 190, 2, &h));
    CHECK(h.hit == 1 && h.inside == 0 && h.placement == 8 && near(h.distance, 13.140625 - 12, 0.011));
    OK(inkhit_index_hit(index, 1000, 1000, 0, &h));
    CHECK(h.hit == 0);
    OK(inkhit_index_hit(index, 1000, 1000, INFINITY, &h));
    CHECK(h.hit == 1 && h.inside == 0 && h.distance > 800);
    int32_t inside = 7;
    OK(inkhit_index_contains(index, 3, 48, &inside));
    CHECK(inside == 1);
    OK(inkhit_index_contains(index, 12, 48, &inside));
    CHECK(inside == 0);

    /* Batch answers equal single ones. */
    inkhit_point pts[6] = {{12, 48}, {3, 48}, {-2, 48}, {103, 48}, {14, 190}, {60, 185}};
    inkhit_hit many[6];
    OK(inkhit_index_hits(index, pts, 6, 3, many));
    for (int i = 0; i < 6; i++) {
        OK(inkhit_index_hit(index, pts[i].x, pts[i].y, 3, &h));
        CHECK(many[i].hit == h.hit && many[i].inside == h.inside && many[i].placement == h.placement);
        CHECK(h.hit == 0 || many[i].distance == h.distance);
    }
    OK(inkhit_index_hits(index, NULL, 0, 0, NULL));

    /* Containment only: the topmost placement on ink (the H of placement 8 over that of placement 1), -1
     * elsewhere; everywhere the placement a hit at radius 0 names. */
    int64_t top = 7;
    OK(inkhit_index_topmost(index, 14, 190, &top));
    CHECK(top == 8);
    OK(inkhit_index_topmost(index, 12, 48, &top));
    CHECK(top == -1);
    int agree = 1, on_ink = 0;
    for (double gx = -10.37; gx < 140; gx += 1.3) {
        for (double gy = -5.21; gy < 215; gy += 1.7) {
            OK(inkhit_index_topmost(index, gx, gy, &top));
            OK(inkhit_index_hit(index, gx, gy, 0, &h));
            agree &= top == (h.hit ? h.placement : -1);
            on_ink += top >= 0;
        }
    }
    CHECK(agree && on_ink > 100);

    /* A prepared radius changes what a query reads, never its answer: an index prepared for 12 px answers
     * every radius (below, at and above both prepared radii) as the default one does. */
    OK(inkhit_builder_set_prepared_radius(builder, 12));
    inkhit_index wide;
    OK(inkhit_builder_build(builder, &wide));
    inkhit_index_info wi;
    OK(inkhit_index_get_info(wide, &wi));
    CHECK(wi.placements == ii.placements && wi.bytes_beyond_shapes > 0);
    const double radii[5] = {0, 2, 3.5, 8, 20};
    agree = 1;
    int near_hits = 0;
    for (int r = 0; r < 5; r++) {
        for (double gx = -30.13; gx < 160; gx += 2.9) {
            for (double gy = -25.77; gy < 235; gy += 3.1) {
                inkhit_hit a, b;
                OK(inkhit_index_hit(index, gx, gy, radii[r], &a));
                OK(inkhit_index_hit(wide, gx, gy, radii[r], &b));
                agree &= a.hit == b.hit && a.inside == b.inside && a.placement == b.placement;
                agree &= !a.hit || near(a.distance, b.distance, 1e-9 * (1 + fabs(a.distance)));
                near_hits += b.hit && !b.inside;
            }
        }
    }
    CHECK(agree && near_hits > 100);
    OK(inkhit_index_release(wide));
    OK(inkhit_builder_set_prepared_radius(builder, INFINITY));     /* clamped to INKHIT_MAX_PREPARED_RADIUS */
    EXPECT(inkhit_builder_set_prepared_radius(builder, -1), INKHIT_ERROR_INVALID_ARGUMENT, "prepared radius must be >= 0");
    EXPECT(inkhit_builder_set_prepared_radius(builder, NAN), INKHIT_ERROR_INVALID_ARGUMENT, "(got nan)");
    EXPECT(inkhit_builder_set_prepared_radius(NULL, 1), INKHIT_ERROR_NULL_ARGUMENT, "builder");
    EXPECT(inkhit_builder_set_prepared_radius((inkhit_builder)index, 1), INKHIT_ERROR_INVALID_HANDLE, "not a builder handle");
    OK(inkhit_builder_set_prepared_radius(builder, INKHIT_DEFAULT_PREPARED_RADIUS));
    OK(inkhit_builder_set_shape_forms(builder, INKHIT_SHAPE_FORMS_FULL));
    EXPECT(inkhit_builder_set_shape_forms(builder, 3), INKHIT_ERROR_INVALID_ARGUMENT, "(got 3)");
    EXPECT(inkhit_builder_set_shape_forms(builder, -1), INKHIT_ERROR_INVALID_ARGUMENT, "shape forms must be");
    EXPECT(inkhit_builder_set_shape_forms(NULL, 0), INKHIT_ERROR_NULL_ARGUMENT, "builder");
    EXPECT(inkhit_builder_set_shape_forms((inkhit_builder)index, 0), INKHIT_ERROR_INVALID_HANDLE, "not a builder handle");
    OK(inkhit_builder_set_shape_forms(builder, INKHIT_SHAPE_FORMS_WHEN_REUSED));

    /* Hostile queries: a defined answer (a miss) and a status. */
    top = 7;
    EXPECT(inkhit_index_topmost(index, NAN, 48, &top), INKHIT_ERROR_INVALID_ARGUMENT, "not finite");
    CHECK(top == -1);
    EXPECT(inkhit_index_topmost(index, 3, 48, NULL), INKHIT_ERROR_NULL_ARGUMENT, "placement_out");
    EXPECT(inkhit_index_topmost((inkhit_index)sans, 3, 48, &top), INKHIT_ERROR_INVALID_HANDLE, "not an index handle");
    h.hit = 7;
    EXPECT(inkhit_index_hit(index, NAN, 48, 0, &h), INKHIT_ERROR_INVALID_ARGUMENT, "(nan, 48) is not finite");
    CHECK(h.hit == 0 && h.placement == -1);
    EXPECT(inkhit_index_hit(index, 3, INFINITY, 0, &h), INKHIT_ERROR_INVALID_ARGUMENT, "not finite");
    EXPECT(inkhit_index_hit(index, 3, 48, -1, &h), INKHIT_ERROR_INVALID_ARGUMENT, "radius must be >= 0");
    EXPECT(inkhit_index_hit(index, 3, 48, NAN, &h), INKHIT_ERROR_INVALID_ARGUMENT, "radius");
    EXPECT(inkhit_index_hit(index, 3, 48, 0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out is NULL");
    h.hit = 7;
    EXPECT(inkhit_index_hit(NULL, 3, 48, 0, &h), INKHIT_ERROR_NULL_ARGUMENT, "index is NULL");
    CHECK(h.hit == 0);
    EXPECT(inkhit_index_hit((inkhit_index)sans, 3, 48, 0, &h), INKHIT_ERROR_INVALID_HANDLE, "is a font handle, not an index handle");
    inkhit_point with_nan[3] = {{3, 48}, {NAN, 1}, {12, 48}};
    many[0].hit = many[1].hit = many[2].hit = 7;
    EXPECT(inkhit_index_hits(index, with_nan, 3, 0, many), INKHIT_ERROR_INVALID_ARGUMENT, "points[1] (nan, 1) is not finite");
    CHECK(many[0].hit == 1 && many[0].placement == 0 && many[1].hit == 0 && many[2].hit == 0);
    EXPECT(inkhit_index_hits(index, NULL, 2, 0, many), INKHIT_ERROR_NULL_ARGUMENT, "points");
    EXPECT(inkhit_index_hits(index, pts, 2, 0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    EXPECT(inkhit_index_hits(index, pts, 2, -3, many), INKHIT_ERROR_INVALID_ARGUMENT, "radius");
    EXPECT(inkhit_index_hits(index, pts, SIZE_MAX, 0, many), INKHIT_ERROR_INVALID_ARGUMENT, "beyond the address space");
    EXPECT(inkhit_index_contains(index, NAN, 0, &inside), INKHIT_ERROR_INVALID_ARGUMENT, "not finite");
    CHECK(inside == 0);
    EXPECT(inkhit_index_contains(index, 0, 0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "inside_out");
    EXPECT(inkhit_index_get_info(index, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");

    /* The cache: cleared, then released; the index keeps its shapes. */
    OK(inkhit_shape_cache_clear(cache));
    OK(inkhit_shape_cache_get_info(cache, &ci));
    CHECK(ci.glyph_shapes == 0 && ci.outline_shapes == 0 && ci.outline_bytes == 0);
    OK(inkhit_shape_cache_release(cache));
    EXPECT(inkhit_shape_cache_release(cache), INKHIT_ERROR_INVALID_HANDLE, "already released");
    EXPECT(inkhit_shape_cache_clear(cache), INKHIT_ERROR_INVALID_HANDLE, "already released");
    EXPECT(inkhit_shape_cache_get_info(NULL, &ci), INKHIT_ERROR_NULL_ARGUMENT, "cache is NULL");
    EXPECT(inkhit_shape_cache_create(0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    OK(inkhit_shape_cache_release(NULL));
    /* 0 means the default budget (it keeps shapes); INKHIT_SHAPE_CACHE_KEEP_NOTHING keeps none. */
    {
        inkhit_shape_cache by_default, keeping_nothing;
        inkhit_builder b;
        OK(inkhit_shape_cache_create(0, &by_default));
        OK(inkhit_shape_cache_create(INKHIT_SHAPE_CACHE_KEEP_NOTHING, &keeping_nothing));
        OK(inkhit_builder_create(0, &b));
        OK(inkhit_builder_add_glyph(b, by_default, &glyphs[0], NULL));
        OK(inkhit_builder_add_glyph(b, keeping_nothing, &glyphs[0], NULL));
        OK(inkhit_shape_cache_get_info(by_default, &ci));
        CHECK(ci.glyph_shapes == 1 && ci.glyph_bytes > 0);
        OK(inkhit_shape_cache_get_info(keeping_nothing, &ci));
        CHECK(ci.glyph_shapes == 0 && ci.glyph_bytes == 0);
        CHECK(INKHIT_SHAPE_CACHE_DEFAULT_BYTES == (size_t)64 << 20);
        OK(inkhit_builder_release(b));
        OK(inkhit_shape_cache_release(by_default));
        OK(inkhit_shape_cache_release(keeping_nothing));
    }
    OK(inkhit_builder_release(builder));
    EXPECT(inkhit_builder_release(builder), INKHIT_ERROR_INVALID_HANDLE, "already released");
    EXPECT(inkhit_builder_count(builder, &count), INKHIT_ERROR_INVALID_HANDLE, "already released");
    OK(inkhit_index_hit(index, 3, 48, 0, &h));      /* still answers: it owns its shapes */
    CHECK(h.hit == 1 && h.placement == 0);
    index_for_threads = index;
}

/* ============================================================================================== */

/* The glyph of a layout whose cluster starts at UTF-16 offset `utf16`. */
static int glyph_at(inkhit_layout layout, int64_t utf16, inkhit_layout_glyph *out) {
    inkhit_layout_info info;
    if (inkhit_layout_get_info(layout, &info) != INKHIT_OK) return 0;
    for (size_t i = 0; i < (size_t)info.glyph_count; i++) {
        OK(inkhit_layout_glyphs(layout, i, 1, out));
        if (out->utf16_start == utf16) return 1;
    }
    return 0;
}

static inkhit_layout layout_for_scene;

static void test_layout(void) {
    inkhit_layout_options o;
    OK(inkhit_layout_options_init(&o));
    CHECK(o.size == 16 && o.width == 0 && o.transform.a == 1 && o.transform.d == 1 && o.max_lines == 0);
    o.fonts = &sans;
    o.font_count = 1;
    /* "Tap the link, not the gap.": the link is "link", bytes (= UTF-16 units: ASCII) 8 ..< 12. */
    const char *text = "Tap the link, not the gap.";
    inkhit_text_link link = {8, 12};
    o.links = &link;
    o.link_count = 1;
    inkhit_layout layout;
    OK(inkhit_layout_create_utf8(text, strlen(text), &o, &layout));
    inkhit_layout_info info;
    OK(inkhit_layout_get_info(layout, &info));
    CHECK(info.line_count == 1 && info.glyph_count == 26 && info.utf16_length == 26 && info.utf8_length == 26);
    CHECK(info.truncated_start == -1 && info.truncated_end == -1);
    inkhit_layout_line line;
    OK(inkhit_layout_lines(layout, 0, 1, &line));
    CHECK(line.utf16_start == 0 && line.utf16_end == 26 && line.baseline > 0 && line.box.min_y == 0);

    /* The "l" of "link": its stem is centred in its advance, ~12 px tall at 16 px. */
    inkhit_layout_glyph l;
    CHECK(glyph_at(layout, 8, &l));
    CHECK(l.font == 0 && l.line == 0 && l.utf16_end == 9 && l.right_to_left == 0 && l.ellipsis == 0 && l.size == 16);
    double stem_x = l.x + l.advance / 2, stem_y = l.y - 5;
    inkhit_text_hit th;
    OK(inkhit_layout_hit(layout, stem_x, stem_y, 0, INKHIT_TEXT_HIT_INK, &th));
    CHECK(th.hit == 1 && th.kind == INKHIT_TEXT_HIT_KIND_INK && th.link == 0 && th.attachment == -1);
    CHECK(th.utf16_start == 8 && th.utf16_end == 9 && th.utf8_start == 8 && th.utf8_end == 9);
    CHECK(th.character == 8 && th.line == 0 && th.distance < 0 && th.placement >= 0);
    OK(inkhit_layout_link_hit(layout, stem_x, stem_y, 0, &th));
    CHECK(th.hit == 1 && th.link == 0 && th.utf16_start == 8);
    /* The space after "link,": no ink (a miss), a box in the character-box mode, no link within 1 px. */
    inkhit_layout_glyph space;
    CHECK(glyph_at(layout, 13, &space));
    double space_x = space.x + space.advance / 2;
    OK(inkhit_layout_hit(layout, space_x, stem_y, 0, INKHIT_TEXT_HIT_INK, &th));
    CHECK(th.hit == 0 && th.link == -1 && th.utf16_start == -1 && isnan(th.distance));
    OK(inkhit_layout_hit(layout, space_x, stem_y, 0, INKHIT_TEXT_HIT_CHARACTER_BOXES, &th));
    CHECK(th.hit == 1 && th.kind == INKHIT_TEXT_HIT_KIND_BOX && th.utf16_start == 13);
    OK(inkhit_layout_hit(layout, space_x, stem_y, 0, INKHIT_TEXT_HIT_INK_OR_EMPTY_GLYPH_BOXES, &th));
    CHECK(th.hit == 1 && th.kind == INKHIT_TEXT_HIT_KIND_BOX && th.utf16_start == 13);
    OK(inkhit_layout_hit(layout, space_x, stem_y, 0, INKHIT_TEXT_HIT_LINE_BOXES, &th));
    CHECK(th.hit == 1 && th.kind == INKHIT_TEXT_HIT_KIND_BOX && th.utf16_start == 0 && th.utf16_end == 26);
    OK(inkhit_layout_link_hit(layout, space_x, stem_y, 1, &th));
    CHECK(th.hit == 0 && th.link == -1);
    /* The caret left of the "l" goes before it; the caret rect of offset 8 is at its origin. */
    inkhit_caret caret;
    OK(inkhit_layout_caret(layout, l.x + 0.5, stem_y, &caret));
    CHECK(caret.found == 1 && caret.utf16 == 8 && caret.utf8 == 8 && caret.line == 0);
    inkhit_caret_rect cr;
    OK(inkhit_layout_caret_rect(layout, 8, INKHIT_AFFINITY_DOWNSTREAM, &cr));
    CHECK(cr.found == 1 && near(cr.x, l.x, 1e-9) && cr.top < cr.bottom && cr.view_top.x == cr.x && cr.line == 0);

    /* Hostile queries. */
    th.hit = 7;
    EXPECT(inkhit_layout_hit(layout, NAN, 0, 0, INKHIT_TEXT_HIT_INK, &th), INKHIT_ERROR_INVALID_ARGUMENT, "not finite");
    CHECK(th.hit == 0);
    EXPECT(inkhit_layout_hit(layout, 0, 0, -1, INKHIT_TEXT_HIT_INK, &th), INKHIT_ERROR_INVALID_ARGUMENT, "radius");
    EXPECT(inkhit_layout_hit(layout, 0, 0, 0, 9, &th), INKHIT_ERROR_INVALID_ARGUMENT, "mode 9");
    EXPECT(inkhit_layout_hit(layout, 0, 0, 0, INKHIT_TEXT_HIT_INK, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    EXPECT(inkhit_layout_hit(NULL, 0, 0, 0, INKHIT_TEXT_HIT_INK, &th), INKHIT_ERROR_NULL_ARGUMENT, "layout is NULL");
    EXPECT(inkhit_layout_link_hit(layout, 0, INFINITY, 0, &th), INKHIT_ERROR_INVALID_ARGUMENT, "not finite");
    EXPECT(inkhit_layout_link_hit(layout, 0, 0, NAN, &th), INKHIT_ERROR_INVALID_ARGUMENT, "radius");
    EXPECT(inkhit_layout_caret(layout, NAN, 0, &caret), INKHIT_ERROR_INVALID_ARGUMENT, "not finite");
    CHECK(caret.found == 0);
    EXPECT(inkhit_layout_caret(layout, 0, 0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    EXPECT(inkhit_layout_caret_rect(layout, 27, INKHIT_AFFINITY_DOWNSTREAM, &cr), INKHIT_ERROR_INVALID_ARGUMENT, "past the end");
    CHECK(cr.found == 0);
    EXPECT(inkhit_layout_caret_rect(layout, 8, 5, &cr), INKHIT_ERROR_INVALID_ARGUMENT, "affinity 5");
    EXPECT(inkhit_layout_glyphs(layout, 20, 7, &l), INKHIT_ERROR_INVALID_ARGUMENT, "go past");
    EXPECT(inkhit_layout_glyphs(layout, 0, 1, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    OK(inkhit_layout_glyphs(layout, 26, 0, NULL));
    EXPECT(inkhit_layout_lines(layout, 1, 1, &line), INKHIT_ERROR_INVALID_ARGUMENT, "go past");
    EXPECT(inkhit_layout_get_info(layout, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");

    /* The same text as UTF-16: the same answer at the same point. */
    uint16_t units[64];
    for (size_t i = 0; i < strlen(text); i++) units[i] = (uint16_t)text[i];
    inkhit_layout layout16;
    OK(inkhit_layout_create_utf16(units, strlen(text), &o, &layout16));
    OK(inkhit_layout_hit(layout16, stem_x, stem_y, 0, INKHIT_TEXT_HIT_INK, &th));
    CHECK(th.hit == 1 && th.link == 0 && th.utf16_start == 8 && th.utf8_start == 8);
    OK(inkhit_layout_release(layout16));

    /* Multi-byte UTF-8: "héllo wörld ￼ end" — offsets in bytes; answers in both units. */
    const char *accented = "h\xc3\xa9llo w\xc3\xb6rld \xef\xbf\xbc end";
    size_t n = strlen(accented);                    /* 21 bytes, 17 UTF-16 units */
    inkhit_text_link world = {7, 13};               /* "wörld": bytes 7 ..< 13 */
    inkhit_text_attachment image = {14, 20, 12, 4, 3};
    o.links = &world;
    o.attachments = &image;
    o.attachment_count = 1;
    inkhit_layout accented_layout;
    OK(inkhit_layout_create_utf8(accented, n, &o, &accented_layout));
    OK(inkhit_layout_get_info(accented_layout, &info));
    CHECK(n == 21 && info.utf8_length == 21 && info.utf16_length == 17);
    inkhit_layout_glyph r;                          /* the "r" of "wörld": UTF-16 offset 8, byte 10 */
    CHECK(glyph_at(accented_layout, 8, &r));
    OK(inkhit_layout_hit(accented_layout, r.x + 1.5, r.y - 4, 1, INKHIT_TEXT_HIT_INK, &th));
    CHECK(th.hit == 1 && th.link == 0 && th.utf16_start == 8 && th.utf8_start == 10 && th.utf8_end == 11);
    /* The attachment: 20 x (12 + 4) px at the caret of its placeholder, on the baseline. */
    OK(inkhit_layout_caret_rect(accented_layout, 14, INKHIT_AFFINITY_DOWNSTREAM, &cr));
    CHECK(cr.found == 1);
    OK(inkhit_layout_hit(accented_layout, cr.x + 10, r.y - 6, 0, INKHIT_TEXT_HIT_INK, &th));
    CHECK(th.hit == 1 && th.attachment == 0 && th.placement == -1 && th.utf16_start == 12 && th.utf8_start == 14 && th.utf8_end == 17);
    OK(inkhit_layout_caret(accented_layout, r.x + 0.2, r.y - 4, &caret));
    CHECK(caret.found == 1 && caret.utf16 == 8 && caret.utf8 == 10);
    EXPECT(inkhit_layout_caret_rect(accented_layout, 2, INKHIT_AFFINITY_DOWNSTREAM, &cr), INKHIT_ERROR_INVALID_TEXT,
           "offset 2 is inside the UTF-8 encoding");
    OK(inkhit_layout_release(accented_layout));

    /* Hostile layouts. */
    inkhit_layout bad = NULL;
    inkhit_text_link inside_e = {2, 5};
    o.links = &inside_e;
    EXPECT(inkhit_layout_create_utf8(accented, n, &o, &bad), INKHIT_ERROR_INVALID_TEXT, "links[0].start 2 is inside");
    inkhit_text_link past = {7, 40};
    o.links = &past;
    EXPECT(inkhit_layout_create_utf8(accented, n, &o, &bad), INKHIT_ERROR_LAYOUT, "links[0].end 40 is past the end");
    inkhit_text_link empty = {7, 7};
    o.links = &empty;
    EXPECT(inkhit_layout_create_utf8(accented, n, &o, &bad), INKHIT_ERROR_LAYOUT, "links[0] 7..<7 is empty");
    o.links = &world;
    inkhit_text_attachment misplaced = {0, 20, 12, 4, 0};
    o.attachments = &misplaced;
    EXPECT(inkhit_layout_create_utf8(accented, n, &o, &bad), INKHIT_ERROR_LAYOUT, "U+FFFC");
    inkhit_text_attachment nan_width = {14, NAN, 12, 4, 0};
    o.attachments = &nan_width;
    EXPECT(inkhit_layout_create_utf8(accented, n, &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "attachments[0].width");
    o.attachments = NULL;
    EXPECT(inkhit_layout_create_utf8(accented, n, &o, &bad), INKHIT_ERROR_NULL_ARGUMENT, "options->attachments");
    o.attachment_count = 0;
    EXPECT(inkhit_layout_create_utf8("ab\xff" "cd", 5, &o, &bad), INKHIT_ERROR_INVALID_TEXT, "not valid UTF-8 (an invalid sequence at byte 2)");
    EXPECT(inkhit_layout_create_utf8("\xe2\x82", 2, &o, &bad), INKHIT_ERROR_INVALID_TEXT, "UTF-8");
    uint16_t lone[3] = {'a', 0xDC00, 'b'};
    o.links = NULL;
    o.link_count = 0;
    EXPECT(inkhit_layout_create_utf16(lone, 3, &o, &bad), INKHIT_ERROR_INVALID_TEXT, "unpaired surrogate at unit 1");
    EXPECT(inkhit_layout_create_utf8(NULL, 3, &o, &bad), INKHIT_ERROR_NULL_ARGUMENT, "text");
    EXPECT(inkhit_layout_create_utf8("abc", 3, NULL, &bad), INKHIT_ERROR_NULL_ARGUMENT, "options");
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    EXPECT(inkhit_layout_create_utf8("abc", SIZE_MAX / 2, &o, &bad), INKHIT_ERROR_LIMIT, "more than a layout takes");
    o.size = NAN;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "options->size must be finite");
    o.size = 16;
    o.width = -5;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "options->width");
    o.width = 0;
    o.alignment = 12;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "alignment 12");
    o.alignment = INKHIT_ALIGN_LEFT;
    o.direction = -1;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "direction -1");
    o.direction = INKHIT_DIRECTION_AUTO;
    o.transform.d = 0;
    o.transform.b = 0;
    o.transform.a = 0;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "not invertible");
    o.transform.a = o.transform.d = 1;
    o.tolerance = -1;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "tolerance");
    o.tolerance = 0;
    o.font_count = 0;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "at least one font");
    inkhit_font fonts_with_null[2] = {sans, NULL};
    o.fonts = fonts_with_null;
    o.font_count = 2;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_NULL_ARGUMENT, "options->fonts[1] is NULL");
    inkhit_font released = NULL;
    OK(inkhit_font_from_path(SANS, 0, &released));
    OK(inkhit_font_release(released));
    fonts_with_null[1] = released;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_INVALID_HANDLE, "options->fonts[1] is a font handle that was already released");
    o.fonts = NULL;
    EXPECT(inkhit_layout_create_utf8("abc", 3, &o, &bad), INKHIT_ERROR_NULL_ARGUMENT, "options->fonts");
    CHECK(bad == NULL);
    EXPECT(inkhit_layout_options_init_sized(NULL, sizeof(inkhit_layout_options)), INKHIT_ERROR_NULL_ARGUMENT, "options");

    /* Wrapping and max_lines: a long paragraph in 120 px cut after 2 lines ends in an ellipsis. */
    OK(inkhit_layout_options_init(&o));
    o.fonts = &sans;
    o.font_count = 1;
    o.width = 120;
    o.max_lines = 2;
    const char *paragraph = "Alice was beginning to get very tired of sitting by her sister on the bank.";
    inkhit_layout cut;
    OK(inkhit_layout_create_utf8(paragraph, strlen(paragraph), &o, &cut));
    OK(inkhit_layout_get_info(cut, &info));
    CHECK(info.line_count == 2 && info.truncated_start > 0 && info.truncated_end == (int64_t)strlen(paragraph));
    CHECK(info.bounds.max_x <= 120.5 && info.bounds.max_y > 30);
    inkhit_layout_glyph last;
    OK(inkhit_layout_glyphs(cut, (size_t)info.glyph_count - 1, 1, &last));
    CHECK(last.ellipsis == 1 && last.line == 1);
    OK(inkhit_layout_release(cut));

    layout_for_scene = layout;
    EXPECT(inkhit_layout_release((inkhit_layout)sans), INKHIT_ERROR_INVALID_HANDLE, "not a layout handle");
}

/* ============================================================================================== */

static inkhit_node node(uint64_t id, double x, double y, double w, double h, double tx, double ty) {
    inkhit_node n;
    OK(inkhit_node_init(&n, id));
    n.bounds.min_x = x;
    n.bounds.min_y = y;
    n.bounds.max_x = x + w;
    n.bounds.max_y = y + h;
    n.transform.tx = tx;
    n.transform.ty = ty;
    return n;
}

static inkhit_snapshot snapshot_for_threads;

static void test_scene(void) {
    /* The README's scene: a screen that takes no touches itself, an avatar ellipse, a small button grown to
     * 44 x 44 about its centre. */
    inkhit_node screen = node(1, 0, 0, 320, 480, 0, 0);
    screen.pointer_events = INKHIT_POINTER_BOX_NONE;
    inkhit_scene scene;
    OK(inkhit_scene_create(&screen, &scene));
    inkhit_node avatar = node(2, 0, 0, 40, 40, 10, 10);
    avatar.shape = INKHIT_SHAPE_ELLIPSE;
    OK(inkhit_scene_add(scene, 1, &avatar));
    inkhit_node like = node(3, 0, 0, 18, 18, 60, 21);
    like.min_width = like.min_height = 44;
    OK(inkhit_scene_add(scene, 1, &like));
    /* A text node showing the layout at (0, 300); a triangle path; a round rect; a hidden node on top. */
    inkhit_node label = node(4, 0, 0, 300, 30, 0, 300);
    label.shape = INKHIT_SHAPE_TEXT;
    label.text = layout_for_scene;
    OK(inkhit_scene_add(scene, 1, &label));
    inkhit_node triangle = node(5, 0, 0, 100, 100, 200, 100);
    const uint8_t verbs[] = {INKHIT_VERB_MOVE, INKHIT_VERB_LINE, INKHIT_VERB_LINE, INKHIT_VERB_CLOSE};
    const inkhit_point corners[] = {{0, 0}, {100, 0}, {0, 100}};
    triangle.shape = INKHIT_SHAPE_PATH;
    triangle.verbs = verbs;
    triangle.verb_count = 4;
    triangle.points = corners;
    triangle.point_count = 3;
    OK(inkhit_scene_add(scene, 1, &triangle));
    inkhit_node card = node(6, 0, 0, 100, 60, 100, 400);
    card.shape = INKHIT_SHAPE_ROUND_RECT;
    card.corner_radius = 20;
    OK(inkhit_scene_add(scene, 1, &card));
    inkhit_node hidden = node(7, 0, 0, 320, 480, 0, 0);
    hidden.flags = INKHIT_NODE_HIDDEN;
    OK(inkhit_scene_add(scene, 1, &hidden));
    size_t count = 0;
    OK(inkhit_scene_count(scene, &count));
    CHECK(count == 7);

    inkhit_snapshot snap;
    OK(inkhit_scene_snapshot(scene, 0, &snap));
    inkhit_scene_hit h;
    OK(inkhit_snapshot_hit(snap, 12, 12, 0, &h));   /* the avatar's corner is outside its ellipse */
    CHECK(h.hit == 0 && h.node == 0 && h.depth == -1 && isnan(h.distance) && h.text.hit == 0);
    OK(inkhit_snapshot_hit(snap, 12, 12, 8, &h));   /* 18√2 - 20 = 5.46 px from its circle (flattened within 0.01 px) */
    CHECK(h.hit == 1 && h.node == 2 && h.inside == 0 && h.depth == 1);
    CHECK(near(h.distance, sqrt(2) * 18 - 20, 0.011) && near(h.local.x, 2, 1e-9) && near(h.local.y, 2, 1e-9));
    OK(inkhit_snapshot_hit(snap, 52, 30, 0, &h));   /* inside the like button's grown box, outside its bounds */
    CHECK(h.hit == 1 && h.node == 3 && h.inside == 1 && near(h.local.x, -8, 1e-9));
    OK(inkhit_snapshot_hit(snap, 5, 5, 0, &h));     /* the screen takes no touches itself */
    CHECK(h.hit == 0);
    OK(inkhit_snapshot_hit(snap, 210, 110, 0, &h)); /* inside the triangle */
    CHECK(h.hit == 1 && h.node == 5 && h.inside == 1 && near(h.distance, -10, 1e-4));
    OK(inkhit_snapshot_hit(snap, 290, 190, 0, &h)); /* beyond its hypotenuse, inside its bounds */
    CHECK(h.hit == 0);
    OK(inkhit_snapshot_hit(snap, 102, 402, 0, &h)); /* in the round rect's cut corner */
    CHECK(h.hit == 0);
    OK(inkhit_snapshot_hit(snap, 150, 430, 0, &h));
    CHECK(h.hit == 1 && h.node == 6);
    inkhit_layout_glyph l;                          /* the "l" of "link" in the text node */
    CHECK(glyph_at(layout_for_scene, 8, &l));
    OK(inkhit_snapshot_hit(snap, l.x + l.advance / 2, 300 + l.y - 5, 0, &h));
    CHECK(h.hit == 1 && h.node == 4 && h.placement >= 0 && h.text.hit == 1 && h.text.link == 0 && h.text.utf16_start == 8);
    uint64_t path[4] = {0, 0, 0, 0};
    size_t depth = 0;
    OK(inkhit_scene_path(scene, 3, path, 4, &depth));
    CHECK(depth == 2 && path[0] == 1 && path[1] == 3);
    OK(inkhit_scene_path(scene, 3, NULL, 0, &depth));
    CHECK(depth == 2);
    OK(inkhit_scene_path(scene, 3, path, 1, &depth));
    CHECK(depth == 2 && path[0] == 1);

    /* Edits: move the button, remove the avatar; the old snapshot keeps the old scene. */
    inkhit_transform away = {1, 0, 0, 1, 200, 21};
    OK(inkhit_scene_set_transform(scene, 3, &away));
    OK(inkhit_scene_remove(scene, 2));
    inkhit_node visible = hidden;
    visible.flags = 0;
    visible.pointer_events = INKHIT_POINTER_NONE;
    OK(inkhit_scene_update(scene, &visible));
    inkhit_snapshot after;
    OK(inkhit_scene_snapshot(scene, 0.02, &after));
    OK(inkhit_snapshot_hit(after, 52, 30, 0, &h));
    CHECK(h.hit == 0);
    OK(inkhit_snapshot_hit(after, 12, 12, 8, &h));
    CHECK(h.hit == 0);
    OK(inkhit_snapshot_hit(after, 209, 30, 0, &h));
    CHECK(h.hit == 1 && h.node == 3);
    OK(inkhit_snapshot_hit(snap, 52, 30, 0, &h));
    CHECK(h.hit == 1 && h.node == 3);
    OK(inkhit_scene_count(scene, &count));
    CHECK(count == 6);

    /* Batch answers equal single ones; non-finite points are misses and an error. */
    inkhit_point pts[4] = {{12, 12}, {52, 30}, {210, 110}, {150, 430}};
    inkhit_scene_hit many[4];
    OK(inkhit_snapshot_hits(snap, pts, 4, 8, many));
    for (int i = 0; i < 4; i++) {
        OK(inkhit_snapshot_hit(snap, pts[i].x, pts[i].y, 8, &h));
        CHECK(many[i].hit == h.hit && many[i].node == h.node && many[i].distance == h.distance);
    }
    pts[2].x = NAN;
    EXPECT(inkhit_snapshot_hits(snap, pts, 4, 8, many), INKHIT_ERROR_INVALID_ARGUMENT, "points[2] (nan, 110)");
    CHECK(many[1].hit == 1 && many[2].hit == 0 && many[3].hit == 1);
    EXPECT(inkhit_snapshot_hits(snap, pts, 4, -8, many), INKHIT_ERROR_INVALID_ARGUMENT, "radius");
    EXPECT(inkhit_snapshot_hits(snap, NULL, 4, 8, many), INKHIT_ERROR_NULL_ARGUMENT, "points");

    /* Hostile edits and queries. */
    EXPECT(inkhit_scene_add(scene, 1, &like), INKHIT_ERROR_SCENE, "another node has this id");
    inkhit_node orphan = node(40, 0, 0, 10, 10, 0, 0);
    EXPECT(inkhit_scene_add(scene, 99, &orphan), INKHIT_ERROR_SCENE, "no node has the id \"99\"");
    EXPECT(inkhit_scene_remove(scene, 1), INKHIT_ERROR_SCENE, "root");
    EXPECT(inkhit_scene_remove(scene, 2), INKHIT_ERROR_SCENE, "no node");
    EXPECT(inkhit_scene_set_transform(scene, 2, &away), INKHIT_ERROR_SCENE, "no node");
    EXPECT(inkhit_scene_update(scene, &orphan), INKHIT_ERROR_SCENE, "no node");
    EXPECT(inkhit_scene_path(scene, 2, path, 4, &depth), INKHIT_ERROR_SCENE, "no node");
    inkhit_transform nan_t = {1, 0, 0, NAN, 0, 0};
    EXPECT(inkhit_scene_set_transform(scene, 3, &nan_t), INKHIT_ERROR_INVALID_ARGUMENT, "transform");
    EXPECT(inkhit_scene_set_transform(scene, 3, NULL), INKHIT_ERROR_NULL_ARGUMENT, "transform");
    orphan.bounds.max_x = NAN;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "node->bounds");
    orphan = node(40, 0, 0, 10, 10, 0, 0);
    orphan.flags = 0x80;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "node->flags 0x80");
    orphan.flags = 0;
    orphan.pointer_events = 4;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "pointer_events 4");
    orphan.pointer_events = INKHIT_POINTER_AUTO;
    orphan.shape = 17;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "shape 17");
    orphan.shape = INKHIT_SHAPE_ROUND_RECT;
    orphan.corner_radius = -1;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "corner_radius");
    orphan.shape = INKHIT_SHAPE_TEXT;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_NULL_ARGUMENT, "node->text");
    orphan.text = (inkhit_layout)sans;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_HANDLE, "node->text is a font handle");
    orphan.text = layout_for_scene;
    orphan.holes = 3;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "holes 3");
    orphan.shape = INKHIT_SHAPE_PATH;
    orphan.verbs = verbs;
    orphan.verb_count = 4;
    orphan.points = corners;
    orphan.point_count = 2;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "take 3 points");
    orphan.point_count = 3;
    orphan.fill_rule = 2;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "fill_rule 2");
    orphan = node(40, 0, 0, 10, 10, 0, 0);
    orphan.min_width = -1;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "min_width");
    orphan.min_width = 0;
    orphan.alpha = NAN;
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_ARGUMENT, "alpha");
    orphan.alpha = 1;
    EXPECT(inkhit_scene_add(scene, 1, NULL), INKHIT_ERROR_NULL_ARGUMENT, "node is NULL");
    EXPECT(inkhit_scene_add(NULL, 1, &orphan), INKHIT_ERROR_NULL_ARGUMENT, "scene is NULL");
    EXPECT(inkhit_scene_create(NULL, &scene), INKHIT_ERROR_NULL_ARGUMENT, "root");
    EXPECT(inkhit_node_init(NULL, 1), INKHIT_ERROR_NULL_ARGUMENT, "node");
    /* A node the tree cannot index is refused by the snapshot, named; the scene keeps its edits. */
    inkhit_node squashed = node(41, 0, 0, 10, 10, 0, 0);
    squashed.transform.a = 0;
    OK(inkhit_scene_add(scene, 1, &squashed));
    inkhit_snapshot failed = NULL;
    EXPECT(inkhit_scene_snapshot(scene, 0, &failed), INKHIT_ERROR_INVALID_ARGUMENT, "node \"41\"");
    CHECK(failed == NULL);
    OK(inkhit_scene_remove(scene, 41));
    EXPECT(inkhit_scene_snapshot(scene, NAN, &failed), INKHIT_ERROR_INVALID_ARGUMENT, "tolerance");
    EXPECT(inkhit_scene_snapshot(scene, 0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    EXPECT(inkhit_snapshot_hit(after, NAN, 0, 0, &h), INKHIT_ERROR_INVALID_ARGUMENT, "not finite");
    CHECK(h.hit == 0);
    EXPECT(inkhit_snapshot_hit(after, 0, 0, -1, &h), INKHIT_ERROR_INVALID_ARGUMENT, "radius");
    EXPECT(inkhit_snapshot_hit(after, 0, 0, 0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    EXPECT(inkhit_snapshot_hit((inkhit_snapshot)scene, 0, 0, 0, &h), INKHIT_ERROR_INVALID_HANDLE, "is a scene handle, not a snapshot handle");
    EXPECT(inkhit_scene_count(scene, NULL), INKHIT_ERROR_NULL_ARGUMENT, "count_out");

    /* The layout handle can go: the scene and its snapshots keep the layout. */
    OK(inkhit_layout_release(layout_for_scene));
    EXPECT(inkhit_layout_release(layout_for_scene), INKHIT_ERROR_INVALID_HANDLE, "already released");
    OK(inkhit_snapshot_hit(snap, l.x + l.advance / 2, 300 + l.y - 5, 0, &h));
    CHECK(h.hit == 1 && h.node == 4 && h.text.link == 0);
    inkhit_snapshot again;
    OK(inkhit_scene_snapshot(scene, 0, &again));
    OK(inkhit_snapshot_hit(again, l.x + l.advance / 2, 300 + l.y - 5, 0, &h));
    CHECK(h.hit == 1 && h.node == 4);
    OK(inkhit_snapshot_release(again));

    OK(inkhit_scene_release(scene));
    EXPECT(inkhit_scene_release(scene), INKHIT_ERROR_INVALID_HANDLE, "already released");
    EXPECT(inkhit_scene_add(scene, 1, &orphan), INKHIT_ERROR_INVALID_HANDLE, "already released");
    OK(inkhit_snapshot_hit(after, 209, 30, 0, &h)); /* snapshots outlive their scene */
    CHECK(h.hit == 1 && h.node == 3);
    OK(inkhit_snapshot_release(after));
    EXPECT(inkhit_snapshot_release(after), INKHIT_ERROR_INVALID_HANDLE, "already released");
    OK(inkhit_scene_release(NULL));
    OK(inkhit_snapshot_release(NULL));
    snapshot_for_threads = snap;
}

/* ============================================================================================== */

/* Four threads query one index and one snapshot at once; each answer must equal the one-thread answer.
 * Each thread also fails a call: messages are per thread. */
typedef struct { int id; int mismatches; char message[64]; } worker;

static void *work(void *arg) {
    worker *w = arg;
    for (int i = 0; i < 2000; i++) {
        double x = (i * 37 + w->id * 11) % 130 - 5, y = (i * 53) % 220;
        inkhit_hit a, b;
        if (inkhit_index_hit(index_for_threads, x, y, 2, &a) != INKHIT_OK) w->mismatches++;
        if (inkhit_index_hits(index_for_threads, &(inkhit_point){x, y}, 1, 2, &b) != INKHIT_OK) w->mismatches++;
        if (a.hit != b.hit || a.placement != b.placement) w->mismatches++;
        inkhit_scene_hit s;
        if (inkhit_snapshot_hit(snapshot_for_threads, x * 2, y * 2, 4, &s) != INKHIT_OK) w->mismatches++;
    }
    inkhit_hit h;
    inkhit_index_hit(index_for_threads, 0, 0, -(double)w->id - 1, &h);
    snprintf(w->message, sizeof w->message, "%s", inkhit_last_error());
    return NULL;
}

static void test_threads(void) {
    inkhit_index_hit(index_for_threads, 0, 0, -100, &(inkhit_hit){0});
    pthread_t threads[4];
    worker workers[4];
    for (int i = 0; i < 4; i++) {
        workers[i].id = i;
        workers[i].mismatches = 0;
        pthread_create(&threads[i], NULL, work, &workers[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK(workers[i].mismatches == 0);
        char want[64];
        snprintf(want, sizeof want, "(got -%d)", i + 1);
        CHECK(strstr(workers[i].message, want) != NULL);
    }
    CHECK(strstr(inkhit_last_error(), "(got -100)") != NULL);
}

/* A handle released while other threads are inside calls that use it: the release waits for them, their
 * answers are whole (OK with the index's answer) and every call after the release is INVALID_HANDLE. Run
 * under AddressSanitizer too (c-abi-test.sh), which would report a query reading a freed index. */
typedef struct { inkhit_index index; int ok, invalid, other, stop; } racer;

static void *race(void *arg) {
    racer *r = arg;
    inkhit_hit want;
    inkhit_index_hit(r->index, 4, 12, 2, &want);
    while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
        inkhit_hit h;
        inkhit_status st = inkhit_index_hit(r->index, 4, 12, 2, &h);
        if (st == INKHIT_OK && h.hit == want.hit && h.placement == want.placement) r->ok++;
        else if (st == INKHIT_ERROR_INVALID_HANDLE && h.hit == 0) r->invalid++;
        else r->other++;
    }
    return NULL;
}

static void test_release_while_in_use(void) {
    for (int round = 0; round < 20; round++) {
        inkhit_builder b;
        OK(inkhit_builder_create(0, &b));
        inkhit_glyph_placement p = {sans, 36, 16, {0, 16}, INKHIT_TRANSFORM_IDENTITY};
        OK(inkhit_builder_add_glyph(b, NULL, &p, NULL));
        inkhit_index index;
        OK(inkhit_builder_build(b, &index));
        OK(inkhit_builder_release(b));
        racer r[3];
        pthread_t t[3];
        for (int i = 0; i < 3; i++) {
            r[i] = (racer){index, 0, 0, 0, 0};
            pthread_create(&t[i], NULL, race, &r[i]);
        }
        while (__atomic_load_n(&r[0].ok, __ATOMIC_RELAXED) < 50) sched_yield();
        OK(inkhit_index_release(index));
        inkhit_hit h;
        EXPECT(inkhit_index_hit(index, 4, 12, 2, &h), INKHIT_ERROR_INVALID_HANDLE, "already released");
        for (int i = 0; i < 3; i++) __atomic_store_n(&r[i].stop, 1, __ATOMIC_RELEASE);
        for (int i = 0; i < 3; i++) {
            pthread_join(t[i], NULL);
            CHECK(r[i].other == 0);
        }
        CHECK(r[0].ok >= 50);
    }
}

/* The limits of calls that build shapes: a shape budget too small for a glyph's shape is LIMIT, a deadline
 * already passed is LIMIT, and both come back as they were. */
static void test_limits(void) {
    inkhit_limits l;
    OK(inkhit_limits_get(&l));
    CHECK(l.max_seconds_per_call == 0 && l.max_shape_bytes_per_call == INKHIT_DEFAULT_MAX_SHAPE_BYTES_PER_CALL);
    EXPECT(inkhit_limits_get(NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    EXPECT(inkhit_limits_set(NULL), INKHIT_ERROR_NULL_ARGUMENT, "limits");
    EXPECT(inkhit_limits_set(&(inkhit_limits){-1, 0}), INKHIT_ERROR_INVALID_ARGUMENT, "max_seconds_per_call");
    EXPECT(inkhit_limits_set(&(inkhit_limits){NAN, 0}), INKHIT_ERROR_INVALID_ARGUMENT, "max_seconds_per_call");
    inkhit_builder b;
    OK(inkhit_builder_create(0, &b));
    inkhit_shape_cache cache;
    OK(inkhit_shape_cache_create(1 << 20, &cache));
    inkhit_glyph_placement p = {sans, 36, 16, {0, 16}, INKHIT_TRANSFORM_IDENTITY};
    OK(inkhit_limits_set(&(inkhit_limits){0, 64}));
    EXPECT(inkhit_builder_add_glyph(b, cache, &p, NULL), INKHIT_ERROR_LIMIT, "max_shape_bytes_per_call");
    OK(inkhit_limits_set(&(inkhit_limits){1e-9, 0}));
    p.size = 47;     /* a size class not built yet: its shape is built under the passed deadline */
    EXPECT(inkhit_builder_add_glyph(b, cache, &p, NULL), INKHIT_ERROR_LIMIT, "time limit");
    OK(inkhit_limits_set(&l));
    OK(inkhit_builder_add_glyph(b, cache, &p, NULL));
    inkhit_limits back;
    OK(inkhit_limits_get(&back));
    CHECK(back.max_seconds_per_call == 0 && back.max_shape_bytes_per_call == l.max_shape_bytes_per_call);
    /* 0 means the default budget; UINT64_MAX means no limit. */
    OK(inkhit_limits_set(&(inkhit_limits){0, 0}));
    OK(inkhit_limits_get(&back));
    CHECK(back.max_shape_bytes_per_call == INKHIT_DEFAULT_MAX_SHAPE_BYTES_PER_CALL);
    OK(inkhit_limits_set(&(inkhit_limits){0, UINT64_MAX}));
    OK(inkhit_limits_get(&back));
    CHECK(back.max_shape_bytes_per_call == UINT64_MAX);
    OK(inkhit_limits_set(&l));
    OK(inkhit_shape_cache_release(cache));
    OK(inkhit_builder_release(b));
}

/* ============================================================================================== */
/* What the renderer drew (1.1): borrowed bytes, variations, styles, runs, HarfBuzz arrays, markers,   */
/* tags, ink kinds.                                                                                  */

static const char *INTER = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf";
static const char *SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf";

static int releases;
static void count_release(void *user_data) { releases += *(int *)user_data; }

static void test_renderer_drew(void) {
    /* Borrowed bytes: read in place, released once when the last font over them goes. The bytes get a
     * unique tail, so no other font in the process shares them. */
    size_t n = 0;
    unsigned char *file = read_file(SERIF, &n);
    CHECK(file != NULL);
    if (!file) return;
    unsigned char *bytes = malloc(n + 16);
    memcpy(bytes, file, n);
    memcpy(bytes + n, "inkhit_test tail", 16);
    free(file);
    int one = 1;
    releases = 0;
    inkhit_font lent, varied;
    OK(inkhit_font_from_borrowed_bytes(bytes, n + 16, 0, count_release, &one, &lent));
    OK(inkhit_font_with_variations(lent, NULL, 0, &varied));                /* another font over the same bytes */
    OK(inkhit_font_release(lent));
    CHECK(releases == 0);
    OK(inkhit_font_release(varied));
    CHECK(releases == 1);
    EXPECT(inkhit_font_from_borrowed_bytes(bytes, 100, 0, count_release, &one, &lent), INKHIT_ERROR_FONT, NULL);
    EXPECT(inkhit_font_from_borrowed_bytes(bytes, n, 0, count_release, &one, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out is NULL");
    CHECK(releases == 3);                                                    /* once per failed call too */
    free(bytes);

    /* Variations and packed indexes: Inter.var.ttf's Bold is fontconfig's FC_INDEX 851968 (13 << 16). */
    inkhit_font inter, bold, black;
    OK(inkhit_font_from_path(INTER, 13 << 16, &bold));
    OK(inkhit_font_from_path(INTER, 0, &inter));
    inkhit_variation v[2];
    size_t axes = 0;
    OK(inkhit_font_get_variations(bold, v, 2, &axes));
    CHECK(axes == 2 && v[0].tag == INKHIT_TAG('w', 'g', 'h', 't') && v[0].value == 700 && v[1].value == 0);
    inkhit_variation heavy = {INKHIT_TAG('w', 'g', 'h', 't'), 2000};
    OK(inkhit_font_with_variations(inter, &heavy, 1, &black));
    OK(inkhit_font_get_variations(black, v, 2, &axes));
    CHECK(v[0].value == 900);                                                /* clamped as FreeType clamps */
    EXPECT(inkhit_font_with_variations(sans, &heavy, 1, &black), INKHIT_ERROR_FONT, "not a variable font");
    EXPECT(inkhit_font_get_variations(inter, NULL, 1, &axes), INKHIT_ERROR_NULL_ARGUMENT, NULL);

    /* A run of Inter Bold with a slant and synthetic bold, with tags; then HarfBuzz-shaped arrays. */
    inkhit_glyph_style style;
    OK(inkhit_glyph_style_init(&style));
    CHECK(style.struct_size == sizeof style && style.matrix_xx == 1 && style.alpha_threshold == 0.5);
    style.embolden = INKHIT_EMBOLDEN_FREETYPE;
    style.matrix_xy = 0.2;
    inkhit_glyph_run run;
    OK(inkhit_glyph_run_init(&run));
    CHECK(run.struct_size == sizeof run && run.size == 16 && run.transform.a == 1 && run.position_scale == 1);
    run.font = bold;
    run.size = 40;
    run.origin = (inkhit_point){10, 50};
    run.style = &style;
    uint32_t l = 0, o = 0;
    OK(inkhit_font_glyph(bold, 'l', &l));
    OK(inkhit_font_glyph(bold, 'o', &o));
    inkhit_run_glyph glyphs[3] = {{l, 0, 0, 0, 100}, {INKHIT_GLYPH_EMPTY, 0, 20, 0, 101}, {o, 0, 40, 0, 102}};
    inkhit_builder builder;
    OK(inkhit_builder_create(0, &builder));
    size_t added = 0;
    OK(inkhit_builder_add_run(builder, NULL, &run, glyphs, 3, &added));
    CHECK(added == 3);
    inkhit_hb_glyph_info infos[2] = {{o, 0, 7, 0, 0}, {0x10000041u, 0, 9, 0, 0}};
    inkhit_hb_glyph_position positions[2] = {{1000, 0, 0, 0, 0}, {500, 0, 0, 0, 0}};
    run.style = NULL;
    run.origin = (inkhit_point){200, 50};
    run.position_scale = 40.0 / 2048;
    run.tag_base = 1000;
    inkhit_point pen;
    OK(inkhit_builder_add_shaped(builder, NULL, &run, infos, positions, 2, &pen, &added));
    CHECK(added == 2 && pen.x == 200 + 1500 * (40.0 / 2048) && pen.y == 50);
    run.struct_size = 8;
    EXPECT(inkhit_builder_add_run(builder, NULL, &run, glyphs, 1, &added), INKHIT_ERROR_INVALID_ARGUMENT, "inkhit_glyph_run_init");
    run.struct_size = sizeof run;
    OK(inkhit_builder_set_tag(builder, 4, 77));
    EXPECT(inkhit_builder_set_tag(builder, 5, 1), INKHIT_ERROR_INVALID_ARGUMENT, "not one of the builder's 5");
    inkhit_index index;
    OK(inkhit_builder_build(builder, &index));
    uint64_t tags[5];
    int32_t inks[5];
    for (int i = 0; i < 5; i++) {
        OK(inkhit_index_placement_tag(index, i, &tags[i]));
        OK(inkhit_index_placement_ink(index, i, &inks[i]));
    }
    CHECK(tags[0] == 100 && tags[1] == 101 && tags[2] == 102 && tags[3] == 1007 && tags[4] == 77);
    CHECK(inks[0] == INKHIT_INK_OUTLINE && inks[1] == INKHIT_INK_NONE && inks[2] == INKHIT_INK_OUTLINE && inks[3] == INKHIT_INK_OUTLINE
          && inks[4] == INKHIT_INK_NONE);
    CHECK(INKHIT_GLYPH_IS_MARKER(INKHIT_GLYPH_EMPTY) && INKHIT_GLYPH_IS_MARKER(0xFFFFFFFFu) && !INKHIT_GLYPH_IS_MARKER(65535));
    /* The emboldened, slanted "l": its stem is centred in its advance; 15 px up the slant moves it 3 px right
     * and emboldening (40 / 24 px wider) another ~0.8 px. A hit there answers the run's first tag; the
     * mirror point, 6 px to the left, misses: the slant leans the way fontconfig's matrix says. */
    double advance = 0;
    inkhit_font_info info;
    OK(inkhit_font_advance(bold, l, &advance));
    OK(inkhit_font_get_info(bold, &info));
    CHECK(info.units_per_em == 2816);
    double stem = 10 + advance * 40 / (double)info.units_per_em / 2 + 0.8;
    inkhit_hit hit;
    OK(inkhit_index_hit(index, stem + 0.2 * 15, 50 - 15, 0, &hit));
    CHECK(hit.hit && hit.placement == 0);
    OK(inkhit_index_hit(index, stem - 0.2 * 15, 50 - 15, 0, &hit));
    CHECK(!hit.hit);
    uint64_t tag = 1;
    EXPECT(inkhit_index_placement_tag(index, -1, &tag), INKHIT_ERROR_INVALID_ARGUMENT, "-1 is a miss");
    CHECK(tag == 0);
    int32_t ink = 1;
    EXPECT(inkhit_index_placement_ink(index, 5, &ink), INKHIT_ERROR_INVALID_ARGUMENT, NULL);
    CHECK(ink == INKHIT_INK_NONE);
    OK(inkhit_index_release(index));
    OK(inkhit_builder_release(builder));
    /* Adapters report their own failures through the thread's message. */
    CHECK(inkhit_report_error(INKHIT_ERROR_FONT, "my_adapter: no such font") == INKHIT_ERROR_FONT);
    CHECK(strcmp(inkhit_last_error(), "my_adapter: no such font") == 0);
    CHECK(inkhit_report_error(INKHIT_OK, NULL) == INKHIT_OK && strcmp(inkhit_last_error(), "") == 0);
    OK(inkhit_font_release(black));
    OK(inkhit_font_release(inter));
    OK(inkhit_font_release(bold));
}

/* ============================================================================================== */
/* Jobs (1.1): ink-hit query's JSON lines answered in-process.                                        */

typedef struct { char text[4096]; size_t lines; } job_output;

static void collect(void *user_data, const char *line, size_t length) {
    job_output *o = user_data;
    size_t used = strlen(o->text);
    if (used + length + 2 < sizeof o->text) {
        memcpy(o->text + used, line, length);
        o->text[used + length] = '\n';
        o->text[used + length + 1] = 0;
    }
    o->lines++;
}

static void test_jobs(void) {
    inkhit_job_runner runner;
    EXPECT(inkhit_job_runner_create(-1, &runner), INKHIT_ERROR_INVALID_ARGUMENT, "tolerance");
    EXPECT(inkhit_job_runner_create(2, &runner), INKHIT_ERROR_INVALID_ARGUMENT, "at most 1");
    EXPECT(inkhit_job_runner_create(0, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    OK(inkhit_job_runner_create(0, &runner));
    /* An 'H' at 40 px: its left stem, and a point far from it; a job with a missing font gets one error line and
     * the next job still runs; blank lines and a CRLF ending are as ink-hit reads them. */
    char jobs[512];
    snprintf(jobs, sizeof jobs,
             "{\"id\": \"bad\", \"fonts\": [{\"path\": \"/nonexistent.ttf\"}], \"glyphs\": [], \"points\": []}\n"
             "  \t\n"
             "{\"id\": 2, \"fonts\": [{\"path\": \"%s\"}], \"size\": 40, \"glyphs\": [{\"id\": 43, \"x\": 0, \"y\": 40}],"
             " \"points\": [[5.5, 30], [100, 100]]}\r\n", SANS);
    job_output out = {{0}, 0};
    size_t count = 99, failed = 99;
    OK(inkhit_job_runner_run(runner, jobs, strlen(jobs), collect, &out, &count, &failed));
    CHECK(count == 2 && failed == 1 && out.lines == 3);
    CHECK(strncmp(out.text, "{\"job\":\"bad\",\"error\":", 21) == 0);
    CHECK(strstr(out.text, "\n{\"job\":2,\"i\":0,\"hit\":true,\"glyph\":0,\"placement\":0,\"inside\":true,\"distance\":-") != NULL);
    CHECK(strstr(out.text, "\n{\"job\":2,\"i\":1,\"hit\":false,\"glyph\":null,\"placement\":null,\"inside\":false,\"distance\":null}\n") != NULL);
    OK(inkhit_job_runner_run(runner, NULL, 0, collect, &out, &count, &failed));
    CHECK(count == 0 && failed == 0 && out.lines == 3);
    EXPECT(inkhit_job_runner_run(runner, jobs, strlen(jobs), NULL, NULL, NULL, NULL), INKHIT_ERROR_NULL_ARGUMENT, "emit");
    EXPECT(inkhit_job_runner_run(runner, NULL, 3, collect, &out, NULL, NULL), INKHIT_ERROR_NULL_ARGUMENT, "text");
    EXPECT(inkhit_job_runner_run((inkhit_job_runner)sans, jobs, 1, collect, &out, NULL, NULL),
           INKHIT_ERROR_INVALID_HANDLE, "a font handle, not a job runner handle");
    OK(inkhit_job_runner_release(runner));
    EXPECT(inkhit_job_runner_release(runner), INKHIT_ERROR_INVALID_HANDLE, "already released");
    OK(inkhit_job_runner_release(NULL));
}

/* ============================================================================================== */

/* Rich text (1.1): runs, decorations as ink, exclusions, line height; a 1.0 caller's options. */
static void test_rich_layout(void) {
    inkhit_layout_options o;
    OK(inkhit_layout_options_init(&o));
    CHECK(o.struct_size == sizeof o && o.runs == NULL && o.run_count == 0 && o.line_height == 0 && o.exclusion_count == 0);
    o.fonts = &sans;
    o.font_count = 1;
    const char *text = "Tap the link, not the gap.";
    inkhit_text_link link = {8, 12};
    o.links = &link;
    o.link_count = 1;
    uint32_t chain[1] = {0};
    inkhit_text_run runs[2] = {
        {.start = 8, .end = 12, .set = INKHIT_RUN_UNDERLINE | INKHIT_RUN_LETTER_SPACING, .underline = INKHIT_UNDERLINE_SINGLE,
         .letter_spacing = 1},
        {.start = 0, .end = 3, .set = INKHIT_RUN_SIZE | INKHIT_RUN_FONTS | INKHIT_RUN_BASELINE_SHIFT, .fonts = chain, .font_count = 1,
         .size = 24, .baseline_shift = 2}};
    o.runs = runs;
    o.run_count = 2;
    o.line_height = 1.5;
    inkhit_layout layout;
    OK(inkhit_layout_create_utf8(text, strlen(text), &o, &layout));
    size_t n = 0;
    OK(inkhit_layout_decoration_count(layout, &n));
    CHECK(n == 1);
    inkhit_layout_decoration d;
    OK(inkhit_layout_decorations(layout, 0, 1, &d));
    inkhit_layout_line line;
    OK(inkhit_layout_lines(layout, 0, 1, &line));
    /* DejaVu Sans: post.underlinePosition -40, underlineThickness 90 of 2048; the line: 24 px ascent x 1.5. */
    CHECK(d.kind == INKHIT_DECORATION_UNDERLINE && d.utf16_start == 8 && d.utf16_end == 12 && d.line == 0);
    CHECK(near(d.rect.min_y, line.baseline + 40.0 * 16 / 2048, 1e-9) && near(d.rect.max_y - d.rect.min_y, 90.0 * 16 / 2048, 1e-9));
    CHECK(near(line.baseline, 1901.0 / 2048 * 24 * 1.5, 1e-9));
    inkhit_layout_glyph t, l, k;
    CHECK(glyph_at(layout, 0, &t) && glyph_at(layout, 8, &l) && glyph_at(layout, 11, &k));
    CHECK(t.size == 24 && near(t.y, line.baseline - 2, 1e-9) && l.size == 16);
    CHECK(near(d.rect.min_x, l.x, 1e-9) && near(d.rect.max_x, k.x + k.advance + 1, 1e-9));
    /* On the stroke under the "i" of "link": no glyph's ink, the decoration; the link through it. */
    inkhit_layout_glyph i;
    CHECK(glyph_at(layout, 9, &i));
    double ux = i.x + i.advance / 2, uy = (d.rect.min_y + d.rect.max_y) / 2;
    inkhit_text_hit th;
    int64_t which = 7;
    OK(inkhit_layout_hit_decoration(layout, ux, uy, 0, &th, &which));
    CHECK(th.hit == 1 && th.placement == -1 && th.attachment == -1 && which == 0 && th.link == 0 && th.utf16_start == 9);
    OK(inkhit_layout_hit(layout, ux, uy, 0, INKHIT_TEXT_HIT_INK, &th));
    CHECK(th.hit == 1 && th.placement == -1 && th.utf16_start == 9 && th.link == 0);
    OK(inkhit_layout_link_hit(layout, ux, uy, 0, &th));
    CHECK(th.hit == 1 && th.link == 0);
    OK(inkhit_layout_hit_decoration(layout, ux, line.baseline - 3, 0, &th, &which));
    CHECK(th.hit == 1 && th.placement >= 0 && which == -1);
    EXPECT(inkhit_layout_hit_decoration(layout, ux, uy, 0, &th, NULL), INKHIT_ERROR_NULL_ARGUMENT, "decoration_out");
    EXPECT(inkhit_layout_hit_decoration(layout, ux, uy, -1, &th, &which), INKHIT_ERROR_INVALID_ARGUMENT, "radius");
    EXPECT(inkhit_layout_decorations(layout, 1, 1, &d), INKHIT_ERROR_INVALID_ARGUMENT, "go past");
    EXPECT(inkhit_layout_decoration_count(layout, NULL), INKHIT_ERROR_NULL_ARGUMENT, "out");
    OK(inkhit_layout_release(layout));

    /* An exclusion: text wrapped in 200 px flows around a 60 x 40 px box at the left; a path too. */
    o.run_count = 0;
    o.line_height = 0;
    o.width = 200;
    const char *para = "Alice was beginning to get very tired of sitting by her sister on the bank.";
    inkhit_exclusion ex[2] = {{.kind = INKHIT_EXCLUSION_RECT, .rect = {0, 0, 60, 40}},
                              {.kind = INKHIT_EXCLUSION_PATH, .path = "M150 60 L200 60 L200 90 Z", .path_length = 25}};
    o.exclusions = ex;
    o.exclusion_count = 2;
    OK(inkhit_layout_create_utf8(para, strlen(para), &o, &layout));
    inkhit_layout_info info;
    OK(inkhit_layout_get_info(layout, &info));
    for (int64_t g = 0; g < info.glyph_count; g++) {
        inkhit_layout_glyph gl;
        OK(inkhit_layout_glyphs(layout, (size_t)g, 1, &gl));
        inkhit_layout_line gline;
        OK(inkhit_layout_lines(layout, (size_t)gl.line, 1, &gline));
        if (gline.box.min_y < 40) CHECK(gl.x >= 60);
    }
    OK(inkhit_layout_release(layout));

    /* Hostile rich options. */
    inkhit_layout bad = NULL;
    ex[0].kind = 9;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "exclusions[0].kind 9");
    ex[0].kind = INKHIT_EXCLUSION_RECT;
    ex[1].path = "M0 0 A";
    ex[1].path_length = 6;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_LAYOUT, "exclusions[1].path");
    ex[1].path = NULL;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_NULL_ARGUMENT, "exclusions[1].path");
    ex[0].rect.max_x = NAN;
    o.exclusion_count = 1;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "exclusions[0].rect");
    ex[0].rect = (inkhit_rect){10, 10, 5, 20};
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_LAYOUT, "exclusions[0]");
    o.exclusion_count = 0;
    o.run_count = 1;
    inkhit_text_run r = {.start = 3, .end = 2, .set = INKHIT_RUN_SIZE, .size = 20};
    o.runs = &r;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_LAYOUT, "empty or reversed");
    r.end = 5;
    r.set = 1u << 20;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "not INKHIT_RUN_");
    r.set = INKHIT_RUN_UNDERLINE;
    r.underline = 7;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "underline 7");
    uint32_t far_font = 3;
    r.set = INKHIT_RUN_FONTS;
    r.fonts = &far_font;
    r.font_count = 1;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_LAYOUT, "names font 3");
    r.set = INKHIT_RUN_SIZE;
    r.size = -2;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_LAYOUT, "runs[0]");
    r.set = INKHIT_RUN_STRIKETHROUGH;
    r.strikethrough = 2;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "strikethrough must be 0 or 1");
    o.run_count = 0;
    o.line_height = -1;
    EXPECT(inkhit_layout_create_utf8(para, strlen(para), &o, &bad), INKHIT_ERROR_INVALID_ARGUMENT, "options->line_height");
    CHECK(bad == NULL);
    EXPECT(inkhit_layout_options_init_sized(&o, 100), INKHIT_ERROR_INVALID_ARGUMENT, "size 100");
    EXPECT(inkhit_layout_options_init_sized(NULL, sizeof o), INKHIT_ERROR_NULL_ARGUMENT, "options");

    /* A caller built against 1.0: its struct ends before `runs`; the 1.0 function writes nothing past it
     * and leaves the later fields unread. */
    unsigned char old[sizeof(inkhit_layout_options) + 8];
    memset(old, 0xAB, sizeof old);
    size_t size10 = offsetof(inkhit_layout_options, runs);
    OK((inkhit_layout_options_init)((inkhit_layout_options *)old));
    CHECK((inkhit_layout_options_init)(NULL) == INKHIT_ERROR_NULL_ARGUMENT
          && strncmp(inkhit_last_error(), "inkhit_layout_options_init: ", 28) == 0);
    for (size_t b = size10; b < sizeof old; b++) CHECK(old[b] == 0xAB);
    inkhit_layout_options *o10 = (inkhit_layout_options *)old;
    CHECK(o10->struct_size == size10 && o10->size == 16);      /* 1.0's size (since 1.2; 1.1 wrote 0) */
    o10->fonts = &sans;
    o10->font_count = 1;
    OK(inkhit_layout_create_utf8(text, strlen(text), o10, &layout));
    OK(inkhit_layout_decoration_count(layout, &n));
    CHECK(n == 0);
    OK(inkhit_layout_release(layout));
    OK(inkhit_layout_options_init_sized((inkhit_layout_options *)old, size10));
    for (size_t b = size10; b < sizeof old; b++) CHECK(old[b] == 0xAB);
}

/* Glyph-run and mask nodes (inkhit_scene_add_shaped): an "o" at 40 px whose counter misses, a 2 x 1 mask
 * whose transparent half misses; ids beyond 2^63 come back as given; an update swaps the mask's pixels. */
static void test_scene_shapes(void) {
    const uint64_t big = (1ull << 63) | 5;
    inkhit_node root = node(1, 0, 0, 200, 100, 0, 0);
    root.pointer_events = INKHIT_POINTER_BOX_NONE;
    inkhit_scene scene;
    OK(inkhit_scene_create(&root, &scene));
    uint32_t o = 0;
    OK(inkhit_font_glyph(sans, 'o', &o));
    inkhit_glyph_placement glyphs[1] = {placement(sans, o, 40, 0, 40)};
    inkhit_node_shape data;
    OK(inkhit_node_shape_init(&data));
    CHECK(data.struct_size == sizeof data && data.mask_threshold == 0 && data.holes == INKHIT_HOLES_INK);
    EXPECT(inkhit_node_shape_init(NULL), INKHIT_ERROR_NULL_ARGUMENT, "shape");
    data.glyphs = glyphs;
    data.glyph_count = 1;
    inkhit_node run = node(big, 0, 0, 40, 50, 0, 0);
    run.shape = INKHIT_SHAPE_GLYPHS;
    EXPECT(inkhit_scene_add(scene, 1, &run), INKHIT_ERROR_INVALID_ARGUMENT, "inkhit_scene_add_shaped");
    OK(inkhit_scene_add_shaped(scene, 1, &run, &data));
    const uint8_t half[2] = {255, 0};
    inkhit_node_shape mask_data;
    OK(inkhit_node_shape_init(&mask_data));
    mask_data.mask_width = 2;
    mask_data.mask_height = 1;
    mask_data.mask_alpha = half;
    inkhit_node mask = node(7, 0, 0, 40, 20, 100, 0);
    mask.shape = INKHIT_SHAPE_MASK;
    EXPECT(inkhit_scene_add_shaped(scene, 1, &mask, &mask_data), INKHIT_ERROR_INVALID_ARGUMENT, "mask_length is 0");
    mask_data.mask_length = sizeof half;                      /* since 1.2: the bytes given */
    OK(inkhit_scene_add_shaped(scene, 1, &mask, &mask_data));
    mask_data.mask_width = 5000;
    mask_data.mask_height = 5000;
    inkhit_node too_big = node(8, 0, 0, 10, 10, 0, 0);
    too_big.shape = INKHIT_SHAPE_MASK;
    EXPECT(inkhit_scene_add_shaped(scene, 1, &too_big, &mask_data), INKHIT_ERROR_LIMIT, "4096");
    inkhit_snapshot snap;
    OK(inkhit_scene_snapshot(scene, 0, &snap));
    inkhit_scene_hit h;
    OK(inkhit_snapshot_hit(snap, 4, 29, 0, &h));              /* the "o"'s left stroke */
    CHECK(h.hit == 1 && h.node == big && h.placement == 0 && h.inside == 1);
    OK(inkhit_snapshot_hit(snap, 12, 29, 0, &h));             /* its counter */
    CHECK(h.hit == 0);
    OK(inkhit_snapshot_hit(snap, 110, 10, 0, &h));            /* the opaque half of the mask */
    CHECK(h.hit == 1 && h.node == 7 && h.placement == -1);
    OK(inkhit_snapshot_hit(snap, 130, 10, 0, &h));            /* the transparent half */
    CHECK(h.hit == 0);
    const uint8_t flipped[2] = {0, 255};
    mask_data.mask_width = 2;
    mask_data.mask_height = 1;
    mask_data.mask_alpha = flipped;
    mask_data.mask_length = sizeof flipped;
    OK(inkhit_scene_update_shaped(scene, &mask, &mask_data));
    inkhit_snapshot later;
    OK(inkhit_scene_snapshot(scene, 0, &later));
    OK(inkhit_snapshot_hit(later, 130, 10, 0, &h));
    CHECK(h.hit == 1 && h.node == 7);
    OK(inkhit_snapshot_hit(snap, 130, 10, 0, &h));            /* the older snapshot keeps its mask */
    CHECK(h.hit == 0);
    OK(inkhit_snapshot_release(later));
    OK(inkhit_snapshot_release(snap));
    OK(inkhit_scene_release(scene));
}

/* 1.2: the renderer rules of a glyph style, and paths as renderers iterate them. */
static double stem_edge(inkhit_font font, uint32_t glyph, const inkhit_glyph_style *style, double x, double y) {
    /* The right edge of a vertical stem crossing (x, y), found by bisection on the index's answers. */
    inkhit_glyph_run run;
    OK(inkhit_glyph_run_init(&run));
    run.font = font;
    run.size = 40;
    run.style = style;
    inkhit_run_glyph g = {glyph, 0, 10.3, 60, 0};
    inkhit_builder builder;
    inkhit_index index;
    OK(inkhit_builder_create(0, &builder));
    OK(inkhit_builder_add_run(builder, NULL, &run, &g, 1, NULL));
    OK(inkhit_builder_build(builder, &index));
    double lo = x, hi = x + 20;
    inkhit_hit hit;
    OK(inkhit_index_hit(index, lo, y, 0, &hit));
    CHECK(hit.hit);
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        OK(inkhit_index_hit(index, mid, y, 0, &hit));
        if (hit.hit) lo = mid; else hi = mid;
    }
    OK(inkhit_index_release(index));
    OK(inkhit_builder_release(builder));
    return lo;
}

static void test_renderer_rules(void) {
    /* The style grew in 1.2: this header's init fills every field; the 1.1 function writes 1.1's 80 bytes only. */
    inkhit_glyph_style style;
    OK(inkhit_glyph_style_init(&style));
    CHECK(style.struct_size == sizeof style && style.miter_limit == 4 && style.stroke_join == INKHIT_JOIN_MITER
          && style.origin_rounding.x.grid == 0 && style.ppem == INKHIT_PPEM_UNIFORM && style.stem_darkening == 0
          && style.hinting_under_transform == INKHIT_HINTING_UNDER_TRANSFORM_KEEP);
    unsigned char old[sizeof(inkhit_glyph_style) + 8];
    memset(old, 0xAB, sizeof old);
    size_t size11 = offsetof(inkhit_glyph_style, stroke_width);
    OK((inkhit_glyph_style_init)((inkhit_glyph_style *)old));
    for (size_t b = size11; b < sizeof old; b++) CHECK(old[b] == 0xAB);
    CHECK(((inkhit_glyph_style *)old)->struct_size == size11);
    EXPECT(inkhit_glyph_style_init_sized(&style, 100), INKHIT_ERROR_INVALID_ARGUMENT, "size 100");

    /* Skia's fake bold: 1/24 of the text size up to 9 px, 1/32 from 36 px. */
    double w = 0;
    OK(inkhit_skia_fake_bold_width(36, &w));
    CHECK(w == 1.125);
    OK(inkhit_skia_fake_bold_width(6, &w));
    CHECK(w == 0.25);
    EXPECT(inkhit_skia_fake_bold_width(-1, &w), INKHIT_ERROR_INVALID_ARGUMENT, "text_size");

    /* An 'l' at x 10.3: whole-pixel origins move its stem's edge 0.3 px left; a stroke 2 px wide moves it
     * 1 px right (a straight edge grows by half the width), measured against the same outline unstroked. */
    uint32_t l = 0;
    OK(inkhit_font_glyph(sans, 'l', &l));
    double advance = 0;
    OK(inkhit_font_advance(sans, l, &advance));
    double centre = 10.3 + advance * 40 / 2048 / 2;
    double exact = stem_edge(sans, l, NULL, centre, 50);
    inkhit_glyph_style snap;
    OK(inkhit_glyph_style_init(&snap));
    snap.origin_rounding.x = (inkhit_origin_rounding_axis){1, 0.5};
    snap.origin_rounding.y = (inkhit_origin_rounding_axis){1, 0.5};
    CHECK(near(stem_edge(sans, l, &snap, centre - 0.3, 50), exact - 0.3, 1e-5));     /* queries run in float */
    inkhit_glyph_style thin, bold;
    OK(inkhit_glyph_style_init(&thin));
    thin.embolden = INKHIT_EMBOLDEN_STROKE;        /* width 0: FreeType's outline at the size, no stroke */
    bold = thin;
    bold.stroke_width = 2;
    CHECK(near(stem_edge(sans, l, &bold, centre, 50), stem_edge(sans, l, &thin, centre, 50) + 1, 1e-5));
    bold.stem_darkening = 2;
    inkhit_glyph_run run;
    OK(inkhit_glyph_run_init(&run));
    run.font = sans;
    run.style = &bold;
    inkhit_run_glyph g = {l, 0, 0, 20, 0};
    inkhit_builder builder;
    OK(inkhit_builder_create(0, &builder));
    EXPECT(inkhit_builder_add_run(builder, NULL, &run, &g, 1, NULL), INKHIT_ERROR_INVALID_ARGUMENT, "stem_darkening");

    /* A circle of radius 10 around (30, 30): four conics of weight cos 45 degrees, each verb with its start. */
    const double q = 0.70710678118654752;
    const uint8_t verbs[6] = {INKHIT_VERB_MOVE, INKHIT_VERB_CONIC, INKHIT_VERB_CONIC, INKHIT_VERB_CONIC, INKHIT_VERB_CONIC,
                              INKHIT_VERB_CLOSE};
    inkhit_point points[13] = {{40, 30}, {40, 30}, {40, 40}, {30, 40}, {30, 40}, {20, 40}, {20, 30},
                               {20, 30}, {20, 20}, {30, 20}, {30, 20}, {40, 20}, {40, 30}};
    const double weights[4] = {q, q, q, q};
    size_t k = 9;
    OK(inkhit_builder_add_path(builder, NULL, 0, verbs, 6, points, 13, weights, 4, INKHIT_PATH_START_POINTS,
                               INKHIT_FILL_NONZERO, NULL, &k));
    CHECK(k == 0);
    points[4].x = 30.5;                                       /* the second conic does not start where the first ended */
    EXPECT(inkhit_builder_add_path(builder, NULL, 0, verbs, 6, points, 13, weights, 4, INKHIT_PATH_START_POINTS,
                                   INKHIT_FILL_NONZERO, NULL, &k), INKHIT_ERROR_INVALID_ARGUMENT, "starts at points[4]");
    EXPECT(inkhit_builder_add_path(builder, NULL, 0, verbs, 6, points, 13, weights, 3, INKHIT_PATH_START_POINTS,
                                   INKHIT_FILL_NONZERO, NULL, &k), INKHIT_ERROR_INVALID_ARGUMENT, "weight");
    EXPECT(inkhit_builder_add_outline(builder, NULL, 0, verbs, 6, points, 13, INKHIT_FILL_NONZERO, NULL, &k),
           INKHIT_ERROR_INVALID_ARGUMENT, "inkhit_builder_add_path");
    inkhit_index index;
    OK(inkhit_builder_build(builder, &index));
    for (int a = 0; a < 16; a++) {
        double t = a * 3.14159265358979 / 8;
        inkhit_hit hit;
        OK(inkhit_index_hit(index, 30 + 9.99 * cos(t), 30 + 9.99 * sin(t), 0, &hit));
        CHECK(hit.hit);
        OK(inkhit_index_hit(index, 30 + 10.01 * cos(t), 30 + 10.01 * sin(t), 0, &hit));
        CHECK(!hit.hit);
    }
    OK(inkhit_index_release(index));
    OK(inkhit_builder_release(builder));
}

/* 1.2: Skia's rules for a C++ Skia host: an SkFont's settings in, the style Skia draws with out. */
static void test_skia(void) {
    inkhit_skia_font font;
    OK(inkhit_skia_font_init(&font));
    CHECK(font.size == 12 && font.hinting == INKHIT_SKIA_HINTING_NORMAL && font.edging == INKHIT_SKIA_EDGING_ANTI_ALIAS
          && font.baseline_snap == 1 && font.subpixel == 0);
    EXPECT(inkhit_skia_font_init_sized(&font, sizeof font - 8), INKHIT_ERROR_INVALID_ARGUMENT, "inkhit_skia_font");
    font.size = 40;                                   /* SkFont f(typeface, 40); f.setSubpixel(true); f.setEmbolden(true); */
    font.subpixel = 1;
    font.embolden = 1;
    inkhit_transform ctm = INKHIT_TRANSFORM_IDENTITY;     /* canvas->getTotalMatrix() */
    inkhit_glyph_style style;
    OK(inkhit_glyph_style_init(&style));
    OK(inkhit_glyph_style_for_skia(&font, &ctm, &style));
    CHECK(style.hinting == INKHIT_HINTING_FULL && style.ppem == INKHIT_PPEM_VIEW && style.embolden == INKHIT_EMBOLDEN_STROKE
          && style.stroke_width == 1.25 && style.miter_limit == 4
          && style.hinting_under_transform == INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_NOT_AXIS_ALIGNED);
    CHECK(style.origin_rounding.x.grid == 0.25 && style.origin_rounding.x.bias == 0.125 && style.origin_rounding.y.grid == 1
          && style.origin_rounding.y.bias == 0.5);
    /* Turned 30 degrees: no hinting, quarter pixels on both axes. */
    inkhit_transform turned = {0.86602540378, 0.5, -0.5, 0.86602540378, 20, 0};
    OK(inkhit_glyph_style_for_skia(&font, &turned, &style));
    CHECK(style.hinting == INKHIT_HINTING_NONE && style.origin_rounding.y.grid == 0.25);
    /* Aliased text is hinted for 1-bit masks; forced auto-hinting is not modelled. */
    font.edging = INKHIT_SKIA_EDGING_ALIAS;
    OK(inkhit_glyph_style_for_skia(&font, &ctm, &style));
    CHECK(style.hinting == INKHIT_HINTING_MONO);
    font.force_auto_hinting = 1;
    EXPECT(inkhit_glyph_style_for_skia(&font, &ctm, &style), INKHIT_ERROR_INVALID_ARGUMENT, "forceAutoHinting");
    font.force_auto_hinting = 0;
    font.edging = INKHIT_SKIA_EDGING_ANTI_ALIAS;

    /* An 'l' drawn at x 10.3: Skia puts it at 10.25 (subpixel) and strokes it 1.25 px wide, so its stem's right
     * edge lies 0.05 px left and 0.625 px right of the unstroked glyph's at 10.3. */
    OK(inkhit_glyph_style_for_skia(&font, &ctm, &style));
    uint32_t l = 0;
    OK(inkhit_font_glyph(sans, 'l', &l));
    double advance = 0;
    OK(inkhit_font_advance(sans, l, &advance));
    double centre = 10.3 + advance * 40 / 2048 / 2;
    inkhit_glyph_style thin;
    OK(inkhit_glyph_style_init(&thin));
    thin.embolden = INKHIT_EMBOLDEN_STROKE;           /* FreeType's hinted outline at 40 px, unstroked */
    thin.hinting = INKHIT_HINTING_FULL;
    CHECK(near(stem_edge(sans, l, &style, centre, 50), stem_edge(sans, l, &thin, centre, 50) - 0.05 + 0.625, 1e-5));
}

/* ============================================================================================== */
/* 1.3: Qt's raster engine.                                                                            */

static void test_qt(void) {
    inkhit_qt_raw_font qt;
    OK(inkhit_qt_raw_font_init(&qt));
    CHECK(qt.struct_size == sizeof qt && qt.pixel_size == 16 && qt.weight == 400 && qt.stretch == 0 && qt.flags == 0
          && qt.hinting == INKHIT_HINTING_NONE && qt.head == NULL);
    EXPECT(inkhit_qt_raw_font_init_sized(&qt, 12), INKHIT_ERROR_INVALID_ARGUMENT, "size 12");
    EXPECT(inkhit_qt_raw_font_init_sized(NULL, sizeof qt), INKHIT_ERROR_NULL_ARGUMENT, "font");

    /* Qt's fontconfig database: a preference names a style, the default is fontconfig's (none under high DPI). */
    int32_t h = -1;
    OK(inkhit_qt_hinting(2, 3, 0, &h));
    CHECK(h == INKHIT_HINTING_LIGHT);
    OK(inkhit_qt_hinting(0, 1, 0, &h));
    CHECK(h == INKHIT_HINTING_LIGHT);
    OK(inkhit_qt_hinting(0, -1, 0, &h));
    CHECK(h == INKHIT_HINTING_FULL);
    OK(inkhit_qt_hinting(0, 1, 1, &h));
    CHECK(h == INKHIT_HINTING_NONE);
    EXPECT(inkhit_qt_hinting(4, 0, 0, &h), INKHIT_ERROR_INVALID_ARGUMENT, "preference");
    EXPECT(inkhit_qt_hinting(0, 9, 0, &h), INKHIT_ERROR_INVALID_ARGUMENT, "fontconfig_hint_style");
    EXPECT(inkhit_qt_hinting(0, 0, 2, &h), INKHIT_ERROR_INVALID_ARGUMENT, "high_dpi");

    /* Full hinting, bold requested of DejaVu Sans (OS/2 400) at 16 px, a 2x painter: cached, unhinted (it scales),
     * emboldened, the painter's linear part as the matrix, x on whole px (full hinting), y rounded. */
    qt.hinting = INKHIT_HINTING_FULL;
    qt.weight = 700;
    inkhit_transform twice = {2, 0, 0, 2, 0, 0};
    inkhit_glyph_style style;
    OK(inkhit_glyph_style_init(&style));
    int32_t cached = -1;
    OK(inkhit_qt_glyph_style(sans, &qt, &twice, &style, &cached));
    CHECK(cached == 1 && style.hinting == INKHIT_HINTING_NONE && style.embolden == INKHIT_EMBOLDEN_FREETYPE
          && style.matrix_xx == 2 && style.matrix_yy == 2 && style.origin_rounding.x.grid == 1
          && style.origin_rounding.x.bias == 0 && style.origin_rounding.y.bias == 0.5);
    qt.pixel_size = 40;                                    /* 80 device px: a path, emboldened below 64 px */
    OK(inkhit_qt_glyph_style(sans, &qt, &twice, &style, &cached));
    CHECK(cached == 0 && style.embolden == INKHIT_EMBOLDEN_FREETYPE && style.matrix_xx == 1 && style.origin_rounding.x.grid == 0);

    /* Two glyphs at 16 px, fully hinted, under the identity: origins (10.3, 20.5) and (20.99, 20.49) land on
     * (10, 21) and (20, 20) (x floored, y rounded): the same answers as the glyphs added with the style Qt's rules
     * give at those origins by hand, over a grid of points around them. */
    qt.pixel_size = 16;
    qt.weight = 400;
    uint32_t l = 0;
    OK(inkhit_font_glyph(sans, 'l', &l));
    inkhit_run_glyph glyphs[2] = {{l, 0, 10.3, 20.5, 7}, {l, 0, 20.99, 20.49, 8}};
    inkhit_builder builder, by_hand;
    OK(inkhit_builder_create(0, &builder));
    OK(inkhit_builder_create(0, &by_hand));
    size_t first = 9, added = 9;
    OK(inkhit_builder_add_qt_glyph_run(builder, NULL, sans, &qt, NULL, (inkhit_point){0, 0}, glyphs, 2, &first, &added));
    CHECK(first == 0 && added == 2);
    OK(inkhit_qt_glyph_style(sans, &qt, NULL, &style, &cached));
    CHECK(cached == 1 && style.hinting == INKHIT_HINTING_FULL && style.embolden == INKHIT_EMBOLDEN_NONE);
    memset(&style.origin_rounding, 0, sizeof style.origin_rounding);
    inkhit_glyph_run run;
    OK(inkhit_glyph_run_init(&run));
    run.font = sans;
    run.size = 16;
    run.style = &style;
    inkhit_run_glyph placed[2] = {{l, 0, 10, 21, 7}, {l, 0, 20, 20, 8}};
    OK(inkhit_builder_add_run(by_hand, NULL, &run, placed, 2, NULL));
    inkhit_index index, expected;
    OK(inkhit_builder_build(builder, &index));
    OK(inkhit_builder_build(by_hand, &expected));
    int same = 1, inked = 0;
    for (double y = 5.05; y < 24; y += 0.1) {
        for (double x = 9.05; x < 26; x += 0.1) {
            inkhit_hit a, b;
            OK(inkhit_index_hit(index, x, y, 0, &a));
            OK(inkhit_index_hit(expected, x, y, 0, &b));
            same &= a.hit == b.hit && a.placement == b.placement;
            inked += a.hit;
        }
    }
    CHECK(same && inked > 200);
    uint64_t tag = 0;
    OK(inkhit_index_placement_tag(index, 1, &tag));
    CHECK(tag == 8);
    OK(inkhit_index_release(index));
    OK(inkhit_index_release(expected));
    OK(inkhit_builder_release(by_hand));

    /* Refused: another file's head table, a probe another font drew, bad values, unknown flags, a singular painter. */
    inkhit_qt_raw_font other = qt;
    uint8_t head[54] = {0};
    other.head = head;
    other.head_length = sizeof head;
    EXPECT(inkhit_builder_add_qt_glyph_run(builder, NULL, sans, &other, NULL, (inkhit_point){0, 0}, glyphs, 2, &first,
                                           &added), INKHIT_ERROR_FONT, "head table");
    CHECK(added == 0);
    other = qt;
    other.flags = INKHIT_QT_PROBE;
    other.probe_glyph = l;
    other.probe_bounds = (inkhit_rect){0.7, -12, 2.9, 0};  /* 0.9 px wider than the l */
    EXPECT(inkhit_qt_glyph_style(sans, &other, NULL, &style, NULL), INKHIT_ERROR_FONT, "another file, instance or weight");
    other = qt;
    other.weight = 0;
    EXPECT(inkhit_qt_glyph_style(sans, &other, NULL, &style, NULL), INKHIT_ERROR_INVALID_ARGUMENT, "weight");
    other = qt;
    other.flags = 1u << 9;
    EXPECT(inkhit_qt_glyph_style(sans, &other, NULL, &style, NULL), INKHIT_ERROR_INVALID_ARGUMENT, "flags");
    other = qt;
    other.style = 7;
    EXPECT(inkhit_qt_glyph_style(sans, &other, NULL, &style, NULL), INKHIT_ERROR_INVALID_ARGUMENT, "style");
    other = qt;
    other.struct_size = 8;
    EXPECT(inkhit_qt_glyph_style(sans, &other, NULL, &style, NULL), INKHIT_ERROR_INVALID_ARGUMENT, "struct_size");
    inkhit_transform flat = {1, 0, 0, 0, 0, 0};
    EXPECT(inkhit_qt_glyph_style(sans, &qt, &flat, &style, NULL), INKHIT_ERROR_PLACEMENT, "singular");
    EXPECT(inkhit_qt_glyph_style(NULL, &qt, NULL, &style, NULL), INKHIT_ERROR_NULL_ARGUMENT, "font");
    EXPECT(inkhit_builder_add_qt_glyph_run(builder, NULL, sans, &qt, NULL, (inkhit_point){NAN, 0}, glyphs, 2, &first, &added),
           INKHIT_ERROR_INVALID_ARGUMENT, "origin");
    EXPECT(inkhit_builder_add_qt_glyph_run(builder, NULL, sans, &qt, NULL, (inkhit_point){0, 0}, NULL, 2, &first, &added),
           INKHIT_ERROR_NULL_ARGUMENT, "glyphs");
    OK(inkhit_builder_release(builder));
}

/* ============================================================================================== */
/* 1.2: statuses that mean one thing, numbered adds, named instances, mask lengths, runner options.      */

static void count_warning(void *user_data, const char *message, size_t length) {
    job_output *o = user_data;
    collect(o, message, length);
}

static void test_contract_12(void) {
    /* Batch queries: OK with the count of non-finite points answered as misses; nothing written on an error. */
    inkhit_builder b;
    OK(inkhit_builder_create(0, &b));
    inkhit_glyph_placement p[2] = {placement(sans, 43, 40, 0, 40), placement(sans, 43, 40, 40, 40)}; /* two 'H's */
    size_t first = 99, added = 99;
    OK(inkhit_builder_add_glyphs_numbered(b, NULL, p, 2, &first, &added));
    CHECK(first == 0 && added == 2);
    OK(inkhit_builder_add_glyphs_numbered(b, NULL, p, 1, &first, &added));
    CHECK(first == 2 && added == 1);
    inkhit_glyph_placement broken[2] = {placement(sans, 43, 40, 80, 40), placement(sans, 1000000, 40, 0, 0)};
    EXPECT(inkhit_builder_add_glyphs_numbered(b, NULL, broken, 2, &first, &added), INKHIT_ERROR_GLYPH, "placements[1]");
    CHECK(first == 3 && added == 1);                          /* the placements it did add: 3 ..< 4 */
    EXPECT(inkhit_builder_add_glyphs_numbered(NULL, NULL, p, 2, &first, &added), INKHIT_ERROR_NULL_ARGUMENT, "builder");
    CHECK(first == 0 && added == 0);
    inkhit_glyph_run run;
    OK(inkhit_glyph_run_init(&run));
    run.font = sans;
    inkhit_run_glyph g[2] = {{43, 0, 120, 40, 7}, {43, 0, 160, 40, 8}};
    OK(inkhit_builder_add_run_numbered(b, NULL, &run, g, 2, &first, &added));
    CHECK(first == 4 && added == 2);
    inkhit_hb_glyph_info infos[1] = {{43, 0, 3, 0, 0}};
    inkhit_point pen;
    run.origin = (inkhit_point){200, 40};
    OK(inkhit_builder_add_shaped_numbered(b, NULL, &run, infos, NULL, 1, &pen, &first, &added));
    CHECK(first == 6 && added == 1 && pen.x == 200);
    inkhit_index index;
    OK(inkhit_builder_build(b, &index));
    OK(inkhit_builder_release(b));
    inkhit_point pts[4] = {{5.5, 30}, {NAN, 1}, {500, 500}, {45.5, INFINITY}};
    inkhit_hit out[4];
    memset(out, 0x5A, sizeof out);
    size_t skipped = 99;
    OK(inkhit_index_hit_batch(index, pts, 4, 0, INKHIT_NON_FINITE_MISS, out, &skipped));
    /* (5.5, 30) is on the left stem of placements 0 and 2 (p[0] added twice): the topmost, 2, answers. */
    CHECK(skipped == 2 && out[0].hit == 1 && out[0].placement == 2 && out[1].hit == 0 && out[1].placement == -1
          && isnan(out[1].distance) && out[2].hit == 0 && out[3].hit == 0);
    memset(out, 0x5A, sizeof out);
    EXPECT(inkhit_index_hit_batch(index, pts, 4, 0, INKHIT_NON_FINITE_ERROR, out, &skipped), INKHIT_ERROR_INVALID_ARGUMENT,
           "points[1] (nan, 1) is not finite (2 such points; nothing was answered");
    CHECK(skipped == 0 && out[0].placement == 0x5A5A5A5A5A5A5A5All);
    EXPECT(inkhit_index_hit_batch(index, pts, 4, -1, INKHIT_NON_FINITE_MISS, out, &skipped), INKHIT_ERROR_INVALID_ARGUMENT,
           "radius");
    CHECK(skipped == 0 && out[0].placement == 0x5A5A5A5A5A5A5A5All);
    EXPECT(inkhit_index_hit_batch(index, pts, 4, 0, 7, out, NULL), INKHIT_ERROR_INVALID_ARGUMENT, "non_finite");
    EXPECT(inkhit_index_hits(index, pts, 4, 0, out), INKHIT_ERROR_INVALID_ARGUMENT, "answered as misses");   /* 1.0 */
    CHECK(out[0].placement == 2 && out[1].placement == -1);
    OK(inkhit_index_release(index));

    inkhit_node root = node(1, 0, 0, 100, 100, 0, 0);
    inkhit_scene scene;
    OK(inkhit_scene_create(&root, &scene));
    /* A mask's length bounds the read (issue 28 row 3: 4096 x 4096 from one byte segfaulted). */
    const uint8_t one[1] = {255};
    inkhit_node_shape data;
    OK(inkhit_node_shape_init(&data));
    data.mask_width = 4096;
    data.mask_height = 4096;
    data.mask_alpha = one;
    data.mask_length = 1;
    inkhit_node m = node(2, 0, 0, 50, 50, 0, 0);
    m.shape = INKHIT_SHAPE_MASK;
    EXPECT(inkhit_scene_add_shaped(scene, 1, &m, &data), INKHIT_ERROR_INVALID_ARGUMENT, "mask_length is 1");
    data.mask_width = data.mask_height = 1;
    OK(inkhit_scene_add_shaped(scene, 1, &m, &data));
    data.struct_size = offsetof(inkhit_node_shape, mask_length);          /* a 1.1 program: no length */
    data.mask_length = 99;
    m.id = 3;
    OK(inkhit_scene_add_shaped(scene, 1, &m, &data));
    inkhit_snapshot snap;
    OK(inkhit_scene_snapshot(scene, 0, &snap));
    inkhit_scene_hit sh[4];
    OK(inkhit_snapshot_hit_batch(snap, pts, 4, 0, INKHIT_NON_FINITE_MISS, sh, &skipped));
    CHECK(skipped == 2 && sh[0].hit == 1 && sh[0].node == 3 && sh[1].hit == 0);
    EXPECT(inkhit_snapshot_hit_batch(snap, pts, 4, 0, INKHIT_NON_FINITE_ERROR, sh, &skipped), INKHIT_ERROR_INVALID_ARGUMENT,
           "nothing was answered");
    OK(inkhit_snapshot_release(snap));
    OK(inkhit_scene_release(scene));

    /* Named instances: by number and by name, in the library. */
    inkhit_font inter, bold;
    OK(inkhit_font_from_path(INTER, 0, &inter));
    size_t count = 0, length = 0, found = 0;
    OK(inkhit_font_instance_count(inter, &count));
    CHECK(count >= 18);
    OK(inkhit_font_find_instance(inter, "semi bold italic", &found));
    char name[64];
    OK(inkhit_font_instance_name(inter, found, name, sizeof name, &length));
    CHECK(strcmp(name, "Semi Bold Italic") == 0 && length == 16);
    OK(inkhit_font_instance_name(inter, found, name, 5, &length));
    CHECK(strcmp(name, "Semi") == 0 && length == 16);
    EXPECT(inkhit_font_find_instance(inter, "Heavy", &found), INKHIT_ERROR_FONT, "no named instance \"Heavy\"");
    EXPECT(inkhit_font_instance_name(inter, count, name, sizeof name, &length), INKHIT_ERROR_FONT, "out of range");
    OK(inkhit_font_find_instance(inter, "Bold", &found));
    OK(inkhit_font_with_instance(inter, found, &bold));
    inkhit_variation v[4];
    OK(inkhit_font_get_variations(bold, v, 4, &count));
    CHECK(count >= 1 && v[0].tag == INKHIT_TAG('w', 'g', 'h', 't') && v[0].value == 700);
    OK(inkhit_font_release(bold));
    OK(inkhit_font_release(inter));
    OK(inkhit_font_instance_count(sans, &count));
    CHECK(count == 0);
    EXPECT(inkhit_font_with_instance(sans, 0, &bold), INKHIT_ERROR_FONT, "not a variable font");

    /* A job runner with ink-hit's options: a limit, strict mode, warnings to the caller. */
    inkhit_job_runner_options o;
    OK(inkhit_job_runner_options_init(&o));
    CHECK(o.struct_size == sizeof o && o.tolerance == 0.01 && o.max_seconds_per_job == 60 && o.max_points == 10000000);
    job_output warnings = {{0}, 0}, lines = {{0}, 0};
    o.warn = count_warning;
    o.warn_user_data = &warnings;
    o.max_points = 1;
    inkhit_job_runner runner;
    OK(inkhit_job_runner_create_with_options(&o, &runner));
    char jobs[512];
    snprintf(jobs, sizeof jobs,
             "{\"id\": 1, \"fonts\": [{\"path\": \"%s\"}], \"size\": 40, \"glyphs\": [{\"id\": 43, \"x\": 0, \"y\": 40}],"
             " \"radious\": 2, \"points\": [[5.5, 30]]}\n"
             "{\"id\": 2, \"fonts\": [{\"path\": \"%s\"}], \"size\": 40, \"glyphs\": [], \"points\": [[1, 1], [2, 2]]}\n",
             SANS, SANS);
    size_t ran = 0, failed = 0;
    OK(inkhit_job_runner_run(runner, jobs, strlen(jobs), collect, &lines, &ran, &failed));
    CHECK(ran == 2 && failed == 1 && lines.lines == 2 && strstr(lines.text, "{\"job\":2,\"error\":") != NULL);
    CHECK(warnings.lines == 1 && strstr(warnings.text, "radious") != NULL);
    OK(inkhit_job_runner_release(runner));
    o.strict = 1;
    OK(inkhit_job_runner_create_with_options(&o, &runner));
    memset(&lines, 0, sizeof lines);
    OK(inkhit_job_runner_run(runner, jobs, strlen(jobs), collect, &lines, &ran, &failed));
    CHECK(ran == 2 && failed == 2 && strstr(lines.text, "radious") != NULL && warnings.lines == 1);
    OK(inkhit_job_runner_release(runner));
    o.max_glyphs = (size_t)-1;
    EXPECT(inkhit_job_runner_create_with_options(&o, &runner), INKHIT_ERROR_INVALID_ARGUMENT, "max_glyphs");
    o.max_glyphs = 0;
    o.struct_size = 16;
    EXPECT(inkhit_job_runner_create_with_options(&o, &runner), INKHIT_ERROR_INVALID_ARGUMENT, "struct_size is 16");
    EXPECT(inkhit_job_runner_create_with_options(NULL, &runner), INKHIT_ERROR_NULL_ARGUMENT, "options");
    EXPECT(inkhit_job_runner_options_init(NULL), INKHIT_ERROR_NULL_ARGUMENT, "options");

    /* inkhit_layout_options: a size it does not know is refused, not laid out as 1.0. */
    inkhit_layout_options lo;
    OK(inkhit_layout_options_init(&lo));
    lo.fonts = &sans;
    lo.font_count = 1;
    inkhit_layout layout = NULL;
    size_t sizes[] = {0, 80, offsetof(inkhit_layout_options, runs) - 8, sizeof lo - 8};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        lo.struct_size = (uint32_t)sizes[k];
        EXPECT(inkhit_layout_create_utf8("a", 1, &lo, &layout), INKHIT_ERROR_INVALID_ARGUMENT, "options->struct_size");
        CHECK(layout == NULL);
    }
}

int main(void) {
    test_version_and_errors();
    test_long_message();
    test_fonts();
    test_index();
    test_layout();
    test_rich_layout();
    test_scene();
    test_scene_shapes();
    test_threads();
    test_renderer_drew();
    test_renderer_rules();
    test_skia();
    test_jobs();
    test_release_while_in_use();
    test_limits();
    test_contract_12();
    test_qt();

    OK(inkhit_index_release(index_for_threads));
    EXPECT(inkhit_index_release(index_for_threads), INKHIT_ERROR_INVALID_HANDLE, "already released");
    EXPECT(inkhit_index_hit(index_for_threads, 0, 0, 0, &(inkhit_hit){0}), INKHIT_ERROR_INVALID_HANDLE, "already released");
    OK(inkhit_snapshot_release(snapshot_for_threads));
    OK(inkhit_font_release(sans));
    EXPECT(inkhit_font_release(sans), INKHIT_ERROR_INVALID_HANDLE, "already released");
    CHECK(inkhit_handle_count() == 0);

    printf("inkhit_test: %d checks, %d failure%s\n", checks, failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
