#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry
import InkFreeType
import InkText

/// The one SVG drawing of the CLI (demo and render): a laid-out text in view px with its line boxes, the
/// region within the radius of its ink, its outlines (links in blue), attachments, sample points coloured
/// by their answers and named probes.
struct LayoutPicture {
    let layout: TextLayout
    let radius: Double
    /// Sample points (view px) and their answers.
    var samples: [(point: Point, hit: TextHit?)] = []
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

    var svg: String {
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
        var body: [String] = []
        body.append("<g transform=\"translate(\(n(-bounds.minX)) \(n(-bounds.minY)))\">")
        for l in layout.lines {
            body.append("<path d=\"\(polygon(l.box))\" fill=\"none\" stroke=\"#b0b8c0\" stroke-dasharray=\"3 2\" stroke-width=\"0.6\"/>")
        }
        var plain = "", linked = ""
        for (gi, g) in layout.glyphs.enumerated() {
            var sink = SVGPathSink(decimals: 2)
            try? layout.placement(of: gi).outline(into: &sink)      // a glyph without an outline draws nothing
            if sink.path.isEmpty { continue }
            if !g.isEllipsis && layout.links.contains(where: { $0.range.overlaps(g.utf16) }) {
                linked += sink.path + " "
            } else {
                plain += sink.path + " "
            }
        }
        if radius > 0 {
            body.append("<path d=\"\(plain)\(linked)\" fill=\"#ffe2b0\" stroke=\"#ffe2b0\" stroke-width=\"\(n(2 * radius))\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>")
        }
        body.append("<path d=\"\(plain)\" fill=\"#20242a\" fill-opacity=\"0.85\"/>")
        body.append("<path d=\"\(linked)\" fill=\"\(Self.linkColor)\" fill-opacity=\"0.9\"/>")
        for a in layout.attachments {
            body.append("<path d=\"\(polygon(a.box))\" fill=\"#b07ad8\" fill-opacity=\"0.5\" stroke=\"\(Self.attachmentColor)\" stroke-width=\"0.8\"><title>\(Self.xmlEscape(a.attachment.tag))</title></path>")
        }
        var dots = ""
        for s in samples where s.point.isFinite {
            dots += "<circle cx=\"\(n(s.point.x))\" cy=\"\(n(s.point.y))\" r=\"0.55\" fill=\"\(Self.color(s.hit))\"/>"
        }
        body.append(dots)
        for p in probes {
            body.append("<circle cx=\"\(n(p.point.x))\" cy=\"\(n(p.point.y))\" r=\"3\" fill=\"none\" stroke=\"#d0021b\" stroke-width=\"1.2\"><title>\(Self.xmlEscape(p.name))</title></circle>")
        }
        body.append("</g>")
        if let caption {
            body.append("<text x=\"6\" y=\"\(n(bounds.height + captionHeight - 5))\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\">\(Self.xmlEscape(caption))</text>")
        }
        let w = n(bounds.width), h = n(bounds.height + captionHeight)
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + body.joined(separator: "\n") + "\n</svg>\n"
    }

    /// Writes the picture to `path`; the message says why it could not.
    func write(to path: String) -> String? {
        guard let f = fopen(path, "wb") else { return "cannot write \(path): " + String(cString: strerror(errno)) }
        var text = svg
        let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count }
        let closed = fclose(f) == 0
        return written && closed ? nil : "cannot write \(path): " + String(cString: strerror(errno))
    }

    static func xmlEscape(_ s: String) -> String {
        var o = ""
        for c in s {
            switch c {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case ">": o += "&gt;"
            case "\"": o += "&quot;"
            default: o.append(c)
            }
        }
        return o
    }
}
