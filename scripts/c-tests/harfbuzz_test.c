/*
 * harfbuzz_test.c — inkhit_builder_add_shaped() with HarfBuzz's own arrays.
 *
 * Text is shaped by hb_shape() (Latin with ligatures and kerning, Hebrew with points and Arabic with marks
 * (offsets in x and y) right to left, CJK,
 * Inter at wght 650, a hinted serif; with synthetic bold, hinting and a rotated, sheared transform), and the
 * arrays as HarfBuzz leaves them go to inkhit_builder_add_shaped(). Checked:
 *   - each placement's tag is its glyph's cluster (plus tag_base);
 *   - the answers on a grid of points, at radius 0 and 2.5, equal bit for bit those of the same glyphs added
 *     one by one at the header's positions (inkhit_builder_add_run, itself the Swift API's placements);
 *   - the same glyphs as a glyph job (written to DIR/jobs.jsonl, with these answers in DIR/answers.jsonl) are
 *     answered by `ink-hit query` as here: scripts/c-abi-test.sh compares the two files (the job format
 *     prints distances to 4 decimals; hits and glyphs exactly).
 *
 *   cc harfbuzz_test.c $(pkg-config --cflags --libs inkhit harfbuzz) -lm -o harfbuzz_test && ./harfbuzz_test DIR
 */
#include <inkhit.h>

#include <hb.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;
#define CHECK(cond) do { checks++; if (!(cond)) { failures++; fprintf(stderr, "FAIL line %d: %s (%s)\n", __LINE__, #cond, inkhit_last_error()); } } while (0)

typedef struct {
    const char *name, *path, *text;
    hb_direction_t direction;
    double size;
    inkhit_transform transform;
    int embolden;                   /* INKHIT_EMBOLDEN_* (NONE or FREETYPE: what a glyph job can say) */
    int hinting;                    /* INKHIT_HINTING_* */
    float wght;                     /* 0: the font's default */
} Case;

static const Case cases[] = {
    {"latin", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "office affine fjord AVATAR Wa.", HB_DIRECTION_LTR, 18,
     {1, 0, 0, 1, 0, 0}, INKHIT_EMBOLDEN_NONE, INKHIT_HINTING_NONE, 0},
    {"hebrew", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "שָׁלוֹם עוֹלָם", HB_DIRECTION_RTL, 20,
     {1.5, 0.3, -0.2, 1.2, 10, 5}, INKHIT_EMBOLDEN_NONE, INKHIT_HINTING_NONE, 0},
    {"arabic-marks", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "بِسْمِ ٱللَّٰهِ", HB_DIRECTION_RTL, 24,
     {1, 0, 0, 1, 0, 0}, INKHIT_EMBOLDEN_NONE, INKHIT_HINTING_NONE, 0},
    {"cjk-bold", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", "永字八法漢字", HB_DIRECTION_LTR, 24,
     {1, 0, 0, 1, 0, 0}, INKHIT_EMBOLDEN_FREETYPE, INKHIT_HINTING_NONE, 0},
    {"inter-650", "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf", "Hamburgefonstiv 650", HB_DIRECTION_LTR, 16,
     {2, 0, 0, 2, 0, 0}, INKHIT_EMBOLDEN_NONE, INKHIT_HINTING_NONE, 650},
    {"serif-hinted", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", "Hinted serif text, 13 px.", HB_DIRECTION_LTR, 13,
     {1, 0, 0, 1, 0, 0}, INKHIT_EMBOLDEN_NONE, INKHIT_HINTING_LIGHT, 0},
};

/* Each build makes its shapes in a cache of its own, so the two indexes compared are independent builds (a
 * shape a second index reuses may be read in another form, equal up to the last bit of a distance). */
static inkhit_shape_cache cache_of_build;

static inkhit_index build(void (*add)(inkhit_builder, void *), void *data) {
    inkhit_builder b;
    inkhit_index index = NULL;
    CHECK(inkhit_builder_create(0, &b) == INKHIT_OK);
    CHECK(inkhit_shape_cache_create(SIZE_MAX, &cache_of_build) == INKHIT_OK);
    add(b, data);
    CHECK(inkhit_builder_build(b, &index) == INKHIT_OK);
    inkhit_builder_release(b);
    inkhit_shape_cache_release(cache_of_build);
    return index;
}

