// Structure-aware fuzzer for scene jobs: the input bytes are decoded (`ByteReader`) into one `ink-hit query`
// scene job — a tree of nodes with large bounds (up to the ±1e9 px range), scales up to 1e6, every shape
// (boxes, round rects, ellipses, SVG paths of many big curves, alpha masks up to 4096 × 4096 drawn from a
// few pattern bytes, glyph runs and texts under every hole policy, zero-size bounds) — and run through
// `JobRunner` as the CLI runs it, followed by a small good job. Invariants: those of every job line
// (`JobChecks`), the good job's answers unchanged by the hostile one before it, and the job held to its
// deadline: no job takes more than its time limit plus 1 s (libFuzzer's -timeout catches hangs, its
// -rss_limit_mb / -malloc_limit_mb any allocation beyond 2 GB). Seeds: written by the fuzzer itself
// (INKHIT_FUZZ_WRITE_SEEDS=DIR), one per shape family.

#if canImport(Glibc)
import Glibc
#endif
import InkGeometry
import InkHit
import InkJobs

@_cdecl("LLVMFuzzerTestOneInput")
public func sceneFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    SceneFuzz.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func sceneFuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    if let dir = getenv("INKHIT_FUZZ_WRITE_SEEDS") { SceneFuzz.writeSeeds(String(cString: dir)); exit(0) }
    return 0
}

