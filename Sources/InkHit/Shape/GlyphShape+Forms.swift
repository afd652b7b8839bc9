// A shape's two forms (see `GlyphShape`): each built the first time something reads it, once, outside the shape's
// lock and published under it. Index builds get theirs through the form choice (ShapeForms.swift, run before the
// placement table is built); the shape's own queries read `queryForm`. Publishing a form is also the one place its
// bytes are charged to the cache that holds the shape (`ShapeAccount`).

/// What a shape has built so far, and what decides and counts the rest. Guarded by `GlyphShape.formLock`.
struct FormSlots {
    /// The lean form, built by the first index that reads it (or the shape's own first query).
    var lean: LeanForm?
    /// The full form, built by the first index whose form choice reads it.
    var full: FullForm?
    /// Index builds that placed the shape so far (`ShapeFormChoice` counts one per build).
    var indexBuilds = 0
    /// True once a full form could not be built within the shape's limits (it is not tried again).
    var fullFailed = false
    /// The account of the cache that holds the shape, charged with the bytes of every form published later.
    var account: ShapeAccount?
}

extension GlyphShape {
    /// Guards `forms`: one of a few locks shared by all shapes (a lock per shape would cost an allocation per
    /// glyph, and forms are built rarely).
    var formLock: Lock { GlyphShape.formLocks[Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self).hashValue) &>> 6) & 63] }
    private static let formLocks = (0..<64).map { _ in Lock() }

    /// Counts one more index build that places the shape: how many have so far (this one included), and
    /// whether the shape has its full form. The form choice's input.
    func countIndexBuild() -> (builds: Int, hasFull: Bool) {
        formLock.withLock {
            forms.indexBuilds += 1
            return (forms.indexBuilds, forms.full != nil)
        }
    }

    /// The lean form, built if the shape has none yet (outside the lock, published under it). A grid beyond the
    /// shape's limits, or past the build's deadline, falls back to a single cell: exact, slower to query,
    /// never larger than the budget the shape was made within.
    func leanForm() -> LeanForm {
        if let lean = formLock.withLock({ forms.lean }) { return lean }
        let built: LeanForm
        do throws(ShapeError) {
            built = try LeanBuilder(polygon: polygon, limits: limits).build()
        } catch {
            built = (try? LeanBuilder(polygon: polygon, limits: limits, singleCell: true).build())
                ?? { preconditionFailure("a single-cell lean form is built whatever the limits and the time") }()
        }
        return formLock.withLock {
            if let lean = forms.lean { return lean }
            forms.lean = built
            forms.account?.charge(built.byteCount - leanEstimate)
            return built
        }
    }

    /// The full form, built if the shape has none yet (outside the lock, published under it); nil for a shape
    /// without edges and for one whose full form does not fit its limits (then it is not tried again). Two
    /// builds racing on one shape may both build it: the first published wins, the other is dropped.
    func fullForm() -> FullForm? {
        let (current, tryBuild) = formLock.withLock { (forms.full, forms.full == nil && !forms.fullFailed) }
        if let current { return current }
        guard tryBuild, polygon.edgeCount > 0 else { return nil }
        let built: FullForm?
        do throws(ShapeError) { built = try FullForm(edges: polygon.edges, limits: limits, fastDistance: fastDistance) }
        catch { built = nil }
        return formLock.withLock {
            if forms.full == nil, let built {
                forms.full = built
                forms.account?.charge(built.byteCount)
            } else if built == nil {
                forms.fullFailed = true
            }
            return forms.full
        }
    }

    /// The form the shape's own queries read (`contains`, `distance(to:)`): the full one if it has it, else the
    /// lean one, built on the first such query.
    var queryForm: ShapeForm {
        if let full = currentFull { return .full(full) }
        return .lean(leanForm())
    }

    /// The full form if the shape has one (nothing is built).
    var currentFull: FullForm? { formLock.withLock { forms.full } }

    /// Charges the bytes of the forms the shape publishes from now on to `account` (nil: to nobody). A
    /// `ShapeCache` calls it when it stores the shape and when it evicts it.
    @usableFromInline func chargeForms(to account: ShapeAccount?) {
        formLock.withLock { forms.account = account }
    }
}
