// inkhit_qt.hpp — the glyphs Qt's raster engine draws of a QGlyphRun, added to an InkHit builder (C++17,
// header only, over inkhit.h and QtGui).
//
//   QTextLayout layout(text, font);  ...  layout.draw(&painter, QPointF(10, 20));
//   for (const QGlyphRun &run : layout.glyphRuns())
//       inkhit::qt::add_glyph_run(builder, run, source_of(run.rawFont()), painter.transform(), nullptr,
//                                 {QPointF(10, 20), true});
//
// What it reads from Qt, and why (the rules themselves are the library's: inkhit.h, "Qt's raster engine"):
//
//   - the raw font's pixel size, weight and style (synthetic bold and oblique), its head table and a probe:
//     the exact box of one glyph's outline as Qt makes it (QRawFont::pathForGlyph), which the library compares
//     with the source font to refuse a source Qt did not draw (another file, variable-font instance or weight),
//     and from which it infers a synthesized stretch;
//   - the font engine's hint style, which QRawFont::hintingPreference() does not always say (the raw fonts of a
//     QTextLayout's glyph runs answer PreferDefaultHinting whatever their QFont asked): it is found by drawing.
//     A glyph drawn at x = 4 and x = 4.5 looks the same only when the engine does not position glyphs at
//     quarter pixels, which Qt does for every style but full (and medium) hinting; otherwise the glyph masks
//     QRawFont::alphaMapForGlyph gives with and without hinting (under a transform that scales by 1 + 2^-16,
//     for which Qt turns hinting off) tell vertical hinting from none;
//   - the Qt version at run time (qVersion()), whose rules apply.
//
// The source is the inkhit_font of the file the raw font came from (QRawFont names no file: fontconfig's
// FC_FILE and FC_INDEX of the family and style, or the path given to QFontDatabase::addApplicationFont, or to
// QRawFont). Queries are in device px: the painter's transform maps the run's user space there.
// Decorations of a run (QGlyphRun::underline() and the like) are not added.
#pragma once

#include <inkhit.h>

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QPointF>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtGui/QColor>
#include <QtGui/QGlyphRun>
#include <QtGui/QImage>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtGui/QRawFont>
#include <QtGui/QTransform>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace inkhit {
namespace qt {

/// How a run was drawn, beyond the painter's transform.
struct DrawOptions {
    /// The point given to QPainter::drawGlyphRun, or to QTextLayout::draw for its glyphRuns().
    QPointF origin;
    /// True when the run is one of QTextLayout::glyphRuns() drawn by QTextLayout::draw: Qt truncates `origin`
    /// to 1/64 px first (INKHIT_QT_LAYOUT_DRAW).
    bool layout_draw = false;
    /// The painter had QPainter::VerticalSubpixelPositioning.
    bool vertical_subpixel_positioning = false;
    /// The shape cache (NULL: the process-wide one).
    inkhit_shape_cache cache = nullptr;
};

/// The Qt version at run time (qVersion()) as QT_VERSION writes it.
inline uint32_t runtime_version() {
    const QStringList parts = QString::fromLatin1(qVersion()).split(QLatin1Char('.'));
    uint32_t v = 0;
    for (int i = 0; i < 3; ++i) v = v << 8 | (i < parts.size() ? uint32_t(parts[i].toUInt() & 0xFF) : 0u);
    return v;
}

namespace detail {
/// `glyph` of `raw` drawn at (x, 1.5 em) into a fresh gray image, antialiased.
inline QImage paint(const QRawFont &raw, quint32 glyph, qreal x) {
    const int size = int(raw.pixelSize() * 2 + 8);
    QImage image(size, size, QImage::Format_Grayscale8);
    image.fill(0);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QColor(255, 255, 255));
    QGlyphRun run;
    run.setRawFont(raw);
    run.setGlyphIndexes({glyph});
    run.setPositions({QPointF(x, raw.pixelSize() * 1.5)});
    painter.drawGlyphRun(QPointF(0, 0), run);
    painter.end();
    return image;
}

/// True when two glyph masks differ as hinting makes them differ (another size, or a level more than 16 apart).
inline bool masks_differ(const QImage &a, const QImage &b) {
    if (a.size() != b.size() || a.format() != b.format()) return true;
    for (int y = 0; y < a.height(); ++y) {
        const uchar *p = a.constScanLine(y), *q = b.constScanLine(y);
        const int bytes = a.bytesPerLine() < b.bytesPerLine() ? a.bytesPerLine() : b.bytesPerLine();
        const int width = a.depth() == 8 ? a.width() : bytes;
        for (int x = 0; x < width && x < bytes; ++x)
            if (std::abs(int(p[x]) - int(q[x])) > 16) return true;
    }
    return false;
}

/// Up to 32 distinct glyphs of `glyphs` that have ink.
inline QList<quint32> inked(const QRawFont &raw, const QList<quint32> &glyphs) {
    QList<quint32> out;
    for (quint32 g : glyphs) {
        if (out.size() == 32) break;
        if (!out.contains(g) && !raw.pathForGlyph(g).isEmpty()) out.append(g);
    }
    return out;
}
}  // namespace detail

