import CMallocCounter
import Foundation
import InkBenchSupport
import InkGeometry
import InkScene

/// The hit-scene benchmark (`ChatScene`: a chat log of 1,000 messages, 10 nodes each): queries
/// at r = 0 and r = 8 root px through `SceneSnapshot`, the same points through the baseline walk
/// (`ChatBaseline`, UIKit's algorithm), moving one cell and taking a new snapshot, building the whole scene
/// (text layouts made beforehand: warm), and the agreement of the two on the first `checkPoints` points.
/// Times are medians of rounds (`Timing`); per query = round time / points of the round.
struct SceneNumbers {
    static let radii = [0.0, 8.0]
    /// Points compared with the baseline, and the baseline's timed points (the first of the same set).
    static let checkPoints = 20_000

    var nodes = 0, cells = 0, points = 0, layouts = 0, layoutSeconds = 0.0, setupSeconds = 0.0
    var lineCounts: [Int: Int] = [:]
    var extent = Rect.empty
    /// Per radius: ns per query, median (fastest round).
    var batch: [(median: Double, min: Double)] = [], single: [(median: Double, min: Double)] = []
    var singleSubset: [(median: Double, min: Double)] = [], baseline: [(median: Double, min: Double)] = []
    /// Per radius: ns per query over `ChatScene.screenPoints` (one screen at a time).
    var screen: [(median: Double, min: Double)] = []
    var allocsPerQuery: [Double] = [], allocsCounted = false
    var agreement: [SceneAgreement] = []
    /// Per radius: share of the checked points answered by each leaf kind (scene answers).
    var kinds: [[String: Int]] = []
    /// Seconds: one update + snapshot, one full build + first snapshot (median, fastest).
    var move = (median: 0.0, min: 0.0), build = (median: 0.0, min: 0.0), buildOnly = (median: 0.0, min: 0.0)

    static func measure(rounds: Int, seconds: Double) throws -> SceneNumbers {
        var n = SceneNumbers()
        let clock = ContinuousClock()
        let t0 = clock.now
        let chat = try ChatScene()
        n.setupSeconds = (clock.now - t0).seconds
        let base = ChatBaseline(chat)
        let snapshot = chat.snapshot, points = chat.points
        n.nodes = chat.nodes.count
        n.cells = chat.cells.count
        n.points = points.count
        n.layouts = chat.layoutCount
        n.layoutSeconds = chat.layoutSeconds
        n.extent = chat.listExtent
        for l in chat.messageLines { n.lineCounts[l, default: 0] += 1 }
        let sub = points.prefix(checkPoints)
        var sink = 0
        for r in radii {
            FileHandle.standardError.write("scene: checking r = \(r)…\n".data(using: .utf8)!)
            n.agreement.append(SceneAgreement.compare(snapshot, base, points: sub, radius: r))
            var k: [String: Int] = [:]
            for p in sub { k[SceneAgreement.kind(snapshot.hit(at: p, radius: r)?.node), default: 0] += 1 }
            n.kinds.append(k)

            FileHandle.standardError.write("scene: timing r = \(r)…\n".data(using: .utf8)!)
            n.batch.append(nsPerQuery(points.count, rounds, seconds) {
                let answers = snapshot.hits(for: points, radius: r)
                sink &+= answers.count
            })
            n.single.append(nsPerQuery(points.count, rounds, seconds) {
                for p in points where snapshot.hit(at: p, radius: r) != nil { sink &+= 1 }
            })
            n.screen.append(nsPerQuery(chat.screenPoints.count, rounds, seconds) {
                for p in chat.screenPoints where snapshot.hit(at: p, radius: r) != nil { sink &+= 1 }
            })
            n.singleSubset.append(nsPerQuery(sub.count, rounds, seconds) {
                for p in sub where snapshot.hit(at: p, radius: r) != nil { sink &+= 1 }
            })
            n.baseline.append(nsPerQuery(sub.count, rounds, seconds) {
                for p in sub where base.hit(at: p, radius: r) != nil { sink &+= 1 }
            })
            n.allocsCounted = LayoutNumbers.counterWorks()
            ink_malloc_counter_start()
            for p in sub where snapshot.hit(at: p, radius: r) != nil { sink &+= 1 }
            n.allocsPerQuery.append(Double(ink_malloc_counter_stop().allocations) / Double(sub.count))
        }

        FileHandle.standardError.write("scene: timing move + snapshot and build…\n".data(using: .utf8)!)
        var mover = chat.mover()
        n.move = Timing.stats(rounds: rounds, minSeconds: seconds) { sink &+= try! mover.step().count }
        n.build = Timing.stats(rounds: rounds, minSeconds: seconds) { sink &+= try! chat.buildAndSnapshot().count }
        // The build alone: each scene and snapshot is kept until after its round's clock stops.
        var samples: [Double] = []
        var kept: [(Scene, SceneSnapshot)] = []
        let clock2 = ContinuousClock()
        for _ in 0..<max(rounds, 31) {
            let t0 = clock2.now
            let built = try chat.buildSceneAndSnapshot()
            samples.append((clock2.now - t0).seconds)
            kept.append(built)
            if kept.count == 8 { kept.removeAll() }
        }
        samples.sort()
        n.buildOnly = (samples[samples.count / 2], samples[0])
        if sink == -1 { print("") }
        return n
    }

