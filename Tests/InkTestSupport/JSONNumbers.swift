import Foundation

/// A JSON number as `JSONSerialization` hands it over (Int, Double or NSNumber), as a Double.
public func jsonNumber(_ v: Any?) -> Double? {
    switch v {
    case let d as Double: return d
    case let i as Int: return Double(i)
    case let n as NSNumber: return n.doubleValue
    default: return nil
    }
}
