import InkGeometry
import InkFreeType
import InkText
import InkScene
import InkJobs

/// The SVG drawing of a scene job (`ink-hit render`), everything in root (view) px — the space of the job's
/// points and radius — moved so the picture's top-left corner is (0, 0).
///
/// Nodes are drawn in pre-order (parents under children, earlier siblings under later ones, as the hit rule
/// stacks them), each through its transform to the root (its own `transform`, then its parent's, up to the
/// root):
/// - a target (a node that may be the answer) in its colour: boxes, round rects, ellipses and paths filled
///   lightly and outlined; glyph and text leaves by their ink whatever their hole policy (links underlined)
///   inside a faint outline of their bounds; masks by their hit pixels (one rect per run of hit pixels in a row);
/// - its enlarged hit box, where `slop` or `minSize` make it reach beyond the bounds: dashed, lighter;
/// - the hit box of a clipping node with children: a dark dashed outline; what lies below it is drawn
///   clipped to it (children are reachable only there);
/// - a node taken out with its subtree (hidden, not interactive, alpha < 0.01, `pointerEvents` none, or
///   below a `box-only` node): a dotted grey outline of its bounds, nothing filled;
/// - a `box-none` node (only its children take touches): a thin grey outline of its bounds;
/// - each query point as a dot in the colour of the node it hits (grey for a miss), with a dark rim when it
///   hits within the radius but outside the region; the radius is shown in the legend.
///
/// A node's colour comes from a hash of its id into a palette of 10 (the next free colour when an earlier
/// target already has it, while any is free), so it is the same from run to run. Each target's drawing is a
/// `<g data-node="ID" fill="COLOUR">`; the points are the circles of `<g id="points">`, in job order
/// (non-finite points are left out).
struct ScenePicture {
    /// One node of the job with what the drawing needs.
    struct Entry {
        var item: SceneJob.Item
        /// Local → root px: the node's transform, then its parent's `toRoot`.
        var toRoot: AffineTransform
        /// Taken out with its subtree (by its own flags or an ancestor's).
        var isOut: Bool
        /// May be the answer itself.
        var isTarget: Bool
        /// Clips children it has (its hit box, in local px, is their reach).
        var clips: Bool
        /// The fill colour of a target.
        var color: String
        /// Why it is out (for its tooltip).
        var why: String
    }
    /// What one query point hit.
    struct Sample {
        /// Root px.
        var point: Point
        /// The id of the node hit; nil for a miss.
        var node: String?
        /// True inside the node's region, false when hit within the radius only.
        var inside: Bool
    }

    let entries: [Entry]
    /// Touch radius, root px.
    let radius: Double
    /// Text shapes laid out (layout → local by the layout's own transform), by entry index.
    let layouts: [Int: TextLayout]
    /// The job's fonts, loaded (for glyph shapes).
    let fonts: [Font]
    var samples: [Sample] = []

    static let palette = ["#e41a1c", "#377eb8", "#2f9e44", "#984ea3", "#ff7f00",
                          "#a65628", "#e7298a", "#17a2a2", "#d4a000", "#7f9c0a"]
    static let missColor = "#9aa5b1"

