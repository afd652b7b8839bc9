/*
 * The hostile rows of the bounded-build work (inputs bounded before they are built) through the C interface, one scenario per process, so that the caller
 * (HostileCallTests.swift) runs each under an address-space cap and an abort fails only that scenario:
 *
 *     hostile_calls SCENARIO [FONT]     prints "STATUS_NAME WALL_SECONDS CPU_SECONDS MESSAGE", exits 0
 *
 * Each scenario makes one call that used to run for seconds or abort (add a glyph whose shape is hostile,
 * add an outline, snapshot a scene, lay out a million whitespace characters under a time limit, run a slow job
 * in the in-process runner) and reports its status and how long it took.
 */
#define _POSIX_C_SOURCE 200809L
#include <inkhit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The call's start: wall-clock and CPU seconds. */
typedef struct { double wall, cpu; } instant;
static instant now(void) { return (instant){clock_seconds(CLOCK_MONOTONIC), clock_seconds(CLOCK_PROCESS_CPUTIME_ID)}; }

static int report(inkhit_status status, instant start) {
    instant end = now();
    printf("%s %.3f %.3f %s\n", inkhit_status_name(status), end.wall - start.wall, end.cpu - start.cpu,
           status == INKHIT_OK ? "" : inkhit_last_error());
    return 0;
}

/* Adds glyph `glyph` of the font at `path` at `size` px per em to a new builder. */
static int add_glyph(const char *path, uint32_t glyph, double size) {
    inkhit_font font;
    if (inkhit_font_from_path(path, 0, &font) != INKHIT_OK) { fprintf(stderr, "%s\n", inkhit_last_error()); return 2; }
    inkhit_builder b;
    inkhit_builder_create(0, &b);
    inkhit_glyph_placement p = {font, glyph, size, {0, 0}, INKHIT_TRANSFORM_IDENTITY};
    instant start = now();
    inkhit_status st = inkhit_builder_add_glyph(b, NULL, &p, NULL);
    report(st, start);
    inkhit_builder_release(b);
    inkhit_font_release(font);
    return 0;
}

/* 60,000 quadratics on a wavy line, placed at scale 1e6. */
static int add_outline(void) {
    enum { n = 60000 };
    uint8_t *verbs = malloc(n + 2);
    inkhit_point *points = malloc(sizeof(inkhit_point) * (2 * n + 1));
    verbs[0] = INKHIT_VERB_MOVE;
    points[0] = (inkhit_point){0, 0};
    for (int k = 0; k < n; k++) {
        verbs[k + 1] = INKHIT_VERB_QUAD;
        points[1 + 2 * k] = (inkhit_point){k + 0.5, k % 2 ? -1 : 1};
        points[2 + 2 * k] = (inkhit_point){k + 1.0, 0};
    }
    verbs[n + 1] = INKHIT_VERB_CLOSE;
    inkhit_builder b;
    inkhit_builder_create(0, &b);
    inkhit_transform t = {1e6, 0, 0, 1e6, 0, 0};
    instant start = now();
    inkhit_status st = inkhit_builder_add_outline(b, NULL, 1, verbs, n + 2, points, 2 * n + 1, INKHIT_FILL_NONZERO, &t, NULL);
    report(st, start);
    inkhit_builder_release(b);
    free(verbs);
    free(points);
    return 0;
}

/* 500,000 conics of weight 1e300 (each a hyperbola hugging its control polygon), with their start points,
 * placed at scale 1e6: every conic asks for the deepest halving. */
static int add_path_conics(void) {
    enum { n = 500000 };
    uint8_t *verbs = malloc(n + 2);
    inkhit_point *points = malloc(sizeof(inkhit_point) * (3 * n + 1));
    double *weights = malloc(sizeof(double) * n);
    verbs[0] = INKHIT_VERB_MOVE;
    points[0] = (inkhit_point){0, 0};
    for (int k = 0; k < n; k++) {
        verbs[k + 1] = INKHIT_VERB_CONIC;
        points[1 + 3 * k] = (inkhit_point){k, 0};
        points[2 + 3 * k] = (inkhit_point){k + 0.5, k % 2 ? -1 : 1};
        points[3 + 3 * k] = (inkhit_point){k + 1.0, 0};
        weights[k] = 1e300;
    }
    verbs[n + 1] = INKHIT_VERB_CLOSE;
    inkhit_builder b;
    inkhit_builder_create(0, &b);
    inkhit_transform t = {1e6, 0, 0, 1e6, 0, 0};
    instant start = now();
    inkhit_status st = inkhit_builder_add_path(b, NULL, 1, verbs, n + 2, points, 3 * n + 1, weights, n,
                                               INKHIT_PATH_START_POINTS, INKHIT_FILL_NONZERO, &t, NULL);
    report(st, start);
    inkhit_builder_release(b);
    free(verbs);
    free(points);
    free(weights);
    return 0;
}

