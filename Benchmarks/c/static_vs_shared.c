/*
 * static_vs_shared.c — the same C calls through two builds of libInkHit loaded side by side in one process,
 * rounds alternated: what linking the Swift runtime into the library (scripts/install-c.sh) changes per call.
 *
 *   cc -O2 -std=c11 -I Sources/CInkHit/include Benchmarks/c/static_vs_shared.c -ldl -o /tmp/static_vs_shared
 *   /tmp/static_vs_shared PREFIX/lib/libInkHit.so.1 .build/release/libInkHitC.so [ROUNDS]
 *
 * A is normally the installed library (the runtime inside), B SwiftPM's development build of the same objects
 * (`swift build -c release --product InkHitC`: the toolchain's shared runtime). Each library gets its own font,
 * layout and index (dlopen RTLD_LOCAL: two copies of everything, nothing shared). Measured per library, A and B
 * in turn for ROUNDS rounds (default 15), medians printed:
 *   - page, single: `inkhit_index_hit` per point, r = 0 and r = 3.5 — the page workload of Benchmarks/
 *     (DejaVu Sans 16 px, the Alice text to 2,000 glyphs wrapped at 600 px, full shape forms, 200,000 uniform
 *     points over the text's box);
 *   - page, batch: `inkhit_index_hits` over the same points, r = 0;
 *   - fast miss: 5,000,000 `inkhit_index_hit` on a one-triangle index far outside it (the call alone:
 *     handle lookup, argument checks, the answer written), as in docs/benchmark-history.md, "Handles released while in use".
 * Before timing, both libraries must answer every point alike (hit, placement, inside, distance bit for bit).
 *
 * Instructions instead of time (this machine is shared: a count does not depend on the load): with a fourth
 * argument, one of single0, single35, batch0, miss, only that measure runs, once per library, and nothing is
 * printed; callgrind then counts each library's calls apart (the same function, another object file):
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.miss /tmp/static_vs_shared A B 1 miss
 *   callgrind_annotate --inclusive=yes /tmp/cg.miss | grep 'inkhit_index_hit '   # Ir of all calls, per library
 */
#define _GNU_SOURCE
#include <inkhit.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *alice =
    "Alice was beginning to get very tired of sitting by her sister on the bank, and of having nothing to do: "
    "once or twice she had peeped into the book her sister was reading, but it had no pictures or "
    "conversations in it, 'and what is the use of a book,' thought Alice 'without pictures or conversations?' "
    "So she was considering in her own mind (as well as she could, for the hot day made her feel very sleepy "
    "and stupid), whether the pleasure of making a daisy-chain would be worth the trouble of getting up and "
    "picking the daisies, when suddenly a White Rabbit with pink eyes ran close by her. ";

#define POINTS 200000
#define MISSES 5000000

typedef struct lib {
    const char *path;
    void *handle;
    inkhit_status (*font_from_path)(const char *, int32_t, inkhit_font *);
    void (*layout_options_init_sized)(inkhit_layout_options *, size_t);
    inkhit_status (*layout_create_utf8)(const char *, size_t, const inkhit_layout_options *, inkhit_layout *);
    inkhit_status (*layout_get_info)(inkhit_layout, inkhit_layout_info *);
    inkhit_status (*layout_glyphs)(inkhit_layout, size_t, size_t, inkhit_layout_glyph *);
    inkhit_status (*builder_create)(double, inkhit_builder *);
    inkhit_status (*builder_set_shape_forms)(inkhit_builder, int32_t);
    inkhit_status (*builder_add_glyphs)(inkhit_builder, inkhit_shape_cache, const inkhit_glyph_placement *, size_t, size_t *);
    inkhit_status (*builder_add_outline)(inkhit_builder, inkhit_shape_cache, uint64_t, const uint8_t *, size_t,
                                         const inkhit_point *, size_t, int32_t, const inkhit_transform *, size_t *);
    inkhit_status (*builder_build)(inkhit_builder, inkhit_index *);
    inkhit_status (*index_hit)(inkhit_index, double, double, double, inkhit_hit *);
    inkhit_status (*index_hits)(inkhit_index, const inkhit_point *, size_t, double, inkhit_hit *);
    const char *(*last_error)(void);
    inkhit_index page, triangle;
} lib;

