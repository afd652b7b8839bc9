// inkhit.hpp — RAII wrappers over inkhit.h for C++17: each handle is owned by a std::unique_ptr whose
// deleter calls the matching inkhit_*_release (exactly once, also when an exception unwinds), and every
// failed call throws inkhit::Error with the status and the library's message.
//
//   auto font = inkhit::Font::from_path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
//   auto layout = inkhit::Layout::utf8("Tap the link", {font}, 16, {{8, 12}});
//   if (auto hit = layout.hit({70, 12}, 3.5)) std::cout << hit->link << "\n";
//
// An example, not a product: copy it into your project and extend it as you need (it wraps what
// example.cpp uses). Thread safety and ownership are those of inkhit.h.
#pragma once

#include <inkhit.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace inkhit {

/// A failed call: its status (INKHIT_ERROR_*) and the library's message.
class Error : public std::runtime_error {
public:
    Error(inkhit_status status, const char *message) : std::runtime_error(message), status_(status) {}
    inkhit_status status() const noexcept { return status_; }

private:
    inkhit_status status_;
};

/// Throws the calling thread's last error when `status` is not INKHIT_OK.
inline void check(inkhit_status status) {
    if (status != INKHIT_OK) throw Error(status, inkhit_last_error());
}

namespace detail {
/// A handle type's release function as a deleter. Releasing never fails for a live handle; a failure here
/// would be a double release, which unique_ptr's single ownership rules out.
template <typename Object, inkhit_status (*Release)(Object *)>
struct Releaser {
    void operator()(Object *handle) const noexcept { Release(handle); }
};
template <typename Object, inkhit_status (*Release)(Object *)>
using Owned = std::unique_ptr<Object, Releaser<Object, Release>>;

/// Calls `make(&handle)` and takes ownership of the handle it writes.
template <typename Owner, typename Make>
Owner make_owned(Make make) {
    typename Owner::pointer handle = nullptr;
    check(make(&handle));
    return Owner(handle);
}
}  // namespace detail

using Point = inkhit_point;
using Transform = inkhit_transform;

/// One face of a font file. Copies share the face (the handle is released with the last copy).
class Font {
public:
    static Font from_path(const std::string &path, int32_t face_index = 0) {
        return Font(detail::make_owned<Ptr>([&](inkhit_font *out) { return inkhit_font_from_path(path.c_str(), face_index, out); }));
    }
    static Font from_bytes(const std::vector<uint8_t> &bytes, int32_t face_index = 0) {
        return Font(detail::make_owned<Ptr>(
            [&](inkhit_font *out) { return inkhit_font_from_bytes(bytes.data(), bytes.size(), face_index, out); }));
    }
    inkhit_font_info info() const {
        inkhit_font_info info;
        check(inkhit_font_get_info(get(), &info));
        return info;
    }
    /// The glyph for a code point, 0 (.notdef) when the font has none.
    uint32_t glyph(char32_t codepoint) const {
        uint32_t glyph = 0;
        check(inkhit_font_glyph(get(), static_cast<uint32_t>(codepoint), &glyph));
        return glyph;
    }
    /// Advance in font units.
    double advance(uint32_t glyph) const {
        double advance = 0;
        check(inkhit_font_advance(get(), glyph, &advance));
        return advance;
    }
    inkhit_font get() const noexcept { return handle_.get(); }

private:
    using Ptr = detail::Owned<inkhit_font_s, inkhit_font_release>;
    explicit Font(Ptr handle) : handle_(std::move(handle)) {}
    std::shared_ptr<inkhit_font_s> handle_;
};

/// A built index: hit, placement, inside and signed distance for points in view px.
class Index {
public:
    std::optional<inkhit_hit> hit(Point p, double radius = 0) const {
        inkhit_hit hit;
        check(inkhit_index_hit(handle_.get(), p.x, p.y, radius, &hit));
        if (!hit.hit) return std::nullopt;
        return hit;
    }
    /// Every point answered (a NaN or infinite one as a miss: `skipped`, when given, says how many); throws only
    /// when nothing was answered (a bad radius), as inkhit_index_hit_batch's statuses say.
    std::vector<inkhit_hit> hits(const std::vector<Point> &points, double radius = 0, size_t *skipped = nullptr) const {
        std::vector<inkhit_hit> out(points.size());
        check(inkhit_index_hit_batch(handle_.get(), points.data(), points.size(), radius, INKHIT_NON_FINITE_MISS,
                                     out.data(), skipped));
        return out;
    }
    bool contains(Point p) const {
        int32_t inside = 0;
        check(inkhit_index_contains(handle_.get(), p.x, p.y, &inside));
        return inside != 0;
    }
    /// The topmost placement whose ink contains `p` (containment only, no distance), if any.
    std::optional<int64_t> topmost(Point p) const {
        int64_t placement = -1;
        check(inkhit_index_topmost(handle_.get(), p.x, p.y, &placement));
        if (placement < 0) return std::nullopt;
        return placement;
    }
    inkhit_index_info info() const {
        inkhit_index_info info;
        check(inkhit_index_get_info(handle_.get(), &info));
        return info;
    }

private:
    friend class Builder;
    using Ptr = detail::Owned<inkhit_index_s, inkhit_index_release>;
    explicit Index(Ptr handle) : handle_(std::move(handle)) {}
    Ptr handle_;
};

/// Collects glyph placements and custom outlines; build() makes an Index.
class Builder {
public:
    explicit Builder(double tolerance = 0)
        : handle_(detail::make_owned<Ptr>([&](inkhit_builder *out) { return inkhit_builder_create(tolerance, out); })) {}

