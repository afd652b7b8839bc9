import InkGeometry
import InkHit
import InkText

extension GlyphJob {
    /// `"decorations"`: `[{"kind": "underline" | "strikethrough" | "overline", "rect": [x, y, w, h],
    /// "utf16"?: [a, b]}]` in layout px, at most `limit − glyphs` of them (they count with the glyphs); empty
    /// when absent or null.
    static func decorations(of v: JSONValue, glyphs: Int, limit: Int) throws(JobError) -> [TextDecoration] {
        guard let dv = v["decorations"], dv != .null else { return [] }
        guard case .array(let da) = dv else { throw .wrongType(field: "\"decorations\"", expected: "an array", got: dv.typeName) }
        guard da.count <= limit - glyphs else { throw .tooMany(what: "glyphs and decorations", limit: limit) }
        var out: [TextDecoration] = []
        out.reserveCapacity(da.count)
        for (i, d) in da.enumerated() {
            let name = "decorations[\(i)]"
            guard case .object = d else { throw .wrongType(field: name, expected: "an object", got: d.typeName) }
            guard case .string(let k)? = d["kind"], let kind = TextDecoration.Kind(rawValue: k) else {
                throw .wrongType(field: name + ".kind", expected: "\"underline\", \"strikethrough\" or \"overline\"",
                                 got: d["kind"]?.serialized.prefix(40).description ?? "nothing")
            }
            guard case .array(let xs)? = d["rect"], xs.count == 4 else {
                throw .wrongType(field: name + ".rect", expected: "[x, y, width, height]", got: d["rect"]?.typeName ?? "nothing")
            }
            var n: [Double] = []
            for (j, x) in xs.enumerated() { n.append(try JobFields.finite(x, "\(name).rect[\(j)]")) }
            guard n[2] >= 0, n[3] >= 0, n.allSatisfy(ViewSpace.contains) else {
                throw .invalid(field: name + ".rect", problem: "needs width and height ≥ 0 and coordinates within \(ViewSpace.limitText)")
            }
            var utf16 = 0..<0
            if let u = d["utf16"], u != .null {
                guard case .array(let ab) = u, ab.count == 2 else { throw .wrongType(field: name + ".utf16", expected: "[start, end]", got: u.typeName) }
                let a = try JobFields.int(ab[0], name + ".utf16[0]", default: 0), b = try JobFields.int(ab[1], name + ".utf16[1]", default: 0)
                guard a >= 0, b >= a else { throw .invalid(field: name + ".utf16", problem: "needs 0 ≤ start ≤ end") }
                utf16 = a..<b
            }
            out.append(TextDecoration(kind: kind, rect: Rect(minX: n[0], minY: n[1], maxX: n[0] + n[2], maxY: n[1] + n[3]),
                                      utf16: utf16, line: 0))
        }
        return out
    }
}

extension JobRunner {
    /// The index of a glyph job's decorations (placement k is decoration k), in view space.
    func decorationIndex(_ job: GlyphJob) throws(JobError) -> HitIndex? {
        guard !job.decorations.isEmpty else { return nil }
        var b: HitIndex.Builder
        do { b = try HitIndex.Builder(tolerance: tolerance) } catch { preconditionFailure("the runner's tolerance is valid") }
        for (i, d) in job.decorations.enumerated() {
            do {
                try TextLayout.addRect(d.rect, to: &b, transform: job.transform)
            } catch {
                throw .invalid(field: "decorations[\(i)]", problem: "cannot be hit-tested: \(error)")
            }
        }
        return b.build()
    }

    /// A glyph job's answer with its decorations as ink under the glyphs: a glyph whose ink holds the point,
    /// else a decoration holding it, else the nearest within the radius (ties to the glyph).
    static func withDecorations(_ h: Hit?, _ decorations: HitIndex?, at p: Point, radius: Double) -> (Hit, isDecoration: Bool)? {
        if let h, h.isInside { return (h, false) }
        guard let d = decorations?.hit(at: p, radius: radius) else { return h.map { ($0, false) } }
        if d.isInside { return (d, true) }
        if let h, h.distance <= d.distance { return (h, false) }
        return (d, true)
    }
}
