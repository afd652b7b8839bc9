import InkGeometry
import InkHit
import InkFreeType
import InkText
import InkScene

/// One `ink-hit query` scene job, parsed and validated:
/// `{"id", "fonts"?, "scene": NODE, "radius"?, "points"}` with
/// `NODE = {"id", "transform"?, "bounds": [x, y, w, h], "hidden"?, "interactive"?, "alpha"?, "clipsChildren"?,
///   "pointerEvents"?: "auto"|"none"|"box-none"|"box-only", "slop"?: [top, left, bottom, right],
///   "minSize"?: [w, h], "shape"?, "children"?: [NODE]}` and a shape `"box"`, `{"roundRect": r}`,
/// `{"ellipse": true}`, `{"path": "M … Z", "fillRule"?: "nonzero"|"evenodd"}`,
/// `{"glyphs": {"size", "glyphs": [{"font", "id", "x", "y", "size"?}], "holes"?}}` or
/// `{"text": {text-job members: "text", "size", "width", "origin", "maxLines", "alignment", "lineHeight",
///   "paragraphSpacing", "firstLineIndent", "runs", "exclusions", "links", "attachments"; "holes"?}}` (fonts: the job's `fonts`, in fallback order) or
/// `{"mask": {"width", "height", "alpha": base64 of width × height bytes, "threshold"?: 1…255}}` (stretched over
/// the bounds). Local px everywhere; points
/// and the radius in root px.
public struct SceneJob: Sendable {
    /// A node's shape as the job gives it (fonts not loaded, text not laid out).
    public enum Shape: Sendable {
        /// `"box"` (or no shape).
        case box
        /// `{"roundRect": radius}`.
        case roundRect(Double)
        /// `{"ellipse": true}`.
        case ellipse
        /// `{"path": "M … Z", "fillRule"}`, parsed.
        case path([PathElement], FillRule)
        /// `{"glyphs": {…}}`: the glyphs (fonts by index into the job's) and the hole policy.
        case glyphs([GlyphJob.Glyph], HolePolicy)
        /// `{"text": {…}}`: the text as a text job (fonts: the job's) and the hole policy.
        case text(TextJob, HolePolicy)
        /// `{"mask": {"width", "height", "alpha": base64, "threshold"}}`.
        case mask(AlphaMask)
    }
    /// One node, in pre-order, with the index of its parent (-1 for the root).
    public struct Item: Sendable {
        /// The node, its shape still `.box` (see `shape`).
        public var node: Node
        /// Index of its parent in `items`, -1 for the root.
        public var parent: Int
        /// Its shape as given.
        public var shape: Shape
    }
    /// The job's id as JSON text.
    public var idJSON: String
    /// Fonts for text and glyph shapes.
    public var fonts: [GlyphJob.FontRef]
    /// The nodes in pre-order (parents before children, siblings bottom first).
    public var items: [Item]
    /// Touch radius, root px.
    public var radius: Double
    /// Query points, root px.
    public var points: [Point]
}

extension SceneJob {
    /// Parses and validates a scene job (without recursion: trees of any depth within the limits).
    ///
    /// - Throws: `JobError`, as `.node(id:…)` for a problem inside a node (naming it by id, or by its path
    ///   of child indices when it has no valid id).
    public init(_ v: JSONValue, limits: JobLimits = JobLimits()) throws(JobError) {
        guard case .object = v else { throw .notAnObject(got: v.typeName) }
        idJSON = try JobFields.id(of: v, limits: limits)
        if let f = v["fonts"], f != .null, f != .array([]) { fonts = try JobFields.fonts(of: v, limits: limits) } else { fonts = [] }
        try JobFields.refuseSkia(fonts, "scene jobs")
        guard let root = v["scene"] else { throw .missing(field: "\"scene\"") }
        (radius, points) = try JobFields.queries(of: v, limits: limits)
        items = []
        var seen = Set<String>()
        // UTF-16 units of the text nodes so far: the text-length limit holds for the job, not for each node,
        // and is checked as the nodes are read, before any layout is built.
        var textUnits = 0
        // (value, parent item, where: "scene" or "… .children[k]")
        var stack: [(JSONValue, Int, String)] = [(root, -1, "scene")]
        while let (nv, parent, place) = stack.popLast() {
            guard items.count < limits.maxNodes else { throw .tooMany(what: "scene nodes", limit: limits.maxNodes) }
            try JobFields.checkDeadline(items.count, limits, "reading scene node \(items.count)")
            guard case .object = nv else { throw .wrongType(field: place, expected: "a node object", got: nv.typeName) }
            guard case .string(let id)? = nv["id"] else {
                throw .wrongType(field: place + ".id", expected: "a string", got: nv["id"]?.typeName ?? "nothing")
            }
            try JobFields.checkLength(id, place + ".id", limits: limits)
            guard seen.insert(id).inserted else { throw .node(id: id, .invalid(field: "\"id\"", problem: "is used by another node")) }
            let item: Item
            do throws(JobError) {
                item = try Self.item(nv, id: id, parent: parent, fonts: fonts, limits: limits)
            } catch {
                throw .node(id: id, error)
            }
            if case .text(let t, _) = item.shape {
                textUnits += t.text.utf16.count
                guard textUnits <= limits.maxTextLength else { throw .sceneTextLength(limit: limits.maxTextLength, node: id) }
            }
            let me = items.count
            items.append(item)
            if let cv = nv["children"], cv != .null {
                guard case .array(let children) = cv else { throw .node(id: id, .wrongType(field: "\"children\"", expected: "an array", got: cv.typeName)) }
                for (k, c) in children.enumerated().reversed() { stack.append((c, me, "\(id).children[\(k)]")) }
            }
        }
    }

