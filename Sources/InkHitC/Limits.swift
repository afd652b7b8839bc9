import CInkHit
import InkHit
import InkScene
import InkText

// The limits of calls that build shapes (inkhit.h, "Limits").

/// The process-wide `inkhit_limits`, read once at the start of each call that builds shapes.
struct CallLimits: Sendable {
    /// Seconds a call may take; nil: no limit.
    var seconds: Double?
    /// Bytes of distinct shapes a call may build or use; `Int.max`: no limit.
    var shapeBytes: Int

    static let defaults = CallLimits(seconds: nil, shapeBytes: Int(INKHIT_DEFAULT_MAX_SHAPE_BYTES_PER_CALL))

    private static let lock = Lock()
    nonisolated(unsafe) private static var value = defaults

    /// The limits now.
    static var current: CallLimits { lock.withLock { value } }
    static func set(_ l: CallLimits) { lock.withLock { value = l } }

    /// The deadline of a call starting now.
    var deadline: ContinuousClock.Instant? {
        // Limits beyond 2³¹ s (68 years) are that: the duration stays in range.
        seconds.map { ContinuousClock.now.advanced(by: .seconds(min($0, Double(Int32.max)))) }
    }

    /// Runs `body` (a call's work) under the current limits: its shape builds see the deadline through
    /// `BuildDeadline`, and `body` gets the limits to budget its shapes.
    static func bounded<R>(_ body: (CallLimits, ContinuousClock.Instant?) throws(CError) -> R) throws(CError) -> R {
        let limits = current
        let deadline = limits.deadline
        return try BuildDeadline.within(deadline) { () throws(CError) -> R in try body(limits, deadline) }
    }
}

/// The shapes one call has used, each counted once against `CallLimits.shapeBytes`.
struct ShapeTally {
    let limit: Int
    private var seen = Set<ObjectIdentifier>()
    private var bytes = 0
    init(limit: Int) { self.limit = limit }

    /// Counts `shape`; throws LIMIT once the call's shapes pass the limit (`prefix` names the placement).
    mutating func add(_ shape: GlyphShape, _ prefix: String = "") throws(CError) {
        guard seen.insert(ObjectIdentifier(shape)).inserted else { return }
        bytes += shape.byteCount
        guard bytes <= limit else {
            throw CError(INKHIT_ERROR_LIMIT, prefix + "the call's shapes need more than \(limit) bytes "
                         + "(inkhit_limits.max_shape_bytes_per_call)")
        }
    }
}

/// `inkhit_limits_get` (inkhit.h).
@_cdecl("inkhit_limits_get")
public func inkhit_limits_get(_ out: UnsafeMutablePointer<inkhit_limits>?) -> inkhit_status {
    call("inkhit_limits_get") { () throws(CError) in
        guard let out else { throw .null("out") }
        let l = CallLimits.current
        out.pointee = inkhit_limits(max_seconds_per_call: l.seconds ?? 0,
                                    max_shape_bytes_per_call: l.shapeBytes == Int.max ? .max : UInt64(l.shapeBytes))
    }
}

/// `inkhit_limits_set` (inkhit.h).
@_cdecl("inkhit_limits_set")
public func inkhit_limits_set(_ limits: UnsafePointer<inkhit_limits>?) -> inkhit_status {
    call("inkhit_limits_set") { () throws(CError) in
        guard let limits else { throw .null("limits") }
        let l = limits.pointee
        guard l.max_seconds_per_call >= 0 else {
            throw .argument("limits->max_seconds_per_call must be >= 0 (got \(show(l.max_seconds_per_call)))")
        }
        let seconds = l.max_seconds_per_call == 0 || l.max_seconds_per_call == .infinity ? nil : l.max_seconds_per_call
        // 0 means the default, as it does for every size, budget and tolerance in inkhit.h; beyond Int.max
        // (UINT64_MAX among them): no limit.
        let b = l.max_shape_bytes_per_call
        let bytes = b == 0 ? CallLimits.defaults.shapeBytes : (b > UInt64(Int.max) ? Int.max : Int(b))
        CallLimits.set(CallLimits(seconds: seconds, shapeBytes: bytes))
    }
}
