import Foundation
import Testing
import InkJobs

/// The curve-exact example jobs: every point at least 0.05 px from a deciding boundary must match.
struct ExampleJobTests {
    @Test func examplesMatchCurveExactAnswers() throws {
        let jobs = try Fixture.lines("example-jobs.jsonl")
        let expected = try Fixture.lines("example-expected.jsonl").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let (got, ok) = runJobs(jobs)
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
            // The signed distance agrees with the reference within the flattening tolerance (+ rounding).
            if let gd = g["distance"] as? Double, e["glyph"] as? Int == g["glyph"] as? Int,
               let od = e["outline_distance"] as? Double {
                let sd = (e["inside"] as! Bool) ? -od : od
                #expect(abs(gd - sd) <= 0.011 + 1e-4, "distance, job \(e["job"]!) point \(e["i"]!)")
            }
        }
        #expect(checked > 700)
    }

    @Test func answersAreIndependentOfToleranceWhenFarFromEdges() throws {
        // Coarser (0.04 px) and finer (0.002 px) flattening must agree wherever the margin exceeds 0.05 px.
        let jobs = try Fixture.lines("example-jobs.jsonl")
        let expected = try Fixture.lines("example-expected.jsonl").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        for tol in [0.002, 0.04] {
            let (got, _) = runJobs(jobs, tolerance: tol)
            for (g, e) in zip(got, expected) where (e["boundary_margin"] as! Double) >= 0.05 {
                #expect(g["glyph"] as? Int == e["glyph"] as? Int, "tolerance \(tol) job \(e["job"]!) point \(e["i"]!)")
            }
        }
    }
}
