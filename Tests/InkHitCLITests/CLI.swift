import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkTestSupport

/// Runs the built `ink-hit` binary as a separate process (Foundation's `Process` with pipes).
enum CLI {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// The `ink-hit` built next to this test bundle (`swift build --build-tests` builds it into the same
    /// `.build/<config>` directory), or the one named by `INK_HIT`.
    static let binary: Result<String, Failure> = {
        let fm = FileManager.default
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["INK_HIT"] { candidates.append(env) }
        var dirs: [String] = []
        if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() { dirs.append(exe.deletingLastPathComponent().path) }
        if let arg0 = CommandLine.arguments.first { dirs.append(URL(fileURLWithPath: arg0).deletingLastPathComponent().path) }
        for b in Bundle.allBundles where b.bundlePath.hasSuffix(".xctest") { dirs.append(URL(fileURLWithPath: b.bundlePath).deletingLastPathComponent().path) }
        candidates += dirs.map { $0 + "/ink-hit" }
        for c in candidates where fm.isExecutableFile(atPath: c) { return .success(c) }
        return .failure(Failure("""
            the ink-hit binary was not found next to the test bundle (looked at \(candidates)); \
            build it with `swift build --build-tests` (or set INK_HIT to its path)
            """))
    }()

    static func path() throws -> String { try binary.get() }

    /// What a run gave.
    struct Output {
        var status: Int32
        /// True when the process was killed by a signal (`status` is then the signal number).
        var signaled: Bool
        var stdout: Data
        var stderr: Data
        var out: String { String(decoding: stdout, as: UTF8.self) }
        var err: String { String(decoding: stderr, as: UTF8.self) }
        /// Standard output split into lines (the final newline ends the last line).
        var lines: [String] {
            var l = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if l.last == "" { l.removeLast() }
            return l
        }
        var summary: String { "status \(status)\(signaled ? " (signal)" : ""), stderr: \(err.prefix(500))" }
    }

