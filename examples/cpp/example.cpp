// example.cpp — libInkHit from C++ through the RAII wrappers of inkhit.hpp: glyphs and a custom outline in
// an index, a paragraph with a link, a scene; errors as exceptions; every handle released by its owner.
//
//   c++ -std=c++17 example.cpp $(pkg-config --cflags --libs inkhit) -o example && ./example
//
// Exits 0 when every answer is the one stated next to it (scripts/c-abi-test.sh runs it).
#include "inkhit.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>

static int failures = 0;
static void expect(bool ok, const char *what) {
    if (!ok) {
        ++failures;
        std::cerr << "FAIL: " << what << "\n";
    }
}

int main() {
    try {
        const auto sans = inkhit::Font::from_path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
        expect(sans.info().units_per_em == 2048, "DejaVu Sans has 2048 units per em");

        // "Hi" at 32 px on the baseline y = 40, and a 10 x 10 px square at (100, 10) drawn as path commands.
        inkhit::Builder builder;
        double pen = 10;
        for (char32_t c : {U'H', U'i'}) {
            const uint32_t glyph = sans.glyph(c);
            builder.add_glyph(sans, glyph, 32, {pen, 40});
            pen += sans.advance(glyph) * 32 / 2048;
        }
        const std::vector<uint8_t> verbs = {INKHIT_VERB_MOVE, INKHIT_VERB_LINE, INKHIT_VERB_LINE, INKHIT_VERB_LINE, INKHIT_VERB_CLOSE};
        const std::vector<inkhit::Point> square = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
        const size_t box = builder.add_outline(verbs, square, {1, 0, 0, 1, 100, 10});
        const inkhit::Index index = builder.build();
        expect(index.info().placements == 3 && box == 2, "three placements");
        const auto on_h = index.hit({14, 30});
        expect(on_h && on_h->placement == 0 && on_h->inside, "(14, 30) is on the H's stem");
        const auto near_box = index.hit({97, 15}, 4);
        expect(near_box && near_box->placement == 2 && !near_box->inside && std::fabs(near_box->distance - 3) < 1e-4,
               "(97, 15) is 3 px left of the square");
        expect(!index.hit({97, 15}, 2), "... not within 2 px");
        expect(index.contains({105, 15}) && !index.contains({95, 15}), "containment");
        expect(index.topmost({105, 15}) == std::optional<int64_t>(2) && !index.topmost({95, 15}), "topmost");
        builder.set_prepared_radius(8);
        const inkhit::Index wide = builder.build();
        const auto near_wide = wide.hit({97, 15}, 4);
        expect(near_wide && near_wide->placement == 2 && near_wide->distance == near_box->distance,
               "a prepared radius changes no answer");
        const auto answers = index.hits({{14, 30}, {97, 15}, {500, 500}}, 4);
        expect(answers.size() == 3 && answers[0].placement == 0 && answers[1].placement == 2 && !answers[2].hit, "batch");

        // A paragraph: the "l" of "link" (bytes 8 ..< 12) hits the link; the gap after it does not.
        const std::string text = "Tap the link, not the gap.";
        const auto layout = inkhit::Layout::utf8(text, {sans}, 16, {{8, 12}});
        const auto on_l = layout.hit({65.7, 8});
        expect(on_l && on_l->link == 0 && on_l->utf8_start == 8, "(65.7, 8) is on the l of the link");
        expect(!layout.hit({100.5, 8}) && !layout.link({100.5, 8}), "(100.5, 8) is in the gap");
        expect(layout.caret({63.6, 8}).utf8 == 8, "the caret before the l");

        // The README's scene: a small button grown to 44 x 44 about its centre.
        inkhit_node root = inkhit::node(1, {0, 0, 320, 480});
        root.pointer_events = INKHIT_POINTER_BOX_NONE;
        inkhit::Scene scene(root);
        inkhit_node like = inkhit::node(2, {0, 0, 18, 18});
        like.transform = {1, 0, 0, 1, 60, 21};
        like.min_width = like.min_height = 44;
        scene.add(1, like);
        const auto before = scene.snapshot();
        scene.set_transform(2, {1, 0, 0, 1, 200, 21});
        const auto after = scene.snapshot();
        const auto hit = before.hit({52, 30});
        expect(hit && hit->node == 2, "(52, 30) is on the grown button");
        expect(!after.hit({52, 30}), "... which moved away");

        // Errors are exceptions with the status and the message.
        try {
            inkhit::Font::from_path("/nonexistent.ttf");
            expect(false, "a missing font throws");
        } catch (const inkhit::Error &e) {
            expect(e.status() == INKHIT_ERROR_FILE && std::string(e.what()).find("not found") != std::string::npos,
                   "a missing font is INKHIT_ERROR_FILE");
        }
        try {
            index.hit({NAN, 0});
            expect(false, "a NaN point throws");
        } catch (const inkhit::Error &e) {
            expect(e.status() == INKHIT_ERROR_INVALID_ARGUMENT, "a NaN point is INKHIT_ERROR_INVALID_ARGUMENT");
        }
        std::printf("on the H: placement %lld, distance %.2f px; the link: bytes %lld..<%lld; the button: node %llu\n",
                    static_cast<long long>(on_h->placement), on_h->distance, static_cast<long long>(on_l->utf8_start),
                    static_cast<long long>(on_l->utf8_end), static_cast<unsigned long long>(hit->node));
    } catch (const inkhit::Error &e) {
        std::cerr << "unexpected error " << inkhit_status_name(e.status()) << ": " << e.what() << "\n";
        return 1;
    }
    // Every handle was released by its owner.
    expect(inkhit_handle_count() == 0, "no handle left");
    std::printf("example.cpp: %s\n", failures ? "FAILED" : "all answers as expected");
    return failures ? 1 : 0;
}
