// Test hooks: `package` members for the package's own tests (never API; the Benchmarks package and users do not
// see them). Each shows a count of work done, so a test can say "refused before it was made" by counting.

extension GlyphShape.Sink {
    /// Polyline points the sink has made so far (every curve's points are evaluated and stored one by one).
    /// A refused outline shows here how much of it was made before the refusal.
    package var pointsMade: Int { made }
}