    /// Data read by a GCD thread; `done` once the pipe is closed.
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var _data = Data(), _done = false
        var data: Data { lock.withLock { _data } }
        var done: Bool { lock.withLock { _done } }
        func finish(_ d: Data) { lock.withLock { _data = d; _done = true } }
    }

    /// Waits (suspending, never blocking a thread of the test runner's pool) until `condition` holds or
    /// `deadline` passes; returns whether it holds.
    static func wait(until deadline: Date, _ condition: () -> Bool) async throws -> Bool {
        while !condition() {
            if Date() >= deadline { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Runs `ink-hit args`, feeding `stdin` (nothing: /dev/null), optionally through `launcher` (e.g.
    /// `["/usr/bin/prlimit", "--as=…"]`). Fails if it runs longer than `timeout` seconds (then it is killed).
    /// Pipes are read and written on GCD threads; the test itself only suspends.
    static func run(_ args: [String], stdin: Data? = nil, launcher: [String] = [], timeout: Double = 240) async throws -> Output {
        let bin = try path()
        _ = ignoreSIGPIPE
        let p = Process()
        if let first = launcher.first {
            p.executableURL = URL(fileURLWithPath: first)
            p.arguments = Array(launcher.dropFirst()) + [bin] + args
        } else {
            p.executableURL = URL(fileURLWithPath: bin)
            p.arguments = args
        }
        let outPipe = Pipe(), errPipe = Pipe()
        p.standardOutput = outPipe
        p.standardError = errPipe
        let inPipe: Pipe? = stdin == nil ? nil : Pipe()
        p.standardInput = inPipe ?? FileHandle.nullDevice
        try p.run()
        let out = Box(), err = Box()
        let outRead = outPipe.fileHandleForReading, errRead = errPipe.fileHandleForReading
        DispatchQueue.global().async { out.finish(outRead.readDataToEndOfFile()) }
        DispatchQueue.global().async { err.finish(errRead.readDataToEndOfFile()) }
        if let inPipe, let stdin {
            let w = inPipe.fileHandleForWriting
            DispatchQueue.global().async {
                // A process that exits early closes its end: the write then fails (SIGPIPE is ignored).
                try? w.write(contentsOf: stdin)
                try? w.close()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        if try await !wait(until: deadline, { !p.isRunning }) {
            p.terminate()
            throw Failure("ink-hit \(args.prefix(3)) ran longer than \(timeout) s and was killed")
        }
        p.waitUntilExit()
        guard try await wait(until: Date().addingTimeInterval(60), { out.done && err.done }) else {
            throw Failure("ink-hit \(args.prefix(3)): its output was not closed")
        }
        return Output(status: p.terminationStatus, signaled: p.terminationReason == .uncaughtSignal,
                      stdout: out.data, stderr: err.data)
    }

    /// Ignore SIGPIPE in the test process, so writing to a child that has exited is an error, not death.
    static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()
}

/// A scratch directory with a short path (`/tmp/ihc-XXXXXXXX`), removed by `remove()`. Holds `f`, a
/// symlink to DejaVu Sans, so short jobs fit under a small `--max-line-bytes`.
struct Scratch {
    let path: String
    init() throws {
        path = "/tmp/ihc-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path + "/f", withDestinationPath: TestFonts.sans)
    }
    var font: String { path + "/f" }
    func file(_ name: String, _ contents: String) throws -> String { try file(name, Data(contents.utf8)) }
    func file(_ name: String, _ contents: Data) throws -> String {
        let p = path + "/" + name
        guard FileManager.default.createFile(atPath: p, contents: contents) else { throw CLI.Failure("cannot write \(p)") }
        return p
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Job lines for the tests (fonts from Debian packages, see TestFonts).
enum Jobs {
    static func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }

    static func points(_ pts: [(Double, Double)]) -> String {
        "[" + pts.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"
    }
    /// A grid of points from (x0, y0) with `step`, `nx` × `ny`.
    static func grid(_ x0: Double, _ y0: Double, step: Double, _ nx: Int, _ ny: Int) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        for j in 0..<ny { for i in 0..<nx { out.append((x0 + Double(i) * step, y0 + Double(j) * step)) } }
        return out
    }

    /// An "o" (glyph 82 of DejaVu Sans) and an "e" (72) at 40 px, radius 2: the README's example job
    /// grown by a glyph.
    static func glyph(_ id: String, font: String = TestFonts.sans, points pts: [(Double, Double)]) -> String {
        #"{"id":\#(quoted(id)),"fonts":[{"path":\#(quoted(font))}],"size":40,"glyphs":[{"font":0,"id":82,"x":0,"y":40},{"font":0,"id":72,"x":24,"y":40}],"radius":2,"points":\#(points(pts))}"#
    }

    /// A text job with a link, an attachment and a wrap width.
    static func text(_ id: String, _ text: String = "Tap the link \u{FFFC} or the ink, not the gap.", font: String = TestFonts.sans,
                     extra: String = "", points pts: [(Double, Double)]) -> String {
        let at = text.utf16.firstIndex(of: 0xFFFC).map { text.utf16.distance(from: text.utf16.startIndex, to: $0) }
        let attachment = at.map { #","attachments":[{"at":\#($0),"width":18,"ascent":14,"descent":3,"tag":"img"}]"# } ?? ""
        let escaped = quoted(text).replacingOccurrences(of: "\u{FFFC}", with: "\\ufffc")
        return #"{"id":\#(quoted(id)),"text":\#(escaped),"fonts":[{"path":\#(quoted(font))},{"path":\#(quoted(TestFonts.cjk))}],"size":20,"width":200,"links":[{"start":8,"end":12,"tag":"L"}]\#(attachment),"radius":1.5\#(extra),"points":\#(points(pts))}"#
    }

    /// A JSON number as JSONSerialization hands it over (Int, Double or NSNumber).
    static func number(_ v: Any?) -> Double? { jsonNumber(v) }

    /// Parses one output line as a JSON object.
    static func object(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let v = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(v as? [String: Any], "not a JSON object: \(line.prefix(300))", sourceLocation: sourceLocation)
    }
}

/// Counts the elements of an SVG document by name, through FoundationXML's parser (so the file must be
/// well-formed XML); a subclass reads more through `started` and `ended`.
class SVGCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    var root: String?
    var error: Error?

    static func parse(_ data: Data) -> SVGCounter { SVGCounter().run(data) }

    /// Parses `data` into this reader.
    func run(_ data: Data) -> Self {
        let parser = XMLParser(data: data)
        parser.delegate = self
        if !parser.parse() { error = parser.parserError ?? CLI.Failure("XML parse failed") }
        return self
    }

    /// An element opened (after it was counted).
    func started(_ name: String, _ attributes: [String: String]) {}
    /// An element closed.
    func ended(_ name: String) {}

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = elementName }
        counts[elementName, default: 0] += 1
        started(elementName, attributes)
    }
    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        ended(elementName)
    }
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
}