enum SceneFuzz {
    static let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let seconds = 2.0
    nonisolated(unsafe) static let runner: JobRunner = {
        let r = JobRunner()
        r.limits.maxNodes = 2_000
        r.limits.maxPoints = 200
        r.limits.maxSecondsPerJob = seconds
        r.limits.maxShapeBytesPerJob = 256 << 20
        r.limits.maxCachedShapeBytes = 64 << 20
        return r
    }()
    static let good = #"{"id":"good","scene":{"id":"r","bounds":[0,0,50,50],"children":[{"id":"e","bounds":[10,10,20,10],"shape":{"ellipse":true}}]},"radius":2,"points":[[20,15],[1,1],[31,15]]}"#
    static let goodAlone: [String] = {
        var out: [String] = []
        JobRunner().run(line: good) { out.append($0) }
        return out
    }()

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        var r = ByteReader(input)
        let line = job(&r)
        fuzzContext = [String(line.prefix(2000))]
        // The run alone is timed: the checks after it parse the line again, without a deadline.
        let (took, cpu) = JobChecks.runLine(runner, line)
        // The limit, the documented overrun, and room for reading a 22 MB line under AddressSanitizer; on the
        // wall clock and in CPU time both (a busy machine stretches the first alone).
        if took > .seconds(seconds + 1.5) && cpu > seconds + 1.5 {
            violated("the job took \(took) (\(cpu) s of CPU), more than its \(seconds) s limit and 1.5 s")
        }
        var out: [String] = []
        runner.run(line: good) { out.append($0) }
        if out != goodAlone { violated("the good job after it answered \(out), alone \(goodAlone)") }
    }

    /// A number for a JSON member: mostly moderate, sometimes the range's edge or beyond it.
    static func number(_ r: inout ByteReader, _ scale: Double) -> String {
        switch r.u8() % 8 {
        case 0: return ["1e9", "-1e9", "1e7", "0", "-0", "1e-7", "4096", "1e12"][Int(r.u8() % 8)]
        case 1: return String(Double(r.i16()) * scale / 64)
        default: return String(Double(r.u8()) * scale / 255)
        }
    }

    static func job(_ r: inout ByteReader) -> String {
        var nodes: [String] = []
        let count = 1 + Int(r.u8() % 12)
        for k in 0..<count { nodes.append(node(&r, k)) }
        // Children: each node after the first goes under an earlier one (a tree of any shape).
        var children = [[Int]](repeating: [], count: count)
        for k in 1..<max(count, 1) { children[Int(r.u8()) % k].append(k) }
        func tree(_ k: Int) -> String {
            let kids = children[k].map(tree).joined(separator: ",")
            return String(nodes[k].dropLast()) + (kids.isEmpty ? "" : #","children":[\#(kids)]"#) + "}"
        }
        let points = (0..<(1 + Int(r.u8() % 6))).map { _ in "[\(number(&r, 100)),\(number(&r, 100))]" }.joined(separator: ",")
        return #"{"id":"s","fonts":[{"path":"\#(sans)"}],"scene":\#(tree(0)),"radius":\#(Double(r.u8() % 16) / 2),"points":[\#(points)]}"#
    }

    static func node(_ r: inout ByteReader, _ k: Int) -> String {
        let big = r.u8() % 4 == 0
        let scale = big ? 1e7 : 200
        let bounds = "[\(number(&r, 100)),\(number(&r, 100)),\(abs(Double(number(&r, scale)) ?? 0)),\(abs(Double(number(&r, scale)) ?? 0))]"
        var s = #"{"id":"n\#(k)","bounds":\#(bounds)"#
        if r.u8() % 3 == 0 {
            let a = Double(r.u8() % 4 == 0 ? 1e6 : 1) * Double(r.u8() | 1) / 64
            s += #","transform":[\#(a),\#(Double(r.i16()) / 1e4),\#(Double(r.i16()) / 1e4),\#(a * Double(r.u8() | 1) / 128),\#(number(&r, 50)),\#(number(&r, 50))]"#
        }
        if r.u8() % 8 == 0 { s += #","clip":false"# }
        if r.u8() % 8 == 0 { s += #","minSize":[44,44]"# }
        return s + #","shape":\#(shape(&r))}"#
    }

    static func shape(_ r: inout ByteReader) -> String {
        switch r.u8() % 8 {
        case 0: return #""box""#
        case 1: return #"{"roundRect":\#(number(&r, 1e4))}"#
        case 2: return #"{"ellipse":true}"#
        case 3:
            // Many curves, some with control points far off (millions of segments at 0.01 px).
            // Curves that are cheap (a few segments), or far beyond the 4,096 segments a curve may have.
            // (Paths of hundreds of thousands of edges that can be built are the grid build's to bound:
            // GlyphShape; see `BoundedBuildCLITests.rowsOfBoundedFlattening`.)
            var d = "M 0 0"
            let reach = [10.0, 300, 1e8, 1e12][Int(r.u8() % 4)]
            for _ in 0..<(1 + Int(r.u8() % 64)) {
                let x = Double(r.i16()), y = Double(r.i16())
                d += r.u8() % 2 == 0 ? " Q \(x * reach / 32768) \(y * reach / 32768) \(Double(r.i16())) \(Double(r.i16()))"
                                     : " C \(x) \(y * reach / 32768) \(-x) \(y) \(Double(r.i16())) \(Double(r.i16()))"
            }
            return #"{"path":"\#(d) Z","fillRule":"\#(r.u8() % 2 == 0 ? "nonzero" : "evenodd")"}"#
        case 4, 5:
            let holes = ["ink", "filledCounters", "wordHull"][Int(r.u8() % 3)]
            if r.u8() % 2 == 0 {
                let glyphs = (0..<(1 + Int(r.u8() % 8))).map { _ in
                    #"{"font":0,"id":\#(36 + Int(r.u8() % 60)),"x":\#(number(&r, 100)),"y":\#(number(&r, 100)),"size":\#(max(1e-3, abs(Double(number(&r, 400)) ?? 16)))}"#
                }.joined(separator: ",")
                return #"{"glyphs":{"size":16,"holes":"\#(holes)","glyphs":[\#(glyphs)]}}"#
            }
            return #"{"text":{"text":"Ink oo \#(r.u8() % 10)","size":\#(1 + Double(r.u8())),"holes":"\#(holes)"}}"#
        default:
            return mask(&r)
        }
    }

    /// A mask of up to 4096 × 4096 pixels drawn by a pattern: solid, rows, columns, checkerboard, noise, a
    /// disc (its alpha given base64-encoded in the job, as the format wants).
    static func mask(_ r: inout ByteReader) -> String {
        // Mostly small (fast to run), one input in 16 up to 4096 × 4096 (and one in 256 a 16M-pixel row).
        let sizes = r.u8() % 16 == 0 ? [1024, 4096, 3] : [1, 2, 7, 64]
        var w = sizes[Int(r.u8()) % sizes.count], h = sizes[Int(r.u8()) % sizes.count]
        if w * h > 4096 * 4096 { h = 4096 * 4096 / w }
        if r.u16() % 256 == 0 { w = 1 << 24; h = 1 }               // one very long row
        let kind = r.u8() % 6, seed = r.u64()
        var state = seed
        var alpha = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let on: Bool
                switch kind {
                case 0: on = true
                case 1: on = y % 2 == 0
                case 2: on = x % 2 == 0
                case 3: on = (x + y) % 2 == 0
                case 4: state = state &* 6364136223846793005 &+ 1442695040888963407; on = state >> 63 == 1
                default: on = (x - w / 2) * (x - w / 2) + (y - h / 2) * (y - h / 2) < w * h / 4
                }
                alpha[y * w + x] = on ? 255 : 0
            }
        }
        return #"{"mask":{"width":\#(w),"height":\#(h),"alpha":"\#(base64(alpha))","threshold":\#(1 + Int(r.u8()))}}"#
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = Int(bytes[i]), b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0, b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            out.append(table[b0 >> 2]); out.append(table[(b0 & 3) << 4 | b1 >> 4])
            out.append(i + 1 < bytes.count ? table[(b1 & 15) << 2 | b2 >> 6] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? table[b2 & 63] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One seed per shape family (the first bytes pick the node count and each node's shape).
    static func writeSeeds(_ dir: String) {
        for (name, bytes) in [("ellipse-huge", [1, 0, 0, 0, 255, 0, 255, 0, 3, 2]), ("path", [1, 1, 0, 0, 0, 0, 0, 0, 0, 3, 2, 40, 5, 9]),
                              ("mask-checker", [1, 1, 0, 0, 0, 0, 0, 0, 0, 6, 5, 5, 3]), ("text-wordhull", [1, 1, 0, 0, 0, 0, 0, 0, 0, 4, 2, 1, 30]),
                              ("tree", [6, 2, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 50])] as [(String, [UInt8])] {
            let path = dir + "/" + name
            guard let f = fopen(path, "wb") else { continue }
            _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
        }
    }
}
