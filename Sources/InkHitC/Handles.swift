import CInkHit
import CInkHitRuntime
import InkHit
import InkFreeType
import InkScene
import InkText

// The objects behind the handles of inkhit.h, and the one place handles are made, looked up and released.
// A handle is a registry token (CInkHitRuntime), never an address: the registry holds one retain of its
// object from `register` to `release`. A lookup announces the object in the calling thread's hazard before
// trusting it (`ihr_protect`); a release takes the handle out of the registry and waits until no thread's
// hazard names the object before dropping its retain. So a handle released while other threads use it is
// safe: their calls finish with the object, later calls get INKHIT_ERROR_INVALID_HANDLE. The hot queries
// keep the hazard for the call (no atomic read-modify-write on the object's count); the other calls take a
// strong reference under it (`resolve`).

/// What a handle names; the raw values are the registry's kinds.
enum HandleKind: UInt32 {
    case font = 1, shapeCache, builder, index, layout, scene, snapshot, jobRunner

    /// The name with its article ("an index").
    var article: String { (self == .index ? "an " : "a ") + name }

    /// The type's name in messages ("font").
    var name: String {
        switch self {
        case .font: return "font"
        case .shapeCache: return "shape cache"
        case .builder: return "builder"
        case .index: return "index"
        case .layout: return "layout"
        case .scene: return "scene"
        case .snapshot: return "snapshot"
        case .jobRunner: return "job runner"
        }
    }
}

final class FontBox {
    let font: Font
    init(_ font: Font) { self.font = font }
}

/// Font glyph shapes and custom outlines (keyed by the caller's 64-bit keys), each with the same budget.
final class ShapeCacheBox {
    let glyphs: FontShapeCache
    let outlines: ShapeCache<UInt64>
    init(maxBytes: Int) {
        glyphs = FontShapeCache(maxBytes: maxBytes)
        outlines = ShapeCache<UInt64>(maxBytes: maxBytes)
    }
}

/// A builder behind a lock: calls on one builder from several threads run one at a time.
final class BuilderBox {
    let lock = Lock()
    var builder: HitIndex.Builder
    /// Each placement's tag and ink kind (PlacementMeta.swift); guarded by `lock`.
    var meta = PlacementMeta()
    init(_ builder: HitIndex.Builder) { self.builder = builder }
}

final class IndexBox {
    let index: HitIndex
    /// Each placement's tag and ink kind, as the builder had them at `build`.
    let meta: PlacementMeta
    init(_ index: HitIndex, meta: PlacementMeta = PlacementMeta()) { self.index = index; self.meta = meta }
}

final class LayoutBox {
    let layout: TextLayout
    /// True when made from UTF-8: offsets the caller gives are bytes, else UTF-16 units.
    let isUTF8: Bool
    let utf16Length: Int
    let utf8Length: Int
    init(_ layout: TextLayout, isUTF8: Bool, utf16Length: Int, utf8Length: Int) {
        self.layout = layout; self.isUTF8 = isUTF8; self.utf16Length = utf16Length; self.utf8Length = utf8Length
    }
}

/// A scene behind a lock.
final class SceneBox {
    let lock = Lock()
    var scene: Scene
    /// Each node's C id by its slot in `scene` (`Scene.slot(of:)`), kept by every call that adds a node;
    /// guarded by `lock`. Entries of removed nodes stay until their slot is reused.
    var ids: [UInt64]
    init(_ scene: Scene, rootID: UInt64) { self.scene = scene; ids = [rootID] }

    /// Records that the node of C id `id` (just added, Swift id its decimal digits) sits in its slot.
    func noteAdded(_ id: UInt64) {
        guard let s = scene.slot(of: String(id)) else { return }
        if s >= ids.count { ids += repeatElement(0, count: s + 1 - ids.count) }
        ids[s] = id
    }
}

final class SnapshotBox {
    let snapshot: SceneSnapshot
    /// The scene's `ids` when the snapshot was taken: an answer's C node id is `ids[hit.nodeSlot]`, read
    /// without parsing or allocating.
    let ids: [UInt64]
    init(_ snapshot: SceneSnapshot, ids: [UInt64]) { self.snapshot = snapshot; self.ids = ids }

    /// The C id of the node `h` hit.
    @inline(__always) func cID(_ h: SceneHit) -> UInt64 {
        let s = h.nodeSlot
        return s >= 0 && s < ids.count ? ids[s] : 0
    }
}

/// The handle's bits.
@inline(__always) func bits(_ handle: OpaquePointer?) -> UInt { UInt(bitPattern: handle) }

/// Registers `object` as a new live handle of `kind` and writes it to `out`; `hot` (kept alive by `object`) is what
/// `lookupHot` gives the hot queries in its place (nil: the object).
///
/// - Throws: `.limit` when every registry slot is taken (nothing is kept then).
func publish(_ object: AnyObject, _ kind: HandleKind, to out: UnsafeMutablePointer<OpaquePointer?>,
             hot: UnsafeMutableRawPointer? = nil) throws(CError) {
    let retained = Unmanaged.passRetained(object)
    let handle = ihr_insert(retained.toOpaque(), kind.rawValue, hot)
    guard handle != 0 else {
        retained.release()
        throw CError(INKHIT_ERROR_LIMIT, "more than \(Int(IHR_MAX_CHUNKS) * Int(IHR_CHUNK_SIZE)) live handles")
    }
    out.pointee = OpaquePointer(bitPattern: handle)
}

