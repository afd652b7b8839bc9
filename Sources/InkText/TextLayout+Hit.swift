import InkGeometry
import InkHit

/// What a point on laid-out text hit.
public struct TextHit: Sendable, Hashable {
    /// How the hit was decided.
    public enum Kind: String, Sendable, Hashable {
        /// The point is on the glyph's ink (or inside an attachment's box).
        case ink
        /// The point is within the radius of the ink (or of an attachment's box).
        case radius
        /// A box fallback mode (character or line boxes) decided.
        case box
    }
    /// The placement hit: an index into `TextLayout.glyphs` (nil for attachments, decorations and line boxes).
    /// A position in the layout's list of placed glyphs, not a glyph id.
    public var placement: Int?
    /// UTF-16 range of the character under the point (NSRange-compatible offsets): inside a ligature, the
    /// component under the point; on the ellipsis, the truncated range.
    public var utf16: Range<Int>
    /// The same range in UTF-8 offsets.
    public var utf8: Range<Int>
    /// Index of the grapheme (Swift `Character`) where `utf16` starts.
    public var character: Int
    /// Index into `TextLayout.lines`.
    public var line: Int
    /// Tag of the link over the character (the last link given when links overlap), nil when none.
    public var link: String?
    /// Tag of the attachment hit, nil when the hit is on text.
    public var attachment: String?
    /// The decoration hit (underline, strikethrough, overline), nil when the hit is on a glyph or an
    /// attachment. On a decoration, `placement` is nil and the character is the one whose advance on that
    /// line holds the point's x (or the nearest one).
    public var decoration: TextDecoration.Kind?
    /// Signed distance to the hit outline (or box), view px, negative inside.
    public var distance: Double
    /// Ink, radius or box: how the hit was decided.
    public var kind: Kind

    /// The 1.0 name of `placement` (it holds a placement, never a glyph id).
    @available(*, deprecated, renamed: "placement")
    public var glyph: Int? {
        get { placement }
        set { placement = newValue }
    }
}

/// Where a caret goes for a point: an insertion offset and which side it sticks to.
public struct CaretPosition: Sendable, Hashable {
    /// Which side an offset at a line break sticks to.
    public enum Affinity: String, Sendable, Hashable {
        /// The end of the earlier line (the character before the offset).
        case upstream
        /// The start of the later line (the character at the offset).
        case downstream
    }
    /// UTF-16 insertion offset (0...length).
    public var utf16: Int
    /// Which line the caret is on when the offset is a line break.
    public var affinity: Affinity
    /// Index into `TextLayout.lines`.
    public var line: Int
}

/// Where a caret is drawn for a UTF-16 offset: a vertical segment at `x` from `top` to `bottom` (layout px),
/// and the same segment in view px.
public struct CaretRect: Sendable, Hashable {
    /// The UTF-16 offset (0...length).
    public var utf16: Int
    /// Index into `TextLayout.lines`.
    public var line: Int
    /// The caret's x, layout px.
    public var x: Double
    /// Top of the line's content (its line box top), layout px.
    public var top: Double
    /// The line's descent below its baseline, layout px.
    public var bottom: Double
    /// The caret's top end, view px.
    public var viewTop: Point
    /// The caret's bottom end, view px.
    public var viewBottom: Point
}

/// One character's box: what box-based hit-testing uses.
public struct CharacterBox: Sendable, Hashable {
    /// Its share of the glyph advance × the line box, layout px.
    public var box: Rect
    /// The bounding box of `box` in view px (exactly `box` mapped when the transform neither rotates nor
    /// shears).
    public var viewBounds: Rect
    /// The character's UTF-16 range.
    public var utf16: Range<Int>
    /// Index into `TextLayout.lines`.
    public var line: Int
}

/// A link under a point and the hit that found it.
public struct LinkHit: Sendable, Hashable {
    /// The link, as given to the layout.
    public var link: TextLink
    /// Where on it the point is (the character, its distance).
    public var hit: TextHit
}

/// How `hit(at:radius:mode:)` decides.
public enum TextHitMode: Sendable, Hashable {
    /// By the ink (default). With `boxesForGlyphsWithoutInk`, glyphs without outlines (spaces, bitmap-only
    /// emoji) answer as their advance boxes.
    case ink(boxesForGlyphsWithoutInk: Bool)
    /// Per-character boxes (what per-character frames give): advance × line height.
    case characterBoxes
    /// Line boxes.
    case lineBoxes
    /// By the ink only: `.ink(boxesForGlyphsWithoutInk: false)`.
    public static let ink = TextHitMode.ink(boxesForGlyphsWithoutInk: false)
}