/* Glyph `glyph` of the font at `path`, fake bold as a round-joined stroke one em wide, at 16,384 px seen 100x
 * larger: every corner's arc is cut into thousands of pieces. */
static int add_stroked(const char *path, uint32_t glyph) {
    inkhit_font font;
    if (inkhit_font_from_path(path, 0, &font) != INKHIT_OK) { fprintf(stderr, "%s\n", inkhit_last_error()); return 2; }
    inkhit_glyph_style style;
    inkhit_glyph_style_init(&style);
    style.embolden = INKHIT_EMBOLDEN_STROKE;
    style.stroke_width = 16384;
    style.stroke_join = INKHIT_JOIN_ROUND;
    inkhit_glyph_run run;
    inkhit_glyph_run_init(&run);
    run.font = font;
    run.size = 16384;
    run.transform.a = run.transform.d = 100;
    run.style = &style;
    inkhit_run_glyph g = {glyph, 0, 0, 0, 0};
    inkhit_builder b;
    inkhit_builder_create(0, &b);
    instant start = now();
    inkhit_status st = inkhit_builder_add_run(b, NULL, &run, &g, 1, NULL);
    report(st, start);
    inkhit_builder_release(b);
    inkhit_font_release(font);
    return 0;
}

/* A scene of `count` ellipse nodes of `size` px, snapshotted under `seconds` (0: no limit). */
static int ellipses(int count, double size, double seconds) {
    inkhit_limits limits;
    inkhit_limits_get(&limits);
    limits.max_seconds_per_call = seconds;
    inkhit_limits_set(&limits);
    inkhit_node root;
    inkhit_node_init(&root, 0);
    root.bounds = (inkhit_rect){0, 0, 100, 100};
    root.flags = INKHIT_NODE_NOT_CLIPS_CHILDREN;
    inkhit_scene scene;
    inkhit_scene_create(&root, &scene);
    for (int k = 1; k <= count; k++) {
        inkhit_node e;
        inkhit_node_init(&e, (uint64_t)k);
        double x = size > 10 ? 0 : k % 300, y = size > 10 ? 0 : k / 300;
        e.bounds = (inkhit_rect){x, y, x + size, y + size};
        e.shape = INKHIT_SHAPE_ELLIPSE;
        inkhit_scene_add(scene, 0, &e);
    }
    inkhit_snapshot snap = NULL;
    instant start = now();
    inkhit_status st = inkhit_scene_snapshot(scene, 0, &snap);
    report(st, start);
    inkhit_snapshot_release(snap);
    inkhit_scene_release(scene);
    return 0;
}

/* `count` copies of `unit` (UTF-8) laid out at 16 px, 300 px wide, under `seconds`: a run of whitespace in one
 * line (spaces, tabs, U+3000) or one paragraph per newline. */
static int layout_run(const char *path, const char *unit, size_t count, double seconds) {
    inkhit_limits limits;
    inkhit_limits_get(&limits);
    limits.max_seconds_per_call = seconds;
    inkhit_limits_set(&limits);
    inkhit_font font;
    if (inkhit_font_from_path(path, 0, &font) != INKHIT_OK) { fprintf(stderr, "%s\n", inkhit_last_error()); return 2; }
    size_t n = strlen(unit);
    char *text = malloc(n * count);
    for (size_t k = 0; k < count; k++) memcpy(text + k * n, unit, n);
    inkhit_layout_options options;
    inkhit_layout_options_init(&options);
    options.fonts = &font;
    options.font_count = 1;
    options.size = 16;
    options.width = 300;
    inkhit_layout layout = NULL;
    instant start = now();
    inkhit_status st = inkhit_layout_create_utf8(text, n * count, &options, &layout);
    report(st, start);
    inkhit_layout_release(layout);
    inkhit_font_release(font);
    free(text);
    return 0;
}

/* The output of a job runner call: how many lines, and the last one (an error line, for a job out of time). */
typedef struct { size_t lines; char last[512]; } sink;

static void collect(void *user, const char *line, size_t length) {
    sink *k = user;
    k->lines += 1;
    size_t n = length < sizeof k->last - 1 ? length : sizeof k->last - 1;
    memcpy(k->last, line, n);
    k->last[n] = 0;
}

