/// The time limit of the shape builds a thread is running: flattening, grids, color-layer unions, pixel
/// staircases and scene regions check it inside their long loops and give up with a typed error
/// (`ShapeError.timeLimit` here, the calling module's own error above it) instead of running on.
///
/// The limit is task-local (bound for the duration of a closure, on the current thread or task), so a job
/// runner, a C call or a layout sets it once and every build below it sees it, without a deadline parameter
/// on every initializer:
///
/// ```swift
/// let limit = ContinuousClock.now + .milliseconds(500)
/// let shape = try BuildDeadline.within(limit) { () throws(ShapeError) -> GlyphShape in
///     try GlyphShape(tolerance: 0.01) { sink in
///         sink.move(to: Point(0, 0)); sink.addLine(to: Point(1, 0)); sink.addLine(to: Point(0, 1)); sink.closeSubpath()
///     }
/// }
/// print(shape.edgeCount)                  // 3: built well within the limit
/// ```
///
/// Builds check it about every 4,096 units of work (segments, cells, pixels), so a build that passes the
/// limit stops within about a millisecond of it on this machine; the documented overrun of a job (~100 ms)
/// covers the rest.
public enum BuildDeadline {
    /// The instant (monotonic clock) after which builds started on this thread or task give up; nil: none.
    public static var current: ContinuousClock.Instant? { limit }

    @TaskLocal static var limit: ContinuousClock.Instant?

    /// Runs `body` with `deadline` as the limit of every build it starts. A nested call keeps the earlier of
    /// the two limits; nil keeps the enclosing one.
    public static func within<R, E: Error>(_ deadline: ContinuousClock.Instant?, _ body: () throws(E) -> R) throws(E) -> R {
        let effective: ContinuousClock.Instant?
        switch (current, deadline) {
        case (nil, let d): effective = d
        case (let c, nil): effective = c
        case (let c?, let d?): effective = min(c, d)
        }
        let result: Result<R, E> = $limit.withValue(effective) {
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// True when the current limit has passed (false without one). Costs a clock read: call it every few
    /// thousand units of work, not per unit.
    public static var hasPassed: Bool {
        guard let d = current else { return false }
        return ContinuousClock.now >= d
    }
}