static void *need(lib *l, const char *name) {
    void *f = dlsym(l->handle, name);
    if (f == NULL) { fprintf(stderr, "%s: no %s\n", l->path, name); exit(1); }
    return f;
}

#define LOAD(l, field, name) memcpy(&(l)->field, &(void *){need((l), (name))}, sizeof (l)->field)

static void check(lib *l, inkhit_status status, const char *what) {
    if (status != INKHIT_OK) { fprintf(stderr, "%s: %s: %s\n", l->path, what, l->last_error()); exit(1); }
}

static void open_lib(lib *l, const char *path) {
    l->path = path;
    l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (l->handle == NULL) { fprintf(stderr, "dlopen: %s\n", dlerror()); exit(1); }
    LOAD(l, font_from_path, "inkhit_font_from_path");
    LOAD(l, layout_options_init_sized, "inkhit_layout_options_init_sized");
    LOAD(l, layout_create_utf8, "inkhit_layout_create_utf8");
    LOAD(l, layout_get_info, "inkhit_layout_get_info");
    LOAD(l, layout_glyphs, "inkhit_layout_glyphs");
    LOAD(l, builder_create, "inkhit_builder_create");
    LOAD(l, builder_set_shape_forms, "inkhit_builder_set_shape_forms");
    LOAD(l, builder_add_glyphs, "inkhit_builder_add_glyphs");
    LOAD(l, builder_add_outline, "inkhit_builder_add_outline");
    LOAD(l, builder_build, "inkhit_builder_build");
    LOAD(l, index_hit, "inkhit_index_hit");
    LOAD(l, index_hits, "inkhit_index_hits");
    LOAD(l, last_error, "inkhit_last_error");
}

/* The page: text to 2,000 glyphs, wrapped at 600 px, every glyph placed in one index with full shape forms. */
static inkhit_rect build(lib *l, const char *text) {
    inkhit_font font;
    check(l, l->font_from_path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0, &font), "font");
    inkhit_layout_options options;
    l->layout_options_init_sized(&options, sizeof options);
    options.fonts = &font;
    options.font_count = 1;
    options.size = 16;
    options.width = 600;
    inkhit_layout layout;
    check(l, l->layout_create_utf8(text, strlen(text), &options, &layout), "layout");
    inkhit_layout_info info;
    check(l, l->layout_get_info(layout, &info), "layout info");
    size_t n = (size_t)info.glyph_count;
    inkhit_layout_glyph *glyphs = calloc(n, sizeof *glyphs);
    inkhit_glyph_placement *placements = calloc(n, sizeof *placements);
    check(l, l->layout_glyphs(layout, 0, n, glyphs), "glyphs");
    for (size_t i = 0; i < n; i++) {
        placements[i] = (inkhit_glyph_placement){font, glyphs[i].glyph, glyphs[i].size, {glyphs[i].x, glyphs[i].y},
                                                 INKHIT_TRANSFORM_IDENTITY};
    }
    inkhit_builder builder;
    check(l, l->builder_create(0, &builder), "builder");
    check(l, l->builder_set_shape_forms(builder, INKHIT_SHAPE_FORMS_FULL), "forms");
    check(l, l->builder_add_glyphs(builder, NULL, placements, n, NULL), "add");
    check(l, l->builder_build(builder, &l->page), "build");
    const uint8_t verbs[] = {INKHIT_VERB_MOVE, INKHIT_VERB_LINE, INKHIT_VERB_LINE, INKHIT_VERB_CLOSE};
    const inkhit_point triangle[] = {{0, 0}, {10, 0}, {0, 10}};
    inkhit_builder small;
    check(l, l->builder_create(0, &small), "builder");
    check(l, l->builder_add_outline(small, NULL, 0, verbs, 4, triangle, 3, INKHIT_FILL_NONZERO, NULL, NULL), "outline");
    check(l, l->builder_build(small, &l->triangle), "build");
    fprintf(stderr, "%s: %zu glyphs, %lld lines\n", l->path, n, (long long)info.line_count);
    free(glyphs);
    free(placements);
    return info.bounds;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inkhit_point points[POINTS];
static inkhit_hit answers[2][POINTS];

__attribute__((noinline)) static double single(lib *l, double radius) {
    double t = now();
    for (size_t i = 0; i < POINTS; i++) l->index_hit(l->page, points[i].x, points[i].y, radius, &answers[0][i]);
    return (now() - t) * 1e9 / POINTS;
}

