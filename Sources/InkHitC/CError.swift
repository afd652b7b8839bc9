import CInkHit
import CInkHitRuntime
import InkGeometry
import InkHit
import InkFreeType
import InkText
import InkScene

/// A failed call: its status code and what to say. `report(_:)` turns it into the status a function
/// returns and the calling thread's message ("FUNCTION: message").
struct CError: Error {
    var status: inkhit_status
    var message: String

    init(_ status: Int, _ message: String) {
        self.status = inkhit_status(status)
        self.message = message
    }

    /// A required pointer argument is NULL.
    static func null(_ argument: String) -> CError { CError(INKHIT_ERROR_NULL_ARGUMENT, "\(argument) is NULL") }

    /// An argument out of its range.
    static func argument(_ message: String) -> CError { CError(INKHIT_ERROR_INVALID_ARGUMENT, message) }

    /// Sets the thread's message and returns the status. Kept out of line: the query paths stay small.
    @inline(never)
    func report(_ function: StaticString) -> inkhit_status {
        var text = "\(function): \(message)"
        text.withUTF8 { ihr_set_error(UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: CChar.self), $0.count) }
        return status
    }
}

/// Runs `body`, returning INKHIT_OK, or the status of the error it throws (with the thread's message set).
@inline(__always)
func call(_ function: StaticString, _ body: () throws(CError) -> Void) -> inkhit_status {
    do {
        try body()
        return inkhit_status(INKHIT_OK)
    } catch {
        return error.report(function)
    }
}

// MARK: The library's errors as statuses (the message is the error's own description)

extension CError {
    init(_ e: FontError, _ prefix: String = "") {
        let status: Int
        switch e {
        case .fileNotFound, .notAFile, .unreadable:
            status = INKHIT_ERROR_FILE
        case .emptyData, .notAFont, .notScalable, .faceIndexOutOfRange, .freeType, .notVariable, .unknownAxis,
             .invalidVariation, .unknownInstance, .notTheDrawnFont:
            status = INKHIT_ERROR_FONT
        case .invalidStyle:
            status = INKHIT_ERROR_INVALID_ARGUMENT
        case .glyphOutOfRange, .noOutline, .tooManyPoints, .brokenOutline, .brokenColorGlyph, .colorPaintCycle,
             .colorGlyphTooComplex, .brokenBitmap:
            status = INKHIT_ERROR_GLYPH
        case .invalidPlacement:
            status = INKHIT_ERROR_PLACEMENT
        case .shape(_, _, .timeLimit):
            status = INKHIT_ERROR_LIMIT
        case .shape:
            status = INKHIT_ERROR_SHAPE
        case .placement(let p):
            self.init(p, prefix)
            return
        }
        self.init(status, prefix + e.description)
    }

    init(_ e: ShapeError, _ prefix: String = "") {
        self.init(e == .timeLimit ? INKHIT_ERROR_LIMIT : INKHIT_ERROR_SHAPE, prefix + e.description)
    }

    init(_ e: HitIndexError, _ prefix: String = "") {
        let status: Int
        switch e {
        case .invalidTolerance: status = INKHIT_ERROR_INVALID_ARGUMENT
        case .tooManyPlacements: status = INKHIT_ERROR_LIMIT
        case .nonFiniteTransform, .singularTransform, .scaleOutOfRange, .shapeTooCoarse, .coordinateOutOfRange:
            status = INKHIT_ERROR_PLACEMENT
        }
        self.init(status, prefix + e.description)
    }

    init(_ e: TextError) {
        let status: Int
        switch e {
        case .noFonts, .invalidSize, .invalidWidth, .invalidMaxLines, .invalidOrigin, .invalidTransform, .glyphStyle,
             .invalidParagraph:
            status = INKHIT_ERROR_INVALID_ARGUMENT
        case .linkOutOfRange, .attachmentNotOnPlaceholder, .invalidAttachment, .invalidRun, .invalidExclusion:
            status = INKHIT_ERROR_LAYOUT
        case .offsetInsideCharacter:
            status = INKHIT_ERROR_INVALID_TEXT
        case .decoration:
            status = INKHIT_ERROR_PLACEMENT
        case .tooLong, .shapeBytes, .pastDeadline:
            status = INKHIT_ERROR_LIMIT
        case .glyph(_, _, let f):
            status = Int(CError(f).status)
        case .attachmentPlacement(_, let h), .index(let h):
            status = Int(CError(h).status)
        }
        self.init(status, e.description)
    }

    init(_ e: SceneError) {
        let status: Int
        switch e {
        case .duplicateID, .unknownNode, .cannotRemoveRoot, .idChanged: status = INKHIT_ERROR_SCENE
        case .invalidNode: status = INKHIT_ERROR_INVALID_ARGUMENT
        case .shape(_, let shape): status = Int(CError(shape).status)
        case .shapeBytes, .timeLimit: status = INKHIT_ERROR_LIMIT
        case .placement(_, let h): status = Int(CError(h).status)
        case .glyph(_, _, let f): status = Int(CError(f).status)
        }
        self.init(status, e.description)
    }
}
