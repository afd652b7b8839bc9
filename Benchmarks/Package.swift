// swift-tools-version:6.1
// The InkHit benchmarks: a package of their own (as swift-log's Benchmarks/ is), so a user who depends
// on InkHit never resolves the benchmark harness. Run from this directory:
//
//   swift package --allow-writing-to-package-directory benchmark          # all benchmarks (release)
//   swift package benchmark thresholds check --filter '.*\.query\..*\.(batch|unsafe|single)'   # 0 allocations/query
//   swift run -c release ink-bench-summary                                # the table of BENCHMARKS.md
//
// See README.md here and BENCHMARKS.md at the repository root.
import PackageDescription

let package = Package(
    name: "InkHitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "InkHit", path: ".."),
        // The repository was renamed from ordo-one/package-benchmark; its plugin warns about the old identifier.
        // MallocInterposer (the default on Swift 6.3) counts allocations without jemalloc or any system package.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Workloads ("page", rotated page, '@', CJK line, scaling; laid out with InkText's TextLayout), the
        // CJK-fallback layout workload, and the Swift baselines that need only InkHit's public API: brute force
        // over stored edges (SplitMix64.swift and BruteForce.swift are symlinks to the library's test support,
        // Tests/InkTestSupport/, so tests, fuzzers and benchmarks share one generator and one oracle),
        // per-character glyph boxes; the "chat log" hit scene (InkScene) and its baseline, UIKit's recursive walk.
        .target(
            name: "InkBenchSupport",
            dependencies: [
                .product(name: "InkGeometry", package: "InkHit"),
                .product(name: "InkHit", package: "InkHit"),
                .product(name: "InkFreeType", package: "InkHit"),
                .product(name: "InkText", package: "InkHit"),
                .product(name: "InkScene", package: "InkHit"),
            ]
        ),
        // Not API: a malloc/calloc/realloc/aligned-alloc wrapper that counts bytes (linked into
        // ink-bench-summary only; the package-benchmark suite has its own interposer).
        .target(name: "CMallocCounter"),
        // Not API: the system FreeType for the coverage-bitmap baseline (its own rasteriser, independent of
        // InkHit's flattening). Kept apart from InkFreeType's shim so the two never meet in one Swift file.
        .systemLibrary(
            name: "CFreeTypeRaster",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]
        ),
        // The coverage-bitmap baseline: FreeType renders every placement into a page-sized 8-bit buffer.
        .target(
            name: "InkBenchRaster",
            dependencies: ["CFreeTypeRaster", .product(name: "InkGeometry", package: "InkHit")]
        ),
        // The page queries through the C interface (inkhit.h, the InkHitC product) next to the Swift ones
        // used by the suite (CABIBenchmarks.swift) and by `ink-bench-summary cabi`.
        .target(
            name: "InkBenchCABI",
            dependencies: ["InkBenchSupport", .product(name: "InkHitC", package: "InkHit"),
                           .product(name: "InkHit", package: "InkHit"), .product(name: "InkFreeType", package: "InkHit")]
        ),
        // The package-benchmark suite (wallClock, throughput, mallocCountTotal with 0-allocation thresholds).
        .executableTarget(
            name: "InkHitBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "InkBenchSupport", "InkBenchRaster",
                "InkBenchCABI",  // the C interface (CABIBenchmarks.swift)
                .product(name: "InkGeometry", package: "InkHit"),
                .product(name: "InkHit", package: "InkHit"),
                .product(name: "InkFreeType", package: "InkHit"),
                .product(name: "InkText", package: "InkHit"),
                .product(name: "InkScene", package: "InkHit"),
            ],
            path: "Benchmarks/InkHitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Not API: runs one command as a child of a small process and prints its wall time and peak RSS
        // (`ink-bench-summary cold --process`; see its main.c for why a process of its own).
        .executableTarget(name: "ink-bench-spawn"),
        // One run → the whole table of BENCHMARKS.md (medians, ratios, wrong answers, memory, peak RSS);
        // also a small driver for perf / callgrind (`ink-bench-summary profile`).
        // Also `ink-bench-summary compare`, the machine-readable subset scripts/bench-compare.sh runs on two
        // commits.
        .executableTarget(
            name: "ink-bench-summary",
            dependencies: [
                "InkBenchSupport", "InkBenchRaster", "CMallocCounter",
                "InkBenchCABI",  // the C interface: `ink-bench-summary cabi` (CABI.swift)
                "ink-bench-spawn",  // cold whole processes: built with it, for `cold --process` (Cold+Process.swift)
                .product(name: "InkGeometry", package: "InkHit"),
                .product(name: "InkHit", package: "InkHit"),
                .product(name: "InkFreeType", package: "InkHit"),
                .product(name: "InkText", package: "InkHit"),
                .product(name: "InkScene", package: "InkHit"),
                .product(name: "InkJobs", package: "InkHit"),  // cold whole processes: JSONValue.quoted for `cold --process`'s jobs
            ]
        ),
    ]
)