extension TextLayout {
    /// The character, link and attachment under `point` (view px), within `radius` (view px).
    ///
    /// Attachments first (their boxes, also inside a link range); then the glyph by the hit rule of
    /// `HitIndex` (topmost ink containing the point, else the nearest outline within the radius); then the
    /// decorations (underlines, strikethrough, overlines) as ink under the glyphs: at radius 0 a decoration
    /// answers only where no glyph's ink holds the point, and within a radius the nearest ink wins (on a
    /// tie: an attachment, then a glyph, then a decoration). A negative or NaN radius counts as 0; a
    /// non-finite point is a miss. Allocates nothing beyond the answer.
    public func hit(at point: Point, radius: Double = 0, mode: TextHitMode = .ink) -> TextHit? {
        guard point.isFinite else { return nil }
        // Attachments lie on top of the text: a box containing the point wins; otherwise ink containing the
        // point; otherwise a decoration containing it; otherwise the nearest of attachment boxes, outlines and
        // decorations within the radius.
        let a = attachmentIndex.hit(at: point, radius: radius)
        if let a, a.isInside { return attachmentHit(a) }
        guard case .ink(let boxes) = mode else {
            var visited = 0
            return boxHit(at: point, mode: mode, visited: &visited)
        }
        let g = inkIndex.hit(at: point, radius: radius)
        if let g, g.isInside { return glyphHit(g, at: point) }
        let d = decorations.isEmpty ? nil : decorationIndex.hit(at: point, radius: radius)
        if let d, d.isInside { return decorationHit(d.placement, at: point, distance: d.distance, isInside: true) }
        // The nearest: 0 attachment, 1 glyph, 2 decoration; ties to the lower kind (no allocation).
        var kind = -1, best = Double.infinity
        if let a { kind = 0; best = a.distance }
        if let g, kind < 0 || g.distance < best { kind = 1; best = g.distance }
        if let d, kind < 0 || d.distance < best { kind = 2 }
        switch kind {
        case 0: return attachmentHit(a!)
        case 1: return glyphHit(g!, at: point)
        case 2: return decorationHit(d!.placement, at: point, distance: d!.distance, isInside: false)
        default: break
        }
        if boxes, let l = layoutPoint(point) {
            for (gi, gl) in glyphs.enumerated().reversed() where !glyphHasInk[gi] {
                let line = lines[gl.line]
                let r = Rect(minX: gl.x, minY: line.box.minY, maxX: gl.x + gl.advance, maxY: line.baseline + (line.box.maxY - line.baseline))
                if r.contains(l) {
                    return makeHit(placement: gi, range: gl.utf16, line: gl.line, attachment: nil, distance: 0, kind: .box)
                }
            }
        }
        return nil
    }

    func attachmentHit(_ a: Hit) -> TextHit {
        let pa = attachments[a.placement]
        return makeHit(placement: nil, range: pa.attachment.at..<(pa.attachment.at + 1), line: pa.line,
                       attachment: pa.attachment.tag, distance: a.distance, kind: a.isInside ? .ink : .radius)
    }

    func glyphHit(_ h: Hit, at point: Point) -> TextHit {
        let gi = inkGlyph[h.placement]
        return makeHit(placement: gi, range: component(of: gi, at: point), line: glyphs[gi].line,
                       attachment: nil, distance: h.distance, kind: h.isInside ? .ink : .radius)
    }

    /// The answers of the box modes, adding the boxes looked at to `visited` (its work, which tests count:
    /// `TextLayout+Testing.swift`).
    func boxHit(at point: Point, mode: TextHitMode, visited: inout Int) -> TextHit? {
        guard let l = layoutPoint(point) else { return nil }
        switch mode {
        case .ink: return nil
        case .characterBoxes:
            for c in charBoxes {
                visited += 1
                guard c.box.contains(l) else { continue }
                return makeHit(placement: glyphIndex(at: c.utf16.lowerBound), range: c.utf16, line: c.line, attachment: nil,
                               distance: 0, kind: .box)
            }
            return nil
        case .lineBoxes:
            for (li, line) in lines.enumerated() {
                visited += 1
                guard line.box.contains(l) else { continue }
                return makeHit(placement: nil, range: line.utf16, line: li, attachment: nil, distance: 0, kind: .box)
            }
            return nil
        }
    }