    static func nsPerQuery(_ count: Int, _ rounds: Int, _ seconds: Double, _ body: () -> Void) -> (median: Double, min: Double) {
        let s = Timing.stats(rounds: rounds, minSeconds: seconds, body)
        return (s.median * 1e9 / Double(count), s.min * 1e9 / Double(count))
    }

    var markdown: String {
        func f(_ x: Double, _ d: Int = 1) -> String { String(format: "%.\(d)f", x) }
        func ratio(_ x: Double, _ y: Double) -> String { String(format: x / y >= 10 ? "%.1f×" : "%.2f×", x / y) }
        func met(_ ok: Bool) -> String { ok ? "met" : "**missed**" }
        var s = "## Hit scene (chat log, 10,000 nodes)\n\n"
        s += "`ChatScene`: \(cells) message cells of \(ChatScene.nodesPerCell) nodes (cell, clipped content, avatar "
        s += "`AlphaMask` 32×32 shared by all cells, name and time labels, round-rect bubble, message paragraph in "
        s += "DejaVu Sans 15 px at 240 px with one link — \(lineCounts.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key) line\($0.key > 1 ? "s" : "")" }.joined(separator: ", ")) — "
        s += "a button row and two 20×20 buttons with minSize 44×44) under a screen and a clipping list: "
        s += "\(nodes) nodes, every transform a translation. \(points) uniform random points over the list's whole "
        s += "extent (\(f(extent.width, 0))×\(f(extent.height, 0)) root px, so every cell is hit at random). "
        s += "\(layouts) text layouts made in setup (\(f(layoutSeconds * 1e3, 0)) ms; setup in all \(f(setupSeconds * 1e3, 0)) ms).\n\n"
        s += "| query | r = 0 | r = 8 |\n|---|---|---|\n"
        func row(_ name: String, _ v: [(median: Double, min: Double)]) -> String {
            "| \(name) | " + v.map { "**\(f($0.median))** (\(f($0.min)))" }.joined(separator: " | ") + " |\n"
        }
        s += row("scene, `hits(for:radius:)` on all \(points) points, ns per query: median (fastest round)", batch)
        s += row("scene, a loop of `hit(at:radius:)`, all points", single)
        s += row("scene, a loop of `hit(at:radius:)`, taps one screen (\(Int(ChatScene.screenHeight)) px) at a time: 200 screens × 1,000 points", screen)
        s += row("scene, a loop of `hit(at:radius:)`, the first \(Self.checkPoints) points", singleSubset)
        s += row("baseline (recursive walk testing every child), the same \(Self.checkPoints) points", baseline)
        s += "| baseline / scene (same points, one call per point) | "
            + zip(baseline, singleSubset).map { ratio($0.median, $1.median) }.joined(separator: " | ") + " |\n"
        s += "| allocations per query (scene, `hit(at:radius:)`) | "
            + allocsPerQuery.map { allocsCounted ? f($0, 2) : "not counted" }.joined(separator: " | ") + " |\n"
        s += "| scene vs baseline on the first \(Self.checkPoints) points: disagreements / within \(SceneAgreement.borderlinePx) px of a boundary / **beyond** | "
            + agreement.map { "\($0.disagreements) / \($0.borderline) / **\($0.wrong)**" }.joined(separator: " | ") + " |\n"
        s += "| answers (scene, first \(Self.checkPoints) points) | "
            + kinds.map { $0.sorted { $0.value > $1.value }.map { "\($0.key) \(f(100 * Double($0.value) / Double(Self.checkPoints))) %" }.joined(separator: ", ") }.joined(separator: " | ") + " |\n\n"
        s += "| edit | median (fastest) |\n|---|---|\n"
        s += "| move one cell by 1 px (`update`) + `snapshot()` | **\(f(move.median * 1e6, 0)) µs** (\(f(move.min * 1e6, 0))) |\n"
        s += "| build: a fresh `Scene`, \(nodes) `add`s, first `snapshot()` (layouts made: warm) | **\(f(buildOnly.median * 1e3, 2)) ms** (\(f(buildOnly.min * 1e3, 2))) |\n"
        s += "| the same, and freeing the scene and snapshot of the round before | \(f(build.median * 1e3, 2)) ms (\(f(build.min * 1e3, 2))) |\n\n"
        s += "| target (hit scene) | measured | verdict |\n|---|---|---|\n"
        let worst = single.map(\.median).max() ?? .nan, worstScreen = screen.map(\.median).max() ?? .nan
        s += "| query (`hit(at:radius:)`) ≤ 1 µs median, r = 0 and r = 8, points over the whole list | \(single.map { f($0.median) }.joined(separator: " / ")) ns | \(met(worst <= 1000)) |\n"
        s += "| the same, taps one screen at a time | \(screen.map { f($0.median) }.joined(separator: " / ")) ns | \(met(worstScreen <= 1000)) |\n"
        s += "| move + snapshot ≤ 20 µs | \(f(move.median * 1e6, 0)) µs | \(met(move.median <= 20e-6)) |\n"
        s += "| build ≤ 10 ms warm | \(f(buildOnly.median * 1e3, 2)) ms | \(met(buildOnly.median <= 10e-3)) |\n"
        s += "| 0 allocations per query | \(allocsPerQuery.map { f($0, 2) }.joined(separator: " / ")) | \(allocsCounted ? met(allocsPerQuery.allSatisfy { $0 == 0 }) : "not counted") |\n"
        for a in agreement where a.wrong > 0 {
            s += "\n**Scene and baseline disagree beyond \(SceneAgreement.borderlinePx) px at r = \(a.radius)**:\n\n```\n\(a)\n```\n"
        }
        return s
    }
}

