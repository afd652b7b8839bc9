// Qt's raster engine against inkhit_qt.hpp: text laid out by QTextLayout and drawn by QPainter (antialiased,
// into a QImage, QT_QPA_PLATFORM=offscreen) with TrueType, CFF and CJK fonts, synthetic bold, italic and
// stretch, every hinting preference, sizes below and above Qt's 64 px glyph cache, under identity, 2x, rotated
// and sheared painters. Each run of QTextLayout::glyphRuns() is added with inkhit::qt::add_glyph_run; every
// pixel whose coverage is clear (<= 5 or >= 250 of 255) and whose centre lies at least 0.05 px from InkHit's
// outline must be answered as Qt drew it: 0 disagreements. The source of each run is found through fontconfig
// (the family and style Qt names), trying each file fontconfig lists until the library accepts one (the
// head table and probe checks refuse the others); a source Qt did not draw must be refused (FONT).
//
// Usage: qt_raster_test [--verbose]; prints the judged and wrong pixel counts, exits 1 on any disagreement.
#include <inkhit.h>
#include <inkhit_qt.hpp>

#include <fontconfig/fontconfig.h>

#include <QtGui/QFont>
#include <QtGui/QFontDatabase>
#include <QtGui/QGuiApplication>
#include <QtGui/QTextLayout>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

const char *const kFonts[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",          // TrueType, hinted
    "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf",  // CFF: stem darkening
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  // CJK, no bold or italic face
};
const char *const kTexts[] = {"Hamburg&@fiQ", "Wave office", "永字八法 hxW"};

int failures = 0;
bool verbose = false;

void check(bool ok, const char *what) {
    if (!ok) {
        std::fprintf(stderr, "FAILED: %s (%s)\n", what, inkhit_last_error());
        ++failures;
    }
}

/// The inkhit fonts of the files fontconfig lists for `family` and `style` (face index packed with the named
/// instance, as FC_INDEX writes it), opened once each.
std::vector<inkhit_font> candidates(const QString &family, const QString &style) {
    static std::map<std::string, inkhit_font> opened;
    std::vector<inkhit_font> out;
    FcPattern *pattern = FcPatternCreate();
    FcPatternAddString(pattern, FC_FAMILY, reinterpret_cast<const FcChar8 *>(family.toUtf8().constData()));
    FcObjectSet *objects = FcObjectSetBuild(FC_FILE, FC_INDEX, FC_STYLE, nullptr);
    FcFontSet *set = FcFontList(nullptr, pattern, objects);
    for (int pass = 0; pass < 2 && set; ++pass) {
        for (int i = 0; i < set->nfont; ++i) {
            FcChar8 *file = nullptr, *name = nullptr;
            int index = 0;
            if (FcPatternGetString(set->fonts[i], FC_FILE, 0, &file) != FcResultMatch) continue;
            FcPatternGetInteger(set->fonts[i], FC_INDEX, 0, &index);
            const bool same = FcPatternGetString(set->fonts[i], FC_STYLE, 0, &name) == FcResultMatch
                && style == QString::fromUtf8(reinterpret_cast<const char *>(name));
            if (same != (pass == 0)) continue;   // the named style first, then the rest
            // The face itself and, for a named instance, also its default coordinates (Qt may draw those).
            for (int k : {index, index & 0xFFFF}) {
                const std::string key = std::string(reinterpret_cast<const char *>(file)) + "#" + std::to_string(k);
                if (!opened.count(key)) {
                    inkhit_font f = nullptr;
                    if (inkhit_font_from_path(reinterpret_cast<const char *>(file), k, &f) != INKHIT_OK) continue;
                    opened[key] = f;
                }
                out.push_back(opened[key]);
            }
        }
    }
    if (set) FcFontSetDestroy(set);
    FcObjectSetDestroy(objects);
    FcPatternDestroy(pattern);
    return out;
}

struct Tally {
    long judged = 0, wrong = 0;
};