    /// Not API: the answer for decoration `k` hit at `point` (this layout's view px) at signed `distance`:
    /// the character whose advance on the decoration's line holds the point's x, else the nearest one (for
    /// InkScene's text leaves, as `hit(at:)` gives it).
    package func decorationHit(_ k: Int, at point: Point, distance: Double, isInside: Bool) -> TextHit {
        let d = decorations[k]
        let x = layoutPoint(point)?.x ?? d.rect.minX
        let range = character(onLine: d.line, atX: x, point: point) ?? d.utf16
        return makeHit(placement: nil, range: range, line: d.line, attachment: nil, distance: distance,
                       kind: isInside ? .ink : .radius, decoration: d.kind)
    }

    /// The character (grapheme, or a ligature's component by its carets) whose advance on line `line`
    /// holds layout x `x`, else the one nearest it; nil for a line without characters. O(log n).
    func character(onLine line: Int, atX x: Double, point: Point, within: ClosedRange<Double>? = nil) -> Range<Int>? {
        let lo = lineSpans[line], hi = lineSpans[line + 1]
        guard lo < hi else { return nil }
        var x = x
        if let w = within { x = min(max(x, w.lowerBound), w.upperBound) }
        var a = lo, b = hi                                       // the first span with x1 > x
        while a < b {
            let mid = (a + b) / 2
            if spans[mid].x1 <= x { a = mid + 1 } else { b = mid }
        }
        var k = min(a, hi - 1)
        if spans[k].x0 > x, k > lo, x - spans[k - 1].x1 < spans[k].x0 - x { k -= 1 }
        let s = spans[k]
        if s.glyphs.count == 1 { return component(of: s.glyphs.lowerBound, at: point, x: x) }
        let (first, parts) = graphemeSpan(of: s.utf16)
        guard parts > 1, s.x1 > s.x0 else { return s.utf16 }
        let f = min(max((x - s.x0) / (s.x1 - s.x0), 0), 0.999999)
        let rtl = s.glyphs.first.map { glyphs[$0].isRightToLeft } ?? false
        return graphemePart(min(parts - 1, Int((rtl ? 1 - f : f) * Double(parts))), first: first, of: s.utf16)
    }

    /// The link under `point` (view px) within `radius`: the topmost link glyph (or attachment in a link)
    /// whose ink contains the point, else the one whose outline is nearest within the radius (ties → topmost).
    /// Whitespace has no ink, so the space after a link never hits it; a decoration under link characters
    /// (a link's underline) is ink of the link. A negative or NaN radius counts as 0; a non-finite point
    /// is a miss.
    public func link(at point: Point, radius: Double = 0) -> LinkHit? {
        guard let h = linkIndex.hit(at: point, radius: radius) else { return nil }
        let hit: TextHit
        switch linkItem[h.placement] {
        case .glyph(let gi):
            hit = makeHit(placement: gi, range: component(of: gi, at: point), line: glyphs[gi].line, attachment: nil,
                          distance: h.distance, kind: h.isInside ? .ink : .radius)
        case .attachment(let ai):
            let pa = attachments[ai]
            hit = makeHit(placement: nil, range: pa.attachment.at..<(pa.attachment.at + 1), line: pa.line,
                          attachment: pa.attachment.tag, distance: h.distance, kind: h.isInside ? .ink : .radius)
        case .decoration(let di, let x0, let x1):
            // The character under the point within the linked part of the stroke.
            let d = decorations[di]
            let x = layoutPoint(point)?.x ?? x0
            let range = character(onLine: d.line, atX: x, point: point, within: x0...x1.nextDown) ?? d.utf16
            hit = makeHit(placement: nil, range: range, line: d.line, attachment: nil, distance: h.distance,
                          kind: h.isInside ? .ink : .radius, decoration: d.kind)
        }
        guard let l = linkMap.lastLink(overlapping: hit.utf16) else { return nil }
        return LinkHit(link: links[l], hit: hit)
    }

    /// Not API: the answer for glyph `gi` hit at `point` (in this layout's view space) at signed `distance`,
    /// as `hit(at:)` gives it (the component under the point, its link), for InkScene's text leaves.
    package func textHit(placement gi: Int, at point: Point, distance: Double, isInside: Bool) -> TextHit {
        makeHit(placement: gi, range: component(of: gi, at: point), line: glyphs[gi].line, attachment: nil,
                distance: distance, kind: isInside ? .ink : .radius)
    }