    static func item(_ nv: JSONValue, id: String, parent: Int, fonts: [GlyphJob.FontRef],
                     limits: JobLimits) throws(JobError) -> Item {
        func bool(_ name: String, _ def: Bool) throws(JobError) -> Bool {
            guard let b = nv[name], b != .null else { return def }
            guard case .bool(let v) = b else { throw .wrongType(field: "\"\(name)\"", expected: "true or false", got: b.typeName) }
            return v
        }
        func numbers(_ name: String, _ count: Int, _ what: String) throws(JobError) -> [Double]? {
            guard let a = nv[name], a != .null else { return nil }
            guard case .array(let xs) = a, xs.count == count else { throw .wrongType(field: "\"\(name)\"", expected: what, got: a.typeName) }
            var out: [Double] = []
            for (k, x) in xs.enumerated() {
                let d = try JobFields.finite(x, "\(name)[\(k)]")
                guard ViewSpace.contains(d) else { throw .invalid(field: "\(name)[\(k)]", problem: "\(DecimalText.short(d)) is out of range (\(ViewSpace.limitText))") }
                out.append(d)
            }
            return out
        }
        guard let b = try numbers("bounds", 4, "[x, y, width, height]") else { throw .missing(field: "\"bounds\"") }
        guard b[2] >= 0, b[3] >= 0 else { throw .invalid(field: "\"bounds\"", problem: "width and height must be ≥ 0") }
        var node = Node(id: id, bounds: Rect(minX: b[0], minY: b[1], maxX: b[0] + b[2], maxY: b[1] + b[3]))
        node.transform = try JobFields.transform(of: nv)
        node.isHidden = try bool("hidden", false)
        node.isInteractive = try bool("interactive", true)
        // "clipsChildren", as Swift names it; "clip" is its 1.0 name (still read, deprecated).
        if nv["clipsChildren"] != nil && nv["clip"] != nil {
            throw .invalid(field: "\"clip\"", problem: "is the old name of \"clipsChildren\": give one of them")
        }
        node.clipsChildren = try nv["clip"] != nil ? bool("clip", true) : bool("clipsChildren", true)
        if let a = nv["alpha"], a != .null {
            let alpha = try JobFields.finite(a, "alpha")
            guard alpha >= 0 && alpha <= 1 else { throw .invalid(field: "\"alpha\"", problem: "must be in 0…1 (got \(DecimalText.short(alpha)))") }
            node.alpha = alpha
        }
        if let pe = try JobFields.string(nv["pointerEvents"], "\"pointerEvents\"") {
            guard let mode = PointerEvents(rawValue: pe) else {
                throw .invalid(field: "\"pointerEvents\"", problem: "must be auto, none, box-none or box-only (got \(JSONValue.quoted(String(pe.prefix(40)))))")
            }
            node.pointerEvents = mode
        }
        if let s = try numbers("slop", 4, "[top, left, bottom, right]") { node.slop = EdgeInsets(top: s[0], left: s[1], bottom: s[2], right: s[3]) }
        if let m = try numbers("minSize", 2, "[width, height]") {
            guard m[0] >= 0, m[1] >= 0 else { throw .invalid(field: "\"minSize\"", problem: "must be ≥ 0") }
            node.minSize = (m[0], m[1])
        }
        return Item(node: node, parent: parent, shape: try shape(nv["shape"], id: id, fonts: fonts, limits: limits))
    }

