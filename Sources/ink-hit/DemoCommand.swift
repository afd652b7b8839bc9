import ArgumentParser
import InkGeometry
import InkHit
import InkFreeType
import InkText

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hit-test a sample paragraph, print some hits and write an SVG picture of the result.",
        discussion: """
        Lays out a paragraph of DejaVu Sans with a link (HarfBuzz shaping, kerning, wrapping), probes named
        points (the counter of an "o", the bar of an "e", the gap after a line's last word, …) at radius 0
        and --radius, samples a grid of points, and writes an SVG with the outlines, the region within
        --radius of the ink, and each sample point coloured by its answer.
        """
    )

    @Option(help: "Font file.")
    var font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    @Option(help: "Font size, px per em.")
    var size = 28.0
    @Option(help: "Touch radius, view px.")
    var radius = 3.5
    @Option(help: "Where to write the SVG picture.")
    var svg = "demo.svg"
    @Option(help: "Spacing of the sample-point grid, px.")
    var step = 3.0

    static let text = "Tap the ink, not the box: holes in o, e and g miss. AVATAR Wave kerning; 2.5 × faster."
    /// "the ink" is a link (UTF-16 offsets).
    static let link = TextLink(range: 4..<11, tag: "https://example.org/ink")

    func validate() throws {
        guard size.isFinite, size > 0, size <= 1000, radius.isFinite, radius >= 0, radius <= 100, step.isFinite, step >= 0.5 else {
            throw ValidationError("size must be in (0, 1000], radius in [0, 100], step ≥ 0.5")
        }
    }

    func run() throws {
        let f: Font
        do { f = try Font(path: font) } catch {
            printError("ink-hit demo: \(error)\nInstall the fonts first (see README: ./inkhit demo).")
            throw ExitCode(2)
        }
        let layout: TextLayout
        do {
            layout = try TextLayout(text: Self.text, style: TextStyle(fonts: [f], size: size),
                                    paragraph: ParagraphStyle(width: 560, origin: Point(20, 20)), links: [Self.link])
        } catch {
            printError("ink-hit demo: \(error)")
            throw ExitCode(1)
        }
        print("InkHit demo: \(layout.glyphs.count) glyphs of \(f.familyName ?? "?") at \(DecimalText.string(size)) px, "
              + "\(layout.lines.count) lines; \"\(Self.text[Self.link.range])\" links to \(Self.link.tag)")
        print("text: \(Self.text)")
        print("")

        // Named probes, found from the glyphs themselves so they follow the layout.
        let scalars = Array(Self.text.utf16)
        func glyph(_ ch: Character, after: Int = 0) -> Int? {
            let u = ch.utf16.first!
            return layout.glyphs.indices.first { layout.glyphs[$0].utf16.lowerBound >= after && scalars[layout.glyphs[$0].utf16.lowerBound] == u }
        }
        func box(_ gi: Int) -> Rect { (try? layout.placement(of: gi).viewBounds()) ?? .empty }
        var probes: [(name: String, point: Point)] = []
        if let o = glyph("o", after: 26) {
            let r = box(o)
            probes.append(("center of the 'o' of \"holes\" (its counter)", r.center))
            probes.append(("left stroke of that 'o'", Point(r.minX + 0.06 * r.width, r.center.y)))
        }
        if let e = glyph("e", after: 38) {
            let r = box(e)
            probes.append(("bar of the 'e' in \"e and g\"", Point(r.center.x, r.minY + 0.52 * r.height)))
        }
        if let t = glyph("T") {
            let r = box(t)
            probes.append(("under the arm of 'T' (inside its box)", Point(r.minX + 0.12 * r.width, r.maxY - 0.2 * r.height)))
        }
        if let k = glyph("k", after: 7) {
            probes.append(("on the 'k' of the link \"the ink\"", box(k).center))
        }
        if let last = layout.glyphs.indices.last {
            let r = box(last)
            probes.append(("just right of the last glyph", Point(r.maxX + 2, r.center.y)))
            probes.append(("far right of the last line", Point(r.maxX + 40, r.center.y)))
        }
        func describe(_ h: TextHit?) -> String {
            guard let h else { return "miss" }
            return "'\(Self.text[h.utf16])' (UTF-16 \(h.utf16.lowerBound)..<\(h.utf16.upperBound), line \(h.line)) "
                + (h.kind == .ink ? "on the ink" : "within the radius") + ", distance \(DecimalText.string(h.distance, maxFractionDigits: 2)) px"
                + (h.link.map { ", link \($0)" } ?? "")
        }
        for (name, p) in probes {
            print("(\(DecimalText.string(p.x, maxFractionDigits: 1)), \(DecimalText.string(p.y, maxFractionDigits: 1))) \(name):")
            print("    r = 0: \(describe(layout.hit(at: p)))")
            print("    r = \(DecimalText.string(radius)): \(describe(layout.hit(at: p, radius: radius)))")
        }

        // Sample grid.
        var picture = LayoutPicture(layout: layout, radius: radius)
        picture.probes = probes
        var area = Rect.empty
        for l in layout.lines { area = area.union(l.box) }
        area = area.outsetBy(10)
        var ink = 0, near = 0, miss = 0, linked = 0
        var y = area.minY
        while y <= area.maxY {
            var x = area.minX
            while x <= area.maxX {
                let p = Point(x, y)
                let h = layout.hit(at: p, radius: radius)
                if let h { if h.kind == .ink { ink += 1 } else { near += 1 }; if h.link != nil { linked += 1 } } else { miss += 1 }
                picture.samples.append((p, LayoutPicture.color(h)))
                x += step
            }
            y += step
        }
        picture.caption = "green: on the ink · orange: within \(DecimalText.string(radius)) px · blue: the link · grey: miss · red rings: probes"
        do { try picture.write(to: svg) } catch {
            printError("ink-hit demo: \(error)")
            throw ExitCode(2)
        }
        print("")
        print("sample grid every \(DecimalText.string(step)) px: \(ink + near + miss) points, \(ink) on the ink, "
              + "\(near) within \(DecimalText.string(radius)) px (\(linked) of all hits on the link), \(miss) misses")
        print("wrote \(svg)")
    }
}

extension String {
    /// The characters at UTF-16 offsets `r` (offsets within this string).
    subscript(r: Range<Int>) -> Substring {
        self[String.Index(utf16Offset: r.lowerBound, in: self)..<String.Index(utf16Offset: r.upperBound, in: self)]
    }
}
