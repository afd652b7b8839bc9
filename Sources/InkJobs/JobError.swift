import InkGeometry
import InkFreeType
import InkText
import InkScene

/// Why a job cannot be answered as asked. Each case carries what went wrong, with the error of the layer
/// below as its payload; `description` is the one place a message is made (the `"error"` of the job's
/// error line).
public indirect enum JobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line is not valid JSON.
    case invalidJSON(JSONError)
    /// The line is longer than `JobLimits.maxLineBytes`.
    case lineTooLong(bytes: Int, limit: Int)
    /// The line is JSON but not an object.
    case notAnObject(got: String)
    /// A required member is absent (`field` as the message names it: `"glyphs"` quoted, or `glyphs[3].id`).
    case missing(field: String)
    /// A member has the wrong JSON type.
    case wrongType(field: String, expected: String, got: String)
    /// A member has the right type but an unusable value; `problem` says why.
    case invalid(field: String, problem: String)
    /// More items than a count limit allows (`what`: "glyphs", "points", "fonts").
    case tooMany(what: String, limit: Int)
    /// The job's fonts hold more than `JobLimits.maxFontBytesPerJob` bytes.
    case fontBytes(limit: Int)
    /// Placing glyph `glyph` took the job's distinct shapes beyond `JobLimits.maxShapeBytesPerJob` bytes.
    case shapeBytes(glyph: Int, limit: Int)
    /// The text is longer than the job's text limit (UTF-16 code units).
    case textLength(limit: Int)
    /// A scene job's text nodes hold more UTF-16 code units together than the job's text limit (it counts
    /// every text node of the job); `node` is the node whose text went over it.
    case sceneTextLength(limit: Int, node: String)
    /// The job ran longer than `JobLimits.maxSecondsPerJob`; `during` says what it was doing.
    case timeLimit(seconds: Double, during: String)
    /// A font of the job could not be loaded.
    case font(path: String, faceIndex: Int, FontError)
    /// Glyph `index` of a glyph job could not be placed.
    case glyph(index: Int, FontError)
    /// A text job could not be laid out.
    case text(TextError)
    /// The job's output would go beyond `JobLimits.maxOutputBytesPerJob` bytes; `written` lines were written.
    case outputBytes(limit: Int, written: Int)
    /// A string (id, tag, path) is longer than `JobLimits.maxStringBytes`.
    case stringTooLong(field: String, bytes: Int, limit: Int)
    /// A node of a scene job is wrong; the payload says how.
    case node(id: String, JobError)
    /// A scene job's scene could not be built or indexed.
    case scene(SceneError)
    /// A file the job writes (`render`'s SVG) could not be written; `message` says why.
    case io(String)
    /// The subcommand does not take this kind of job (`message` says what it takes).
    case wrongKind(String)

    /// A sentence for a user, naming the member, glyph or limit.
    public var description: String {
        switch self {
        case .invalidJSON(let e): return e.description
        case .lineTooLong(let n, let l): return "the line has \(n) bytes, more than the limit of \(l)"
        case .notAnObject(let got): return "a job must be a JSON object, got \(got)"
        case .missing(let f): return "missing \(f)"
        case .wrongType(let f, let expected, let got): return "\(f) must be \(expected), got \(got)"
        case .invalid(let f, let problem): return "\(f) \(problem)"
        case .tooMany(let what, let l): return "more than \(l) \(what)"
        case .fontBytes(let l): return "the job's fonts have more than \(l) bytes (the limit)"
        case .shapeBytes(let g, let l):
            return "glyphs[\(g)]: the job's glyph shapes need more than \(l) bytes "
                + "(the limit; each distinct glyph and size class has its own shape)"
        case .textLength(let l): return "the text has more than \(l) UTF-16 code units (the limit)"
        case .sceneTextLength(let l, let node):
            return "the scene's text nodes have more than \(l) UTF-16 code units together (the limit; at node "
                + "\(JSONValue.quoted(String(node.prefix(200)))))"
        case .timeLimit(let s, let during):
            return "the job took more than \(DecimalText.short(s)) s (the limit) while \(during)"
        case .font(let path, let face, let e): return "font \(JSONValue.quoted(path)) face \(face): \(e)"
        case .glyph(let i, .placement(let e)): return "glyphs[\(i)]: \(e.reason)"
        case .glyph(let i, let e): return "glyphs[\(i)]: \(e)"
        case .text(let e): return e.description
        case .outputBytes(let l, let n):
            return "the job's output would be more than \(l) bytes (the limit); it stopped after \(n) lines"
        case .stringTooLong(let f, let n, let l): return "\(f) has \(n) bytes, more than the limit of \(l)"
        case .node(let id, let e): return "node \(JSONValue.quoted(String(id.prefix(200)))): \(e)"
        case .scene(let e): return e.description
        case .io(let m): return m
        case .wrongKind(let m): return m
        }
    }
}