typedef struct {
    inkhit_glyph_run *run;
    const hb_glyph_info_t *infos;
    const hb_glyph_position_t *positions;
    inkhit_run_glyph *glyphs;
    unsigned int count;
} Shaped;

static void add_shaped(inkhit_builder b, void *data) {
    Shaped *s = data;
    size_t added = 0;
    inkhit_point pen;
    CHECK(inkhit_builder_add_shaped(b, cache_of_build, s->run, (const inkhit_hb_glyph_info *)s->infos,
                                    (const inkhit_hb_glyph_position *)s->positions, s->count, &pen, &added) == INKHIT_OK);
    CHECK(added == s->count);
}

static void add_one_by_one(inkhit_builder b, void *data) {
    Shaped *s = data;
    inkhit_glyph_run run = *s->run;
    run.origin = (inkhit_point){0, 0};
    for (unsigned int i = 0; i < s->count; i++)
        CHECK(inkhit_builder_add_run(b, cache_of_build, &run, &s->glyphs[i], 1, NULL) == INKHIT_OK);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: harfbuzz_test DIR\n"); return 2; }
    char path[1024];
    snprintf(path, sizeof path, "%s/jobs.jsonl", argv[1]);
    FILE *jobs = fopen(path, "w");
    snprintf(path, sizeof path, "%s/answers.jsonl", argv[1]);
    FILE *answers = fopen(path, "w");
    if (!jobs || !answers) { perror("harfbuzz_test"); return 2; }
    long compared = 0, hits = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const Case *k = &cases[c];
        hb_blob_t *blob = hb_blob_create_from_file(k->path);
        hb_face_t *face = hb_face_create(blob, 0);
        hb_font_t *hb = hb_font_create(face);                       /* scale: units per em */
        inkhit_font font = NULL, base = NULL;
        CHECK(inkhit_font_from_path(k->path, 0, &base) == INKHIT_OK);
        inkhit_variation wght = {INKHIT_TAG('w', 'g', 'h', 't'), k->wght};
        if (k->wght > 0) {
            hb_variation_t v = {HB_TAG('w', 'g', 'h', 't'), k->wght};
            hb_font_set_variations(hb, &v, 1);
            CHECK(inkhit_font_with_variations(base, &wght, 1, &font) == INKHIT_OK);
            inkhit_font_release(base);
        } else {
            font = base;
        }
        hb_buffer_t *buffer = hb_buffer_create();
        hb_buffer_add_utf8(buffer, k->text, -1, 0, -1);
        hb_buffer_set_direction(buffer, k->direction);
        hb_buffer_guess_segment_properties(buffer);
        hb_shape(hb, buffer, NULL, 0);
        unsigned int count = 0;
        const hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, &count);
        const hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer, &count);
        double k_scale = k->size / hb_face_get_upem(face);

        inkhit_glyph_style style;
        inkhit_glyph_style_init(&style);
        style.embolden = k->embolden;
        style.hinting = k->hinting;
        inkhit_glyph_run run;
        inkhit_glyph_run_init(&run);
        run.font = font;
        run.size = k->size;
        run.origin = (inkhit_point){12.25, 30.5};
        run.transform = k->transform;
        run.style = &style;
        run.position_scale = k_scale;
        run.tag_base = 1000;

        /* The header's positions, computed here as a user would. */
        inkhit_run_glyph *glyphs = calloc(count, sizeof *glyphs);
        long long px = 0, py = 0;
        for (unsigned int i = 0; i < count; i++) {
            glyphs[i].glyph = infos[i].codepoint;
            glyphs[i].x = run.origin.x + (double)(px + positions[i].x_offset) * k_scale;
            glyphs[i].y = run.origin.y - (double)(py + positions[i].y_offset) * k_scale;
            glyphs[i].tag = 1000 + infos[i].cluster;
            px += positions[i].x_advance;
            py += positions[i].y_advance;
        }
        Shaped shaped = {&run, infos, positions, glyphs, count};
        inkhit_index a = build(add_shaped, &shaped), b = build(add_one_by_one, &shaped);
        for (unsigned int i = 0; i < count; i++) {
            uint64_t tag = 0;
            CHECK(inkhit_index_placement_tag(a, i, &tag) == INKHIT_OK && tag == 1000 + infos[i].cluster);
        }
        inkhit_index_info info;
        inkhit_index_get_info(a, &info);
        CHECK(info.placements == count && info.bounds.max_x > info.bounds.min_x);

        /* Points over the ink's bounds; the glyph job's lines. */
        const double step = 0.37, radii[2] = {0, 2.5};
        for (int r = 0; r < 2; r++) {
            fprintf(jobs, "{\"id\":\"%s-r%g\",\"fonts\":[{\"path\":\"%s\",\"index\":0%s%s", k->name, radii[r], k->path,
                    k->embolden == INKHIT_EMBOLDEN_FREETYPE ? ",\"embolden\":\"freetype\"" : "",
                    k->hinting == INKHIT_HINTING_LIGHT ? ",\"hinting\":\"light\"" : "");
            if (k->wght > 0) fprintf(jobs, ",\"variations\":{\"wght\":%g}", (double)k->wght);
            fprintf(jobs, "}],\"size\":%.17g,\"transform\":[%.17g,%.17g,%.17g,%.17g,%.17g,%.17g],\"radius\":%g,\"glyphs\":[",
                    k->size, k->transform.a, k->transform.b, k->transform.c, k->transform.d, k->transform.tx, k->transform.ty,
                    radii[r]);
            for (unsigned int i = 0; i < count; i++)
                fprintf(jobs, "%s{\"font\":0,\"id\":%u,\"x\":%.17g,\"y\":%.17g}", i ? "," : "", glyphs[i].glyph, glyphs[i].x, glyphs[i].y);
            fprintf(jobs, "],\"points\":[");
            long n = 0;
            for (double y = info.bounds.min_y - 3; y <= info.bounds.max_y + 3; y += step * 3) {
                for (double x = info.bounds.min_x - 3; x <= info.bounds.max_x + 3; x += step) {
                    inkhit_hit ha, hb2;
                    inkhit_index_hit(a, x, y, radii[r], &ha);
                    inkhit_index_hit(b, x, y, radii[r], &hb2);
                    compared++;
                    hits += ha.hit;
                    int same = ha.hit == hb2.hit && ha.placement == hb2.placement && ha.inside == hb2.inside
                               && (!ha.hit || memcmp(&ha.distance, &hb2.distance, sizeof(double)) == 0);
                    if (!same) {
                        failures++;
                        if (failures < 5) fprintf(stderr, "FAIL %s: (%g, %g) r %g: shaped %lld %.17g, one by one %lld %.17g\n",
                                                  k->name, x, y, radii[r], (long long)ha.placement, ha.distance,
                                                  (long long)hb2.placement, hb2.distance);
                    }
                    fprintf(jobs, "%s[%.17g,%.17g]", n ? "," : "", x, y);
                    if (ha.hit)
                        fprintf(answers, "{\"job\":\"%s-r%g\",\"i\":%ld,\"hit\":true,\"glyph\":%lld,\"distance\":%.17g}\n", k->name,
                                radii[r], n, (long long)ha.placement, ha.distance);
                    else
                        fprintf(answers, "{\"job\":\"%s-r%g\",\"i\":%ld,\"hit\":false,\"glyph\":null,\"distance\":null}\n", k->name,
                                radii[r], n);
                    n++;
                }
            }
            fprintf(jobs, "]}\n");
        }
        checks++;
        printf("%-13s %2u glyphs (%s): tags = clusters, answers equal to the one-by-one placements\n", k->name, count,
               k->direction == HB_DIRECTION_RTL ? "RTL" : "LTR");
        inkhit_index_release(a);
        inkhit_index_release(b);
        free(glyphs);
        hb_buffer_destroy(buffer);
        hb_font_destroy(hb);
        hb_face_destroy(face);
        hb_blob_destroy(blob);
        inkhit_font_release(font);
    }
    fclose(jobs);
    fclose(answers);
    CHECK(hits > compared / 20);
    CHECK(inkhit_handle_count() == 0);
    printf("harfbuzz_test: %ld points compared, %ld hits; %d checks, %d failure%s\n", compared, hits, checks, failures,
           failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
