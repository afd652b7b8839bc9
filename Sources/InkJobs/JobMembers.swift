import InkHit

/// The members each job format knows, so that a member no format reads (a typo like `"radious"`, which
/// would silently change the answers) is reported: a warning naming it, once per job, or with `strict`
/// (`ink-hit --strict`) the job's error line.
///
/// Each list is the members its parser reads (`GlyphJob`, `TextJob`, `SceneJob`, `JobFields`); a format that
/// gains a member adds it here too.
public enum JobMembers {
    /// The glyph style members a job, a font entry or a glyph may set.
    static let style = ["embolden", "oblique", "hinting", "alphaThreshold", "matrix", "originRounding", "hintingUnderTransform",
                        "ppem", "stemDarkening"]
    static let glyphJob = ["id", "fonts", "size", "glyphs", "transform", "radius", "points", "attachments", "decorations"] + style
    static let font = ["path", "index", "variations", "instance", "skia", "qt"] + style
    static let glyph = ["font", "id", "x", "y", "size", "cluster"] + style
    /// `ink-hit layout` lists a text job's attachments in the glyph job it writes (for reference).
    static let layoutAttachment = ["at", "tag", "box"]
    static let decoration = ["kind", "rect", "utf16"]
    static let textMembers = ["text", "size", "width", "origin", "maxLines", "alignment", "links", "attachments",
                              "runs", "exclusions", "lineHeight", "paragraphSpacing", "firstLineIndent"]
    static let textJob = ["id", "fonts", "transform", "radius", "points"] + textMembers + style
    static let link = ["start", "end", "tag"]
    static let attachment = ["at", "width", "ascent", "descent", "cornerRadius", "tag"]
    static let run = ["start", "end", "fonts", "size", "underline", "strikethrough", "overline", "baselineShift",
                      "letterSpacing"] + style
    /// An exclusion is checked by its parser (exactly one of these): a member it does not know fails the job
    /// with an error naming it, so it is not reported here as ignored.
    static let exclusion = ["rect", "ellipse", "path"]
    static let sceneJob = ["id", "fonts", "scene", "radius", "points"] + style
    /// `"clip"` is the 1.0 name of `"clipsChildren"` (read, deprecated).
    static let node = ["id", "transform", "bounds", "hidden", "interactive", "alpha", "clipsChildren", "clip", "pointerEvents",
                       "slop", "minSize", "shape", "children"]
    static let shape = ["roundRect", "ellipse", "path", "fillRule", "glyphs", "text", "mask"]
    static let glyphsShape = ["size", "glyphs", "holes"]
    static let textShape = textMembers + ["holes"]
    static let mask = ["width", "height", "alpha", "threshold"]

    /// The members of job `v` that its format does not know, as paths (`"radious"`, `glyphs[3].colour`,
    /// `scene.children[0].shape.mask.treshold`), in the order met; at most `limit` of them.
    public static func unknown(in v: JSONValue, limit: Int = 16) -> [String] {
        var found: [String] = []
        func check(_ o: JSONValue, _ known: [String], _ at: String) {
            guard case .object(let members) = o else { return }
            for m in members where found.count < limit && !known.contains(m.key) {
                found.append(at.isEmpty ? JSONValue.quoted(String(m.key.prefix(64))) : at + "." + String(m.key.prefix(64)))
            }
        }
        func each(_ a: JSONValue?, _ known: [String], _ at: String) {
            guard case .array(let items)? = a else { return }
            for (i, item) in items.enumerated() where found.count < limit {
                if i & 1023 == 1023 && BuildDeadline.hasPassed { return }     // out of time: reading fails next
                check(item, known, "\(at)[\(i)]")
            }
        }
        if v["scene"] != nil {
            check(v, sceneJob, "")
            each(v["fonts"], font, "fonts")
            scene(v["scene"], &found, limit: limit)
        } else if v["text"] != nil && v["glyphs"] == nil {
            check(v, textJob, "")
            text(v, "", &found, limit: limit)
        } else {
            check(v, glyphJob, "")
            each(v["fonts"], font, "fonts")
            each(v["glyphs"], glyph, "glyphs")
            each(v["attachments"], layoutAttachment, "attachments")
            each(v["decorations"], decoration, "decorations")
        }
        return found
    }

