import Foundation
import Testing
import InkJobs
import InkTestSupport

/// The curve-exact example jobs: every point at least 0.05 px from a deciding boundary must match.
struct ExampleJobTests {
    /// `example`: two jobs made outside this project with a curve-exact tool; `heldout`: 16 jobs made by scripts/curve_exact (Latin with kerning,
    /// ligatures, marks, astral letters, CJK, overlapping glyphs, 200 px singles, 30° rotation, 2.5× scale,
    /// radius 0 / 2 / 3.5); `stress`: 12 more (make_stress_jobs.py: other DejaVu styles, 7 to 150 px,
    /// shear, 3 × 0.7 scale, y-flip, 73° rotation, radius 1 to 8); `cff`: 16 jobs on cubic outlines
    /// (make_cff_jobs.py: five Cantarell CFF weights, 16 to 200 px, a mixed Cantarell + DejaVu job, 30°
    /// rotation, shear, 2.5 × 0.8 scale, overlaps, radius 0 to 3.5), answered against the exact cubics;
    /// `fidelity`: 38 jobs on what renderers draw (make_fidelity_jobs.py: Inter variable instances made by
    /// fontTools' instancer, synthetic bold and oblique and hinting from FreeType's own outlines, Noto Color
    /// Emoji bitmaps decoded from their PNGs, COLR v0/v1 and SVG glyphs of the checked-in color test font).
    @Test(arguments: ["example", "heldout", "stress", "cff", "fidelity"])
    func jobsMatchCurveExactAnswers(_ set: String) throws {
        let jobs = try Fixture.lines("\(set)-jobs.jsonl")
        let expected = try Fixture.lines("\(set)-expected.jsonl").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let (got, ok) = try runJobs(jobs)
        #expect(ok.allSatisfy { $0 })
        #expect(got.count == expected.count)
        var checked = 0
        for (g, e) in zip(got, expected) {
            #expect(g["job"] as? String == e["job"] as? String)
            #expect(g["i"] as? Int == e["i"] as? Int)
            guard (e["boundary_margin"] as! Double) >= 0.05 else { continue }
            checked += 1
            #expect(g["hit"] as? Bool == e["hit"] as? Bool, "job \(e["job"]!) point \(e["i"]!)")
            #expect(g["glyph"] as? Int == e["glyph"] as? Int, "job \(e["job"]!) point \(e["i"]!)")
            // `outline_distance` is the distance to the nearest outline of any glyph. A hit outside the ink
            // is on the nearest glyph, so the distances agree within the flattening tolerance (+ rounding);
            // inside, the hit glyph's outline can only be as far or farther.
            if let gd = g["distance"] as? Double, e["glyph"] as? Int == g["glyph"] as? Int,
               let od = e["outline_distance"] as? Double {
                if e["inside"] as! Bool {
                    // Inside a color glyph the distance is to the nearest layer edge, which may lie in the ink.
                    if ["colorLayers", "colorPaint"].contains(g["ink"] as? String) { #expect(gd <= 0); continue }
                    // The fidelity set's variable-font instances come from fontTools, whose coordinates may differ
                    // from FreeType's by a font unit (Fixtures/README.md): 0.1 px at 200 px.
                    let slack = set == "fidelity" ? 0.1111 : 0.0111
                    #expect(gd <= 0 && -gd >= od - slack, "inside distance, job \(e["job"]!) point \(e["i"]!)")
                } else {
                    #expect(isClose(gd, od, within: 0.0111), "distance, job \(e["job"]!) point \(e["i"]!)")
                }
            }
        }
        // Points with margin ≥ 0.05 px: example 793, heldout 6,082, stress 6,449, cff 5,419, fidelity 11,168
        // (Fixtures/README.md).
        let least = ["example": 700, "cff": 5000, "fidelity": 11000][set] ?? 6000
        #expect(checked > least)
    }

    @Test func answersAreIndependentOfToleranceWhenFarFromEdges() throws {
        // Coarser (0.04 px) and finer (0.002 px) flattening must agree wherever the margin exceeds 0.05 px.
        let jobs = try Fixture.lines("example-jobs.jsonl")
        let expected = try Fixture.lines("example-expected.jsonl").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        for tol in [0.002, 0.04] {
            let (got, _) = try runJobs(jobs, tolerance: tol)
            for (g, e) in zip(got, expected) where (e["boundary_margin"] as! Double) >= 0.05 {
                #expect(g["glyph"] as? Int == e["glyph"] as? Int, "tolerance \(tol) job \(e["job"]!) point \(e["i"]!)")
            }
        }
    }
}
