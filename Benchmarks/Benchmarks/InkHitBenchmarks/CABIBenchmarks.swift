// The page workload's queries through the C interface (inkhit.h), benchmarked in the same run as the Swift
// ones (`page.query.*.single` and `page.query.*.unsafe` in InkHitBenchmarks.swift): `page.cabi.<r>.single`
// calls `inkhit_index_hit` per point, `page.cabi.<r>.batch` `inkhit_index_hit_batch` on all points. Both assert
// zero allocations (thresholds below and Thresholds/). `CABIPage` (Sources/InkBenchCABI) builds the C index
// and checks it against the Swift one on every point in setup.
import Benchmark
import InkBenchCABI
import InkBenchSupport

enum CABIFixtures {
    static let page = try! CABIPage(Fixtures.page)
}

func cabiBenchmarks() {
    for (r, tag) in [(0.0, "r0"), (3.5, "r3.5")] {
        Benchmark("page.cabi.\(tag).single", configuration: queryConfig(zeroAllocs: true)) { benchmark in
            let c = CABIFixtures.page
            measureQuery(benchmark, points: c.points.count) { c.single(radius: r) }
            blackHole(c.answers[0])
        } setup: { _ = CABIFixtures.page }
        Benchmark("page.cabi.\(tag).batch", configuration: queryConfig(zeroAllocs: true)) { benchmark in
            let c = CABIFixtures.page
            measureQuery(benchmark, points: c.points.count) { c.batch(radius: r) }
            blackHole(c.answers[0])
        } setup: { _ = CABIFixtures.page }
    }
}
