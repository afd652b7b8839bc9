import InkGeometry
import InkHit
import InkFreeType

/// One `ink-hit query` glyph job, parsed and validated (see DESIGN.md, "Command-line tool").
///
/// All positions are layout px (y-down, glyph origin on the baseline); `transform` maps layout → view;
/// `radius` and `points` are view px.
public struct GlyphJob: Sendable {
    public struct FontRef: Sendable, Hashable {
        public var path: String
        public var index: Int
        public init(path: String, index: Int = 0) { self.path = path; self.index = index }
    }
    public struct Glyph: Sendable {
        public var font: Int
        public var id: UInt32
        public var x: Double, y: Double
        /// px per em; the job's `size` unless the glyph overrides it.
        public var size: Double
    }
    /// The job's id as JSON text (string or number), echoed in every answer.
    public var idJSON: String
    public var fonts: [FontRef]
    public var glyphs: [Glyph]
    public var transform: AffineTransform
    public var radius: Double
    public var points: [Point]
}

/// A job that cannot be answered as asked: the message says why (and where).
public struct JobError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ m: String) { message = m }
    public var description: String { message }
}

extension GlyphJob {
    /// Parses and validates a job object. `idJSON` is read first so errors can name the job.
    public init(_ v: JSONValue, limits: JobLimits = JobLimits()) throws(JobError) {
        guard case .object = v else { throw JobError("a job must be a JSON object, got \(v.typeName)") }
        idJSON = try Self.id(of: v)
        fonts = try Self.fonts(of: v, limits: limits)
        // Size.
        var size: Double? = nil
        if let sv = v["size"] { size = try Self.positive(sv, "size") }
        // Glyphs.
        guard let gv = v["glyphs"] else { throw JobError("missing \"glyphs\"") }
        guard case .array(let ga) = gv else { throw JobError("\"glyphs\" must be an array, got \(gv.typeName)") }
        guard ga.count <= limits.maxGlyphs else { throw JobError("more than \(limits.maxGlyphs) glyphs") }
        glyphs = []
        glyphs.reserveCapacity(ga.count)
        for (i, g) in ga.enumerated() {
            guard case .object = g else { throw JobError("glyphs[\(i)] must be an object, got \(g.typeName)") }
            let font = try Self.int(g["font"], "glyphs[\(i)].font", default: 0)
            guard font >= 0 && font < fonts.count else {
                throw JobError("glyphs[\(i)].font \(font) out of range (job has \(fonts.count) font(s))")
            }
            guard g["id"] != nil else { throw JobError("glyphs[\(i)].id missing") }
            let gid = try Self.int(g["id"], "glyphs[\(i)].id", default: 0)
            guard gid >= 0 && gid <= Int(UInt32.max) else { throw JobError("glyphs[\(i)].id \(gid) out of range") }
            let x = try Self.finite(g["x"], "glyphs[\(i)].x")
            let y = try Self.finite(g["y"], "glyphs[\(i)].y")
            var gs = size
            if let s = g["size"] { gs = try Self.positive(s, "glyphs[\(i)].size") }
            guard let gsize = gs else { throw JobError("glyphs[\(i)] has no size and the job has no \"size\"") }
            glyphs.append(Glyph(font: font, id: UInt32(gid), x: x, y: y, size: gsize))
        }
        transform = try Self.transform(of: v)
        radius = try Self.radius(of: v)
        points = try Self.points(of: v, limits: limits)
    }

    // MARK: Members shared by glyph and text jobs