    static func holes(_ v: JSONValue?) throws(JobError) -> HolePolicy {
        guard let h = try JobFields.string(v, "\"holes\"") else { return .ink }
        guard let p = HolePolicy(rawValue: h) else {
            throw .invalid(field: "\"holes\"", problem: "must be ink, filledCounters or wordHull (got \(JSONValue.quoted(String(h.prefix(40)))))")
        }
        return p
    }

    /// A node's `"shape"`: a string (`"box"`) or an object with one known member, read by its kind's parser.
    static func shape(_ sv: JSONValue?, id: String, fonts: [GlyphJob.FontRef], limits: JobLimits) throws(JobError) -> Shape {
        guard let sv, sv != .null else { return .box }
        if case .string(let s) = sv {
            guard s == "box" else { throw .invalid(field: "\"shape\"", problem: "\(JSONValue.quoted(String(s.prefix(40)))) is not a shape (a string shape is \"box\")") }
            return .box
        }
        guard case .object(let members) = sv, members.count >= 1 else {
            throw .wrongType(field: "\"shape\"", expected: "\"box\" or an object", got: sv.typeName)
        }
        if let r = sv["roundRect"] {
            let radius = try JobFields.finite(r, "shape.roundRect")
            guard radius >= 0 else { throw .invalid(field: "shape.roundRect", problem: "must be ≥ 0") }
            return .roundRect(radius)
        }
        if let e = sv["ellipse"] {
            guard e == .bool(true) else { throw .wrongType(field: "shape.ellipse", expected: "true", got: e.typeName) }
            return .ellipse
        }
        if let p = sv["path"] { return try pathShape(p, fillRule: sv["fillRule"], limits: limits) }
        if let g = sv["glyphs"] { return try glyphsShape(g, id: id, fonts: fonts, limits: limits) }
        if let t = sv["text"] { return try textShape(t, id: id, fonts: fonts, limits: limits) }
        if let m = sv["mask"] { return try maskShape(m, limits: limits) }
        let names = members.prefix(4).map { JSONValue.quoted(String($0.key.prefix(40))) }.joined(separator: ", ")
        throw .invalid(field: "\"shape\"", problem: "has no known shape (box, roundRect, ellipse, path, glyphs, text, mask): \(names)")
    }

    /// `{"path": "M … Z", "fillRule"?}`.
    static func pathShape(_ p: JSONValue, fillRule: JSONValue?, limits: JobLimits) throws(JobError) -> Shape {
        guard case .string(let d) = p else { throw .wrongType(field: "shape.path", expected: "SVG path data (a string)", got: p.typeName) }
        guard d.utf8.count <= limits.maxLineBytes else { throw .invalid(field: "shape.path", problem: "is too long") }
        let elements: [PathElement]
        do { elements = try SVGPathData.elements(d) } catch { throw .invalid(field: "shape.path", problem: error.description) }
        var rule = FillRule.nonZero
        if let r = try JobFields.string(fillRule, "shape.fillRule") {
            switch r {
            case "nonzero": rule = .nonZero
            case "evenodd": rule = .evenOdd
            default: throw .invalid(field: "shape.fillRule", problem: "must be nonzero or evenodd")
            }
        }
        return .path(elements, rule)
    }

    /// The job's fonts as a job's `"fonts"` member (path and index), for the nested glyph and text parsers.
    static func fontsMember(_ fonts: [GlyphJob.FontRef]) -> JSONValue.Member {
        .init(key: "fonts", value: .array(fonts.map { f in
            .object([.init(key: "path", value: .string(f.path)), .init(key: "index", value: .number(Double(f.index), String(f.index)))])
        }))
    }

