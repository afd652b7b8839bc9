/// A growable buffer of trivial elements for builders' inner loops: `append` checks the capacity and nothing
/// else (no copy-on-write, no exclusivity checks), and the buffer doubles when full. Memory from here, as from
/// `Arena`, is freed when the buffer goes away (it cannot be copied).
struct ScratchBuffer<Element>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    /// An empty buffer with room for `capacity` elements.
    init(capacity: Int) {
        precondition(_isPOD(Element.self), "scratch buffers hold trivial types only")
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always) mutating func append(_ e: Element) {
        if count == capacity { grow() }
        base[count] = e
        count &+= 1
    }

    /// Makes room for `extra` more elements, for `appendReserved`.
    @inline(__always) mutating func reserve(_ extra: Int) {
        while count + extra > capacity { grow() }
    }

    /// Appends within room made by `reserve` (no capacity check).
    @inline(__always) mutating func appendReserved(_ e: Element) {
        base[count] = e
        count &+= 1
    }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    /// The elements so far (valid until the next `append`).
    var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }
}
