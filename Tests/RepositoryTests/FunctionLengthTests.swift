import Foundation
import InkTestSupport
import Testing

/// No Swift function, initializer, accessor or computed property in Sources is longer than 80 lines: what
/// `scripts/long-functions.sh 80` lists (by counting braces from each declaration) must be nothing.
struct FunctionLengthTests {
    @Test func noFunctionInSourcesIsOverEightyLines() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [SourceScan.root + "/scripts/long-functions.sh", "80"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let listed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "scripts/long-functions.sh failed: \(problems)")
        #expect(listed.isEmpty, "functions over 80 lines (split them):\n\(listed)")
    }

    /// The scan finds long functions at all: at 30 lines it lists some (a script that lists nothing would pass
    /// the test above whatever the code).
    @Test func theScanFindsLongFunctions() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [SourceScan.root + "/scripts/long-functions.sh", "30"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let listed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(listed.split(separator: "\n").count >= 20, "at 30 lines: \(listed)")
    }
}