    /// `{"glyphs": {"size", "glyphs", "holes"?}}`: read by the glyph job's own parser (fonts: the job's).
    static func glyphsShape(_ g: JSONValue, id: String, fonts: [GlyphJob.FontRef], limits: JobLimits) throws(JobError) -> Shape {
        guard case .object = g else { throw .wrongType(field: "shape.glyphs", expected: "an object", got: g.typeName) }
        guard !fonts.isEmpty else { throw .missing(field: "\"fonts\" (the job's, for glyph shapes)") }
        var members: [JSONValue.Member] = [.init(key: "id", value: .string(id)), fontsMember(fonts),
                                           .init(key: "points", value: .array([]))]
        if let s = g["size"] { members.append(.init(key: "size", value: s)) }
        members.append(.init(key: "glyphs", value: g["glyphs"] ?? .null))
        let job = try GlyphJob(.object(members), limits: limits)
        return .glyphs(job.glyphs, try holes(g["holes"]))
    }

    /// `{"text": {text-job members, "holes"?}}`: read by the text job's own parser (fonts: the job's).
    static func textShape(_ t: JSONValue, id: String, fonts: [GlyphJob.FontRef], limits: JobLimits) throws(JobError) -> Shape {
        guard case .object(var members) = t else { throw .wrongType(field: "shape.text", expected: "an object", got: t.typeName) }
        guard !fonts.isEmpty else { throw .missing(field: "\"fonts\" (the job's, for text shapes)") }
        for key in ["id", "fonts", "points", "transform", "radius"] where t[key] != nil {
            throw .invalid(field: "shape.text.\(key)", problem: "belongs to the job or the node, not the text")
        }
        members.append(.init(key: "id", value: .string(id)))
        members.append(fontsMember(fonts))
        members.append(.init(key: "points", value: .array([])))
        let job = try TextJob(.object(members), limits: limits)
        return .text(job, try holes(t["holes"]))
    }

    /// `{"mask": {"width", "height", "alpha": base64, "threshold"?}}`.
    static func maskShape(_ m: JSONValue, limits: JobLimits) throws(JobError) -> Shape {
        guard case .object = m else { throw .wrongType(field: "shape.mask", expected: "an object", got: m.typeName) }
        let w = try JobFields.int(m["width"], "shape.mask.width", default: 0)
        let h = try JobFields.int(m["height"], "shape.mask.height", default: 0)
        guard w >= 1, h >= 1, w <= AlphaMask.maxPixels / h else {
            throw .invalid(field: "shape.mask", problem: "width and height must be ≥ 1, at most \(AlphaMask.maxPixels) pixels")
        }
        guard case .string(let text)? = m["alpha"] else {
            throw .wrongType(field: "shape.mask.alpha", expected: "base64 text", got: m["alpha"]?.typeName ?? "nothing")
        }
        guard let alpha = try JobFields.base64(text, limits: limits) else {
            throw .invalid(field: "shape.mask.alpha", problem: "is not valid base64")
        }
        guard alpha.count == w * h else {
            throw .invalid(field: "shape.mask.alpha", problem: "has \(alpha.count) bytes, not width × height = \(w * h)")
        }
        let t = try JobFields.int(m["threshold"], "shape.mask.threshold", default: 128)
        guard t >= 1 && t <= 255, let mask = AlphaMask(width: w, height: h, alpha: alpha, threshold: UInt8(t)) else {
            throw .invalid(field: "shape.mask.threshold", problem: "must be 1…255")
        }
        return .mask(mask)
    }
}

extension JobRunner {
    /// Builds a scene job's scene: its fonts loaded, its texts laid out, snapshotted, within `limits`.
    ///
    /// - Throws: `JobError` (`.node` or `.scene` naming the node that cannot be built).
    public func snapshot(_ job: SceneJob) throws(JobError) -> SceneSnapshot {
        try snapshot(job, deadline: Deadline(seconds: limits.maxSecondsPerJob), keep: nil)
    }

    /// Builds a scene job's scene: fonts loaded, texts laid out (each within the job's limits and deadline),
    /// then snapshotted. When it fails, what it built goes to `keep` (the job line's `keepUntilWritten`), so
    /// it is freed after the job's error line is written.
    func snapshot(_ job: SceneJob, deadline: Deadline, keep: JobLine?) throws(JobError) -> SceneSnapshot {
        var scene: Scene? = nil
        do throws(JobError) {
            return try snapshot(job, deadline: deadline, into: &scene)
        } catch {
            if let scene { keep?.keepUntilWritten(scene) }
            throw error
        }
    }

