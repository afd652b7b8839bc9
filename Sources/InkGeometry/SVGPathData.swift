/// Why SVG path data could not be read: a message and the byte offset.
public struct SVGPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Byte offset in the path data.
    public var offset: Int
    /// "path data at byte N: message".
    public var description: String { "path data at byte \(offset): \(message)" }
}

/// SVG path data (the `d` attribute) as outline elements: `M L H V C S Q T Z` in upper case (absolute) and
/// lower case (relative), numbers in any SVG form (`1e3`, `.5`, `-1-2`). Arcs (`A`) are refused with an
/// error rather than approximated silently.
public enum SVGPathData {
    /// Most elements one path may have (a bound for untrusted input).
    public static let maxElements = 1_000_000

    /// The elements of `d`.
    ///
    /// - Throws: `SVGPathError` naming the byte where the data stops making sense (an unknown command, a
    ///   missing or non-finite number, a path not starting with a move, an arc, too many elements).
    public static func elements(_ d: String) throws(SVGPathError) -> [PathElement] {
        var reader = Reader(bytes: Array(d.utf8))
        while try reader.nextCommand() {
            try reader.element()
        }
        return reader.out
    }

    /// A cursor over path data: the byte it is at, the command in force, the pen, and the elements so far.
    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        var out: [PathElement] = []
        var current = Point.zero, start = Point.zero
        /// The last cubic's second control point and the last quadratic's control point, for `S` and `T`.
        var lastControl: Point? = nil, lastQuad: Point? = nil
        /// The command letter in force (repeated when numbers follow without one); 0 before the first.
        var command: UInt8 = 0
        /// Where the current command (or its repeat) starts.
        var at = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSeparators() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x2C { i += 1 }
        }

        mutating func number() throws(SVGPathError) -> Double {
            skipSeparators()
            let begin = i
            if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
            var digits = 0
            while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1; digits += 1 }
            if i < bytes.count, bytes[i] == 0x2E {
                i += 1
                while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1; digits += 1 }
            }
            guard digits > 0 else { throw SVGPathError(message: "a number was expected", offset: begin) }
            if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
                var j = i + 1
                if j < bytes.count, bytes[j] == 0x2B || bytes[j] == 0x2D { j += 1 }
                var e = 0
                while j < bytes.count, bytes[j] >= 0x30 && bytes[j] <= 0x39 { j += 1; e += 1 }
                if e > 0 { i = j }
            }
            guard let v = Double(String(decoding: bytes[begin..<i], as: UTF8.self)), v.isFinite else {
                throw SVGPathError(message: "the number is out of range", offset: begin)
            }
            return v
        }

        mutating func point(_ relative: Bool) throws(SVGPathError) -> Point {
            let x = try number(), y = try number()
            return relative ? Point(current.x + x, current.y + y) : Point(x, y)
        }

        /// Moves to the next command (a letter, or a repeat of the one in force when a number follows); false at
        /// the end of the data.
        mutating func nextCommand() throws(SVGPathError) -> Bool {
            skipSeparators()
            if i >= bytes.count { return false }
            let b = bytes[i]
            at = i
            let isLetter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            if isLetter {
                command = b
                i += 1
            } else if command == 0 || command == 0x5A || command == 0x7A {
                throw SVGPathError(message: "a command letter was expected", offset: i)
            }
            guard out.count < maxElements else { throw SVGPathError(message: "more than \(maxElements) elements", offset: at) }
            if out.isEmpty && command != 0x4D && command != 0x6D {
                throw SVGPathError(message: "path data must start with a move (M)", offset: at)
            }
            return true
        }

        /// Reads the command in force's numbers and appends its element.
        mutating func element() throws(SVGPathError) {
            let relative = command >= 0x61
            var control: Point? = nil, quad: Point? = nil
            switch command | 0x20 {
            case 0x6D:                                            // m: move, then implicit lines
                let p = try point(relative)
                out.append(.move(p)); current = p; start = p
                command = relative ? 0x6C : 0x4C
            case 0x6C:                                            // l
                let p = try point(relative)
                out.append(.line(p)); current = p
            case 0x68:                                            // h
                let x = try number()
                current = Point(relative ? current.x + x : x, current.y); out.append(.line(current))
            case 0x76:                                            // v
                let y = try number()
                current = Point(current.x, relative ? current.y + y : y); out.append(.line(current))
            case 0x63:                                            // c
                let c1 = try point(relative), c2 = try point(relative), p = try point(relative)
                out.append(.cubic(control1: c1, control2: c2, to: p)); current = p; control = c2
            case 0x73:                                            // s: first control mirrors the last
                let c1 = lastControl.map { Point(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                let c2 = try point(relative), p = try point(relative)
                out.append(.cubic(control1: c1, control2: c2, to: p)); current = p; control = c2
            case 0x71:                                            // q
                let c = try point(relative), p = try point(relative)
                out.append(.quad(control: c, to: p)); current = p; quad = c
            case 0x74:                                            // t
                let c = lastQuad.map { Point(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                let p = try point(relative)
                out.append(.quad(control: c, to: p)); current = p; quad = c
            case 0x7A:                                            // z
                out.append(.close); current = start
            case 0x61:
                throw SVGPathError(message: "arcs (A) are not supported; draw them as curves", offset: at)
            default:
                throw SVGPathError(message: "unknown command \"\(String(UnicodeScalar(command)))\"", offset: at)
            }
            lastControl = control; lastQuad = quad
        }
    }
}
