import CInkHit
import Foundation
import Testing

/// The calling thread's message of the last failed call.
var lastError: String { String(cString: inkhit_last_error()) }

/// Expects INKHIT_OK, recording the message otherwise.
func ok(_ status: inkhit_status, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(status == inkhit_status(INKHIT_OK), "\(String(cString: inkhit_status_name(status))): \(lastError)",
            sourceLocation: sourceLocation)
}

/// Expects `want` and a message containing `needle`.
func fails(_ status: inkhit_status, _ want: Int, _ needle: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(status == inkhit_status(want), "got \(String(cString: inkhit_status_name(status))): \(lastError)",
            sourceLocation: sourceLocation)
    #expect(lastError.contains(needle), "\(lastError)", sourceLocation: sourceLocation)
}

let identity = inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

/// The curve-exact fixtures of InkJobsTests (Tests/InkJobsTests/Fixtures/README.md).
enum Fixtures {
    static let dir = Header.repository + "/Tests/InkJobsTests/Fixtures"
    static func lines(_ name: String) throws -> [String] {
        try String(contentsOfFile: dir + "/" + name, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}

/// A font handle loaded from `path` (released by the caller).
func loadFont(_ path: String, faceIndex: Int32 = 0) throws -> inkhit_font {
    var font: inkhit_font?
    let status = inkhit_font_from_path(path, faceIndex, &font)
    guard status == inkhit_status(INKHIT_OK), let font else {
        throw CFailure(message: "\(path): \(lastError) (run ./inkhit deps to install the test fonts)")
    }
    return font
}

struct CFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
