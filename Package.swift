// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "InkHit",
    // InkJobs measures time with ContinuousClock (macOS 13). Linux needs no entry.
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "InkGeometry", targets: ["InkGeometry"]),
        .library(name: "InkHit", targets: ["InkHit"]),
        .library(name: "InkFreeType", targets: ["InkFreeType"]),
        .library(name: "InkText", targets: ["InkText"]),
        .library(name: "InkJobs", targets: ["InkJobs"]),
        .library(name: "InkScene", targets: ["InkScene"]),
        // The C interface (inkhit.h) as a shared library: .build/<config>/libInkHitC.so (a development build on the
        // toolchain's runtime); `./inkhit install-c` links its objects again as libInkHit.so, with the Swift runtime
        // inside and only the inkhit_* symbols exported (scripts/install-c.sh; README, "Use it from C").
        // CInkHitHost is in the shared library only: its constructor gives a C host back the signal dispositions the
        // Swift runtime takes on load (Sources/CInkHitHost/README.md).
        .library(name: "InkHitC", type: .dynamic, targets: ["InkHitC", "CInkHitHost"]),
        .executable(name: "ink-hit", targets: ["ink-hit"]),
    ],
    dependencies: [
        // Only the CLI uses it: subcommands, --help text, typed options.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // A plugin only (nothing is linked): `swift package generate-documentation` builds the DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // Geometry core: imports nothing, not even Foundation. Checked for strict memory safety (it uses no unsafe
        // construct); the other modules mark their raw-pointer members `@unsafe` (SE-0458).
        .target(name: "InkGeometry", swiftSettings: [.strictMemorySafety()]),
        // Glyph shapes, placements and the two-level hit index.
        .target(name: "InkHit", dependencies: ["InkGeometry"]),
        // Not API: the system FreeType through pkg-config (see Sources/CFreeType/README.md).
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]
        ),
        .target(name: "InkFreeType", dependencies: ["InkGeometry", "InkHit", "CFreeType"]),
        // Not API: system HarfBuzz and FriBidi (see their README.md).
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"]), .brew(["fribidi"])]),
        // Attributed text: shaping, bidi, paragraphs, links, attachments, hits that land on characters.
        .target(name: "InkText", dependencies: ["InkGeometry", "InkHit", "InkFreeType", "CHarfBuzz", "CFriBidi"]),
        // A UIKit-style hit-test tree (views, clips, slop, minimum sizes) whose leaves are ink-exact.
        .target(name: "InkScene", dependencies: ["InkGeometry", "InkHit", "InkFreeType", "InkText"]),
        // The C interface: the public header inkhit.h (the contract, installed by `./inkhit install-c`) and the
        // functions written in C (version, status names, the last error); not API: the handle registry and
        // the per-thread message (CInkHitRuntime); the functions written in Swift with @_cdecl (InkHitC).
        .target(name: "CInkHitRuntime"),
        // Not API: libInkHit's load-time constructor (the host's signal dispositions back; see its README).
        .target(name: "CInkHitHost"),
        .target(name: "CInkHit", dependencies: ["CInkHitRuntime"]),
        .target(
            name: "InkHitC",
            dependencies: ["CInkHit", "CInkHitRuntime", "InkGeometry", "InkHit", "InkFreeType", "InkText", "InkScene", "InkJobs"],
            // The export lists scripts/install-c.sh links with (GNU ld / lld version script, ld64 list).
            exclude: ["inkhit.map", "inkhit.exports"]
        ),
        // The `ink-hit query` job format: JSON lines in, JSON lines out (used by the CLI, tests and fuzzers).
        .target(name: "InkJobs", dependencies: ["InkGeometry", "InkHit", "InkFreeType", "InkText", "InkScene"]),
        .executableTarget(
            name: "ink-hit",
            dependencies: [
                "InkJobs", "InkText", "InkFreeType", "InkHit", "InkGeometry",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test support shared by every test target and the fuzzers: the seeded generator, the brute-force
        // oracle, random shapes and the test fonts (not a product: users never see it).
        .target(name: "InkTestSupport", dependencies: ["InkGeometry", "InkHit", "InkFreeType"], path: "Tests/InkTestSupport"),
        .testTarget(name: "InkGeometryTests", dependencies: ["InkGeometry", "InkTestSupport"]),
        .testTarget(name: "InkHitTests", dependencies: ["InkHit", "InkGeometry", "InkTestSupport"]),
        // CFreeType: the fidelity tests render and read strikes with FreeType itself, as a renderer would, for an oracle.
        .testTarget(name: "InkFreeTypeTests", dependencies: ["InkFreeType", "InkHit", "InkGeometry", "InkTestSupport", "CFreeType"]),
        .testTarget(name: "InkTextTests", dependencies: ["InkText", "InkFreeType", "InkHit", "InkGeometry", "InkTestSupport"]),
        .testTarget(name: "InkSceneTests", dependencies: ["InkScene", "InkText", "InkFreeType", "InkHit", "InkGeometry", "InkTestSupport"]),
        // Every Swift block of README.md and the DocC articles, compiled and run (see the test's doc comment).
        .testTarget(
            name: "DocumentationSnippetTests",
            dependencies: ["InkGeometry", "InkHit", "InkFreeType", "InkText", "InkScene", "InkJobs"]
        ),
        // The C interface called through its header: every function's signature against the header, the
        // curve-exact fixtures answered through it equal to the Swift API's, hostile calls, threads.
        .testTarget(
            name: "InkHitCTests",
            dependencies: ["InkHitC", "CInkHit", "InkJobs", "InkScene", "InkText", "InkFreeType", "InkHit", "InkGeometry",
                           "InkTestSupport",
                           // HarfBuzz's own hb_shape() arrays through inkhit_builder_add_shaped (HarfBuzzArraysTests).
                           "CHarfBuzz"],
            // A C program the hostile-call tests compile and run in child processes under a memory cap.
            exclude: ["Hostile"]
        ),
        // The built `ink-hit` binary run as a process: exit statuses, stdin and files, every subcommand.
        .testTarget(name: "InkHitCLITests", dependencies: ["InkJobs", "InkTestSupport"]),
        // The repository held to itself: comments and documents name files and symbols that exist, no function
        // in Sources is over 80 lines (scripts/long-functions.sh).
        .testTarget(name: "RepositoryTests", dependencies: ["InkTestSupport"]),
        .testTarget(
            name: "InkJobsTests",
            dependencies: ["InkJobs", "InkText", "InkFreeType", "InkHit", "InkGeometry", "InkTestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)

// CI's sanitizer builds (.ci/run) build only the test targets their sanitizer runs: INKHIT_SANITIZED_TESTS names
// them, comma-separated (README, "Tests": which suites, and why the rest add nothing there). The command-line tool
// is built only for its own tests. Unset (always, but in those builds), every target is built.
if let kept = Context.environment["INKHIT_SANITIZED_TESTS"].map({ Set($0.split(separator: ",").map(String.init)) }) {
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
    if !kept.contains("InkHitCLITests") {
        package.targets.removeAll { $0.name == "ink-hit" }
        package.products.removeAll { $0.name == "ink-hit" }
    }
}
