import Testing
import InkGeometry
import InkScene
import InkTestSupport

/// Mask nodes against the pixels themselves: a point is on the mask exactly when the pixel under it
/// reaches the threshold (points within 0.05 px of a pixel edge skipped), and its distance from outside is
/// the distance to the nearest such pixel square (brute force). Masks: a disc, a ring (a hole), a
/// checkerboard (pixels touching only at corners), random noise.
@Suite struct MaskTests {
    static func masks() -> [(String, AlphaMask)] {
        func mask(_ w: Int, _ h: Int, _ f: (Int, Int) -> UInt8) -> AlphaMask {
            var a: [UInt8] = []
            for y in 0..<h { for x in 0..<w { a.append(f(x, y)) } }
            return AlphaMask(width: w, height: h, alpha: a, threshold: 128)!
        }
        var rng = SplitMix64(seed: 9)
        let noise = (0..<(24 * 20)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        return [
            ("disc", mask(32, 32) { x, y in let dx = Double(x) - 15.5, dy = Double(y) - 15.5; return dx * dx + dy * dy < 196 ? 255 : 0 }),
            ("ring", mask(32, 32) { x, y in let d = (Double(x) - 15.5) * (Double(x) - 15.5) + (Double(y) - 15.5) * (Double(y) - 15.5); return d < 196 && d > 49 ? 200 : 10 }),
            ("checkerboard", mask(8, 8) { x, y in (x + y) % 2 == 0 ? 255 : 0 }),
            ("noise", AlphaMask(width: 24, height: 20, alpha: noise, threshold: 128)!),
        ]
    }

    @Test(arguments: masks().indices)
    func maskAnswersByItsPixels(_ k: Int) throws {
        let (name, mask) = Self.masks()[k]
        let bounds = Rect(minX: 0, minY: 0, maxX: Double(mask.width) * 3, maxY: Double(mask.height) * 2)   // 3 × 2 px per pixel
        var scene = Scene(root: Node(id: "root", bounds: Rect(minX: -50, minY: -50, maxX: 300, maxY: 300), pointerEvents: .boxNone))
        try scene.add(Node(id: "m", bounds: bounds, transform: .translation(10, 20), shape: .mask(mask)), to: "root")
        let s = try scene.snapshot()
        var rng = SplitMix64(seed: UInt64(k) + 100)
        var inked = 0
        for _ in 0..<3000 {
            let lx = -8 + (bounds.width + 16) * rng.unit(), ly = -8 + (bounds.height + 16) * rng.unit()
            let fx = lx / 3, fy = ly / 2
            if abs(fx - fx.rounded()) * 3 < 0.05 || abs(fy - fy.rounded()) * 2 < 0.05 { continue }
            let px = Int(fx.rounded(.down)), py = Int(fy.rounded(.down))
            let want = px >= 0 && py >= 0 && px < mask.width && py < mask.height && mask.alpha[py * mask.width + px] >= mask.threshold
            let p = Point(lx + 10, ly + 20)
            let hit = s.hit(at: p)
            #expect((hit?.node == "m") == want, "\(name): local (\(lx), \(ly))")
            if want { inked += 1; continue }
            // Outside: the distance to the nearest inked pixel square.
            var d = Double.infinity
            for y in 0..<mask.height { for x in 0..<mask.width where mask.alpha[y * mask.width + x] >= mask.threshold {
                let dx = max(Double(x) * 3 - lx, 0, lx - Double(x + 1) * 3), dy = max(Double(y) * 2 - ly, 0, ly - Double(y + 1) * 2)
                d = min(d, (dx * dx + dy * dy).squareRoot())
            } }
            if d < 6 - 0.05 {
                let near = try #require(s.hit(at: p, radius: 6), "\(name): local (\(lx), \(ly)) is \(d) px from the mask")
                #expect(isClose(near.distance, d, within: 1e-3), "\(name): \(near.distance) vs \(d)")
            }
        }
        #expect(inked > 100, "\(name): the points cross the mask's pixels")
    }

    @Test func invalidMasksAreRefused() {
        #expect(AlphaMask(width: 2, height: 2, alpha: [1, 2, 3]) == nil)
        #expect(AlphaMask(width: 0, height: 2, alpha: []) == nil)
        #expect(AlphaMask(width: 1, height: 1, alpha: [9], threshold: 0) == nil)
        #expect(AlphaMask(width: 5000, height: 5000, alpha: []) == nil)
    }
}
