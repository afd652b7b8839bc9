/* hello.c — a paragraph with a link, hit-tested through libInkHit (the README's C example).
 *
 *   cc hello.c $(pkg-config --cflags --libs inkhit) -o hello && ./hello
 */
#include <inkhit.h>

#include <stdio.h>
#include <string.h>

static int fail(const char *what) {
    fprintf(stderr, "%s failed: %s\n", what, inkhit_last_error());
    return 1;
}

int main(void) {
    inkhit_font font;
    if (inkhit_font_from_path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0, &font) != INKHIT_OK)
        return fail("inkhit_font_from_path");

    const char *text = "Tap the link, not the gap.";
    inkhit_text_link link = {8, 12};                    /* "link": byte offsets (UTF-8 text) */
    inkhit_layout_options options;
    inkhit_layout_options_init(&options);
    options.fonts = &font;
    options.font_count = 1;
    options.size = 16;                                  /* px per em */
    options.links = &link;
    options.link_count = 1;
    inkhit_layout layout;
    if (inkhit_layout_create_utf8(text, strlen(text), &options, &layout) != INKHIT_OK)
        return fail("inkhit_layout_create_utf8");

    /* View px: on the stem of the "l" of "link"; in the gap after "link,"; the same with a 3.5 px touch radius. */
    const double points[3][2] = {{65.7, 8}, {100.5, 8}, {100.5, 8}};
    for (int i = 0; i < 3; i++) {
        inkhit_text_hit hit;
        double radius = i == 2 ? 3.5 : 0;               /* view px */
        if (inkhit_layout_hit(layout, points[i][0], points[i][1], radius, INKHIT_TEXT_HIT_INK, &hit) != INKHIT_OK)
            return fail("inkhit_layout_hit");
        if (hit.hit)
            printf("(%g, %g) r %g: \"%.*s\" (bytes %lld..<%lld), link %lld, distance %.2f px\n", points[i][0], points[i][1],
                   radius, (int)(hit.utf8_end - hit.utf8_start), text + hit.utf8_start, (long long)hit.utf8_start,
                   (long long)hit.utf8_end, (long long)hit.link, hit.distance);
        else
            printf("(%g, %g) r %g: miss\n", points[i][0], points[i][1], radius);
    }
    inkhit_layout_release(layout);
    inkhit_font_release(font);
    return 0;
}