/// The hint style (INKHIT_HINTING_*) of the font engine behind `raw`, found by drawing some of `glyphs` (see
/// the top of this file). NONE when none of them has ink (nothing is drawn then).
inline int32_t engine_hinting(const QRawFont &raw, const QList<quint32> &glyphs) {
    const QList<quint32> gs = detail::inked(raw, glyphs);
    if (gs.isEmpty()) return INKHIT_HINTING_NONE;
    if (detail::paint(raw, gs.first(), 4.0) == detail::paint(raw, gs.first(), 4.5)) return INKHIT_HINTING_FULL;
    const QTransform unhinted(1 + 1.0 / 65536, 0, 0, 1, 0, 0);
    for (quint32 g : gs) {
        const QImage hinted = raw.alphaMapForGlyph(g, QRawFont::PixelAntialiasing);
        if (hinted.isNull() || hinted.width() == 0) continue;
        if (detail::masks_differ(hinted, raw.alphaMapForGlyph(g, QRawFont::PixelAntialiasing, unhinted)))
            return INKHIT_HINTING_LIGHT;
    }
    return INKHIT_HINTING_NONE;
}

/// `raw`'s settings as the library takes them; `settings.head` points into `head`, so keep the struct with it.
struct RawFont {
    inkhit_qt_raw_font settings;
    QByteArray head;
};

/// Reads `raw` (the font of a run of `glyphs`) as the top of this file says.
inline RawFont read_raw_font(const QRawFont &raw, const QList<quint32> &glyphs, const DrawOptions &options = DrawOptions()) {
    RawFont out;
    inkhit_qt_raw_font_init(&out.settings);
    inkhit_qt_raw_font &q = out.settings;
    q.pixel_size = raw.pixelSize();
    q.hinting = engine_hinting(raw, glyphs);
    q.weight = raw.weight();
    q.style = raw.style() == QFont::StyleItalic ? INKHIT_QT_STYLE_ITALIC
        : raw.style() == QFont::StyleOblique ? INKHIT_QT_STYLE_OBLIQUE : INKHIT_QT_STYLE_NORMAL;
    q.qt_version = runtime_version();
    if (options.layout_draw) q.flags |= INKHIT_QT_LAYOUT_DRAW;
    if (options.vertical_subpixel_positioning) q.flags |= INKHIT_QT_VERTICAL_SUBPIXEL_POSITIONING;
    for (quint32 g : glyphs) {
        const QPainterPath path = raw.pathForGlyph(g);
        if (path.isEmpty()) continue;
        const QRectF box = path.boundingRect();
        q.flags |= INKHIT_QT_PROBE;
        q.probe_glyph = g;
        q.probe_bounds = inkhit_rect{box.left(), box.top(), box.right(), box.bottom()};
        break;
    }
    out.head = raw.fontTable("head");
    if (!out.head.isEmpty()) {
        q.head = reinterpret_cast<const uint8_t *>(out.head.constData());
        q.head_length = size_t(out.head.size());
    }
    return out;
}

/// Adds `run` as QPainter's raster engine draws it through a painter whose transform is `transform` (user space
/// -> device px: QPainter::deviceTransform() on a device with a pixel ratio), from `source` (the inkhit_font of the face the run's raw font came from): one placement per
/// glyph, in order, tagged tags[i] (NULL: the glyph's place in the run, or its QGlyphRun::stringIndexes() entry
/// when the run has them, Qt 6.5 and later). Writes the first placement's number to `*first_out` and how many
/// were added to `*added_out` (each unless NULL). Returns the library's status (inkhit_last_error() says why):
/// FONT when `source` is not what Qt drew.
inline inkhit_status add_glyph_run(inkhit_builder builder, const QGlyphRun &run, inkhit_font source,
                                   const QTransform &transform = QTransform(), const uint64_t *tags = nullptr,
                                   const DrawOptions &options = DrawOptions(), size_t *first_out = nullptr,
                                   size_t *added_out = nullptr) {
    if (added_out) *added_out = 0;
    if (first_out) *first_out = 0;
    const QList<quint32> glyphs = run.glyphIndexes();
    const QList<QPointF> positions = run.positions();
    if (positions.size() != glyphs.size())
        return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, "inkhit::qt::add_glyph_run: the run has another number of positions than glyphs");
    const RawFont raw = read_raw_font(run.rawFont(), glyphs, options);
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    const QList<qsizetype> strings = run.stringIndexes();
#else
    const QList<int> strings;
#endif
    std::vector<inkhit_run_glyph> list(size_t(glyphs.size()));
    for (qsizetype i = 0; i < glyphs.size(); ++i) {
        inkhit_run_glyph &g = list[size_t(i)];
        g.glyph = glyphs[i];
        g.reserved = 0;
        g.x = positions[i].x();
        g.y = positions[i].y();
        g.tag = tags ? tags[i] : strings.size() == glyphs.size() ? uint64_t(strings[i]) : uint64_t(i);
    }
    const inkhit_transform t{transform.m11(), transform.m12(), transform.m21(), transform.m22(), transform.dx(), transform.dy()};
    if (transform.type() == QTransform::TxProject)
        return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, "inkhit::qt::add_glyph_run: a projective transform");
    return inkhit_builder_add_qt_glyph_run(builder, options.cache, source, &raw.settings, &t,
                                           inkhit_point{options.origin.x(), options.origin.y()}, list.data(), list.size(),
                                           first_out, added_out);
}

}  // namespace qt
}  // namespace inkhit
