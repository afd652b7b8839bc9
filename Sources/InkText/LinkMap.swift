/// Which link covers each UTF-16 offset, for "the last link given that overlaps this range" in time
/// independent of the number of links.
///
/// Built in O(length + links): links are visited last to first, and each offset is written once (a
/// skip list of offsets already covered jumps over them). A range query reads the offsets of short ranges
/// and block maxima (64 offsets per block) across long ones.
struct LinkMap: Sendable {
    /// Per UTF-16 offset, the index of the last link covering it, or -1.
    private let at: [Int32]
    /// Per block of `blockSize` offsets, the largest entry of `at` in it.
    private let blockMax: [Int32]
    private static let blockSize = 64

    init(links: [TextLink], length: Int) {
        var at = [Int32](repeating: -1, count: length)
        // next[o]: the first offset ≥ o not yet covered (path-halving union-find over "covered" runs).
        var next = Array(0...length)
        func find(_ o: Int) -> Int {
            var o = o
            while next[o] != o { next[o] = next[next[o]]; o = next[o] }
            return o
        }
        for li in links.indices.reversed() {
            let r = links[li].range.clamped(to: 0..<length)
            var o = find(r.lowerBound)
            while o < r.upperBound {
                at[o] = Int32(li)
                next[o] = o + 1
                o = find(o + 1)
            }
        }
        var blocks = [Int32](repeating: -1, count: (length + Self.blockSize - 1) / Self.blockSize)
        for (o, l) in at.enumerated() where l > blocks[o / Self.blockSize] { blocks[o / Self.blockSize] = l }
        self.at = at
        self.blockMax = blocks
    }

    /// Index of the last link overlapping `r` (UTF-16 offsets), nil when none does.
    func lastLink(overlapping r: Range<Int>) -> Int? {
        let r = r.clamped(to: 0..<at.count)
        var best: Int32 = -1
        var o = r.lowerBound
        while o < r.upperBound {
            if o % Self.blockSize == 0 && o + Self.blockSize <= r.upperBound {
                best = max(best, blockMax[o / Self.blockSize])
                o += Self.blockSize
            } else {
                best = max(best, at[o])
                o += 1
            }
        }
        return best >= 0 ? Int(best) : nil
    }
}
