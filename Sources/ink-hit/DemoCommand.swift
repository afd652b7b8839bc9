import ArgumentParser
import InkGeometry
import InkHit
import InkFreeType
import InkText

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hit-test a sample paragraph, print some hits and write an SVG picture of the result.",
        discussion: """
        Lays out a styled paragraph of DejaVu Sans (HarfBuzz shaping, kerning, wrapping): a bold title, a
        link underlined (its underline is ink, so a tap on it hits the link), struck-through words, and the
        text flowing around a round image on the left (an exclusion: no glyph's ink box overlaps it). Probes
        named points (the counter of an "o", the bar of an "e", the link's underline, the image, the gap after
        a line's last word, …) at radius 0 and --radius, samples a grid of points, and writes an SVG with the
        outlines and decorations, the region within --radius of the ink, the image's outline, and each sample
        point coloured by its answer.
        """
    )

    @Option(help: "Font file.")
    var font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    @Option(help: "Bold font file (the title).")
    var boldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    @Option(help: "Font size, px per em.")
    var size = 22.0
    @Option(help: "Touch radius, view px.")
    var radius = 3.5
    @Option(help: "Where to write the SVG picture.")
    var svg = "demo.svg"
    @Option(help: "Spacing of the sample-point grid, px.")
    var step = 4.0

    static let text = "InkHit taps by the ink, not the box: holes in o, e and g miss, and the underline of a link is ink "
        + "too. Text flows around the image beside it, line by line, and no glyph overlaps it. AVATAR Wave kerning; "
        + "2.5 \u{D7} faster."
    /// Offsets (UTF-16) of what the runs and the link cover.
    static func range(of s: String) -> Range<Int> {
        let t = Array(text.utf16), n = Array(s.utf16)
        let start = (0...(t.count - n.count)).first { t[$0..<($0 + n.count)].elementsEqual(n) }!
        return start..<(start + n.count)
    }
    /// "the underline of a link" is a link, underlined.
    static let link = TextLink(range: range(of: "the underline of a link"), tag: "https://example.org/ink")
    static let runs = [TextRun(range: range(of: "InkHit"), fonts: [1], size: 30),
                       TextRun(range: link.range, underline: .single),
                       TextRun(range: range(of: "not the box"), strikethrough: true)]
    /// The round image the text flows around, layout px.
    static let image = Rect(minX: 20, minY: 68, maxX: 130, maxY: 178)

    func validate() throws {
        guard size.isFinite, size > 0, size <= 1000, radius.isFinite, radius >= 0, radius <= 100, step.isFinite, step >= 0.5 else {
            throw ValidationError("size must be in (0, 1000], radius in [0, 100], step ≥ 0.5")
        }
    }

    func run() throws {
        let layout = try makeLayout()
        print("InkHit demo: \(layout.glyphs.count) glyphs of \(layout.fonts[0].familyName ?? "?") at \(DecimalText.string(size)) px, "
              + "\(layout.lines.count) lines, \(layout.decorations.count) decorations; \"\(Self.text[Self.link.range])\" links to "
              + "\(Self.link.tag); the text flows around an image")
        print("text: \(Self.text)")
        print("")
        let probes = self.probes(layout)
        for (name, p) in probes {
            print("(\(DecimalText.string(p.x, maxFractionDigits: 1)), \(DecimalText.string(p.y, maxFractionDigits: 1))) \(name):")
            print("    r = 0: \(describe(layout.hit(at: p)))")
            print("    r = \(DecimalText.string(radius)): \(describe(layout.hit(at: p, radius: radius)))")
        }
        try drawGrid(layout, probes: probes)
    }

    /// The paragraph: the fonts loaded (exit 2 when one cannot be), laid out (exit 1 on an error).
    func makeLayout() throws -> TextLayout {
        let f: Font, bold: Font
        do { f = try Font(path: font); bold = try Font(path: boldFont) } catch {
            printError("ink-hit demo: \(error)\nInstall the fonts first (see README: ./inkhit demo).")
            throw ExitCode(2)
        }
        do {
            return try TextLayout(text: Self.text, style: TextStyle(fonts: [f, bold], size: size), runs: Self.runs,
                                  paragraph: ParagraphStyle(width: 560, origin: Point(20, 20), lineHeight: 1.15,
                                                            exclusions: [.ellipse(Self.image)]),
                                  links: [Self.link])
        } catch {
            printError("ink-hit demo: \(error)")
            throw ExitCode(1)
        }
    }

    /// Named probes, found from the glyphs and decorations themselves so they follow the layout.
    func probes(_ layout: TextLayout) -> [(name: String, point: Point)] {
        let units = Array(Self.text.utf16)
        func glyph(_ ch: Character, after: Int = 0) -> Int? {
            let u = ch.utf16.first!
            return layout.glyphs.indices.first { layout.glyphs[$0].utf16.lowerBound >= after && units[layout.glyphs[$0].utf16.lowerBound] == u }
        }
        func box(_ gi: Int) -> Rect { (try? layout.placement(of: gi).viewBounds()) ?? .empty }
        var probes: [(name: String, point: Point)] = []
        let holes = Self.range(of: "holes in o").upperBound - 1
        if let o = glyph("o", after: holes) {
            let r = box(o)
            probes.append(("center of the 'o' of \"holes in o\" (its counter)", r.center))
            probes.append(("left stroke of that 'o'", Point(r.minX + 0.06 * r.width, r.center.y)))
        }
        if let e = glyph("e", after: holes + 2) {
            let r = box(e)
            probes.append(("bar of the 'e' in \"e and g\"", Point(r.center.x, r.minY + 0.52 * r.height)))
        }
        if let u = layout.decorations.first(where: { $0.kind == .underline }) {
            // Under the space between "underline" and "of": only the stroke is there.
            let space = Self.range(of: "underline of").lowerBound + 9
            if let s = layout.glyphs.firstIndex(where: { $0.utf16.lowerBound == space }) {
                let g = layout.glyphs[s]
                let p = Point(g.x + g.advance / 2, u.rect.center.y).applying(layout.transform)
                probes.append(("on the link's underline, under a space", p))
                probes.append(("2 px below that underline", Point(p.x, u.rect.maxY + 2)))
            }
        }
        probes.append(("inside the image (text flows around it)", Self.image.center))
        if let last = layout.glyphs.indices.last {
            let r = box(last)
            probes.append(("just right of the last glyph", Point(r.maxX + 2, r.center.y)))
            probes.append(("far right of the last line", Point(r.maxX + 40, r.center.y)))
        }
        return probes
    }

    func describe(_ h: TextHit?) -> String {
        guard let h else { return "miss" }
        return "'\(Self.text[h.utf16])' (UTF-16 \(h.utf16.lowerBound)..<\(h.utf16.upperBound), line \(h.line)) "
            + (h.decoration.map { "on its \($0.rawValue), " } ?? "")
            + (h.kind == .ink ? "on the ink" : "within the radius") + ", distance \(DecimalText.string(h.distance, maxFractionDigits: 2)) px"
            + (h.link.map { ", link \($0)" } ?? "")
    }

    /// Samples the grid, prints the counts and writes the picture (exit 2 when it cannot be written).
    func drawGrid(_ layout: TextLayout, probes: [(name: String, point: Point)]) throws {
        var picture = LayoutPicture(layout: layout, radius: radius)
        picture.probes = probes
        var area = Rect.empty
        for l in layout.lines { area = area.union(l.box) }
        area = area.union(Self.image).outsetBy(10)
        var ink = 0, near = 0, miss = 0, linked = 0, decorated = 0
        var y = area.minY
        while y <= area.maxY {
            var x = area.minX
            while x <= area.maxX {
                let p = Point(x, y)
                let h = layout.hit(at: p, radius: radius)
                if let h {
                    if h.kind == .ink { ink += 1 } else { near += 1 }
                    if h.link != nil { linked += 1 }
                    if h.decoration != nil { decorated += 1 }
                } else { miss += 1 }
                picture.samples.append((p, LayoutPicture.color(h)))
                x += step
            }
            y += step
        }
        picture.caption = "green: ink · orange: within \(DecimalText.string(radius)) px · blue: the link, underline too · "
            + "grey: miss · red: image, probes"
        do { try picture.write(to: svg) } catch {
            printError("ink-hit demo: \(error)")
            throw ExitCode(2)
        }
        print("")
        print("sample grid every \(DecimalText.string(step)) px: \(ink + near + miss) points, \(ink) on the ink, "
              + "\(near) within \(DecimalText.string(radius)) px (\(linked) of all hits on the link, \(decorated) on decorations), "
              + "\(miss) misses")
        print("wrote \(svg)")
    }
}

extension String {
    /// The characters at UTF-16 offsets `r` (offsets within this string).
    subscript(r: Range<Int>) -> Substring {
        self[String.Index(utf16Offset: r.lowerBound, in: self)..<String.Index(utf16Offset: r.upperBound, in: self)]
    }
}