    /// Prepares the drawing of `job`: transforms to the root, the flags the hit rule applies, colours, texts
    /// laid out and fonts loaded by `runner` (its cache, tolerance and limits).
    ///
    /// - Throws: `JobError` (`.node` naming the node whose text or font fails, `.timeLimit`).
    init(_ job: SceneJob, runner: JobRunner, line: JobLine) throws(JobError) {
        radius = job.radius
        var loaded: [Font] = []
        for f in job.fonts { loaded.append(try runner.font(f)) }
        fonts = loaded
        var entries: [Entry] = []
        entries.reserveCapacity(job.items.count)
        var layouts: [Int: TextLayout] = [:]
        var childrenOut: [Bool] = []            // per entry: whether its children are taken out
        var hasChildren = [Bool](repeating: false, count: job.items.count)
        for item in job.items where item.parent >= 0 { hasChildren[item.parent] = true }
        var used = Set<String>()
        for (k, item) in job.items.enumerated() {
            var isText = false
            if case .text = item.shape { isText = true }
            if (k & 63 == 63 || isText) && line.isPastDeadline {
                throw .timeLimit(seconds: runner.limits.maxSecondsPerJob, during: "drawing scene node \(k) of \(job.items.count)")
            }
            let n = item.node, p = item.parent
            let toRoot = p >= 0 ? n.transform.concatenating(entries[p].toRoot) : n.transform
            // The scene's own rules (Node's predicates), worded for the legend.
            var why = ""
            if p >= 0 && childrenOut[p] { why = entries[p].isOut ? "an ancestor is taken out" : "under a box-only node" }
            else if let reason = n.takenOut { why = Self.words(reason) }
            let out = !why.isEmpty
            let target = !out && n.takesTouchesItself
            childrenOut.append(out || !n.passesTouchesToChildren)
            var color = Self.missColor
            if target {
                let start = Int(Self.hash(n.id) % UInt64(Self.palette.count))
                color = Self.palette[start]
                for step in 0..<Self.palette.count where !used.contains(Self.palette[(start + step) % Self.palette.count]) {
                    color = Self.palette[(start + step) % Self.palette.count]
                    break
                }
                used.insert(color)
                if case .text(let t, _) = item.shape {
                    do throws(JobError) { layouts[k] = try runner.layout(t, for: line) } catch { throw .node(id: n.id, error) }
                }
            }
            entries.append(Entry(item: item, toRoot: toRoot, isOut: out, isTarget: target,
                                 clips: !out && n.clipsChildren && hasChildren[k], color: color, why: why))
        }
        self.entries = entries
        self.layouts = layouts
    }

    /// The legend's words for why a node is taken out.
    static func words(_ reason: Node.TakenOut) -> String {
        switch reason {
        case .hidden: "hidden"
        case .notInteractive: "not interactive"
        case .transparent: "alpha < 0.01"
        case .pointerEventsNone: "pointerEvents none"
        }
    }

    /// FNV-1a over the id's UTF-8.
    static func hash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// Writes the SVG to `path` as it is made, at most `maxBytes` bytes, giving up when `isPastDeadline()`
    /// turns true (checked every node, every 256 glyphs, mask rows and points). A picture that fails is
    /// removed.
    func write(to path: String, maxBytes: Int, isPastDeadline: () -> Bool) throws(SVGFile.Failure) {
        try SVGFile.write(to: path, maxBytes: maxBytes) { (out: inout SVGFile.Writer) throws(SVGFile.Failure) in
            try draw(&out, isPastDeadline: isPastDeadline)
        }
    }

    static func n(_ v: Double) -> String { DecimalText.string(v, maxFractionDigits: 2) }

    /// Path data in root px for outline calls made in local px (`t`: local → root).
    static func path(_ t: AffineTransform, _ draw: (inout TransformingSink<SVGPathSink>) -> Void) -> String {
        var sink = TransformingSink(SVGPathSink(decimals: 2), transform: t)
        draw(&sink)
        return sink.base.path
    }

    /// A rect's four corners (local px) as one closed contour.
    static func rect<S: OutlineSink>(_ r: Rect, into s: inout S) {
        s.move(to: Point(r.minX, r.minY)); s.addLine(to: Point(r.maxX, r.minY))
        s.addLine(to: Point(r.maxX, r.maxY)); s.addLine(to: Point(r.minX, r.maxY)); s.closeSubpath()
    }

    /// A rect with corners rounded by `radius` (clamped to half the shorter side, as the region is), local px;
    /// `radius` 1 with `ellipse` draws the inscribed ellipse. Quarter arcs are cubics (error < 0.03 %).
    static func rounded<S: OutlineSink>(_ r: Rect, radius: Double, ellipse: Bool = false, into s: inout S) {
        let rx = ellipse ? r.width / 2 : min(radius, r.width / 2, r.height / 2)
        let ry = ellipse ? r.height / 2 : rx
        guard rx > 0, ry > 0 else { rect(r, into: &s); return }
        let k = 0.5522847498
        s.move(to: Point(r.minX + rx, r.minY))
        s.addLine(to: Point(r.maxX - rx, r.minY))
        s.addCurve(to: Point(r.maxX, r.minY + ry), control1: Point(r.maxX - rx + k * rx, r.minY), control2: Point(r.maxX, r.minY + ry - k * ry))
        s.addLine(to: Point(r.maxX, r.maxY - ry))
        s.addCurve(to: Point(r.maxX - rx, r.maxY), control1: Point(r.maxX, r.maxY - ry + k * ry), control2: Point(r.maxX - rx + k * rx, r.maxY))
        s.addLine(to: Point(r.minX + rx, r.maxY))
        s.addCurve(to: Point(r.minX, r.maxY - ry), control1: Point(r.minX + rx - k * rx, r.maxY), control2: Point(r.minX, r.maxY - ry + k * ry))
        s.addLine(to: Point(r.minX, r.minY + ry))
        s.addCurve(to: Point(r.minX + rx, r.minY), control1: Point(r.minX, r.minY + ry - k * ry), control2: Point(r.minX + rx - k * rx, r.minY))
        s.closeSubpath()
    }