/* A glyph job of `points` points (each answered and written: seconds of work without a limit), then a quick job. */
static char *slow_jobs(const char *font, size_t points, size_t *length) {
    size_t cap = 512 + 6 * points + 2 * strlen(font);
    char *text = malloc(cap), *p = text;
    p += sprintf(p, "{\"id\":\"slow\",\"fonts\":[{\"path\":\"%s\"}],\"size\":40,"
                    "\"glyphs\":[{\"font\":0,\"id\":36,\"x\":0,\"y\":40}],\"points\":[", font);
    for (size_t i = 0; i < points; i++) { memcpy(p, i ? ",[5,5]" : "[5,5]", i ? 6 : 5); p += i ? 6 : 5; }
    p += sprintf(p, "]}\n{\"id\":\"quick\",\"fonts\":[{\"path\":\"%s\"}],\"size\":40,"
                    "\"glyphs\":[{\"font\":0,\"id\":36,\"x\":0,\"y\":40}],\"points\":[[5,5]]}\n", font);
    *length = (size_t)(p - text);
    return text;
}

/* The in-process runner held to a time limit (issue 28 row 4): its own job limit (`job_seconds`, through
 * inkhit_job_runner_options) or the call's (`call_seconds`, through inkhit_limits_set, which the runner obeys as
 * every call does). Prints the call's status, its times, and "jobs=J failed=F lines=L last=LINE". */
static int runner(const char *font, double job_seconds, double call_seconds) {
    if (call_seconds > 0) {
        inkhit_limits limits;
        inkhit_limits_get(&limits);
        limits.max_seconds_per_call = call_seconds;
        inkhit_limits_set(&limits);
    }
    inkhit_job_runner r;
    if (job_seconds > 0) {
        inkhit_job_runner_options o;
        inkhit_job_runner_options_init(&o);
        o.max_seconds_per_job = job_seconds;
        if (inkhit_job_runner_create_with_options(&o, &r) != INKHIT_OK) { fprintf(stderr, "%s\n", inkhit_last_error()); return 2; }
    } else if (inkhit_job_runner_create(0, &r) != INKHIT_OK) {
        fprintf(stderr, "%s\n", inkhit_last_error());
        return 2;
    }
    size_t length;
    char *text = slow_jobs(font, 3000000, &length);
    sink k = {0, ""};
    size_t jobs = 0, failed = 0;
    instant start = now();
    inkhit_status st = inkhit_job_runner_run(r, text, length, collect, &k, &jobs, &failed);
    instant end = now();
    printf("%s %.3f %.3f jobs=%zu failed=%zu lines=%zu last=%s %s\n", inkhit_status_name(st), end.wall - start.wall,
           end.cpu - start.cpu, jobs, failed, k.lines, k.last, st == INKHIT_OK ? "" : inkhit_last_error());
    inkhit_job_runner_release(r);
    free(text);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: hostile_calls SCENARIO [FONT]\n"); return 2; }
    const char *s = argv[1], *font = argc > 2 ? argv[2] : "";
    if (strcmp(s, "colr-chain") == 0) return add_glyph(font, 2, 16);
    if (strcmp(s, "colr-clipped") == 0) return add_glyph(font, 2, 16);
    if (strcmp(s, "sbix-huge") == 0) return add_glyph(font, 1, 16);
    if (strcmp(s, "sbix-board") == 0) return add_glyph(font, 1, 64);
    if (strcmp(s, "plain-1e8") == 0) return add_glyph(font, 1, 1e8);
    if (strcmp(s, "outline-quads") == 0) return add_outline();
    if (strcmp(s, "path-conics") == 0) return add_path_conics();
    if (strcmp(s, "stroke-em-round") == 0) return add_stroked("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 14800);
    if (strcmp(s, "ellipses-1e7") == 0) return ellipses(20, 1e7, 0);
    if (strcmp(s, "ellipses-deadline") == 0) return ellipses(99999, 1, 0.5);
    if (strcmp(s, "layout-spaces") == 0) return layout_run(font, " ", 1000000, 0.3);
    if (strcmp(s, "layout-tabs") == 0) return layout_run(font, "\t", 1000000, 0.3);
    if (strcmp(s, "layout-ideographic-spaces") == 0) return layout_run(font, "\xe3\x80\x80", 1000000, 0.3);
    if (strcmp(s, "layout-newlines") == 0) return layout_run(font, "\n", 1000000, 0.3);
    if (strcmp(s, "runner-job-deadline") == 0) return runner("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0.5, 0);
    if (strcmp(s, "runner-call-deadline") == 0) return runner("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0, 0.5);
    fprintf(stderr, "unknown scenario %s\n", s);
    return 2;
}
