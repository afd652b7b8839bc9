import InkGeometry

/// Whether `a` and `b` differ by at most `tol` (`|a − b| ≤ tol`, in whatever unit both are in). NaN is
/// close to nothing, and two infinities are not close to each other (their difference is NaN), so a test
/// that compares against a broken value fails.
@inline(__always)
public func isClose(_ a: Double, _ b: Double, within tol: Double) -> Bool {
    abs(a - b) <= tol
}

/// Whether both coordinates of `a` and `b` differ by at most `tol` (the max-norm: a square of half-side
/// `tol` around `b`, not a disc).
@inline(__always)
public func isClose(_ a: Point, _ b: Point, within tol: Double) -> Bool {
    isClose(a.x, b.x, within: tol) && isClose(a.y, b.y, within: tol)
}