    /// The largest touch radius (view px) later builds are prepared for (see inkhit_builder_set_prepared_radius).
    void set_prepared_radius(double radius) { check(inkhit_builder_set_prepared_radius(handle_.get(), radius)); }

    /// Adds a glyph of `font` at `size` px per em with its origin at `origin` (layout px); returns its number.
    size_t add_glyph(const Font &font, uint32_t glyph, double size, Point origin, Transform transform = INKHIT_TRANSFORM_IDENTITY) {
        inkhit_glyph_placement p{font.get(), glyph, size, origin, transform};
        size_t index = 0;
        check(inkhit_builder_add_glyph(handle_.get(), nullptr, &p, &index));
        return index;
    }
    /// Adds an outline given as path commands (outline units), placed by `transform` (outline units -> view px).
    size_t add_outline(const std::vector<uint8_t> &verbs, const std::vector<Point> &points, Transform transform,
                       int32_t fill_rule = INKHIT_FILL_NONZERO) {
        size_t index = 0;
        check(inkhit_builder_add_outline(handle_.get(), nullptr, 0, verbs.data(), verbs.size(), points.data(), points.size(),
                                         fill_rule, &transform, &index));
        return index;
    }
    Index build() const {
        return Index(detail::make_owned<Index::Ptr>([&](inkhit_index *out) { return inkhit_builder_build(handle_.get(), out); }));
    }

private:
    using Ptr = detail::Owned<inkhit_builder_s, inkhit_builder_release>;
    Ptr handle_;
};

/// Laid-out text: character, link and caret for points in view px.
class Layout {
public:
    /// Lays out UTF-8 `text` in `fonts` (fallback order) at `size` px per em; links are byte ranges.
    static Layout utf8(std::string_view text, const std::vector<Font> &fonts, double size,
                       const std::vector<inkhit_text_link> &links = {}, double width = 0) {
        std::vector<inkhit_font> handles;
        for (const Font &f : fonts) handles.push_back(f.get());
        inkhit_layout_options options;
        check(inkhit_layout_options_init(&options));
        options.fonts = handles.data();
        options.font_count = handles.size();
        options.size = size;
        options.width = width;
        options.links = links.data();
        options.link_count = links.size();
        return Layout(detail::make_owned<Ptr>(
            [&](inkhit_layout *out) { return inkhit_layout_create_utf8(text.data(), text.size(), &options, out); }));
    }
    std::optional<inkhit_text_hit> hit(Point p, double radius = 0, int32_t mode = INKHIT_TEXT_HIT_INK) const {
        inkhit_text_hit hit;
        check(inkhit_layout_hit(handle_.get(), p.x, p.y, radius, mode, &hit));
        if (!hit.hit) return std::nullopt;
        return hit;
    }
    std::optional<inkhit_text_hit> link(Point p, double radius = 0) const {
        inkhit_text_hit hit;
        check(inkhit_layout_link_hit(handle_.get(), p.x, p.y, radius, &hit));
        if (!hit.hit) return std::nullopt;
        return hit;
    }
    inkhit_caret caret(Point p) const {
        inkhit_caret caret;
        check(inkhit_layout_caret(handle_.get(), p.x, p.y, &caret));
        return caret;
    }
    inkhit_layout get() const noexcept { return handle_.get(); }

private:
    using Ptr = detail::Owned<inkhit_layout_s, inkhit_layout_release>;
    explicit Layout(Ptr handle) : handle_(std::move(handle)) {}
    Ptr handle_;
};

/// An immutable copy of a scene for queries.
class Snapshot {
public:
    std::optional<inkhit_scene_hit> hit(Point p, double radius = 0) const {
        inkhit_scene_hit hit;
        check(inkhit_snapshot_hit(handle_.get(), p.x, p.y, radius, &hit));
        if (!hit.hit) return std::nullopt;
        return hit;
    }

private:
    friend class Scene;
    using Ptr = detail::Owned<inkhit_snapshot_s, inkhit_snapshot_release>;
    explicit Snapshot(Ptr handle) : handle_(std::move(handle)) {}
    Ptr handle_;
};

/// A node with defaults (inkhit_node_init): set its bounds, transform, shape and flags.
inline inkhit_node node(uint64_t id, inkhit_rect bounds) {
    inkhit_node n;
    check(inkhit_node_init(&n, id));
    n.bounds = bounds;
    return n;
}

/// A tree of nodes hit-tested the UIKit way.
class Scene {
public:
    explicit Scene(const inkhit_node &root)
        : handle_(detail::make_owned<Ptr>([&](inkhit_scene *out) { return inkhit_scene_create(&root, out); })) {}
    void add(uint64_t parent, const inkhit_node &node) { check(inkhit_scene_add(handle_.get(), parent, &node)); }
    void set_transform(uint64_t id, const Transform &t) { check(inkhit_scene_set_transform(handle_.get(), id, &t)); }
    void remove(uint64_t id) { check(inkhit_scene_remove(handle_.get(), id)); }
    Snapshot snapshot(double tolerance = 0) const {
        return Snapshot(detail::make_owned<Snapshot::Ptr>(
            [&](inkhit_snapshot *out) { return inkhit_scene_snapshot(handle_.get(), tolerance, out); }));
    }

private:
    using Ptr = detail::Owned<inkhit_scene_s, inkhit_scene_release>;
    Ptr handle_;
};

}  // namespace inkhit
