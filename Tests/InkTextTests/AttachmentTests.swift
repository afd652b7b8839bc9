import Testing
import InkGeometry
import InkFreeType
@testable import InkText
import InkTestSupport

/// Attachments (U+FFFC placeholders) and invalid settings.

@Test func attachmentIsPlacedOnTheBaselineAndHitAsItsBox() throws {
    let text = "see \u{FFFC} here"
    let a = TextAttachment(at: 4, width: 30, ascent: 25, descent: 6, tag: "img")
    let l = try layout(text, size: 40, attachments: [a])
    let swift = SwiftOffsets(text)
    try #require(l.attachments.count == 1)
    let pa = l.attachments[0]
    let baseline = l.lines[0].baseline
    // After "see " and before " here", on the baseline.
    let space = l.glyphs[try glyph(l, containing: 3)]
    #expect(isClose(pa.box.minX, (space.x + space.advance), within: 1e-9))
    #expect(isClose(pa.box.width, 30, within: 1e-9) && isClose(pa.box.minY, (baseline - 25), within: 1e-9) && isClose(pa.box.maxY, (baseline + 6), within: 1e-9))
    #expect(isClose(l.glyphs[try glyph(l, containing: 5)].x, pa.box.maxX, within: 1e-9), "the text goes on after the box")
    #expect(pa.line == 0 && pa.attachment == a)
    #expect(!l.glyphs.contains { $0.utf16.contains(4) }, "the placeholder has no glyph")
    // Inside: kind .ink, the placeholder's ranges.
    for p in [pa.box.center, Point(pa.box.minX + 0.5, pa.box.minY + 0.5), Point(pa.box.maxX - 0.5, pa.box.maxY - 0.5)] {
        let h = try #require(l.hit(at: p))
        #expect(h.attachment == "img" && h.placement == nil && h.kind == .ink && h.distance < 0)
        #expect(h.utf16 == 4..<5 && h.utf8 == swift.utf8(4..<5) && h.utf8 == 4..<7 && h.character == 4)
        #expect(h.line == 0 && h.link == nil)
    }
    // Just outside, within the radius.
    let out = Point(pa.box.center.x, pa.box.minY - 1.5)
    #expect(l.hit(at: out) == nil)
    let h = try #require(l.hit(at: out, radius: 2))
    // The box's edge is straight: the distance is exact but for Float32 storage of coordinates.
    #expect(h.attachment == "img" && h.kind == .radius && isClose(h.distance, 1.5, within: 1e-4))
    // Character boxes include it.
    #expect(l.characterBoxes().contains { $0.utf16 == 4..<5 && isClose($0.box.minX, pa.box.minX, within: 1e-9) })
}

/// An attachment taller than the font makes its line taller.
@Test func tallAttachmentRaisesTheLine() throws {
    let l = try layout("a\u{FFFC}b\nc", size: 20, attachments: [TextAttachment(at: 1, width: 10, ascent: 60, descent: 30, tag: "t")])
    #expect(isClose(l.lines[0].baseline - l.lines[0].box.minY, 60, within: 1e-9))
    #expect(l.lines[0].box.maxY >= l.lines[0].baseline + 30 - 1e-9)
    #expect(l.lines[1].box.minY >= l.attachments[0].box.maxY - 1e-9, "the next line starts below the attachment")
}

