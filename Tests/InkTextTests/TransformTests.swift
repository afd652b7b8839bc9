import Testing
import InkGeometry
import InkFreeType
@testable import InkText
import InkTestSupport

/// Invariance: the same layout under a layout → view transform answers the same hits for transformed points
/// (radii and distances scale with a similarity's scale), and hits only grow with the radius.

let mixedText = "Tap office \u{FFFC} שלום 漢字 AVATAR e\u{301}q\u{303} \u{1D5A0} links wrap"

func mixedLayout(_ t: Transform) throws -> TextLayout {
    try layout(mixedText, fonts: [Fonts.sans, Fonts.droid], size: 36, width: 260, maxLines: 3,
               links: [TextLink(range: 4..<10, tag: "office"), TextLink(range: 11..<12, tag: "img-link")],
               attachments: [TextAttachment(at: 11, width: 18, ascent: 16, descent: 3, tag: "img", cornerRadius: 4)],
               transform: t)
}

/// A pseudo-random but fixed point set over the text box (layout px).
func probePoints(_ l: TextLayout, count: Int) -> [Point] {
    var bounds = Rect.empty
    for line in l.lines { bounds = bounds.union(line.box) }
    var s: UInt64 = 0x9E3779B97F4A7C15
    func next() -> Double { s = s &* 6364136223846793005 &+ 1442695040888963407; return Double(s >> 11) / Double(1 << 53) }
    return (0..<count).map { _ in
        Point(bounds.minX - 5 + next() * (bounds.width + 10), bounds.minY - 5 + next() * (bounds.height + 10))
    }
}

struct HitKey: Equatable {
    var glyph: Int?, utf16: Range<Int>, link: String?, attachment: String?, kind: TextHit.Kind
    init(_ h: TextHit) { glyph = h.placement; utf16 = h.utf16; link = h.link; attachment = h.attachment; kind = h.kind }
}

@Test(arguments: [0.0, 3.5])
func rotatedLayoutAnswersTheSameHits(_ radius: Double) throws {
    let scale = 1.5
    let t = Transform.scale(scale, scale).concatenating(.rotation(0.6)).concatenating(.translation(300, -40))
    let plain = try mixedLayout(.identity)
    let turned = try mixedLayout(t)
    #expect(plain.glyphs == turned.glyphs && plain.lines == turned.lines && plain.attachments == turned.attachments,
            "the transform changes no layout-space geometry")
    #expect(plain.truncated != nil && plain.lines.count == 3)
    var compared = 0, hits = 0
    for (i, p) in probePoints(plain, count: 3000).enumerated() {
        // Only points clearly away from a decision boundary (flattening differs by 0.01 view px).
        let a = plain.hit(at: p, radius: radius)
        let lo = plain.hit(at: p, radius: max(0, radius - 0.06)), hi = plain.hit(at: p, radius: radius + 0.06)
        guard lo.map(HitKey.init) == a.map(HitKey.init), hi.map(HitKey.init) == a.map(HitKey.init) else { continue }
        if let a, abs(a.distance) < 0.06 { continue }
        let b = turned.hit(at: p.applying(t), radius: radius * scale)
        #expect(a.map(HitKey.init) == b.map(HitKey.init), "\(p): \(String(describing: a)) vs \(String(describing: b))")
        // Each layout is flattened within 0.01 of its own view px: a's error grows by `scale` in the turned
        // view, b's does not; the rest is Float32 storage of coordinates near 400 px.
        if let a, let b { #expect(isClose(b.distance, a.distance * scale, within: 0.01 * (1 + scale) + 1e-4), "distance at \(p)") ; hits += 1 }
        // Links and carets too.
        let la = plain.link(at: p, radius: radius), lb = turned.link(at: p.applying(t), radius: radius * scale)
        #expect(la?.link == lb?.link)
        if i % 10 == 0 { #expect(plain.caret(at: p) == turned.caret(at: p.applying(t))) }
        compared += 1
    }
    #expect(compared > 2500 && hits > 300, "compared \(compared), hits \(hits)")
}

/// Ink points (FreeType's rasteriser) map through the transform to hits on the same glyph.
@Test func inkPointsHitTheSameGlyphUnderRotation() throws {
    let t = Transform.rotation(-1.1).concatenating(.translation(50, 200))
    let plain = try mixedLayout(.identity)
    let turned = try mixedLayout(t)
    var n = 0
    for gi in plain.glyphs.indices {
        guard let p = try inkPoints(plain, glyph: gi).first else { continue }
        let h = try #require(turned.hit(at: p.applying(t)))
        #expect(h.placement == gi && h.utf16 == plain.hit(at: p)?.utf16 && h.kind == .ink)
        n += 1
    }
    #expect(n >= 10, "glyphs with ink points: \(n)")
}

@Test func hitsOnlyGrowWithTheRadius() throws {
    let l = try mixedLayout(.identity)
    for p in probePoints(l, count: 1500) {
        var wasHit = false
        for r in [0.0, 0.5, 1, 2, 3.5, 6] {
            let h = l.hit(at: p, radius: r)
            if wasHit { #expect(h != nil, "hit at smaller radius, miss at \(r), \(p)") }
            if let h {
                wasHit = true
                #expect(h.distance <= r + 1e-9)
                #expect((h.kind == .ink) == (h.distance < 0) || h.attachment != nil)
            }
        }
    }
}

/// A layout → view transform that cannot be inverted (or is not finite) is refused up front, naming it.
@Test(arguments: [Transform.scale(0, 0), Transform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0),
                  Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), Transform.translation(.infinity, 0)])
func degenerateTransformsAreRefused(_ t: Transform) {
    let e = textError { _ = try mixedLayout(t) }
    guard case .invalidTransform(let got)? = e else { Issue.record("got \(String(describing: e))"); return }
    #expect(got == t || (got.a.isNaN && t.a.isNaN))
}
