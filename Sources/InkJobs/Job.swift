import InkGeometry

/// One `ink-hit query` job of any kind, parsed and validated: the one place a job line's kind is decided.
/// The runner, `ink-hit render` and `ink-hit bench` switch over it instead of asking the line again.
///
/// The kind follows the line's members: `"scene"` makes a scene job; `"text"` without `"glyphs"` a text
/// job; anything else a glyph job (whose parser then names what is missing).
public enum Job: Sendable {
    /// A glyph job (`"glyphs"`): placed glyphs answered by glyph index.
    case glyph(GlyphJob)
    /// A text job (`"text"`): laid out first, answered by character.
    case text(TextJob)
    /// A scene job (`"scene"`): a node tree answered by node.
    case scene(SceneJob)

    /// What a job line's members make it, before it is parsed.
    public enum Kind: String, Sendable {
        /// `"glyphs"` (or neither `"text"` nor `"scene"`).
        case glyph
        /// `"text"` and no `"glyphs"` or `"scene"`.
        case text
        /// `"scene"`.
        case scene

        /// The kind of the job object `value` (only its member names are read).
        public init(of value: JSONValue) {
            if value["scene"] != nil { self = .scene }
            else if value["text"] != nil && value["glyphs"] == nil { self = .text }
            else { self = .glyph }
        }
    }

    /// Parses and validates `value` as the job its members make it (see ``Kind``).
    ///
    /// - Throws: `JobError` from that kind's parser.
    public init(_ value: JSONValue, limits: JobLimits = JobLimits()) throws(JobError) {
        switch Kind(of: value) {
        case .scene: self = .scene(try SceneJob(value, limits: limits))
        case .text: self = .text(try TextJob(value, limits: limits))
        case .glyph: self = .glyph(try GlyphJob(value, limits: limits))
        }
    }

    /// The job's kind.
    public var kind: Kind {
        switch self {
        case .glyph: .glyph
        case .text: .text
        case .scene: .scene
        }
    }

    /// The job's id as JSON text, echoed in every answer.
    public var idJSON: String {
        switch self {
        case .glyph(let j): j.idJSON
        case .text(let j): j.idJSON
        case .scene(let j): j.idJSON
        }
    }

    /// The touch radius (view px for glyph and text jobs, root px for scene jobs; ≥ 0).
    public var radius: Double {
        switch self {
        case .glyph(let j): j.radius
        case .text(let j): j.radius
        case .scene(let j): j.radius
        }
    }

    /// The query points (view px for glyph and text jobs, root px for scene jobs).
    public var points: [Point] {
        switch self {
        case .glyph(let j): j.points
        case .text(let j): j.points
        case .scene(let j): j.points
        }
    }
}

extension JobLine {
    /// The line's kind, from its member names (see ``Job/Kind``).
    public var kind: Job.Kind { Job.Kind(of: value) }
}
