// Test hooks: `package` members for the package's own tests and fuzzers (never API; the Benchmarks package and
// users do not see them).

extension GlyphShape {
    /// Gives the shape its full form now, as a second index would: for tests that compare the two forms.
    package func promote() { _ = fullForm() }

    /// Whether the shape has its full form.
    package var hasFullForm: Bool { currentFull != nil }

    /// Whether the shape has its lean form (built by its first index or its own first query).
    package var hasLeanForm: Bool { formLock.withLock { forms.lean != nil } }

}
