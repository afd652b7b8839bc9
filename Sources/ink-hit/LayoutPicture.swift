import InkGeometry
import InkFreeType
import InkText

/// The one SVG drawing of the CLI (demo and render): a laid-out text in view px with its line boxes, the
/// region within the radius of its ink, its outlines and decorations (links in blue), attachments, the
/// exclusions it flowed around (dashed red), sample points coloured by their answers and named probes.
struct LayoutPicture {
    let layout: TextLayout
    let radius: Double
    /// Sample points (view px) and the colours of their answers (`color(_:)`).
    var samples: [(point: Point, color: String)] = []
    /// Named points to ring in red.
    var probes: [(name: String, point: Point)] = []
    var caption: String?

    static let inkColor = "#1a9e3a", nearColor = "#e07b00", linkColor = "#1f5fd1", attachmentColor = "#7a3fb0",
               missColor = "#9aa5b1"

    /// The colour of a point's answer: link, attachment, on the ink, within the radius, or a miss.
    static func color(_ h: TextHit?) -> String {
        guard let h else { return missColor }
        if h.attachment != nil { return attachmentColor }
        if h.link != nil { return linkColor }
        return h.kind == .ink ? inkColor : nearColor
    }

    typealias Failure = SVGFile.Failure

    /// An exclusion's outline in layout px (an ellipse as four cubic arcs).
    static func outline<S: OutlineSink>(_ e: TextExclusion, into sink: inout S) {
        switch e {
        case .rect(let r):
            sink.move(to: Point(r.minX, r.minY)); sink.addLine(to: Point(r.maxX, r.minY))
            sink.addLine(to: Point(r.maxX, r.maxY)); sink.addLine(to: Point(r.minX, r.maxY)); sink.closeSubpath()
        case .ellipse(let r):
            let cx = r.center.x, cy = r.center.y, rx = r.width / 2, ry = r.height / 2, k = 0.5522847498
            sink.move(to: Point(cx + rx, cy))
            sink.addCurve(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + k * ry), control2: Point(cx + k * rx, cy + ry))
            sink.addCurve(to: Point(cx - rx, cy), control1: Point(cx - k * rx, cy + ry), control2: Point(cx - rx, cy + k * ry))
            sink.addCurve(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - k * ry), control2: Point(cx - k * rx, cy - ry))
            sink.addCurve(to: Point(cx + rx, cy), control1: Point(cx + k * rx, cy - ry), control2: Point(cx + rx, cy - k * ry))
            sink.closeSubpath()
        case .path(let elements):
            elements.replay(into: &sink)
        }
    }

    /// Writes the SVG to `path` as it is made (never held whole in memory), at most `maxBytes` bytes, giving
    /// up when `isPastDeadline()` turns true (checked every glyph and every 256 points). A picture that
    /// fails is removed.
    func write(to path: String, maxBytes: Int = .max, isPastDeadline: () -> Bool = { false }) throws(Failure) {
        try SVGFile.write(to: path, maxBytes: maxBytes) { (out: inout SVGFile.Writer) throws(Failure) in
            try draw(&out, isPastDeadline: isPastDeadline)
        }
    }

    private func draw(_ out: inout SVGFile.Writer, isPastDeadline: () -> Bool) throws(Failure) {
        let t = layout.transform
        var bounds = Rect.empty
        for l in layout.lines { bounds = bounds.union(l.box.applying(t)) }
        for s in samples where s.point.isFinite { bounds.expand(toInclude: s.point) }
        if bounds.isEmpty { bounds = Rect(minX: 0, minY: 0, maxX: 100, maxY: 100) }
        bounds = bounds.outsetBy(10 + radius)
        let captionHeight = caption == nil ? 0.0 : 18
        func n(_ v: Double) -> String { DecimalText.string(v, maxFractionDigits: 2) }
        func polygon(_ r: Rect) -> String {
            let c = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)].map { $0.applying(t) }
            return "M " + c.map { n($0.x) + " " + n($0.y) }.joined(separator: " L ") + " Z"
        }
        let w = n(bounds.width), h = n(bounds.height + captionHeight)
        try out.put("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n"
                    + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
        try out.put("<g transform=\"translate(\(n(-bounds.minX)) \(n(-bounds.minY)))\">\n")
        for (li, l) in layout.lines.enumerated() {
            if li & 255 == 255, isPastDeadline() { throw .pastDeadline }
            try out.put("<path d=\"\(polygon(l.box))\" fill=\"none\" stroke=\"#b0b8c0\" stroke-dasharray=\"3 2\" stroke-width=\"0.6\"/>\n")
        }
        /// The outlines of the glyphs in a link (or of the others), one path's data.
        func outlines(linked: Bool?) throws(Failure) {
            for (gi, g) in layout.glyphs.enumerated() {
                if isPastDeadline() { throw .pastDeadline }
                if let linked, linked != (!g.isEllipsis && layout.lastLink(overlapping: g.utf16) != nil) { continue }
                var sink = SVGPathSink(decimals: 2)
                try? layout.placement(of: gi).inkOutline(into: &sink)   // a glyph without ink draws nothing
                if !sink.path.isEmpty { try out.put(sink.path + " ") }
            }
        }
        if radius > 0 {
            try out.put("<path d=\"")
            try outlines(linked: nil)
            for d in layout.decorations { try out.put(polygon(d.rect) + " ") }
            try out.put("\" fill=\"#ffe2b0\" stroke=\"#ffe2b0\" stroke-width=\"\(n(2 * radius))\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n")
        }
        try out.put("<path d=\"")
        try outlines(linked: false)
        try out.put("\" fill=\"#20242a\" fill-opacity=\"0.85\"/>\n<path d=\"")
        try outlines(linked: true)
        try out.put("\" fill=\"\(Self.linkColor)\" fill-opacity=\"0.9\"/>\n")
        try drawDecorationsAndExclusions(&out, isPastDeadline: isPastDeadline)
        for a in layout.attachments {
            try out.put("<path d=\"\(polygon(a.box))\" fill=\"#b07ad8\" fill-opacity=\"0.5\" stroke=\"\(Self.attachmentColor)\" stroke-width=\"0.8\"><title>\(SVGFile.escape(a.attachment.tag))</title></path>\n")
        }
        for (k, s) in samples.enumerated() where s.point.isFinite {
            if k & 255 == 255, isPastDeadline() { throw .pastDeadline }
            try out.put("<circle cx=\"\(n(s.point.x))\" cy=\"\(n(s.point.y))\" r=\"0.55\" fill=\"\(s.color)\"/>")
        }
        try out.put("\n")
        for p in probes {
            try out.put("<circle cx=\"\(n(p.point.x))\" cy=\"\(n(p.point.y))\" r=\"3\" fill=\"none\" stroke=\"#d0021b\" stroke-width=\"1.2\"><title>\(SVGFile.escape(p.name))</title></circle>\n")
        }
        try out.put("</g>\n")
        if let caption {
            try out.put("<text x=\"6\" y=\"\(n(bounds.height + captionHeight - 5))\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\">\(SVGFile.escape(caption))</text>\n")
        }
        try out.put("</svg>\n")
    }

    /// The decorations (ink like the glyphs: blue under link characters, as the link glyphs) and the
    /// exclusions' outlines (dashed red), in view px.
    private func drawDecorationsAndExclusions(_ out: inout SVGFile.Writer, isPastDeadline: () -> Bool) throws(Failure) {
        let t = layout.transform
        func polygon(_ r: Rect) -> String {
            let c = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)].map { $0.applying(t) }
            return "M " + c.map { DecimalText.string($0.x, maxFractionDigits: 2) + " " + DecimalText.string($0.y, maxFractionDigits: 2) }
                .joined(separator: " L ") + " Z"
        }
        for (k, d) in layout.decorations.enumerated() {
            if k & 255 == 255, isPastDeadline() { throw .pastDeadline }
            let linked = layout.lastLink(overlapping: d.utf16) != nil
            try out.put("<path d=\"\(polygon(d.rect))\" fill=\"\(linked ? Self.linkColor : "#20242a")\" fill-opacity=\"0.85\">"
                        + "<title>\(SVGFile.escape("\(d.kind.rawValue) \(d.utf16.lowerBound)..<\(d.utf16.upperBound)"))</title></path>\n")
        }
        // Exclusions: the shapes the lines flowed around, outlined.
        for e in layout.exclusions {
            var sink = SVGPathSink(decimals: 2)
            var tsink = TransformingSink(sink, transform: t)
            Self.outline(e, into: &tsink)
            sink = tsink.base
            try out.put("<path d=\"\(sink.path)\" fill=\"#c0392b\" fill-opacity=\"0.06\" stroke=\"#c0392b\" "
                        + "stroke-width=\"1\" stroke-dasharray=\"4 2\"><title>exclusion</title></path>\n")
        }
    }
}