    /// `"fonts"`: a non-empty array of `{"path", "index"}`.
    public static func fonts(of v: JSONValue, limits: JobLimits) throws(JobError) -> [FontRef] {
        guard let fv = v["fonts"] else { throw JobError("missing \"fonts\"") }
        guard case .array(let fa) = fv else { throw JobError("\"fonts\" must be an array, got \(fv.typeName)") }
        guard !fa.isEmpty else { throw JobError("\"fonts\" is empty") }
        guard fa.count <= limits.maxFonts else { throw JobError("more than \(limits.maxFonts) fonts") }
        var fonts: [FontRef] = []
        for (i, f) in fa.enumerated() {
            guard case .object = f else { throw JobError("fonts[\(i)] must be an object, got \(f.typeName)") }
            guard case .string(let path)? = f["path"] else { throw JobError("fonts[\(i)].path must be a string") }
            fonts.append(FontRef(path: path, index: try int(f["index"], "fonts[\(i)].index", default: 0)))
        }
        return fonts
    }

    /// `"transform"`: optional, 6 finite numbers, invertible (identity when absent or null).
    public static func transform(of v: JSONValue) throws(JobError) -> AffineTransform {
        guard let tv = v["transform"], tv != .null else { return .identity }
        guard case .array(let ta) = tv, ta.count == 6 else { throw JobError("\"transform\" must be an array of 6 numbers") }
        var m: [Double] = []
        for (i, e) in ta.enumerated() { m.append(try finite(e, "transform[\(i)]")) }
        let t = AffineTransform(m)!
        guard t.inverted() != nil else { throw JobError("\"transform\" \(t) is singular: it collapses the text to a line or point") }
        return t
    }

    /// `"radius"`: optional, finite and ≥ 0 (0 when absent or null).
    public static func radius(of v: JSONValue) throws(JobError) -> Double {
        guard let rv = v["radius"], rv != .null else { return 0 }
        let r = try finite(rv, "radius")
        guard r >= 0 else { throw JobError("\"radius\" must be ≥ 0 (got \(r))") }
        return r
    }

    /// `"points"`: `[x, y]` pairs of numbers. JSON numbers beyond Double's range parse as ±∞: such a point
    /// is a miss (DESIGN.md).
    public static func points(of v: JSONValue, limits: JobLimits) throws(JobError) -> [Point] {
        guard let pv = v["points"] else { throw JobError("missing \"points\"") }
        guard case .array(let pa) = pv else { throw JobError("\"points\" must be an array, got \(pv.typeName)") }
        guard pa.count <= limits.maxPoints else { throw JobError("more than \(limits.maxPoints) points") }
        var points: [Point] = []
        points.reserveCapacity(pa.count)
        for (i, p) in pa.enumerated() {
            guard case .array(let xy) = p, xy.count == 2,
                  case .number(let x, _) = xy[0], case .number(let y, _) = xy[1] else {
                throw JobError("points[\(i)] must be [x, y] with two numbers")
            }
            points.append(Point(x, y))
        }
        return points
    }

    public static func id(of v: JSONValue) throws(JobError) -> String {
        guard let idv = v["id"] else { throw JobError("missing \"id\"") }
        switch idv {
        case .string, .number: return idv.serialized
        default: throw JobError("\"id\" must be a string or a number, got \(idv.typeName)")
        }
    }

    public static func finite(_ v: JSONValue?, _ name: String) throws(JobError) -> Double {
        guard let v else { throw JobError("\(name) missing") }
        guard case .number(let d, let text) = v else { throw JobError("\(name) must be a number, got \(v.typeName)") }
        guard d.isFinite else { throw JobError("\(name) \(text) is out of range") }
        return d
    }

    public static func positive(_ v: JSONValue, _ name: String) throws(JobError) -> Double {
        let d = try finite(v, name)
        guard d > 0 else { throw JobError("\(name) must be > 0 (got \(d))") }
        return d
    }

    public static func int(_ v: JSONValue?, _ name: String, default def: Int) throws(JobError) -> Int {
        guard let v, v != .null else { return def }
        guard case .number(let d, let text) = v else { throw JobError("\(name) must be an integer, got \(v.typeName)") }
        guard d == d.rounded(), abs(d) < 9e15 else { throw JobError("\(name) must be an integer (got \(text))") }
        return Int(d)
    }
}
