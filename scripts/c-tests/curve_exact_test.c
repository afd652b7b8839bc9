/*
 * curve_exact_test.c — glyph jobs answered through inkhit.h, checked against a curve-exact reference.
 *
 * Reads the lines scripts/c-tests/curve_exact_input.py writes from the fixtures (Tests/InkJobsTests/Fixtures:
 * answers made outside the library, from the exact quadratic and cubic curves) on stdin. Each job becomes one
 * index: its fonts loaded with inkhit_font_from_path, its glyphs added with inkhit_builder_add_glyph (origin and
 * size in layout px, the job's transform), each point answered with inkhit_index_hit at the job's radius. A point
 * is right when hit and placement equal the reference's (the input holds only points at least 0.05 px from
 * every boundary that matters). Prints "curve-exact: N jobs, N points, N wrong" and exits 1 on any wrong answer,
 * any failed call, or no point at all.
 *
 *   cc curve_exact_test.c $(pkg-config --cflags --libs inkhit) -o curve_exact_test
 *   python3 curve_exact_input.py Tests/InkJobsTests/Fixtures example heldout stress cff | ./curve_exact_test
 */
#include <inkhit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FONTS 16
#define MAX_GLYPHS 4096

static int failed_call(const char *what, const char *job) {
    fprintf(stderr, "curve-exact: job %s: %s failed: %s\n", job, what, inkhit_last_error());
    return 1;
}

int main(void) {
    static char line[8192];
    static inkhit_glyph_placement placements[MAX_GLYPHS];
    char job[256] = "";
    inkhit_font fonts[MAX_FONTS];
    size_t font_count = 0, glyph_count = 0;
    double radius = 0;
    inkhit_transform transform = INKHIT_TRANSFORM_IDENTITY;
    inkhit_index index = NULL;
    long jobs = 0, points = 0, wrong = 0;

    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "job ", 4) == 0) {
            if (sscanf(line, "job %255s %lf %lf %lf %lf %lf %lf %lf", job, &radius, &transform.a, &transform.b,
                       &transform.c, &transform.d, &transform.tx, &transform.ty) != 8) {
                fprintf(stderr, "curve-exact: bad line: %s\n", line);
                return 1;
            }
            font_count = glyph_count = 0;
            jobs++;
        } else if (strncmp(line, "font ", 5) == 0) {
            int face = 0, skip = 0;
            if (font_count == MAX_FONTS || sscanf(line, "font %d %n", &face, &skip) != 1 || skip == 0) {
                fprintf(stderr, "curve-exact: bad line: %s\n", line);
                return 1;
            }
            if (inkhit_font_from_path(line + skip, face, &fonts[font_count]) != INKHIT_OK)
                return failed_call("inkhit_font_from_path", job);
            font_count++;
        } else if (strncmp(line, "glyph ", 6) == 0) {
            unsigned font = 0, glyph = 0;
            inkhit_glyph_placement *p = &placements[glyph_count];
            if (glyph_count == MAX_GLYPHS ||
                sscanf(line, "glyph %u %u %lf %lf %lf", &font, &glyph, &p->origin.x, &p->origin.y, &p->size) != 5 ||
                font >= font_count) {
                fprintf(stderr, "curve-exact: bad line: %s\n", line);
                return 1;
            }
            p->font = fonts[font];
            p->glyph = glyph;
            p->transform = transform;
            glyph_count++;
        } else if (strncmp(line, "point ", 6) == 0) {
            double x, y;
            int hit, glyph;
            if (sscanf(line, "point %lf %lf %d %d", &x, &y, &hit, &glyph) != 4) {
                fprintf(stderr, "curve-exact: bad line: %s\n", line);
                return 1;
            }
            if (index == NULL) {
                inkhit_builder builder;
                if (inkhit_builder_create(0, &builder) != INKHIT_OK) return failed_call("inkhit_builder_create", job);
                for (size_t i = 0; i < glyph_count; i++) {
                    size_t number = 0;
                    if (inkhit_builder_add_glyph(builder, NULL, &placements[i], &number) != INKHIT_OK)
                        return failed_call("inkhit_builder_add_glyph", job);
                    if (number != i) {
                        fprintf(stderr, "curve-exact: job %s: glyph %zu became placement %zu\n", job, i, number);
                        return 1;
                    }
                }
                if (inkhit_builder_build(builder, &index) != INKHIT_OK) return failed_call("inkhit_builder_build", job);
                inkhit_builder_release(builder);
            }
            inkhit_hit answer;
            if (inkhit_index_hit(index, x, y, radius, &answer) != INKHIT_OK) return failed_call("inkhit_index_hit", job);
            long placement = answer.hit ? (long)answer.placement : -1;
            points++;
            if (answer.hit != hit || placement != glyph) {
                if (++wrong <= 10)
                    fprintf(stderr, "curve-exact: job %s, point (%.17g, %.17g): hit %d placement %ld, the reference: hit %d glyph %d\n",
                            job, x, y, answer.hit, placement, hit, glyph);
            }
        } else if (strcmp(line, "end") == 0) {
            inkhit_index_release(index);
            index = NULL;
            for (size_t i = 0; i < font_count; i++) inkhit_font_release(fonts[i]);
            font_count = 0;
        } else if (line[0] != '\0') {
            fprintf(stderr, "curve-exact: bad line: %s\n", line);
            return 1;
        }
    }
    printf("curve-exact: %ld jobs, %ld points, %ld wrong\n", jobs, points, wrong);
    return wrong == 0 && points > 0 ? 0 : 1;
}
