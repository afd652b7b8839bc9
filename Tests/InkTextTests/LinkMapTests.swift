import Testing
@testable import InkText
import InkTestSupport

/// `LinkMap` answers "the last link given that overlaps this range" like a scan of every link (the
/// brute-force oracle), for random overlapping links and random ranges, long ones included (which cross
/// the 64-offset blocks).
@Suite struct LinkMapTests {
    static func bruteForce(_ links: [TextLink], _ r: Range<Int>) -> Int? {
        links.indices.last { links[$0].range.overlaps(r) }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func lastOverlappingLinkMatchesAScanOfEveryLink(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let length = 1 + Int(rng.next() % 600)
        let count = Int(rng.next() % 40)
        var links: [TextLink] = []
        for k in 0..<count {
            let a = Int(rng.next() % UInt64(length))
            let long = rng.next() % 4 == 0
            let b = min(length, a + 1 + Int(rng.next() % (long ? 300 : 6)))
            links.append(TextLink(range: a..<b, tag: "l\(k)"))
        }
        let map = LinkMap(links: links, length: length)
        for _ in 0..<400 {
            let a = Int(rng.next() % UInt64(length + 1))
            let b = min(length, a + Int(rng.next() % (rng.next() % 3 == 0 ? 400 : 4)))
            #expect(map.lastLink(overlapping: a..<b) == Self.bruteForce(links, a..<b), "seed \(seed): \(a)..<\(b)")
        }
        // Ranges reaching outside the text are clipped to it.
        #expect(map.lastLink(overlapping: -5..<(length + 5)) == Self.bruteForce(links, 0..<length))
    }

    /// 100,000 links over 1,000,000 offsets build in one pass (each offset written once): the whole-text
    /// query and a late offset still give the last link covering them.
    @Test func manyLinksAreBuiltOnce() {
        let n = 1_000_000
        let links = (0..<100_000).map { TextLink(range: ($0 * 7)..<($0 * 7 + 500), tag: "") }
        let map = LinkMap(links: links, length: n)
        #expect(map.lastLink(overlapping: 0..<n) == 99_999)
        #expect(map.lastLink(overlapping: 700_000..<700_001) == 99_999)
        #expect(map.lastLink(overlapping: 3..<4) == 0)
        #expect(map.lastLink(overlapping: 700_492..<700_493) == 99_999)      // 99,999 × 7 + 500 = 700,493
        #expect(map.lastLink(overlapping: 700_493..<700_494) == nil)
        #expect(map.lastLink(overlapping: 350..<351) == 50)                  // links 0…50 cover it; 50 × 7 = 350
        #expect(map.lastLink(overlapping: 900_000..<n) == nil)
    }
}
