import InkGeometry

// Test hooks: `package` members for the package's own tests (never API). Each answers as the public call does
// and says how much work it took, so a test can judge how work grows by counting it instead of timing it.

extension TextLayout {
    /// `caret(at:)` and the lines and character boxes it looked at.
    package func caretCountingWork(at point: Point) -> (caret: CaretPosition?, visited: Int) {
        var visited = 0
        let c = caret(at: point, visited: &visited)
        return (c, visited)
    }

    /// `hit(at:mode:)` in a box mode (`.characterBoxes`, `.lineBoxes`) for a point on no attachment, and the
    /// boxes it looked at.
    package func boxHitCountingWork(at point: Point, mode: TextHitMode) -> (hit: TextHit?, visited: Int) {
        var visited = 0
        let h = boxHit(at: point, mode: mode, visited: &visited)
        return (h, visited)
    }

    /// The steps (glyphs, graphemes, attachments) making this layout's character boxes takes, made again here.
    package var characterBoxSteps: Int {
        var steps = 0
        _ = Self.computeCharacterBoxes(glyphs: glyphs, lines: lines, attachments: attachments, map: map,
                                       transform: transform, steps: &steps)
        return steps
    }
}
