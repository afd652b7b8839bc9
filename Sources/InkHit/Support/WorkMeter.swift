/// Not API: counts of the work the shape builds of a thread or task have done, for the package's own tests. A
/// test that must show a limit held *before* the work was done counts the work instead of timing it
/// (`BoundedColorGlyphTests`):
///
///     let meter = WorkMeter()
///     let error = meter.during { Self.shapeError(font, 2, pxPerEm: 16) }
///     #expect(meter[.outlinePoints] == 0)          // refused from its counted cost, nothing flattened
///
/// The meter is task-local (as `BuildDeadline`), so tests running in parallel count only their own work.
/// Without a meter bound (always, outside the tests) a count costs one task-local read; counts are taken per
/// shape, layer, bitmap or paint walk, never per point.
package final class WorkMeter: @unchecked Sendable {
    /// What is counted.
    package enum Work: Int, CaseIterable, Sendable {
        /// Outline points made for shapes: curves flattened by `GlyphShape.Sink` and by color-layer unions,
        /// and the vertices of polygons handed to `GlyphShape(polygon:)`.
        case outlinePoints
        /// COLR v1 paint tables visited by paint-graph walks.
        case paintsVisited
        /// Bitmap pixels decoded (color and bitmap-only glyphs).
        case bitmapPixels
    }

    private let lock = Lock()
    private var counts = [Int](repeating: 0, count: Work.allCases.count)

    package init() {}

    /// How much of `work` was counted while this meter was bound.
    package subscript(_ work: Work) -> Int { lock.withLock { counts[work.rawValue] } }

    /// Runs `body` with this meter counting the work of every build it starts on this thread or task.
    package func during<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = Self.$current.withValue(self) {
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    @TaskLocal static var current: WorkMeter?

    /// Adds `n` to `work` on the meter bound, if any.
    package static func count(_ n: Int, _ work: Work) {
        guard n != 0, let meter = current else { return }
        meter.lock.withLock { meter.counts[work.rawValue] += n }
    }
}
