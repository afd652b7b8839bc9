// Test hooks: `package` members for the package's own tests and fuzzers (never API; the Benchmarks package and
// users do not see them). Each shows a form the shape holds or a count of work done, so a test can say "refused
// before it was made" by counting.

extension GlyphShape {
    /// Gives the shape its full form now, as a second index would: for tests that compare the two forms.
    package func promote() { _ = fullForm() }

    /// Whether the shape has its full form.
    package var hasFullForm: Bool { currentFull != nil }

    /// Whether the shape has its lean form (built by its first index or its own first query).
    package var hasLeanForm: Bool { formLock.withLock { forms.lean != nil } }
}

extension GlyphShape.Sink {
    /// Polyline points the sink has made so far (every curve's points are evaluated and stored one by one).
    /// A refused outline shows here how much of it was made before the refusal.
    package var pointsMade: Int { made }
}
