import InkGeometry

extension ScenePicture {
    /// The key under a scene picture, in picture px (the SVG's own space, below the drawing): each target's
    /// colour and id, then the marks (miss, hit within the radius with the radius to scale, enlarged hit box,
    /// clip, taken out) that the picture uses. Items flow left to right in rows of 16 px.
    struct Legend {
        enum Mark {
            case node(color: String, id: String)
            case more(Int)
            case miss, near(radius: Double), enlarged, clip, out, boxNone
        }
        let width: Double
        /// Where the legend starts (the drawing's height).
        let top: Double
        var items: [(mark: Mark, label: String, x: Double, row: Int)] = []
        var rows = 0
        static let rowHeight = 16.0, maxNodes = 24

        init(width: Double, top: Double) { self.width = width; self.top = top }

        /// Height of the legend, px (with a 6 px margin).
        var height: Double { rows == 0 ? 0 : Double(rows) * Self.rowHeight + 6 }

        /// Collects the marks `picture` uses and flows them into rows.
        mutating func layOut(_ picture: ScenePicture) {
            var marks: [(Mark, String)] = []
            let targets = picture.entries.filter(\.isTarget)
            for e in targets.prefix(Self.maxNodes) {
                let id = e.item.node.id
                marks.append((.node(color: e.color, id: id), id.count > 24 ? String(id.prefix(23)) + "…" : id))
            }
            if targets.count > Self.maxNodes { marks.append((.more(targets.count - Self.maxNodes), "+\(targets.count - Self.maxNodes) more")) }
            marks.append((.miss, "miss"))
            if picture.radius > 0 {
                marks.append((.near(radius: picture.radius), "hit within r = \(DecimalText.string(picture.radius, maxFractionDigits: 2)) px"
                              + (picture.radius > 7 ? " (ring not to scale)" : "")))
            }
            let enlarged = picture.entries.contains { e in
                let h = e.item.node.hitBox, b = e.item.node.bounds
                return e.isTarget && !h.isEmpty && (b.isEmpty || h.minX < b.minX || h.minY < b.minY || h.maxX > b.maxX || h.maxY > b.maxY)
            }
            if enlarged { marks.append((.enlarged, "enlarged hit box")) }
            if picture.entries.contains(where: \.clips) { marks.append((.clip, "clip")) }
            if picture.entries.contains(where: \.isOut) { marks.append((.out, "taken out")) }
            if picture.entries.contains(where: { !$0.isOut && !$0.isTarget }) { marks.append((.boxNone, "box-none")) }
            var x = 8.0, row = 0
            for (mark, label) in marks {
                let w = 16 + 6 * Double(label.count) + 12
                if x > 8 && x + w > width - 4 { x = 8; row += 1 }
                items.append((mark, label, x, row))
                x += w
            }
            rows = items.isEmpty ? 0 : row + 1
        }

        /// Writes the legend (picture px).
        func write(_ out: inout SVGFile.Writer) throws(SVGFile.Failure) {
            guard !items.isEmpty else { return }
            let n = ScenePicture.n
            try out.put("<g id=\"legend\" font-family=\"sans-serif\" font-size=\"10\">\n")
            try out.put("<path d=\"M 0 \(n(top)) H \(n(width))\" stroke=\"#e3e7eb\" stroke-width=\"1\"/>\n")
            for item in items {
                let y = top + 3 + Double(item.row) * Self.rowHeight, cx = item.x + 5, cy = y + 8
                let box = "x=\"\(n(item.x))\" y=\"\(n(y + 3))\" width=\"10\" height=\"10\""
                let swatch: String
                switch item.mark {
                case .node(let color, _):
                    swatch = "<rect \(box) fill=\"\(color)\" fill-opacity=\"0.5\" stroke=\"\(color)\"/>"
                case .more:
                    swatch = ""
                case .miss:
                    swatch = "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"1\" fill=\"\(ScenePicture.missColor)\"/>"
                case .near(let r):
                    let ring = min(r, 7)
                    swatch = "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(ring))\" fill=\"none\" stroke=\"#7a838c\" stroke-width=\"0.6\"/>"
                        + "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"1.5\" fill=\"#7a838c\" stroke=\"#20242a\" stroke-width=\"0.5\"/>"
                case .enlarged:
                    swatch = "<rect \(box) fill=\"#7a838c\" fill-opacity=\"0.08\" stroke=\"#7a838c\" stroke-width=\"0.8\" stroke-dasharray=\"4 2\"/>"
                case .clip:
                    swatch = "<rect \(box) fill=\"none\" stroke=\"#3d4650\" stroke-width=\"0.9\" stroke-dasharray=\"6 3\"/>"
                case .out:
                    swatch = "<rect \(box) fill=\"none\" stroke=\"#aab3bc\" stroke-width=\"0.8\" stroke-dasharray=\"1.5 2\"/>"
                case .boxNone:
                    swatch = "<rect \(box) fill=\"none\" stroke=\"#c3cad1\" stroke-width=\"0.8\"/>"
                }
                let textX = item.x + (swatch.isEmpty ? 0 : 16)
                try out.put(swatch + "<text x=\"\(n(textX))\" y=\"\(n(y + 12))\" fill=\"#333\">\(SVGFile.escape(item.label))</text>\n")
            }
            try out.put("</g>\n")
        }
    }
}