extension SceneNumbers {
    /// A plain loop for perf: `r0` / `r8` (queries over all points), `baseline-r0` / `baseline-r8` (the walk,
    /// first `checkPoints` points), `move` (update + snapshot) or `build` (fresh scene + first snapshot), for
    /// `seconds`.
    static func profile(_ kind: String, seconds: Double) throws {
        let chat = try ChatScene()
        var mover = chat.mover()
        let snapshot = chat.snapshot, r = kind.hasSuffix("r8") ? 8.0 : 0
        let base = ChatBaseline(chat)
        let clock = ContinuousClock()
        let t0 = clock.now
        var passes = 0, sink = 0
        while (clock.now - t0).seconds < seconds {
            switch kind {
            case "move": sink &+= try mover.step().count
            case "build": sink &+= try chat.buildAndSnapshot().count
            case "screen-r0", "screen-r8": for p in chat.screenPoints where snapshot.hit(at: p, radius: r) != nil { sink &+= 1 }
            case "baseline-r0", "baseline-r8": for p in chat.points.prefix(checkPoints) where base.hit(at: p, radius: r) != nil { sink &+= 1 }
            default: for p in chat.points where snapshot.hit(at: p, radius: r) != nil { sink &+= 1 }
            }
            passes += 1
        }
        print("profile scene-\(kind): \(passes) passes, \(String(format: "%.3f", (clock.now - t0).seconds * 1e3 / Double(passes))) ms each (\(sink))")
    }
}