/// Draws `text` with `font` through `transform` at `origin`, adds its runs and judges the clear pixels.
Tally run_case(const QString &name, const QFont &font, const QString &text, const QTransform &transform, QPointF origin) {
    Tally tally;
    QTextLayout layout(text, font);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    line.setLineWidth(100000);
    layout.endLayout();
    const QRectF box = transform.mapRect(QRectF(origin, QSizeF(line.naturalTextWidth() + 20, line.height() + 20)));
    const int w = int(std::ceil(box.right())) + 10, h = int(std::ceil(box.bottom())) + 10;
    QImage image(w, h, QImage::Format_Grayscale8);
    image.fill(0);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QColor(255, 255, 255));
    painter.setTransform(transform);
    layout.draw(&painter, origin);
    painter.end();

    inkhit_builder builder = nullptr;
    check(inkhit_builder_create(0, &builder) == INKHIT_OK, "builder");
    inkhit::qt::DrawOptions options;
    options.origin = origin;
    options.layout_draw = true;
    for (const QGlyphRun &run : layout.glyphRuns()) {
        const QRawFont raw = run.rawFont();
        bool added = false;
        for (inkhit_font source : candidates(raw.familyName(), raw.styleName())) {
            size_t before = 0, count = 0;
            inkhit_builder_count(builder, &before);
            const inkhit_status status = inkhit::qt::add_glyph_run(builder, run, source, transform, nullptr, options, nullptr, &count);
            if (status == INKHIT_OK) { added = true; break; }
            check(status == INKHIT_ERROR_FONT && count == 0, "a refused source adds nothing and says FONT");
        }
        if (!added) {
            std::fprintf(stderr, "FAILED: %s: no source for %s %s\n", name.toUtf8().constData(),
                         raw.familyName().toUtf8().constData(), raw.styleName().toUtf8().constData());
            ++failures;
        }
    }
    inkhit_index index = nullptr;
    check(inkhit_builder_build(builder, &index) == INKHIT_OK, "build");
    std::vector<inkhit_point> points;
    std::vector<uchar> values;
    for (int y = 0; y < h; ++y) {
        const uchar *row = image.constScanLine(y);
        for (int x = 0; x < w; ++x) {
            if (row[x] > 5 && row[x] < 250) continue;
            points.push_back(inkhit_point{x + 0.5, y + 0.5});
            values.push_back(row[x]);
        }
    }
    std::vector<inkhit_hit> hits(points.size());
    check(inkhit_index_hits(index, points.data(), points.size(), 0.05, hits.data()) == INKHIT_OK, "hits");
    for (size_t i = 0; i < points.size(); ++i) {
        const inkhit_hit &hit = hits[i];
        if (hit.hit && (!hit.inside || hit.distance > -0.05)) continue;   // within 0.05 px of the outline
        ++tally.judged;
        if ((hit.hit != 0) != (values[i] >= 250)) {
            if (tally.wrong < 3)
                std::fprintf(stderr, "  %s: pixel (%d, %d) is %d, InkHit says %s\n", name.toUtf8().constData(),
                             int(points[i].x), int(points[i].y), values[i], hit.hit ? "ink" : "no ink");
            ++tally.wrong;
        }
    }
    inkhit_index_release(index);
    inkhit_builder_release(builder);
    if (verbose) std::fprintf(stderr, "%s: %ld judged, %ld wrong\n", name.toUtf8().constData(), tally.judged, tally.wrong);
    return tally;
}

}  // namespace

int main(int argc, char **argv) {
    verbose = argc > 1 && std::strcmp(argv[1], "--verbose") == 0;
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QStringList families;
    for (const char *path : kFonts) {
        const int id = QFontDatabase::addApplicationFont(QString::fromUtf8(path));
        families << QFontDatabase::applicationFontFamilies(id).value(0);
    }
    const double a = std::cos(0.349), b = std::sin(0.349);
    const struct { const char *name; QTransform t; } painters[] = {
        {"identity", QTransform()},
        {"2x", QTransform(2, 0, 0, 2, 0, 0)},
        {"rotated", QTransform(a, b, -b, a, 30, 5)},
        {"sheared", QTransform(1, 0, 0.3, 1, 0, 0)},
    };
    const QFont::HintingPreference hintings[] = {QFont::PreferNoHinting, QFont::PreferVerticalHinting, QFont::PreferFullHinting,
                                                 QFont::PreferDefaultHinting};
    Tally total;
    int cases = 0;
    for (int f = 0; f < 3; ++f) {
        for (int size : {11, 17, 30, 70}) {
            for (int h = 0; h < 4; ++h) {
                for (int p = 0; p < 4; ++p) {
                    // A spread of the combinations: each font, size, hinting and painter, with and without
                    // synthetic styles.
                    if ((f + size + h + p) % 3 != 0) continue;
                    const int synth = (f + h + p + size / 10) % 4;   // 0 plain, 1 bold, 2 italic, 3 both + stretch
                    QFont font(families[f]);
                    font.setPixelSize(size);
                    font.setHintingPreference(hintings[h]);
                    font.setBold(synth & 1);
                    font.setItalic(synth & 2);
                    if (synth == 3) font.setStretch(125);
                    const QString name = QStringLiteral("%1 %2px hinting %3 %4 synth %5").arg(families[f]).arg(size)
                        .arg(int(hintings[h])).arg(QString::fromUtf8(painters[p].name)).arg(synth);
                    const Tally t = run_case(name, font, QString::fromUtf8(kTexts[f]), painters[p].t, QPointF(5.3, 7.77));
                    total.judged += t.judged;
                    total.wrong += t.wrong;
                    if (t.wrong) std::fprintf(stderr, "FAILED: %s: %ld of %ld judged pixels wrong\n", name.toUtf8().constData(), t.wrong, t.judged);
                    ++cases;
                }
            }
        }
    }
    // A source Qt did not draw is refused: Cantarell given for DejaVu Sans's run.
    {
        QFont font(families[0]);
        font.setPixelSize(16);
        QTextLayout layout(QStringLiteral("Hamburg"), font);
        layout.beginLayout();
        layout.createLine();
        layout.endLayout();
        inkhit_builder builder = nullptr;
        inkhit_font other = nullptr;
        inkhit_builder_create(0, &builder);
        inkhit_font_from_path(kFonts[1], 0, &other);
        size_t added = 1;
        const inkhit_status status = inkhit::qt::add_glyph_run(builder, layout.glyphRuns().value(0), other, QTransform(),
                                                               nullptr, inkhit::qt::DrawOptions(), nullptr, &added);
        check(status == INKHIT_ERROR_FONT && added == 0 && std::strstr(inkhit_last_error(), "head table"),
              "another file is refused by its head table");
        inkhit_font_release(other);
        inkhit_builder_release(builder);
    }
    std::printf("Qt %s raster engine: %d cases, %ld judged pixels, %ld wrong\n", qVersion(), cases, total.judged, total.wrong);
    return failures == 0 && total.wrong == 0 && total.judged > 100000 ? 0 : 1;
}
