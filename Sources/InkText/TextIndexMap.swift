/// Offsets of a string in UTF-16, UTF-8, scalars and graphemes (extended grapheme clusters, Swift's
/// `Character`), for mapping between them.
struct TextIndexMap: Sendable {
    let utf16: [UInt16]
    /// For each scalar: its UTF-16 offset (plus one final entry = UTF-16 length).
    let scalarUTF16: [Int]
    let scalars: [Unicode.Scalar]
    /// UTF-16 offset → UTF-8 offset (length utf16.count + 1; inside a surrogate pair, the pair's start).
    let utf8At: [Int]
    /// UTF-16 offsets where graphemes start (plus one final entry = UTF-16 length).
    let graphemeStarts: [Int]

    /// Throws `.offsetInsideCharacter` when `r` (inside the text) starts or ends inside a surrogate pair;
    /// `name` names the range (`links[2]`).
    func checkBoundaries(_ r: Range<Int>, _ name: String) throws(TextError) {
        if isInsideSurrogatePair(utf16, at: r.lowerBound) { throw .offsetInsideCharacter(field: name + ".start", offset: r.lowerBound) }
        if isInsideSurrogatePair(utf16, at: r.upperBound) { throw .offsetInsideCharacter(field: name + ".end", offset: r.upperBound) }
    }

    init(_ text: String) {
        utf16 = Array(text.utf16)
        var su: [Int] = [], sc: [Unicode.Scalar] = []
        var u8 = [Int](repeating: 0, count: utf16.count + 1)
        var o16 = 0, o8 = 0
        for s in text.unicodeScalars {
            su.append(o16); sc.append(s)
            let n16 = s.utf16.count
            for k in 0..<n16 { u8[o16 + k] = o8 }
            o16 += n16; o8 += s.utf8.count
        }
        su.append(o16)
        u8[o16] = o8
        scalarUTF16 = su; scalars = sc; utf8At = u8
        var gs: [Int] = []
        var g16 = 0
        for ch in text { gs.append(g16); g16 += ch.utf16.count }
        gs.append(g16)
        graphemeStarts = gs
    }

    var length: Int { utf16.count }

    /// Index of the grapheme containing UTF-16 offset `o` (the last one for o == length).
    func grapheme(at o: Int) -> Int {
        var lo = 0, hi = graphemeStarts.count - 1          // graphemeStarts[lo] <= o < graphemeStarts[hi]
        if o >= length { return max(0, graphemeStarts.count - 2) }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if graphemeStarts[mid] <= o { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// The grapheme-aligned range covering `r`.
    func graphemeRange(covering r: Range<Int>) -> Range<Int> {
        let a = grapheme(at: r.lowerBound)
        let b = r.isEmpty ? a : grapheme(at: max(r.lowerBound, r.upperBound - 1))
        return graphemeStarts[a]..<graphemeStarts[b + 1]
    }

    func utf8Range(_ r: Range<Int>) -> Range<Int> {
        utf8At[max(0, min(r.lowerBound, length))]..<utf8At[max(0, min(r.upperBound, length))]
    }

    /// Index of the scalar at UTF-16 offset `o`.
    func scalarIndex(at o: Int) -> Int {
        var lo = 0, hi = scalarUTF16.count - 1
        if o >= length { return scalars.count }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if scalarUTF16[mid] <= o { lo = mid } else { hi = mid }
        }
        return lo
    }
}

/// The rule for every UTF-16 offset a layout's ranges start or end at (links and runs, from Swift, jobs, C
/// and Python alike): not between the two units of a surrogate pair, the one place a UTF-16 offset falls
/// inside a character. True when the unit at `i` of `units` is a trail surrogate (`units` is valid UTF-16: a
/// Swift string's).
package func isInsideSurrogatePair<Units: Collection>(_ units: Units, at i: Units.Index) -> Bool where Units.Element == UInt16 {
    i != units.endIndex && UTF16.isTrailSurrogate(units[i])
}
