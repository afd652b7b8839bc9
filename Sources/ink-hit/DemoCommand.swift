import ArgumentParser
import InkGeometry
import InkHit
import InkFreeType
import InkJobs

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hit-test a sample paragraph, print some hits and write an SVG picture of the result.",
        discussion: """
        Lays out a paragraph of DejaVu Sans (advances and kerning, greedy wrapping), builds the hit index,
        probes named points (the counter of an "o", the bar of an "e", the gap after a line's last word, …)
        at radius 0 and --radius, samples a grid of points, and writes an SVG with the outlines, the region
        inflated by --radius, and each sample point coloured by its answer.
        """
    )

    @Option(help: "Font file.")
    var font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    @Option(help: "Font size, px per em.")
    var size = 28.0
    @Option(help: "Touch radius for the inflated region, view px.")
    var radius = 3.5
    @Option(help: "Where to write the SVG picture.")
    var svg = "demo.svg"
    @Option(help: "Spacing of the sample-point grid, px.")
    var step = 3.0

    static let text = "Tap the ink, not the box: holes in o, e and g miss. AVATAR Wave kerning; 2.5 × faster."

    func run() throws {
        let f: Font
        do { f = try Font(path: font) } catch {
            printError("ink-hit demo: \(error)\nInstall the fonts first (see README: ./inkhit demo).")
            throw ExitCode(2)
        }
        guard size.isFinite, size > 0, radius.isFinite, radius >= 0, step.isFinite, step >= 0.5 else {
            throw ValidationError("size must be > 0, radius ≥ 0, step ≥ 0.5")
        }
        let margin = 20.0
        let layout = SimpleLayout(text: Self.text, font: f, size: size, width: 560, origin: Point(margin, margin))
        let k = size / Double(f.unitsPerEm)
        let cache = ShapeCache()
        var b = HitIndex.Builder()
        var transforms: [AffineTransform] = []
        for g in layout.glyphs {
            let t = AffineTransform(a: k, b: 0, c: 0, d: -k, tx: g.x, ty: g.y)
            try b.add(try cache.shape(font: f, glyph: g.id, viewTolerance: b.tolerance, transform: t), transform: t)
            transforms.append(t)
        }
        let index = b.build()
        print("InkHit demo: \(layout.glyphs.count) glyphs of \(f.familyName ?? "?") at \(formatNumber(size)) px, \(layout.lineCount) lines, \(index.uniqueShapeCount) unique shapes")
        print("text: \(Self.text)")
        print("")

        // Named probes, found from the glyphs themselves so they follow the layout.
        var probes: [(String, Point)] = []
        func glyphBox(_ i: Int) -> Rect {
            let g = layout.glyphs[i]
            let box = (try? f.controlBox(glyph: g.id)) ?? .empty
            return Rect(minX: g.x + box.minX * k, minY: g.y - box.maxY * k, maxX: g.x + box.maxX * k, maxY: g.y - box.minY * k)
        }
        if let o = layout.glyphs.firstIndex(where: { $0.scalar == "o" }) {
            probes.append(("center of the first 'o' (its counter)", glyphBox(o).center))
            let r = glyphBox(o)
            probes.append(("left stroke of that 'o'", Point(r.minX + 0.06 * r.width, r.center.y)))
        }
        if let e = layout.glyphs.firstIndex(where: { $0.scalar == "e" }) {
            let r = glyphBox(e)
            probes.append(("bar of the first 'e'", Point(r.center.x, r.minY + 0.52 * r.height)))
        }
        if let t = layout.glyphs.firstIndex(where: { $0.scalar == "T" }) {
            let r = glyphBox(t)
            probes.append(("under the arm of 'T' (inside its box)", Point(r.minX + 0.12 * r.width, r.maxY - 0.2 * r.height)))
        }
        if let last = layout.glyphs.indices.last {
            let r = glyphBox(last)
            probes.append(("just right of the last glyph", Point(r.maxX + 2, r.center.y)))
            probes.append(("far right of the last line", Point(r.maxX + 40, r.center.y)))
        }
        for (name, p) in probes {
            let r0 = index.hit(at: p, radius: 0)
            let rr = index.hit(at: p, radius: radius)
            func describe(_ h: Hit?) -> String {
                guard let h else { return "miss" }
                let g = layout.glyphs[h.placement]
                return "glyph \(h.placement) '\(g.scalar)' \(h.isInside ? "on the ink" : "within radius"), distance \(formatNumber(h.distance, decimals: 2)) px"
            }
            print("(\(formatNumber(p.x, decimals: 1)), \(formatNumber(p.y, decimals: 1))) \(name):")
            print("    r = 0: \(describe(r0))")
            print("    r = \(formatNumber(radius)): \(describe(rr))")
        }

        // Sample grid.
        let area = layout.bounds.outsetBy(margin / 2)
        var svgOut = SVGDocument(width: area.maxX + margin / 2, height: area.maxY + margin / 2)
        var ink = 0, near = 0, miss = 0
        var dots = ""
        var y = area.minY
        while y <= area.maxY {
            var x = area.minX
            while x <= area.maxX {
                let p = Point(x, y)
                let color: String
                if let h = index.hit(at: p, radius: radius) {
                    if h.isInside { ink += 1; color = "#1a9e3a" } else { near += 1; color = "#e07b00" }
                } else { miss += 1; color = "#9aa5b1" }
                dots += "<circle cx=\"\(formatNumber(x, decimals: 2))\" cy=\"\(formatNumber(y, decimals: 2))\" r=\"0.55\" fill=\"\(color)\"/>"
                x += step
            }
            y += step
        }
        // Inflated region (fill ∪ round stroke of width 2r = Minkowski sum with a disc), outlines, points.
        var paths = ""
        for (g, t) in zip(layout.glyphs, transforms) {
            var sink = TransformingSink(SVGPathSink(decimals: 2), transform: t)
            try f.outline(glyph: g.id, into: &sink)
            if !sink.base.path.isEmpty { paths += sink.base.path + " " }
        }
        svgOut.add("<path d=\"\(paths)\" fill=\"#ffe2b0\" stroke=\"#ffe2b0\" stroke-width=\"\(formatNumber(2 * radius))\" stroke-linejoin=\"round\" stroke-linecap=\"round\" fill-rule=\"nonzero\"/>")
        svgOut.add("<path d=\"\(paths)\" fill=\"#20242a\" fill-opacity=\"0.85\" fill-rule=\"nonzero\"/>")
        svgOut.add(dots)
        for (name, p) in probes {
            svgOut.add("<circle cx=\"\(formatNumber(p.x, decimals: 2))\" cy=\"\(formatNumber(p.y, decimals: 2))\" r=\"3\" fill=\"none\" stroke=\"#d0021b\" stroke-width=\"1.2\"><title>\(xmlEscape(name))</title></circle>")
        }
        svgOut.add("<text x=\"\(formatNumber(margin))\" y=\"\(formatNumber(area.maxY + margin / 2 - 4))\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\">green: on the ink · orange: within \(formatNumber(radius)) px · grey: miss · red rings: probes</text>")
        do { try svgOut.write(to: svg) } catch {
            printError("ink-hit demo: cannot write \(svg): \(error)")
            throw ExitCode(2)
        }
        let total = ink + near + miss
        print("")
        print("sample grid every \(formatNumber(step)) px: \(total) points, \(ink) on the ink, \(near) within \(formatNumber(radius)) px, \(miss) misses")
        print("wrote \(svg)")
    }
}
