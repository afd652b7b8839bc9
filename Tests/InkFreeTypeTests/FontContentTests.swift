import CFreeType
import Foundation
import InkGeometry
import InkHit
import InkTestSupport
import Testing
import InkFreeType

/// One copy and one shape namespace per font content; fonts over lent bytes; FreeType's packed face index.
struct FontContentTests {
    /// Two loads of one file: two fonts (ids differ), one copy of the bytes, one content id, so a cache
    /// builds each glyph's shape once for both.
    @Test func twoLoadsOfOneFileShareBytesAndShapes() throws {
        let a = try TestFonts.load(TestFonts.cjk)
        let b = try TestFonts.load(TestFonts.cjk)
        #expect(a.id != b.id && a != b)
        #expect(a.contentID == b.contentID)
        let base = { (f: Font) in f.withUnsafeFileBytes { UInt(bitPattern: $0.baseAddress) } }
        #expect(base(a) == base(b), "the second load shares the first one's bytes")
        let fromBytes = try Font(bytes: try Fonts.bytes(TestFonts.cjk))
        #expect(fromBytes.contentID == a.contentID && base(fromBytes) == base(a))

        let cache = FontShapeCache()
        let g = try #require(a.glyph(for: "永"))
        var builder = HitIndex.Builder()
        for (i, f) in [a, b, fromBytes].enumerated() {
            try builder.add(GlyphPlacement(font: f, glyph: g, size: 24, origin: Point(Double(i) * 30, 30)), cache: cache)
        }
        #expect(cache.count == 1, "one shape for three handles of one content")
        let index = builder.build()
        #expect(index.uniqueShapeCount == 1)
        // Each handle still answers: the three placements are hit at their own places.
        let centres = try (0..<3).map { i in try #require(index.hit(at: Point(Double(i) * 30 + 12, 21), radius: 3)).placement }
        #expect(centres == [0, 1, 2])
    }

    /// Different files, faces and design coordinates are different contents.
    @Test func differentContentsDoNotShare() throws {
        let sans = try TestFonts.load(TestFonts.sans), serif = try TestFonts.load(TestFonts.serif)
        #expect(sans.contentID != serif.contentID)
        let inter = try TestFonts.load(TestFonts.interVariable)
        let bold1 = try inter.withVariations([FontVariation("wght", 700)])
        let bold2 = try TestFonts.load(TestFonts.interVariable).withVariations([FontVariation("wght", 700)])
        let light = try inter.withVariations([FontVariation("wght", 300)])
        #expect(bold1.contentID == bold2.contentID)
        #expect(bold1.contentID != light.contentID && bold1.contentID != inter.contentID)
        // The same glyph at two weights: two shapes.
        let cache = FontShapeCache(), g = try #require(inter.glyph(for: "R"))
        for f in [bold1, bold2, light] { _ = try cache.shape(font: f, glyph: g, maxScale: 0.01) }
        #expect(cache.count == 2)
    }

    /// A content is forgotten with its last font; loading it again makes a new namespace (shapes built
    /// for the old one are never taken for another content).
    @Test func aContentIsForgottenWithItsLastFont() throws {
        let bytes = try Fonts.bytes(TestFonts.mono)
        var first: Font? = try Font(bytes: bytes)
        let id = try #require(first).contentID
        let again = try Font(bytes: bytes)
        #expect(again.contentID == id)
        first = nil
        #expect(try Font(bytes: bytes).contentID == id, "still held by `again`")
        _ = again
    }

    /// Loads and drops of one content from many threads at once: fonts alive together share one content id
    /// and one copy of the bytes (clean under ThreadSanitizer in CI: the intern table is locked).
    @Test func concurrentLoadsOfOneContentShareIt() async throws {
        let bytes = try Fonts.bytes(TestFonts.mono) + Array("concurrent \(UInt64.random(in: 0...UInt64.max))".utf8)
        let held = try Font(bytes: bytes)
        let base = held.withUnsafeFileBytes { UInt(bitPattern: $0.baseAddress) }
        let results = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var ids: [UInt64] = []
                    for _ in 0..<25 {
                        let f = try Font(bytes: bytes)
                        #expect(f.withUnsafeFileBytes { UInt(bitPattern: $0.baseAddress) } == base)
                        ids.append(f.contentID)
                    }
                    return ids
                }
            }
            var all: [UInt64] = []
            for try await ids in group { all += ids }
            return all
        }
        #expect(results.count == 200 && Set(results) == [held.contentID])
    }

    /// FreeType's packed index `(n << 16) | face`, as fontconfig's FC_INDEX gives it: Inter's named
    /// instance 7 ("Bold", 458752).
    @Test func packedFaceIndexSelectsANamedInstance() throws {
        let inter = try TestFonts.load(TestFonts.interVariable)
        let names = inter.namedInstances.map { $0.name ?? "" }
        let bold = try #require(names.firstIndex(of: "Bold"))
        let packed = try Font(path: TestFonts.interVariable, faceIndex: (bold + 1) << 16)
        #expect(packed.faceIndex == 0 && packed.namedInstanceIndex == bold)
        #expect(packed.variationCoordinates.map(\.value) == inter.namedInstances[bold].coordinates)
        let viaName = try inter.withVariations([], instance: .name("Bold"))
        #expect(viaName.contentID == packed.contentID, "one instance, one namespace")
        let g = try #require(inter.glyph(for: "R"))
        #expect(try packed.outline(glyph: g) == viaName.outline(glyph: g))
        #expect(try packed.outline(glyph: g) != inter.outline(glyph: g))
        #expect(try packed.advance(of: g) == viaName.advance(of: g))

        #expect(throws: FontError.unknownInstance("#98", available: names)) {
            try Font(path: TestFonts.interVariable, faceIndex: 99 << 16)
        }
        #expect(throws: FontError.faceIndexOutOfRange(index: 1 << 16, faceCount: 1)) { try Font(path: TestFonts.sans, faceIndex: 1 << 16) }
        #expect(throws: FontError.faceIndexOutOfRange(index: 3, faceCount: 1)) {
            try Font(path: TestFonts.sans, faceIndex: (1 << 16) | 3)
        }
        #expect(throws: FontError.faceIndexOutOfRange(index: -1, faceCount: 1)) { try Font(path: TestFonts.sans, faceIndex: -1) }
    }

    /// Lent bytes: read in place, released exactly once when the last font over them goes (shapes and
    /// indexes built from them need no bytes); at once on failure, or when equal bytes are already loaded.
    @Test func borrowedBytesAreReleasedOnceWhenTheLastFontGoes() throws {
        // Bytes no other test loads (DejaVu Serif with a unique tail: fonts ignore bytes after their tables).
        let unique = { () throws -> [UInt8] in try Fonts.bytes(TestFonts.serif) + Array("lent \(UInt64.random(in: 0...UInt64.max))".utf8) }
        let lent = LentBytes(try unique())
        var index = HitIndex()
        do {
            let font = try Font(borrowing: lent.buffer, release: lent.release)
            #expect(font.withUnsafeFileBytes { $0.baseAddress } == lent.buffer.baseAddress, "nothing copied")
            let other = try font.withVariations([])               // another face over the same bytes
            #expect(other.glyph(for: "g") == font.glyph(for: "g") && lent.releases == 0)
        }
        #expect(lent.releases == 1)
        let lent2 = LentBytes(try unique())
        do {
            let font = try Font(borrowing: lent2.buffer, release: lent2.release)
            let second = try Font(bytes: Array(lent2.buffer))        // the same content: shares the lent bytes
            #expect(second.withUnsafeFileBytes { $0.baseAddress } == lent2.buffer.baseAddress)
            let g = try #require(font.glyph(for: "g"))
            var builder = HitIndex.Builder()
            try builder.add(GlyphPlacement(font: second, glyph: g, size: 30, origin: Point(10, 40)), cache: FontShapeCache())
            index = builder.build()
            #expect(lent2.releases == 0)
        }
        #expect(lent2.releases == 1, "released once, when the last font over the bytes went")
        #expect(index.hit(at: Point(10 + 8, 40 - 2), radius: 4) != nil, "the index needs no font bytes")

        // Not a font: released before the initializer throws.
        let junk = LentBytes([UInt8](repeating: 7, count: 64))
        #expect(throws: FontError.self) { try Font(borrowing: junk.buffer, release: junk.release) }
        #expect(junk.releases == 1)
        // Empty: released too.
        let empty = LentBytes([])
        #expect(throws: FontError.emptyData) { try Font(borrowing: empty.buffer, release: empty.release) }
        #expect(empty.releases == 1)
        // Equal bytes already loaded: the font shares them and the lent copy goes back at once.
        let held = try TestFonts.load(TestFonts.mono)
        let twin = LentBytes(try Fonts.bytes(TestFonts.mono))
        let shared = try Font(borrowing: twin.buffer, release: twin.release)
        #expect(twin.releases == 1 && shared.contentID == held.contentID)
        #expect(shared.glyph(for: "A") == held.glyph(for: "A"))
    }
}

/// Bytes lent to a `Font`, counting how often they were handed back.
final class LentBytes: @unchecked Sendable {
    let storage: UnsafeMutableRawBufferPointer
    let length: Int
    private let lock = NSLock()
    private var count = 0
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage.baseAddress, count: length) }
    var releases: Int { lock.withLock { count } }
    init(_ bytes: [UInt8]) {
        length = bytes.count
        storage = .allocate(byteCount: max(bytes.count, 1), alignment: 16)
        storage.copyBytes(from: bytes)
    }
    var release: @Sendable () -> Void { { [self] in lock.withLock { count += 1 } } }
    deinit { storage.deallocate() }
}