/// The attachment's box wins over glyph ink that overlaps it: DejaVu Serif's "j" reaches left of its
/// origin (xMin −197 units) and "f" right past its advance (xMax 881 > 758), into the neighbouring box.
@Test(arguments: ["\u{FFFC}j", "f\u{FFFC}"])
func attachmentWinsOverOverlappingInk(_ text: String) throws {
    let at = text.utf16.firstIndex(of: 0xFFFC).map { text.utf16.distance(from: text.utf16.startIndex, to: $0) }!
    let a = TextAttachment(at: at, width: 40, ascent: 75, descent: 20, tag: "img")
    let l = try layout(text, fonts: [Fonts.serif], size: 80, links: [TextLink(range: 0..<2, tag: "L")],
                       attachments: [a])
    let box = l.attachments[0].box
    let gi = try glyph(l, containing: at == 0 ? 1 : 0)
    // Points that FreeType inks for the letter and that lie inside the box.
    let overlap = try inkPoints(l, glyph: gi, exclusive: false).filter { box.insetBy(0.5).contains($0) }
    #expect(overlap.count >= 3, "\(text): the letter's ink overlaps the box")
    for p in overlap {
        let h = try #require(l.hit(at: p))
        #expect(h.attachment == "img" && h.placement == nil && h.utf16 == at..<(at + 1), "\(text) at \(p)")
        #expect(h.link == "L", "an attachment inside a link range carries the link")
        let found = try #require(l.link(at: p))
        #expect(found.link.tag == "L" && found.hit.attachment == "img")
    }
    // Outside the box the letter is hit as usual.
    let outside = try inkPoints(l, glyph: gi).filter { !box.outsetBy(1).contains($0) }
    #expect(!outside.isEmpty)
    for p in outside.prefix(20) { #expect(l.hit(at: p)?.placement == gi) }
}

@Test func attachmentInsideALinkIsHitWithBoth() throws {
    let text = "go \u{FFFC} now"
    let l = try layout(text, size: 30, links: [TextLink(range: 0..<6, tag: "L")],
                       attachments: [TextAttachment(at: 3, width: 20, ascent: 20, descent: 4, tag: "img")])
    let c = l.attachments[0].box.center
    let h = try #require(l.hit(at: c))
    #expect(h.attachment == "img" && h.link == "L" && h.kind == .ink)
    let found = try #require(l.link(at: c))
    #expect(found.link.tag == "L" && found.hit.attachment == "img" && found.hit.utf16 == 3..<4)
    // Not in a link: no link.
    let l2 = try layout(text, size: 30, links: [TextLink(range: 0..<2, tag: "L")],
                        attachments: [TextAttachment(at: 3, width: 20, ascent: 20, descent: 4, tag: "img")])
    #expect(l2.hit(at: c)?.link == nil && l2.hit(at: c)?.attachment == "img")
    #expect(l2.link(at: c) == nil)
}

@Test func roundedAttachmentCornersAreNotHit() throws {
    let l = try layout("\u{FFFC}", size: 20, origin: Point(0, 0),
                       attachments: [TextAttachment(at: 0, width: 40, ascent: 40, descent: 0, tag: "r", cornerRadius: 10)])
    let b = l.attachments[0].box
    let corner = Point(b.minX + 1, b.minY + 1)        // inside the box, outside the rounded corner
    #expect(l.hit(at: corner) == nil)
    let expected = Point(b.minX + 10, b.minY + 10).distance(to: corner) - 10
    let h = try #require(l.hit(at: corner, radius: 3))
    // The corner's arc is flattened within the promised 0.01 px, after a Bézier quarter circle whose radius
    // is off by at most 0.027 % (0.0027 px of 10); the rest is Float32 storage.
    #expect(h.kind == .radius && isClose(h.distance, expected, within: 0.01 + 0.0027 + 1e-4), "distance \(h.distance) vs \(expected)")
    #expect(l.hit(at: b.center)?.kind == .ink)
    #expect(l.hit(at: Point(b.minX + 0.5, b.center.y))?.attachment == "r", "straight edges are square")
}

@Test func attachmentsWrapLikeCharacters() throws {
    let text = "aa \u{FFFC} bb"
    let l = try layout(text, size: 20, width: 60,
                       attachments: [TextAttachment(at: 3, width: 45, ascent: 10, descent: 0, tag: "w")])
    #expect(l.lines.count >= 2)
    let pa = l.attachments[0]
    #expect(pa.box.maxX <= 10 + 60 + 1e-9 && isClose(pa.box.minX, 10, within: 1e-9), "the box starts a new line")
    #expect(pa.line == 1)
}

@Test func placeholderWithoutAttachmentIsText() throws {
    let l = try layout("a\u{FFFC}b")
    #expect(l.attachments.isEmpty)
    let placeholder = try Fonts.sans.glyph(for: "\u{FFFC}")
    #expect(l.glyphs.contains { $0.utf16 == 1..<2 && $0.id == placeholder })
}

// MARK: - Invalid settings throw typed errors

func textError(_ body: () throws -> Void) -> TextError? {
    do { try body(); return nil } catch let e as TextError { return e } catch { return nil }
}

@Test func attachmentsNotOnAPlaceholderThrow() throws {
    let text = "a\u{FFFC}b\u{1D5A0}"
    for at in [0, 2, 3, 4, 5, 99, -1] {
        let e = textError { _ = try layout(text, attachments: [TextAttachment(at: at, width: 5, ascent: 5, descent: 0, tag: "x")]) }
        #expect(e == .attachmentNotOnPlaceholder(index: 0, at: at), "at \(at): \(String(describing: e))")
    }
    let ok = TextAttachment(at: 1, width: 5, ascent: 5, descent: 0, tag: "ok")
    let second = textError { _ = try layout(text, attachments: [ok, TextAttachment(at: 0, width: 5, ascent: 5, descent: 0, tag: "x")]) }
    #expect(second == .attachmentNotOnPlaceholder(index: 1, at: 0))
    #expect(textError { _ = try layout(text, attachments: [ok]) } == nil)
}

@Test func invalidAttachmentsThrow() {
    let text = "\u{FFFC}\u{FFFC}"
    let bad: [[TextAttachment]] = [
        [TextAttachment(at: 0, width: -1, ascent: 5, descent: 0, tag: "w")],
        [TextAttachment(at: 0, width: .nan, ascent: 5, descent: 0, tag: "w")],
        [TextAttachment(at: 0, width: 5, ascent: .infinity, descent: 0, tag: "a")],
        [TextAttachment(at: 0, width: 5, ascent: 1, descent: -3, tag: "h")],
        [TextAttachment(at: 0, width: 5, ascent: 5, descent: 0, tag: "c", cornerRadius: -1)],
        [TextAttachment(at: 1, width: 5, ascent: 5, descent: 0, tag: "1"), TextAttachment(at: 1, width: 5, ascent: 5, descent: 0, tag: "2")],
    ]
    for atts in bad {
        let e = textError { _ = try layout(text, attachments: atts) }
        guard case .invalidAttachment(let i, let reason)? = e else { Issue.record("\(atts): \(String(describing: e))"); continue }
        #expect(i == atts.count - 1)
        #expect(reason.contains(atts.count == 2 ? "two attachments at offset 1" : "must be finite"), "\(reason)")
    }
}

@Test func invalidSettingsThrow() {
    let sizes: [Double] = [0, -3, .nan, .infinity]
    for s in sizes {
        guard case .invalidSize? = textError({ _ = try layout("a", size: s) }) else { Issue.record("size \(s)"); continue }
    }
    let widths: [Double] = [.nan, 0, -10, .infinity]
    for w in widths {
        guard case .invalidWidth? = textError({ _ = try layout("a", width: w) }) else { Issue.record("width \(w)"); continue }
    }
    #expect(textError { _ = try layout("a", maxLines: 0) } == .invalidMaxLines(0))
    #expect(textError { _ = try layout("a", maxLines: -2) } == .invalidMaxLines(-2))
    #expect(textError { _ = try layout("a", fonts: []) } == .noFonts)
    #expect(textError { _ = try layout("a", origin: Point(.nan, 0)) } == .invalidOrigin)
    #expect(textError { _ = try layout("a", origin: Point(0, .infinity)) } == .invalidOrigin)
    let text = "a\u{1D5A0}b"                   // UTF-16 length 4
    for r in [0..<5, 2..<2, -1..<2, 4..<4, 3..<9] {
        let e = textError { _ = try layout(text, links: [TextLink(range: r, tag: "x")]) }
        #expect(e == .linkOutOfRange(index: 0, range: r, length: 4), "link \(r): \(String(describing: e))")
    }
    #expect(textError { _ = try layout(text, links: [TextLink(range: 0..<4, tag: "all")]) } == nil)
    // U+1D5A0 is the surrogate pair at 1..<3: a range may not start or end at 2, inside it.
    #expect(textError { _ = try layout(text, links: [TextLink(range: 2..<4, tag: "x")]) }
            == .offsetInsideCharacter(field: "links[0].start", offset: 2))
    #expect(textError { _ = try layout(text, links: [TextLink(range: 0..<1, tag: "a"), TextLink(range: 1..<2, tag: "x")]) }
            == .offsetInsideCharacter(field: "links[1].end", offset: 2))
    #expect(textError { _ = try layout(text, links: [TextLink(range: 1..<3, tag: "pair")]) } == nil)
    // Every error says what was wrong, naming the value.
    let messages: [(TextError, String)] = [
        (.noFonts, "at least one font"), (.invalidSize(0), "size must be finite and > 0 (got 0.0)"),
        (.invalidWidth(.nan), "width must be finite and > 0 (got nan)"), (.invalidMaxLines(0), "maxLines must be ≥ 1 (got 0)"),
        (.invalidOrigin, "origin must be finite"),
        (.linkOutOfRange(index: 1, range: 0..<9, length: 4), "links[1] range 0..<9 is outside the text (UTF-16 length 4)"),
        (.attachmentNotOnPlaceholder(index: 0, at: 3), "attachments[0].at 3 is not the UTF-16 offset of a U+FFFC"),
        (.offsetInsideCharacter(field: "runs[2].end", offset: 7), "runs[2].end 7 is between the two UTF-16 units of a character"),
    ]
    for (e, fragment) in messages { #expect(e.description.contains(fragment), "\(e.description)") }
}