    /// The area the picture covers, root px: every node's bounds and hit box, and the points.
    func area() -> Rect {
        var a = Rect.empty
        for e in entries {
            for r in [e.item.node.bounds, e.item.node.hitBox] where !r.isEmpty && r.isFinite {
                let q = r.applying(e.toRoot)
                if q.isFinite { a = a.union(q) }
            }
        }
        for s in samples where s.point.isFinite { a.expand(toInclude: s.point) }
        if a.isEmpty { a = Rect(minX: 0, minY: 0, maxX: 100, maxY: 100) }
        return a.outsetBy(10 + radius)
    }

    private func draw(_ out: inout SVGFile.Writer, isPastDeadline: () -> Bool) throws(SVGFile.Failure) {
        let bounds = area()
        let n = Self.n
        let width = max(bounds.width, 280)
        var legend = Legend(width: width, top: bounds.height)
        legend.layOut(self)
        let w = n(width), h = n(bounds.height + legend.height)
        try out.put("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n"
                    + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<defs>\n")
        // Clip paths first: each clipping node's hit box in root px.
        for (k, e) in entries.enumerated() where e.clips {
            if k & 63 == 63, isPastDeadline() { throw .pastDeadline }
            let box = e.item.node.hitBox
            let d = box.isEmpty ? "M 0 0 Z" : Self.path(e.toRoot) { Self.rect(box, into: &$0) }
            try out.put("<clipPath id=\"clip\(k)\"><path d=\"\(d)\"/></clipPath>\n")
        }
        try out.put("</defs>\n<g transform=\"translate(\(n(-bounds.minX)) \(n(-bounds.minY)))\" stroke-linejoin=\"round\">\n")
        // The chain of ancestors of the node being drawn, and whether each opened a clip group.
        var chain: [(index: Int, opened: Bool)] = []
        for (k, e) in entries.enumerated() {
            if isPastDeadline() { throw .pastDeadline }
            while let last = chain.last, last.index != e.item.parent {
                if last.opened { try out.put("</g>\n") }
                chain.removeLast()
            }
            try drawNode(k, e, &out, isPastDeadline: isPastDeadline)
            if e.clips {
                let box = e.item.node.hitBox
                if !box.isEmpty {
                    try out.put("<path d=\"\(Self.path(e.toRoot) { Self.rect(box, into: &$0) })\" fill=\"none\" stroke=\"#3d4650\" "
                                + "stroke-width=\"0.9\" stroke-dasharray=\"6 3\"><title>clip of \(SVGFile.escape(e.item.node.id))</title></path>\n")
                }
                try out.put("<g clip-path=\"url(#clip\(k))\">\n")
            }
            chain.append((k, e.clips))
        }
        for c in chain.reversed() where c.opened { try out.put("</g>\n") }
        var colors: [String: String] = [:]
        for e in entries where e.isTarget { colors[e.item.node.id] = e.color }
        try out.put("<g id=\"points\">\n")
        for (k, s) in samples.enumerated() where s.point.isFinite {
            if k & 255 == 255, isPastDeadline() { throw .pastDeadline }
            let color = s.node.flatMap { colors[$0] } ?? Self.missColor
            let style = s.node == nil ? " r=\"1\"" : s.inside ? " r=\"1.5\"" : " r=\"1.5\" stroke=\"#20242a\" stroke-width=\"0.5\""
            try out.put("<circle cx=\"\(n(s.point.x))\" cy=\"\(n(s.point.y))\"\(style) fill=\"\(color)\"/>\n")
        }
        try out.put("</g>\n</g>\n")
        try legend.write(&out)
        try out.put("</svg>\n")
    }

    /// One node's own drawing (not its clip), root px.
    private func drawNode(_ k: Int, _ e: Entry, _ out: inout SVGFile.Writer, isPastDeadline: () -> Bool) throws(SVGFile.Failure) {
        let node = e.item.node, t = e.toRoot
        let id = SVGFile.escape(node.id)
        let boundsPath = node.bounds.isEmpty ? "" : Self.path(t) { Self.rect(node.bounds, into: &$0) }
        guard e.isTarget else {
            guard !boundsPath.isEmpty else { return }
            let style = e.isOut ? "stroke=\"#aab3bc\" stroke-dasharray=\"1.5 2\"" : "stroke=\"#c3cad1\""
            let title = SVGFile.escape(e.isOut ? "\(node.id): taken out (\(e.why))" : "\(node.id): box-none")
            try out.put("<path d=\"\(boundsPath)\" fill=\"none\" \(style) stroke-width=\"0.8\"><title>\(title)</title></path>\n")
            return
        }
        try out.put("<g data-node=\"\(id)\" fill=\"\(e.color)\" stroke=\"\(e.color)\"><title>\(id)</title>\n")
        let hitBox = node.hitBox, b = node.bounds
        let enlarged = !hitBox.isEmpty && (b.isEmpty || !(hitBox.minX >= b.minX && hitBox.minY >= b.minY
                                                          && hitBox.maxX <= b.maxX && hitBox.maxY <= b.maxY))
        if enlarged {
            try out.put("<path d=\"\(Self.path(t) { Self.rect(hitBox, into: &$0) })\" fill-opacity=\"0.08\" stroke-width=\"0.8\" "
                        + "stroke-dasharray=\"4 2\"/>\n")
        }
        let area = "fill-opacity=\"0.22\" stroke-width=\"1\""
        switch e.item.shape {
        case .box:
            // The region is the hit box; where slop shrinks it, the part of the bounds it keeps.
            let r = Rect(minX: max(b.minX, hitBox.minX), minY: max(b.minY, hitBox.minY),
                         maxX: min(b.maxX, hitBox.maxX), maxY: min(b.maxY, hitBox.maxY))
            if !hitBox.isEmpty && !r.isEmpty { try out.put("<path d=\"\(Self.path(t) { Self.rect(r, into: &$0) })\" \(area)/>\n") }
        case .roundRect(let radius):
            if !b.isEmpty { try out.put("<path d=\"\(Self.path(t) { Self.rounded(b, radius: radius, into: &$0) })\" \(area)/>\n") }
        case .ellipse:
            if !b.isEmpty { try out.put("<path d=\"\(Self.path(t) { Self.rounded(b, radius: 1, ellipse: true, into: &$0) })\" \(area)/>\n") }
        case .path(let elements, let rule):
            let d = Self.path(t) { elements.replay(into: &$0) }
            try out.put("<path d=\"\(d)\" fill-rule=\"\(rule == .evenOdd ? "evenodd" : "nonzero")\" \(area)/>\n")
        case .glyphs(let run, _):
            try outlineFrame(boundsPath, &out)
            try drawGlyphs(run, t, &out, isPastDeadline: isPastDeadline)
        case .text:
            try outlineFrame(boundsPath, &out)
            if let layout = layouts[k] { try drawText(layout, t, &out, isPastDeadline: isPastDeadline) }
        case .mask(let mask):
            try outlineFrame(boundsPath, &out)
            if !b.isEmpty { try drawMask(mask, over: b, t, &out, isPastDeadline: isPastDeadline) }
        }
        try out.put("</g>\n")
    }

    /// A glyph node's glyphs, filled with their ink outlines (root px; `t`: local → root).
    private func drawGlyphs(_ run: [GlyphJob.Glyph], _ t: AffineTransform, _ out: inout SVGFile.Writer,
                            isPastDeadline: () -> Bool) throws(SVGFile.Failure) {
        try out.put("<path stroke=\"none\" fill-opacity=\"0.9\" d=\"")
        for (gi, g) in run.enumerated() {
            if gi & 255 == 255, isPastDeadline() { throw .pastDeadline }
            guard fonts.indices.contains(g.font) else { continue }
            var sink = SVGPathSink(decimals: 2)
            let p = GlyphPlacement(font: fonts[g.font], glyph: g.id, size: g.size, origin: Point(g.x, g.y), transform: t)
            try? p.inkOutline(into: &sink)                  // a glyph without ink draws nothing
            if !sink.path.isEmpty { try out.put(sink.path + " ") }
        }
        try out.put("\"/>\n")
    }

    /// A mask node's pixels at or above its threshold, as runs of rectangles stretched over `b` (local px).
    private func drawMask(_ mask: AlphaMask, over b: Rect, _ t: AffineTransform, _ out: inout SVGFile.Writer,
                          isPastDeadline: () -> Bool) throws(SVGFile.Failure) {
        let sx = b.width / Double(mask.width), sy = b.height / Double(mask.height)
        let alpha = mask.alpha, threshold = mask.threshold
        try out.put("<path stroke=\"none\" fill-opacity=\"0.45\" d=\"")
        for y in 0..<mask.height {
            if y & 15 == 15, isPastDeadline() { throw .pastDeadline }
            var x = 0
            let row = y * mask.width
            while x < mask.width {
                guard alpha[row + x] >= threshold else { x += 1; continue }
                let start = x
                while x < mask.width && alpha[row + x] >= threshold { x += 1 }
                let r = Rect(minX: b.minX + Double(start) * sx, minY: b.minY + Double(y) * sy,
                             maxX: b.minX + Double(x) * sx, maxY: b.minY + Double(y + 1) * sy)
                try out.put(Self.path(t) { Self.rect(r, into: &$0) } + " ")
            }
        }
        try out.put("\"/>\n")
    }

    /// A faint outline of a leaf's bounds (its region is its ink or pixels, not its box).
    private func outlineFrame(_ boundsPath: String, _ out: inout SVGFile.Writer) throws(SVGFile.Failure) {
        guard !boundsPath.isEmpty else { return }
        try out.put("<path d=\"\(boundsPath)\" fill=\"none\" stroke-opacity=\"0.35\" stroke-width=\"0.6\"/>\n")
    }

    /// A text leaf's glyph outlines and decorations (layout → local by the layout's transform, then `t` to
    /// the root) and its links underlined below the baseline.
    private func drawText(_ layout: TextLayout, _ t: AffineTransform, _ out: inout SVGFile.Writer,
                          isPastDeadline: () -> Bool) throws(SVGFile.Failure) {
        let toRoot = layout.transform.concatenating(t)
        try out.put("<path stroke=\"none\" fill-opacity=\"0.9\" d=\"")
        for gi in layout.glyphs.indices {
            if gi & 255 == 255, isPastDeadline() { throw .pastDeadline }
            var sink = SVGPathSink(decimals: 2)
            var p = layout.placement(of: gi)
            p.transform = toRoot
            try? p.inkOutline(into: &sink)                      // a glyph without ink draws nothing
            if !sink.path.isEmpty { try out.put(sink.path + " ") }
        }
        // Decorations are ink too.
        for d in layout.decorations {
            let r = d.rect
            try out.put(Self.path(toRoot) { s in
                s.move(to: Point(r.minX, r.minY)); s.addLine(to: Point(r.maxX, r.minY))
                s.addLine(to: Point(r.maxX, r.maxY)); s.addLine(to: Point(r.minX, r.maxY)); s.closeSubpath()
            } + " ")
        }
        try out.put("\"/>\n<path fill=\"none\" stroke-width=\"1\" d=\"")
        for (gi, g) in layout.glyphs.enumerated() where !g.isEllipsis && layout.lastLink(overlapping: g.utf16) != nil {
            if gi & 255 == 255, isPastDeadline() { throw .pastDeadline }
            let under = g.y + max(1.5, g.size * 0.12)
            try out.put(Self.path(toRoot) { s in s.move(to: Point(g.x, under)); s.addLine(to: Point(g.x + g.advance, under)) } + " ")
        }
        try out.put("\"/>\n")
    }
}
