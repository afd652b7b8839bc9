import Foundation
import InkFreeType
import InkGeometry
import InkTestSupport
import Testing

@Suite("FontError: bad files, bad indices, never a trap")
struct FontErrorTests {
    @Test func missingFile() {
        let path = "/tmp/InkFreeTypeTests-does-not-exist/nothing.ttf"
        #expect(throws: FontError.fileNotFound(path: path)) { try Font(path: path) }
        #expect(throws: FontError.fileNotFound(path: "")) { try Font(path: "") }
        // A regular file used as a directory on the way.
        let below = Fonts.dejaVuSans + "/x.ttf"
        #expect(throws: FontError.fileNotFound(path: below)) { try Font(path: below) }
    }

    @Test func directoryIsNotAFile() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        #expect(throws: FontError.notAFile(path: dir.path)) { try Font(path: dir.path) }
        #expect(throws: FontError.notAFile(path: "/dev/null")) { try Font(path: "/dev/null") }
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let fifo = dir.path + "/pipe.ttf"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FontError.notAFile(path: fifo)) { try Font(path: fifo) }
    }

    @Test func emptyFileAndEmptyBytes() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let empty = try dir.write("empty.ttf", [])
        #expect(throws: FontError.emptyData) { try Font(path: empty) }
        #expect(throws: FontError.emptyData) { try Font(bytes: []) }
    }

    @Test func randomBytesAreNotAFont() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        var rng = SplitMix64(seed: 42)
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let file = try dir.write("noise.ttf", noise)
        #expect(throws: FontError.notAFont) { try Font(path: file) }
        #expect(throws: FontError.notAFont) { try Font(bytes: noise) }
        // Under ~128 bytes FreeType's probe reads past the end (Invalid_Stream_Operation): still "not a font".
        #expect(throws: FontError.notAFont) { try Font(bytes: Array("not a font at all, just text\n".utf8)) }
        for length in [1, 11, 12, 100, 127, 128, 300] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(throws: FontError.self) { try Font(bytes: bytes) }
        }
    }

    @Test func truncatedFont() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let head = Array(try Fonts.bytes(Fonts.dejaVuSans).prefix(1000))
        let file = try dir.write("truncated.ttf", head)
        // FreeType tries every driver; the TrueType one fails on the missing tables, so it reports
        // "unknown file format".
        #expect(throws: FontError.notAFont) { try Font(path: file) }
        #expect(throws: FontError.notAFont) { try Font(bytes: head) }
    }

    /// Cut DejaVu Sans at many lengths: data too short to probe is not a font; longer cuts either fail to
    /// open or open, and then every glyph either loads — its decomposed outline inside the control box
    /// FreeType computes on its own — or fails with a glyph-data error. The whole file loads every glyph.
    @Test(arguments: [1, 4, 12, 100, 620_000, 700_000, 759_000])
    func truncatedAtAnyLengthNeverTraps(_ length: Int) throws {
        let whole = try Fonts.bytes(Fonts.dejaVuSans)
        let bytes = Array(whole.prefix(length))
        if length <= 100 {
            #expect(throws: FontError.notAFont) { try Font(bytes: bytes) }
            return
        }
        let font: Font
        do { font = try Font(bytes: bytes) } catch {
            #expect(length < whole.count, "the whole file opens: \(error)")
            return
        }
        var failed = 0
        for glyph in font.glyphIDs {
            do {
                let outline = try font.outline(glyph: glyph)
                var bounds = BoundsSink()
                outline.decompose(into: &bounds)
                #expect(bounds.bounds == (try font.controlBox(glyph: glyph)), "glyph \(glyph)")
            } catch {
                failed += 1
                switch error {
                case .freeType, .brokenOutline: break
                default: Issue.record("glyph \(glyph): unexpected \(error)")
                }
            }
        }
        if length >= whole.count { #expect(failed == 0, "every glyph of the whole file loads") }
    }

    /// Overwrites bytes of the glyf, head and hmtx tables: FreeType reports Invalid_Outline /
    /// Invalid_Composite, and nothing traps.
    @Test func corruptedGlyphDataGivesErrors() throws {
        let original = try Fonts.bytes(Fonts.dejaVuSans)
        let glyf = try #require(tableRange("glyf", in: original))
        let head = try #require(tableRange("head", in: original))
        let hmtx = try #require(tableRange("hmtx", in: original))
        var rng = SplitMix64(seed: 7)
        var failures = 0, successes = 0
        for _ in 0..<10 {
            var bytes = original
            // The first 40 kB of glyf hold the first few hundred glyphs.
            for _ in 0..<2000 { bytes[glyf.lowerBound + Int.random(in: 0..<40_000, using: &rng)] = .random(in: 0...255, using: &rng) }
            for _ in 0..<5 { bytes[Int.random(in: head, using: &rng)] = .random(in: 0...255, using: &rng) }
            for _ in 0..<20 { bytes[Int.random(in: hmtx, using: &rng)] = .random(in: 0...255, using: &rng) }
            guard let font = try? Font(bytes: bytes) else { failures += 1; continue }
            for glyph in font.glyphIDs.prefix(300) {
                do {
                    let outline = try font.outline(glyph: glyph)
                    var bounds = BoundsSink()
                    outline.decompose(into: &bounds)
                    #expect(bounds.bounds == outline.controlBox)
                    successes += 1
                } catch {
                    failures += 1
                    switch error {
                    case .freeType, .brokenOutline, .tooManyPoints: break
                    default: Issue.record("glyph \(glyph): not a glyph-data error: \(error)")
                    }
                }
            }
        }
        #expect(failures > 0)
        #expect(successes > 0)
    }

    @Test func faceIndexOutOfRange() throws {
        #expect(throws: FontError.faceIndexOutOfRange(index: 1, faceCount: 1)) {
            try Font(path: Fonts.dejaVuSans, faceIndex: 1)
        }
        #expect(throws: FontError.faceIndexOutOfRange(index: -1, faceCount: 1)) {
            try Font(path: Fonts.dejaVuSans, faceIndex: -1)
        }
        // FreeType would read the high 16 bits as a named-instance number.
        #expect(throws: FontError.faceIndexOutOfRange(index: 0x10000, faceCount: 1)) {
            try Font(path: Fonts.dejaVuSans, faceIndex: 0x10000)
        }
        let bytes = try Fonts.bytes(Fonts.dejaVuSansMono)
        #expect(throws: FontError.faceIndexOutOfRange(index: 3, faceCount: 1)) {
            try Font(bytes: bytes, faceIndex: 3)
        }
        #expect(throws: FontError.faceIndexOutOfRange(index: Int.min, faceCount: 1)) {
            try Font(bytes: bytes, faceIndex: Int.min)
        }
        // A face index on something that is not a font reports the format, not the index.
        #expect(throws: FontError.notAFont) { try Font(bytes: [1, 2, 3, 4, 5, 6, 7, 8, 9], faceIndex: 5) }
    }

    @Test func glyphOutOfRange() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let count = font.glyphCount
        let expected = FontError.glyphOutOfRange(glyph: GlyphID(UInt32(count)), glyphCount: count)
        #expect(throws: expected) { try font.outline(glyph: GlyphID(UInt32(count))) }
        #expect(throws: expected) { try font.advance(of: GlyphID(UInt32(count))) }
        #expect(throws: expected) { try font.controlBox(glyph: GlyphID(UInt32(count))) }
        var sink = RecordingSink()
        #expect(throws: FontError.glyphOutOfRange(glyph: GlyphID(.max), glyphCount: count)) {
            try font.outline(glyph: GlyphID(.max), into: &sink)
        }
        #expect(sink.elements.isEmpty)
        // The last valid glyph loads, and its outline's box is FreeType's own control box.
        let last = GlyphID(UInt32(count - 1))
        #expect(try font.outline(glyph: last).controlBox == font.controlBox(glyph: last))
    }

    @Test func tooManyPoints() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let o = try #require(font.glyph(for: "o"))
        #expect(throws: FontError.tooManyPoints(glyph: o, count: 24, limit: 10)) {
            try font.outline(glyph: o, maxPoints: 10)
        }
        #expect(try font.outline(glyph: o, maxPoints: 24).points.count == 24)
    }

    @Test func messagesNameTheProblem() {
        #expect(FontError.fileNotFound(path: "/a/b.ttf").description.contains("/a/b.ttf"))
        #expect(FontError.faceIndexOutOfRange(index: 2, faceCount: 1).description
            == "face index 2 is out of range: the font has 1 face (valid: 0..<1)")
        #expect(FontError.glyphOutOfRange(glyph: 9, glyphCount: 5).description.contains("9"))
        #expect(FontError.freeType(code: 0x14, name: "Invalid_Outline").description
            == "FreeType error 0x14 (Invalid_Outline): invalid outline")
        #expect(FontError.tooManyPoints(glyph: 3, count: 7, limit: 5).description.contains("limit of 5"))
    }

    /// The table of FreeType errors is FreeType's own, name for name: every `FT_ERRORDEF_` of the installed
    /// `freetype/fterrdef.h` (what the library is compiled against) is in it with its code, once, in order.
    @Test func theErrorTableIsFreeTypesOwn() throws {
        let header = try String(contentsOfFile: "/usr/include/freetype2/freetype/fterrdef.h", encoding: .utf8)
        var declared: [(Int32, String)] = []
        for line in header.split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("FT_ERRORDEF_(") || t.hasPrefix("FT_NOERRORDEF_(") else { continue }
            let parts = t.drop(while: { $0 != "(" }).dropFirst().split(separator: ",")
            guard parts.count >= 2, let code = Int32(parts[1].trimmingCharacters(in: .whitespaces).dropFirst(2), radix: 16)
            else { continue }
            declared.append((code, parts[0].trimmingCharacters(in: .whitespaces)))
        }
        let table = FontError.freeTypeErrors
        #expect(declared.count >= 90, "fterrdef.h read: \(declared.count) errors")
        #expect(table.map(\.code) == table.map(\.code).sorted() && Set(table.map(\.code)).count == table.count)
        for (code, name) in declared {
            #expect(table.first { $0.code == code }?.name == name, "0x\(String(code, radix: 16)) is \(name) in FreeType")
        }
        #expect(table.count == declared.count, "the table has \(table.count) rows, FreeType \(declared.count)")
    }
}
