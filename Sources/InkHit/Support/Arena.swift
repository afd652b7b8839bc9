/// The one owner of InkHit's raw memory. Every buffer the index and the shapes read on the query path, and
/// every scratch buffer their builders index in inner loops, comes from an arena: a layout lists the
/// typed buffers first, then a single allocation (64-byte aligned) holds them all and is freed when the
/// arena goes away. Buffers hold trivial types only, so nothing needs deinitializing.
///
/// Handing out pointers into one block keeps a shape's data together (one allocation instead of six) and
/// keeps `allocate`/`deallocate` pairs out of every other file.
final class Arena: @unchecked Sendable {
    /// Where one typed buffer lives in the arena.
    struct Slot<Element> {
        fileprivate let offset: Int
        let count: Int
    }

    /// The buffers an arena will hold, in order.
    struct Layout {
        private(set) var byteCount = 0

        /// Reserves `count` elements of `Element` (`count` ≥ 0; a zero-count slot gets a valid empty buffer).
        mutating func reserve<Element>(_: Element.Type, count: Int, alignment: Int = 16) -> Slot<Element> {
            precondition(_isPOD(Element.self), "arena buffers hold trivial types only")
            precondition(count >= 0)
            let align = max(alignment, MemoryLayout<Element>.alignment)
            let offset = (byteCount + align - 1) / align * align
            byteCount = offset + max(count, 1) * MemoryLayout<Element>.stride
            return Slot(offset: offset, count: count)
        }
    }

    private let base: UnsafeMutableRawPointer
    /// Bytes allocated (all slots and their padding).
    let byteCount: Int

    init(_ layout: Layout) {
        byteCount = max(layout.byteCount, 1)
        base = .allocate(byteCount: byteCount, alignment: 64)
    }

    deinit { base.deallocate() }

    /// The buffer of `slot`, its memory bound to `Element` and not yet initialized.
    func buffer<Element>(_ slot: Slot<Element>) -> UnsafeMutableBufferPointer<Element> {
        let p = (base + slot.offset).bindMemory(to: Element.self, capacity: max(slot.count, 1))
        return UnsafeMutableBufferPointer(start: p, count: slot.count)
    }

    /// The buffer of `slot`, every element set to `value`.
    func buffer<Element>(_ slot: Slot<Element>, repeating value: Element) -> UnsafeMutableBufferPointer<Element> {
        let b = buffer(slot)
        b.initialize(repeating: value)
        return b
    }

    /// The buffer of `slot`, initialized from `elements` (which must have `slot.count` elements).
    func buffer<Element, C: Collection>(_ slot: Slot<Element>, from elements: C) -> UnsafeMutableBufferPointer<Element>
        where C.Element == Element {
        precondition(elements.count == slot.count)
        let b = buffer(slot)
        _ = b.initialize(fromContentsOf: elements)
        return b
    }
}

extension Arena {
    /// The scratch of a lean build's windings (`Windings`, LeanForm+Windings.swift): `rows + 1` zeroed row starts, and x
    /// and sign per crossing.
    struct WindingScratch {
        let arena: Arena
        let start: UnsafeMutablePointer<Int>
        let xs: UnsafeMutablePointer<Double>
        let signs: UnsafeMutablePointer<Int>
    }

    static func scratch(rows: Int, crossings n: Int) -> WindingScratch {
        var layout = Layout()
        let s = layout.reserve(Int.self, count: rows + 1)
        let x = layout.reserve(Double.self, count: n)
        let g = layout.reserve(Int.self, count: n)
        let arena = Arena(layout)
        return WindingScratch(arena: arena, start: arena.buffer(s, repeating: 0).baseAddress!,
                              xs: arena.buffer(x).baseAddress!, signs: arena.buffer(g).baseAddress!)
    }
}
