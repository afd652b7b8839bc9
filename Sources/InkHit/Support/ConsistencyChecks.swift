/// Internal consistency checks of the index and shape builders: monotone offsets, cell ranges within the
/// grid, indices in range. Compiled only with `-Xswiftc -DINKHIT_CHECKS` (CI compiles them into its
/// AddressSanitizer configuration); otherwise every call is empty and inlined away. A broken invariant stops
/// the process with `preconditionFailure` and a message naming the structure and the first bad entry.
enum ConsistencyChecks {
    /// True when the checks are compiled in.
    static var areEnabled: Bool {
        #if INKHIT_CHECKS
        return true
        #else
        return false
        #endif
    }

    /// CSR offsets: `offsets[0] == 0`, never decreasing, and the last one is `total` (the length of the list
    /// they index).
    @inline(__always)
    static func offsets<C: RandomAccessCollection>(_ offsets: C, total: Int, _ what: @autoclosure () -> String)
    where C.Element: BinaryInteger, C.Index == Int {
        #if INKHIT_CHECKS
        guard let first = offsets.first else { preconditionFailure("INKHIT_CHECKS: \(what()): no offsets") }
        guard first == 0 else { preconditionFailure("INKHIT_CHECKS: \(what()): offsets start at \(first), not 0") }
        for k in offsets.indices.dropFirst() where offsets[k] < offsets[k - 1] {
            preconditionFailure("INKHIT_CHECKS: \(what()): offset \(k) (\(offsets[k])) is below offset \(k - 1) (\(offsets[k - 1]))")
        }
        guard Int(offsets[offsets.index(before: offsets.endIndex)]) == total else {
            preconditionFailure("INKHIT_CHECKS: \(what()): the last offset is \(offsets.last!), not the list's length \(total)")
        }
        #endif
    }

    /// `start ..< start + count` lies within `0 ..< limit`.
    @inline(__always)
    static func range(_ start: Int, count: Int, within limit: Int, _ what: @autoclosure () -> String) {
        #if INKHIT_CHECKS
        guard start >= 0, count >= 0, start <= limit, count <= limit - start else {
            preconditionFailure("INKHIT_CHECKS: \(what()): range \(start) ..< \(start) + \(count) is not within 0 ..< \(limit)")
        }
        #endif
    }

    /// Every element of `indices` lies within `0 ..< limit`.
    @inline(__always)
    static func indices<C: Collection>(_ indices: C, below limit: Int, _ what: @autoclosure () -> String)
    where C.Element: BinaryInteger {
        #if INKHIT_CHECKS
        for (k, i) in indices.enumerated() where i < 0 || Int(i) >= limit {
            preconditionFailure("INKHIT_CHECKS: \(what()): entry \(k) is \(i), not within 0 ..< \(limit)")
        }
        #endif
    }
}