__attribute__((noinline)) static double batch(lib *l, double radius) {
    double t = now();
    l->index_hits(l->page, points, POINTS, radius, answers[0]);
    return (now() - t) * 1e9 / POINTS;
}

__attribute__((noinline)) static double miss(lib *l) {
    inkhit_hit h;
    double t = now();
    for (int i = 0; i < MISSES; i++) l->index_hit(l->triangle, 1000 + (i & 1), 2, 0, &h);
    return (now() - t) * 1e9 / MISSES;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: static_vs_shared LIB_A LIB_B [ROUNDS]\n"); return 2; }
    int rounds = argc > 3 ? atoi(argv[3]) : 15;
    if (rounds < 1 || rounds > 1000) rounds = 15;
    static char text[4096];
    while (strlen(text) + strlen(alice) < 2000) strcat(text, alice);
    strncat(text, alice, 2000 - strlen(text));
    lib libs[2];
    open_lib(&libs[0], argv[1]);
    open_lib(&libs[1], argv[2]);
    inkhit_rect box = build(&libs[0], text);
    build(&libs[1], text);
    uint64_t state = 20261127;
    for (size_t i = 0; i < POINTS; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        double u = (double)(state >> 11) / 9007199254740992.0;
        state = state * 6364136223846793005u + 1442695040888963407u;
        double v = (double)(state >> 11) / 9007199254740992.0;
        points[i] = (inkhit_point){box.min_x + u * (box.max_x - box.min_x), box.min_y + v * (box.max_y - box.min_y)};
    }
    for (int r = 0; r < 2; r++) {
        double radius = r ? 3.5 : 0;
        libs[0].index_hits(libs[0].page, points, POINTS, radius, answers[0]);
        libs[1].index_hits(libs[1].page, points, POINTS, radius, answers[1]);
        long hits = 0;
        for (size_t i = 0; i < POINTS; i++) {
            inkhit_hit a = answers[0][i], b = answers[1][i];
            hits += a.hit;
            if (a.hit != b.hit || a.placement != b.placement || a.inside != b.inside ||
                (a.hit && memcmp(&a.distance, &b.distance, sizeof a.distance) != 0)) {
                fprintf(stderr, "point %zu (%g, %g), r = %g: the libraries answer differently\n", i, points[i].x, points[i].y, radius);
                return 1;
            }
        }
        fprintf(stderr, "r = %g: %d points answered alike by both (%ld hits)\n", radius, POINTS, hits);
    }
    if (argc > 4) {
        for (int k = 0; k < 2; k++) {
            if (strcmp(argv[4], "single0") == 0) single(&libs[k], 0);
            else if (strcmp(argv[4], "single35") == 0) single(&libs[k], 3.5);
            else if (strcmp(argv[4], "batch0") == 0) batch(&libs[k], 0);
            else if (strcmp(argv[4], "miss") == 0) miss(&libs[k]);
            else { fprintf(stderr, "unknown measure %s\n", argv[4]); return 2; }
        }
        return 0;
    }
    enum { SINGLE0, SINGLE35, BATCH0, MISS, MEASURES };
    static const char *names[MEASURES] = {"page, single, r = 0 (ns/point)", "page, single, r = 3.5 (ns/point)",
                                          "page, batch, r = 0 (ns/point)", "fast miss, one call (ns)"};
    double *m[2][MEASURES];
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < MEASURES; j++) m[k][j] = calloc((size_t)rounds, sizeof(double));
    for (int i = 0; i < rounds; i++) {
        for (int s = 0; s < 2; s++) {
            int k = (i + s) % 2;                          /* A B, then B A: neither always goes first */
            m[k][SINGLE0][i] = single(&libs[k], 0);
            m[k][SINGLE35][i] = single(&libs[k], 3.5);
            m[k][BATCH0][i] = batch(&libs[k], 0);
            m[k][MISS][i] = miss(&libs[k]);
        }
    }
    printf("| measure, median of %d alternated rounds | A: %s | B: %s | A - B |\n|---|---|---|---|\n", rounds, argv[1], argv[2]);
    for (int j = 0; j < MEASURES; j++) {
        double a = median(m[0][j], rounds), b = median(m[1][j], rounds);
        printf("| %s | %.2f | %.2f | %+.2f |\n", names[j], a, b, a - b);
    }
    return 0;
}