    /// `snapshot(_:deadline:keep:)`, building the scene in `scene`.
    private func snapshot(_ job: SceneJob, deadline: Deadline, into scene: inout Scene?) throws(JobError) -> SceneSnapshot {
        let loaded = try loadFonts(job.fonts, job: job.idJSON)
        var glyphs = 0
        for (k, item) in job.items.enumerated() {
            if k & 63 == 63 && deadline.isPast {
                throw .timeLimit(seconds: limits.maxSecondsPerJob, during: "building scene node \(k) of \(job.items.count)")
            }
            var node = item.node
            do throws(JobError) {
                switch item.shape {
                case .box: node.shape = .box
                case .roundRect(let r): node.shape = .roundRect(radius: r)
                case .ellipse: node.shape = .ellipse
                case .path(let e, let rule): node.shape = .path(e, fillRule: rule)
                case .glyphs(let gs, let holes):
                    glyphs += gs.count
                    node.shape = .glyphs(gs.map { g in
                        GlyphPlacement(font: loaded[g.font], glyph: g.id, size: g.size, origin: Point(g.x, g.y),
                                       style: g.style)
                    }, holes: holes)
                case .mask(let m): node.shape = .mask(m)
                case .text(let t, let holes):
                    let layout = try layout(t, deadline: deadline)
                    glyphs += layout.glyphs.count
                    node.shape = .text(layout, holes: holes)
                }
                guard glyphs <= limits.maxGlyphs else { throw .tooMany(what: "glyphs in the scene", limit: limits.maxGlyphs) }
            } catch {
                throw .node(id: node.id, error)
            }
            do throws(SceneError) {
                if item.parent < 0 { scene = Scene(root: node) } else { try scene!.add(node, to: job.items[item.parent].node.id) }
            } catch {
                throw .scene(error)
            }
        }
        guard let scene else { throw .missing(field: "\"scene\"") }
        // One budget and one deadline, as for glyph and text jobs: the regions' shapes are held to
        // `maxShapeBytesPerJob` (each estimated before it is built) and the build stops at the job's deadline.
        let budget = SceneBudget(maxShapeBytes: limits.maxShapeBytesPerJob, deadline: deadline.instant)
        do {
            return try scene.snapshot(tolerance: tolerance, budget: budget, cache: cache)
        } catch .timeLimit(let id), .shape(let id, .timeLimit) {
            throw .timeLimit(seconds: limits.maxSecondsPerJob, during: "building the region of node \(JSONValue.quoted(String(id.prefix(200))))")
        } catch {
            throw .scene(error)
        }
    }

    /// `snapshot(_:)` for the job `line` holds, within its deadline (the one its answers are held to).
    public func snapshot(_ job: SceneJob, for line: JobLine) throws(JobError) -> SceneSnapshot {
        try snapshot(job, deadline: line.deadline, keep: line)
    }

    /// Answers a scene job: one line per point, a chunk at a time. A job stopped while answering (out of time
    /// or output bytes) frees its snapshot after its error line.
    func answerScene(_ job: SceneJob, line: JobLine, emit: (String) -> Void) throws(JobError) {
        let snapshot = try snapshot(job, deadline: line.deadline, keep: line)
        do throws(JobError) {
            try Self.answerInChunks(job.points, line: line, seconds: limits.maxSecondsPerJob, emit: emit) { points, results in
                for k in points.indices { results[k] = snapshot.hit(at: points[k], radius: job.radius) }
            } line: { Self.sceneAnswer($0) }
        } catch {
            line.keepUntilWritten(snapshot)
            throw error
        }
        if line.isStopped { line.keepUntilWritten(snapshot) }
    }

    /// A scene answer after `{"job":ID,"i":N`.
    static func sceneAnswer(_ hit: SceneHit?) -> String {
        guard let h = hit else {
            return ",\"hit\":false,\"node\":null,\"path\":null,\"local\":null" + placementFields(nil)
                + characterFields(nil) + insideField(false) + ",\"distance\":null}"
        }
        func n(_ v: Double) -> String { DecimalText.string(v, maxFractionDigits: 4) }
        var s = ",\"hit\":true,\"node\":" + JSONValue.quoted(h.node)
        s += ",\"path\":[" + h.path.map(JSONValue.quoted).joined(separator: ",") + "]"
        s += ",\"local\":[" + n(h.local.x) + "," + n(h.local.y) + "]"
        s += placementFields(h.placement) + decorationField(h.text?.decoration) + characterFields(h.text)
        return s + insideField(h.isInside) + ",\"distance\":" + n(h.distance) + "}"
    }
}