/// The object of a live handle of `kind`, unretained, or nil: protected from release (the calling thread's
/// hazard, `ihr_protect`) until `unprotect()`, which every function that calls this must call on every path
/// (`defer { unprotect() }` first thing). One object per thread at a time: the hot queries, which use one
/// handle and want no atomic read-modify-write; every other call uses `resolve`.
@inline(__always)
func lookup<T: AnyObject>(_ handle: OpaquePointer?, _ kind: HandleKind, as type: T.Type) -> Unmanaged<T>? {
    guard let p = ihr_protect(bits(handle), kind.rawValue) else { return nil }
    return Unmanaged<T>.fromOpaque(p)
}

/// `lookup` with the calling thread's record at hand (the hot queries read it once: `ihr_current()`, then
/// `defer { ihr_unprotect_in(thread) }`).
@inline(__always)
func lookup<T: AnyObject>(_ handle: OpaquePointer?, _ kind: HandleKind, as type: T.Type,
                          in thread: UnsafeMutablePointer<ihr_thread>) -> Unmanaged<T>? {
    guard let p = ihr_protect_in(thread, bits(handle), kind.rawValue) else { return nil }
    return Unmanaged<T>.fromOpaque(p)
}

/// The hot pointer of a live handle of `kind` (an index's storage: `HitIndex.unsafeStorage`), protected with its
/// object until `ihr_unprotect_in(thread)` as `lookup` protects it; nil when the handle is not live and of `kind`.
/// One dependent load fewer than `lookup` then the object's field.
@inline(__always)
func lookupHot(_ handle: OpaquePointer?, _ kind: HandleKind, in thread: UnsafeMutablePointer<ihr_thread>) -> UnsafeMutableRawPointer? {
    ihr_protect_hot_in(thread, bits(handle), kind.rawValue)
}

extension Unmanaged {
    /// `body` applied to the object, borrowed for the call without taking ownership of it: the caller
    /// guarantees that something else keeps it alive meanwhile (in this module, the handle's hazard
    /// protection from `lookup`, ended only after the call). The one place the C interface borrows a handle's
    /// object, and its one use of underscored standard-library API: the public form
    /// (`takeUnretainedValue()` inside `withExtendedLifetime`) compiles to a `swift_retain`/`swift_release`
    /// pair around every query (seen in `inkhit_index_hit`'s release code), two atomic read-modify-writes on
    /// the object's count that threads querying one handle would contend for, where the hot queries promise
    /// none (see `lookup`).
    @inline(__always)
    func withBorrowed<R>(_ body: (Instance) -> R) -> R {
        _withUnsafeGuaranteedRef(body)
    }
}

/// Ends the protection `lookup` gave (harmless without one).
@inline(__always) func unprotect() { ihr_unprotect() }

/// The object of a live handle of `kind`, as a strong reference (retained while the hazard protects it, so
/// a release on another thread, which waits for the hazard, cannot free it under the call); `argument`
/// names it in the message.
///
/// - Throws: `.nullArgument` for NULL, `.invalidHandle` for anything else that is not a live handle of `kind`.
func resolve<T: AnyObject>(_ handle: OpaquePointer?, _ kind: HandleKind, _ argument: String,
                           as type: T.Type) throws(CError) -> T {
    defer { unprotect() }
    guard let object = lookup(handle, kind, as: type) else { throw handleError(handle, kind, argument) }
    return object.takeUnretainedValue()
}

/// Why `handle` is not a live handle of `kind`, as an error naming `argument`.
func handleError(_ handle: OpaquePointer?, _ kind: HandleKind, _ argument: String) -> CError {
    var actual: UInt32 = 0
    switch Int(ihr_describe(bits(handle), kind.rawValue, &actual)) {
    case IHR_NULL:
        return CError(INKHIT_ERROR_NULL_ARGUMENT, "\(argument) is NULL")
    case IHR_RELEASED:
        return CError(INKHIT_ERROR_INVALID_HANDLE, "\(argument) is \(kind.article) handle that was already released")
    case IHR_WRONG_KIND:
        let other = HandleKind(rawValue: actual)?.article ?? "another kind of"
        return CError(INKHIT_ERROR_INVALID_HANDLE, "\(argument) is \(other) handle, not \(kind.article) handle")
    case IHR_LIVE:
        // Released and handed out again between the lookup and this description: a call racing a release.
        return CError(INKHIT_ERROR_INVALID_HANDLE, "\(argument) was released while the call was looking it up")
    default:
        return CError(INKHIT_ERROR_INVALID_HANDLE, "\(argument) is not a handle InkHit handed out")
    }
}

/// Releases a handle of `kind` (NULL: nothing, OK): drops the registry's retain of its object.
func releaseHandle(_ handle: OpaquePointer?, _ kind: HandleKind, function: StaticString) -> inkhit_status {
    guard handle != nil else { return inkhit_status(INKHIT_OK) }
    guard let object = ihr_remove(bits(handle), kind.rawValue) else {
        return handleError(handle, kind, kind == .shapeCache ? "cache" : (kind == .jobRunner ? "runner" : kind.name)).report(function)
    }
    // Calls on other threads that are using the object (their hazards) finish first.
    ihr_wait_unused(object)
    Unmanaged<AnyObject>.fromOpaque(object).release()
    return inkhit_status(INKHIT_OK)
}
