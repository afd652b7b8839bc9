import InkHit

/// A JSON value of a job line (RFC 8259), as `JSONParser` reads it. Kept here so the job format does not
/// depend on Foundation and fuzzers drive the same parser as the CLI.
///
/// Not `indirect`: arrays and objects already hold their elements out of line, and boxing every value
/// as well made a 64 MiB line of `[0,0],…` take 2.3 GB parsed (1.65 GB without the boxes).
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number as parsed to Double (±∞ beyond its range), plus its source text (to echo ids exactly).
    case number(Double, String)
    /// A string (invalid UTF-8 repaired to U+FFFD).
    case string(String)
    /// An array.
    case array([JSONValue])
    /// Members in source order; a duplicated key keeps its last value on lookup.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Equatable {
        /// The member's name.
        public var key: String
        /// Its value.
        public var value: JSONValue
        /// A member from its name and value.
        public init(key: String, value: JSONValue) { self.key = key; self.value = value }
    }

    /// Equal kinds with equal contents; numbers compare by value, not by their text.
    public static func == (l: JSONValue, r: JSONValue) -> Bool {
        switch (l, r) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a, _), .number(let b, _)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    /// Member lookup (last one wins); nil when absent or not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let m) = self else { return nil }
        return m.last(where: { $0.key == key })?.value
    }

    /// `s` as a JSON string literal (quotes, backslashes and control characters escaped).
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// The value as compact JSON text.
    public var serialized: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(_, let text): return text
        case .string(let s): return JSONValue.quoted(s)
        case .array(let a): return "[" + a.map(\.serialized).joined(separator: ",") + "]"
        case .object(let m): return "{" + m.map { JSONValue.quoted($0.key) + ":" + $0.value.serialized }.joined(separator: ",") + "}"
        }
    }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// Why a line is not valid JSON: a message and the byte offset.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Byte offset in the line where it went wrong.
    public var offset: Int
    /// "invalid JSON at byte N: message".
    public var description: String { "invalid JSON at byte \(offset): \(message)" }

    /// The message of a parse stopped by the build deadline (`BuildDeadline`, the job's time limit): a long
    /// line is read within the job's time like the rest of its work.
    public static let pastDeadline = "the time limit passed while the line was read"
}

/// A small JSON reader for job lines (RFC 8259), over UTF-8 bytes, with bounded depth.
public enum JSONParser {
    /// Deepest nesting accepted.
    public static let maxDepth = 64

    /// Parses one JSON value filling the whole of `text` (surrounding white space allowed).
    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        var t = text
        var result: Result<JSONValue, JSONError> = .failure(JSONError(message: "empty", offset: 0))
        t.withUTF8 { buf in
            do throws(JSONError) { result = .success(try parse(buf)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Parses one JSON value filling the whole of `bytes` (UTF-8).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
        var r = Reader(b: bytes, i: 0)
        r.skipSpace()
        let v = try r.value(depth: 0)
        r.skipSpace()
        if r.i != bytes.count { throw JSONError(message: "unexpected text after the value", offset: r.i) }
        return v
    }

    struct Reader {
        let b: UnsafeBufferPointer<UInt8>
        var i: Int
        /// The offset past which the deadline is asked again (every 256 KiB read).
        var nextCheck = 1 << 18

        mutating func skipSpace() {
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
        }
        func fail(_ m: String) -> JSONError { JSONError(message: m, offset: i) }

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            guard depth < JSONParser.maxDepth else { throw fail("nested deeper than \(JSONParser.maxDepth)") }
            if i >= nextCheck {
                nextCheck = i + 1 << 18
                if BuildDeadline.hasPassed { throw fail(JSONError.pastDeadline) }
            }
            guard i < b.count else { throw fail("unexpected end of input") }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [JSONValue.Member] = []
                skipSpace()
                if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                    let k = try string()
                    skipSpace()
                    guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    i += 1
                    skipSpace()
                    members.append(JSONValue.Member(key: k, value: try value(depth: depth + 1)))
                    skipSpace()
                    guard i < b.count else { throw fail("unterminated object") }
                    if b[i] == UInt8(ascii: ",") { i += 1; continue }
                    if b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [JSONValue] = []
                skipSpace()
                if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < b.count else { throw fail("unterminated array") }
                    if b[i] == UInt8(ascii: ",") { i += 1; continue }
                    if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw fail("expected ',' or ']'")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                return try number()
            }
        }

        mutating func literal(_ s: StaticString) throws(JSONError) {
            let n = s.utf8CodeUnitCount
            guard i + n <= b.count else { throw fail("unexpected end of input") }
            for k in 0..<n where b[i + k] != s.utf8Start[k] { throw fail("invalid literal") }
            i += n
        }

        mutating func number() throws(JSONError) -> JSONValue {
            let start = i
            if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
            func digits(_ r: inout Reader) -> Int {
                let s = r.i
                while r.i < r.b.count, r.b[r.i] >= 0x30, r.b[r.i] <= 0x39 { r.i += 1 }
                return r.i - s
            }
            let intStart = i
            let nd = digits(&self)
            guard nd > 0 else { throw fail("invalid value") }
            if nd > 1 && b[intStart] == UInt8(ascii: "0") { throw fail("leading zero in number") }
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                guard digits(&self) > 0 else { throw fail("expected digits after '.'") }
            }
            if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                guard digits(&self) > 0 else { throw fail("expected exponent digits") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            guard let d = Double(text) else { throw JSONError(message: "number out of range", offset: start) }
            return .number(d, text)
        }

        mutating func hex4() throws(JSONError) -> UInt32 {
            guard i + 4 <= b.count else { throw fail("short \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = b[i]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: throw fail("bad hex digit in \\u escape")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        mutating func string() throws(JSONError) -> String {
            i += 1 // opening quote
            var bytes: [UInt8] = []
            while true {
                guard i < b.count else { throw fail("unterminated string") }
                let c = b[i]
                if c == UInt8(ascii: "\"") { i += 1; break }
                if c < 0x20 { throw fail("control character in string") }
                if c != UInt8(ascii: "\\") { bytes.append(c); i += 1; continue }
                i += 1
                guard i < b.count else { throw fail("unterminated escape") }
                let e = b[i]; i += 1
                switch e {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var u = try hex4()
                    if u >= 0xD800 && u < 0xDC00 {
                        // A high surrogate must be followed by \u and a low surrogate.
                        if i + 6 <= b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                            i += 2
                            let lo = try hex4()
                            guard lo >= 0xDC00 && lo < 0xE000 else { throw fail("unpaired surrogate") }
                            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                        } else { throw fail("unpaired surrogate") }
                    } else if u >= 0xDC00 && u < 0xE000 { throw fail("unpaired surrogate") }
                    guard let s = Unicode.Scalar(u) else { throw fail("invalid code point") }
                    bytes.append(contentsOf: Array(String(s).utf8))
                default: throw fail("invalid escape")
                }
            }
            // Invalid UTF-8 is repaired with U+FFFD by String(decoding:).
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