    /// The last link given whose range overlaps `utf16` (UTF-16 offsets), nil when none does. O(1) for a
    /// character's range, whatever the number of links (O(n/64) for a range of n units).
    public func lastLink(overlapping utf16: Range<Int>) -> TextLink? {
        linkMap.lastLink(overlapping: utf16).map { links[$0] }
    }

    /// Where a caret would go for `point` (view px): the nearest line, then the nearest character edge
    /// on it (like `CTLineGetStringIndexForPosition`). Never use it to find the character under a point:
    /// that is `hit(at:)`.
    public func caret(at point: Point) -> CaretPosition? {
        var visited = 0
        return caret(at: point, visited: &visited)
    }

    /// `caret(at:)`, adding the lines and character boxes it looked at to `visited` (its work, which tests
    /// count: `TextLayout+Testing.swift`).
    func caret(at point: Point, visited: inout Int) -> CaretPosition? {
        guard point.isFinite, let l = layoutPoint(point), !lines.isEmpty else { return nil }
        var li = 0
        var bestD = Double.infinity
        for (i, line) in lines.enumerated() {
            visited += 1
            let d = l.y < line.box.minY ? line.box.minY - l.y : (l.y > line.box.maxY ? l.y - line.box.maxY : 0)
            if d < bestD { bestD = d; li = i }
        }
        let line = lines[li]
        // Edges: for each character box on the line, its leading and trailing offsets.
        var best: (Double, Int) = (Double.infinity, line.utf16.lowerBound)
        for c in charBoxes {
            visited += 1
            guard c.line == li else { continue }
            let r = c.utf16
            let rtl = glyphIndex(at: r.lowerBound).map { glyphs[$0].isRightToLeft } ?? false
            let leftOffset = rtl ? r.upperBound : r.lowerBound
            let rightOffset = rtl ? r.lowerBound : r.upperBound
            for (x, o) in [(c.box.minX, leftOffset), (c.box.maxX, rightOffset)] where abs(l.x - x) < best.0 {
                best = (abs(l.x - x), o)
            }
        }
        var offset = best.1
        // The newline (if any) is not a caret position on this line.
        var end = line.utf16.upperBound
        while end > line.utf16.lowerBound, let u = map.utf16[safe: end - 1], LayoutEngine.isMandatoryBreak(u) { end -= 1 }
        offset = min(max(offset, line.utf16.lowerBound), end)
        let affinity: CaretPosition.Affinity = (offset == end && li + 1 < lines.count && end == lines[li + 1].utf16.lowerBound) ? .upstream : .downstream
        return CaretPosition(utf16: offset, affinity: affinity, line: li)
    }

    /// Where the caret goes for UTF-16 offset `utf16` (0...length): on the line holding the character at
    /// the offset (downstream) or the one before it (upstream, for an offset at a line break), at the
    /// leading edge of the character that starts there, or else the trailing edge of the one that ends
    /// there; at the line's content start on an empty line. Nil for an offset outside 0...length.
    /// In mixed-direction text one offset can have two positions: `affinity` picks the character after
    /// the offset (downstream) or before it (upstream).
    public func caretRect(at utf16: Int, affinity: CaretPosition.Affinity = .downstream) -> CaretRect? {
        guard utf16 >= 0, utf16 <= map.length, !lines.isEmpty else { return nil }
        var li = lines.lastIndex { $0.utf16.lowerBound <= utf16 } ?? 0
        if affinity == .upstream, li > 0, lines[li].utf16.lowerBound == utf16 { li -= 1 }
        let line = lines[li]
        func edge(_ c: CharacterBox, leading: Bool) -> Double {
            let rtl = glyphIndex(at: c.utf16.lowerBound).map { glyphs[$0].isRightToLeft } ?? false
            return leading != rtl ? c.box.minX : c.box.maxX
        }
        let onLine = charBoxes.lazy.filter { $0.line == li }
        let starting = onLine.first { $0.utf16.lowerBound == utf16 }
        let ending = onLine.first { $0.utf16.upperBound == utf16 }
        let x: Double
        switch (affinity, starting, ending) {
        case (.downstream, let s?, _), (.upstream, let s?, nil): x = edge(s, leading: true)
        case (_, _, let e?): x = edge(e, leading: false)
        default: x = line.contentBox.minX
        }
        let top = line.contentBox.minY, bottom = line.contentBox.maxY
        return CaretRect(utf16: utf16, line: li, x: x, top: top, bottom: bottom,
                         viewTop: Point(x, top).applying(transform), viewBottom: Point(x, bottom).applying(transform))
    }

