/* The C side of bench_hits.py: builds the page from glyphs.bin (id, x, y as doubles) with libInkHit and times
 * inkhit_index_hits over points.bin at the radius given, `rounds` times; prints the median ns per point. */
#define _POSIX_C_SOURCE 199309L
#include <inkhit.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(*n);
    if (fread(p, 1, *n, f) != *n) { perror(path); exit(1); }
    fclose(f);
    return p;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: bench_hits FONT GLYPHS POINTS RADIUS ROUNDS\n"); return 2; }
    inkhit_font font;
    if (inkhit_font_from_path(argv[1], 0, &font) != INKHIT_OK) { fprintf(stderr, "%s\n", inkhit_last_error()); return 1; }
    size_t gbytes, pbytes;
    double *glyphs = slurp(argv[2], &gbytes);
    inkhit_point *points = slurp(argv[3], &pbytes);
    size_t ng = gbytes / (3 * sizeof(double)), np = pbytes / sizeof(inkhit_point);
    /* Built twice, the second index timed: the glyph shapes a page meets first are built in their lean form
     * and a later build of the same glyphs gets the full form (InkHit's ShapeForms), as the Python run's index
     * does (its Layout met the shapes first). */
    inkhit_index index = NULL;
    for (int pass = 0; pass < 2; pass++) {
        inkhit_builder builder;
        inkhit_builder_create(0, &builder);
        for (size_t i = 0; i < ng; i++) {
            inkhit_glyph_placement p = {font, (uint32_t)glyphs[3 * i], 16, {glyphs[3 * i + 1], glyphs[3 * i + 2]},
                                        INKHIT_TRANSFORM_IDENTITY};
            if (inkhit_builder_add_glyph(builder, NULL, &p, NULL) != INKHIT_OK) { fprintf(stderr, "%s\n", inkhit_last_error()); return 1; }
        }
        inkhit_index_release(index);
        inkhit_builder_build(builder, &index);
        inkhit_builder_release(builder);
    }
    inkhit_hit *out = malloc(np * sizeof *out);
    double radius = atof(argv[4]);
    int rounds = atoi(argv[5]);
    double *ns = malloc((size_t)rounds * sizeof *ns);
    inkhit_index_hits(index, points, np, radius, out);
    for (int r = 0; r < rounds; r++) {
        struct timespec a, b;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        inkhit_index_hits(index, points, np, radius, out);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        ns[r] = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / (double)np;
    }
    qsort(ns, (size_t)rounds, sizeof *ns, compare);
    printf("%.3f\n", ns[rounds / 2]);
    return 0;
}
