/// Limits on the work and memory one shape may take. Exceeding one is a typed error, never a crash.
public struct ShapeLimits: Sendable, Hashable {
    /// Most polygon edges (after flattening) per shape.
    public var maxEdges: Int
    /// Most grid cells along one axis of a shape's grid.
    public var maxCellsPerAxis: Int
    /// Most bytes one shape's storage may take (edges, grid, crossing and near lists).
    public var maxBytes: Int
    /// `maxCellsPerAxis` is clamped to 2...1024 (a grid needs two cells to cover a glyph box), `maxEdges`
    /// to 0...2³¹ − 1 (edge and list indices are 32-bit).
    public init(maxEdges: Int = 1_000_000, maxCellsPerAxis: Int = 192, maxBytes: Int = 256 << 20) {
        self.maxEdges = max(0, min(maxEdges, Int(Int32.max)))
        self.maxCellsPerAxis = max(2, min(maxCellsPerAxis, 1024))
        self.maxBytes = max(0, maxBytes)
    }
    /// 1,000,000 edges, 192 cells per axis, 256 MiB.
    public static let `default` = ShapeLimits()
}