    /// Per-character (grapheme) boxes, layout px and view px: the glyph advance split across the graphemes
    /// of its cluster, from the line's top to its bottom, plus one per attachment. What box-based
    /// hit-testing uses.
    public func characterBoxes() -> [CharacterBox] { charBoxes }

    /// One pass over the glyphs (a cluster's glyphs are contiguous), plus attachments.
    static func computeCharacterBoxes(glyphs: [Glyph], lines: [Line], attachments: [PlacedAttachment],
                                      map: TextIndexMap, transform: AffineTransform) -> [CharacterBox] {
        var steps = 0
        return computeCharacterBoxes(glyphs: glyphs, lines: lines, attachments: attachments, map: map, transform: transform,
                                     steps: &steps)
    }

    /// The character boxes, adding the glyphs, graphemes and attachments stepped over to `steps` (the work,
    /// which tests count: `TextLayout+Testing.swift`).
    static func computeCharacterBoxes(glyphs: [Glyph], lines: [Line], attachments: [PlacedAttachment],
                                      map: TextIndexMap, transform: AffineTransform, steps: inout Int) -> [CharacterBox] {
        var out: [CharacterBox] = []
        func add(_ box: Rect, _ r: Range<Int>, _ line: Int) {
            out.append(CharacterBox(box: box, viewBounds: box.applying(transform), utf16: r, line: line))
        }
        var gi = 0
        while gi < glyphs.count {
            steps += 1
            let g = glyphs[gi]
            var end = gi + 1
            var x0 = g.x, adv = g.advance
            while end < glyphs.count && glyphs[end].utf16 == g.utf16 && glyphs[end].line == g.line
                    && glyphs[end].isEllipsis == g.isEllipsis {
                steps += 1
                x0 = min(x0, glyphs[end].x); adv += glyphs[end].advance; end += 1
            }
            defer { gi = end }
            if g.isEllipsis { continue }
            let line = lines[g.line]
            var parts: [Range<Int>] = []
            var k = map.grapheme(at: g.utf16.lowerBound)
            while k + 1 < map.graphemeStarts.count && map.graphemeStarts[k] < g.utf16.upperBound {
                steps += 1
                parts.append(max(map.graphemeStarts[k], g.utf16.lowerBound)..<min(map.graphemeStarts[k + 1], g.utf16.upperBound))
                k += 1
            }
            if parts.isEmpty { parts = [g.utf16] }
            for (n, r) in parts.enumerated() {
                let f0 = Double(n) / Double(parts.count), f1 = Double(n + 1) / Double(parts.count)
                let (a, b) = g.isRightToLeft ? (1 - f1, 1 - f0) : (f0, f1)
                add(Rect(minX: x0 + a * adv, minY: line.box.minY, maxX: x0 + b * adv, maxY: line.box.maxY), r, g.line)
            }
        }
        for pa in attachments {
            steps += 1
            let line = lines[pa.line]
            add(Rect(minX: pa.box.minX, minY: line.box.minY, maxX: pa.box.maxX, maxY: line.box.maxY),
                pa.attachment.at..<(pa.attachment.at + 1), pa.line)
        }
        return out
    }

    // MARK: Helpers

    func layoutPoint(_ p: Point) -> Point? { p.isFinite ? p.applying(inverse) : nil }

    func glyphIndex(at utf16: Int) -> Int? {
        guard utf16 >= 0, utf16 < glyphAt.count, glyphAt[utf16] >= 0 else { return nil }
        return Int(glyphAt[utf16])
    }

    /// The graphemes of `r` (clipped to it): the first grapheme's index and how many there are.
    func graphemeSpan(of r: Range<Int>) -> (first: Int, count: Int) {
        let first = map.grapheme(at: r.lowerBound)
        let last = r.isEmpty ? first : map.grapheme(at: max(r.lowerBound, r.upperBound - 1))
        return (first, max(1, last - first + 1))
    }

    /// Grapheme `first + n` clipped to `r`.
    func graphemePart(_ n: Int, first: Int, of r: Range<Int>) -> Range<Int> {
        let g = first + n
        guard g + 1 < map.graphemeStarts.count else { return r }
        return max(map.graphemeStarts[g], r.lowerBound)..<min(map.graphemeStarts[g + 1], r.upperBound)
    }