    /// A text job's or text shape's links, attachments, runs and exclusions (and fonts, for a job).
    static func text(_ v: JSONValue, _ at: String, _ found: inout [String], limit: Int) {
        let prefix = at.isEmpty ? "" : at + "."
        for (name, known) in [("fonts", font), ("links", link), ("attachments", attachment), ("runs", run)] {
            guard case .array(let items)? = v[name] else { continue }
            for (i, item) in items.enumerated() {
                if i & 1023 == 1023 && BuildDeadline.hasPassed { return }
                guard case .object(let members) = item else { continue }
                for m in members where found.count < limit && !known.contains(m.key) {
                    found.append("\(prefix)\(name)[\(i)].\(m.key.prefix(64))")
                }
            }
        }
    }

    /// Every node of a scene, without recursion (trees of any depth), and its shape.
    static func scene(_ root: JSONValue?, _ found: inout [String], limit: Int) {
        guard let root else { return }
        var stack: [(JSONValue, String)] = [(root, "scene")]
        var visited = 0
        while let (n, at) = stack.popLast(), found.count < limit {
            // A job out of time stops here (what was found is reported; reading the job fails on its deadline).
            visited += 1
            if visited & 1023 == 0 && BuildDeadline.hasPassed { return }
            guard case .object(let members) = n else { continue }
            for m in members where found.count < limit && !node.contains(m.key) { found.append(at + "." + m.key.prefix(64)) }
            // A shape object without a known shape fails the job with an error naming what it has; members
            // beside a known shape are ignored, and reported.
            if case .object(let shapeMembers)? = n["shape"], shapeMembers.contains(where: { shape.contains($0.key) }) {
                for m in shapeMembers where found.count < limit && !shape.contains(m.key) {
                    found.append(at + ".shape." + m.key.prefix(64))
                }
                let s = n["shape"]!
                for (name, known) in [("glyphs", glyphsShape), ("text", textShape), ("mask", mask)] {
                    guard case .object(let inner)? = s[name] else { continue }
                    for m in inner where found.count < limit && !known.contains(m.key) {
                        found.append(at + ".shape.\(name)." + m.key.prefix(64))
                    }
                    if name == "glyphs", case .array(let gs)? = s[name]?["glyphs"] {
                        for (i, g) in gs.enumerated() {
                            guard case .object(let gm) = g else { continue }
                            for m in gm where found.count < limit && !glyph.contains(m.key) {
                                found.append(at + ".shape.glyphs.glyphs[\(i)]." + m.key.prefix(64))
                            }
                        }
                    }
                    if name == "text", let t = s[name] { text(t, at + ".shape.text", &found, limit: limit) }
                }
            }
            if case .array(let children)? = n["children"] {
                for (k, c) in children.enumerated().reversed() { stack.append((c, "\(at).children[\(k)]")) }
            }
        }
    }
}

extension JobRunner {
    /// Reports the members of `line`'s job that its format does not know (`JobMembers.unknown`): with
    /// `strict`, as the job's error; otherwise as one warning through `warn` naming them (the job is
    /// answered as if they were absent).
    ///
    /// - Throws: `JobError.invalid` naming the members, when `strict` is set.
    public func checkMembers(_ line: JobLine) throws(JobError) {
        let unknown = JobMembers.unknown(in: line.value)
        guard !unknown.isEmpty else { return }
        let list = unknown.joined(separator: ", ")
        let plural = unknown.count > 1
        if strict {
            throw .invalid(field: list, problem: "\(plural ? "are not members" : "is not a member") of this job's format (--strict)")
        }
        warn?("job \(line.idJSON.prefix(200)): unknown member\(plural ? "s" : "") \(list) ignored")
    }
}
