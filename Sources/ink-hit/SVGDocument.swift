#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry

/// A minimal SVG writer for the CLI's pictures (view px, y-down).
struct SVGDocument {
    var width: Double, height: Double
    var body: [String] = []
    init(width: Double, height: Double) { self.width = width; self.height = height }
    mutating func add(_ s: String) { body.append(s) }

    var text: String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(formatNumber(width, decimals: 1))\" height=\"\(formatNumber(height, decimals: 1))\" viewBox=\"0 0 \(formatNumber(width, decimals: 1)) \(formatNumber(height, decimals: 1))\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + body.joined(separator: "\n") + "\n</svg>\n"
    }

    struct WriteError: Error, CustomStringConvertible { var description: String }

    func write(to path: String) throws {
        guard let f = fopen(path, "wb") else { throw WriteError(description: String(cString: strerror(errno))) }
        defer { fclose(f) }
        var t = text
        let ok = t.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count }
        if !ok { throw WriteError(description: "short write") }
    }
}

func xmlEscape(_ s: String) -> String {
    var o = ""
    for c in s {
        switch c {
        case "&": o += "&amp;"
        case "<": o += "&lt;"
        case ">": o += "&gt;"
        case "\"": o += "&quot;"
        default: o.append(c)
        }
    }
    return o
}