    /// The component of glyph `gi`'s cluster under `point`: the whole cluster, or for a ligature (a cluster
    /// of several graphemes) the grapheme whose share of the advance is under the point — by the font's
    /// GDEF carets when it has them, else equal shares. O(log n + carets), no allocation.
    func component(of gi: Int, at point: Point, x: Double? = nil) -> Range<Int> {
        let g = glyphs[gi]
        if g.isEllipsis { return g.utf16 }
        let (first, parts) = graphemeSpan(of: g.utf16)
        guard parts > 1, g.advance > 0, let lx = x ?? layoutPoint(point)?.x else { return g.utf16 }
        var f = (lx - g.x) / g.advance
        if g.isRightToLeft { f = 1 - f }
        f = min(max(f, 0), 0.999999)
        if let cs = carets[gi], cs.count == parts - 1 {
            // Carets are stored sorted (see LayoutEngine): the component is the number of carets at or before f.
            var n = 0
            while n < cs.count && f >= cs[n] { n += 1 }
            return graphemePart(n, first: first, of: g.utf16)
        }
        return graphemePart(min(parts - 1, Int(f * Double(parts))), first: first, of: g.utf16)
    }

    func makeHit(placement glyph: Int?, range: Range<Int>, line: Int, attachment: String?, distance: Double,
                 kind: TextHit.Kind, decoration: TextDecoration.Kind? = nil) -> TextHit {
        // The ellipsis stands for cut text: it is not part of a link. (A decoration's character is the
        // ellipsis only when its range is the truncated one: cut text is never on a line.)
        let isEllipsis = glyph.map { glyphs[$0].isEllipsis } ?? (truncated.map { $0 == range && decoration != nil } ?? false)
        let link = isEllipsis ? nil : linkMap.lastLink(overlapping: range).map { links[$0].tag }
        return TextHit(placement: glyph, utf16: range, utf8: map.utf8Range(range), character: map.grapheme(at: range.lowerBound),
                       line: line, link: link, attachment: attachment, decoration: decoration, distance: distance, kind: kind)
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}

extension TextLayout {
    /// Not API: the layout's own indexes for InkScene's text leaves, in the layout's view space — the ink of
    /// its glyphs (`glyph[k]`: the glyph of placement `k`) and its attachments' boxes (placement `k`:
    /// `attachments[k]`) — and the tolerance they meet, view px.
    package var sceneIndexes: (ink: HitIndex, glyph: [Int], attachments: HitIndex) {
        (inkIndex, inkGlyph, attachmentIndex)
    }

    /// Not API: the layout's decorations' index, in the layout's view space (placement `k` is
    /// `decorations[k]`).
    package var sceneDecorations: HitIndex { decorationIndex }

    /// Not API: decoration `k`'s rectangle as a shape in layout px (exact), for a transform of largest scale
    /// `maxScale`.
    package func decorationShape(_ k: Int, maxScale: Double, viewTolerance: Double) throws(ShapeError) -> GlyphShape {
        try Self.rectShape(decorations[k].rect, maxScale: maxScale, viewTolerance: viewTolerance)
    }

    /// Not API: whether both values come from one layout (the same built indexes and transform), cheaply.
    package func isSameLayout(as other: TextLayout) -> Bool {
        inkIndex.isSame(as: other.inkIndex) && attachmentIndex.isSame(as: other.attachmentIndex)
            && decorationIndex.isSame(as: other.decorationIndex) && transform == other.transform
    }

    /// Not API: attachment `k`'s (rounded) box as a shape in layout px, flattened for `viewTolerance` under a
    /// transform of largest scale `maxScale`.
    package func attachmentShape(_ k: Int, maxScale: Double, viewTolerance: Double) throws(TextError) -> GlyphShape {
        let pa = attachments[k]
        return try Self.boxShape(pa.box, cornerRadius: pa.attachment.cornerRadius, maxScale: maxScale,
                                 viewTolerance: viewTolerance, attachment: k)
    }

    /// Not API: the answer for attachment `k` hit at signed `distance` (view px), as `hit(at:)` gives it.
    package func attachmentHit(_ k: Int, distance: Double, isInside: Bool) -> TextHit {
        let pa = attachments[k]
        return makeHit(placement: nil, range: pa.attachment.at..<(pa.attachment.at + 1), line: pa.line,
                       attachment: pa.attachment.tag, distance: distance, kind: isInside ? .ink : .radius)
    }
}
