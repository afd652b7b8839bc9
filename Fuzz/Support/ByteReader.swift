#if canImport(Glibc)
import Glibc
#endif
import InkGeometry

/// Reads structured values from fuzzer bytes. Never fails: past the end it returns zeros, so every input
/// decodes to *something* and libFuzzer's mutations stay meaningful (fontations' `arbitrary` style).
struct ByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func u8() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
    mutating func i16() -> Int16 { Int16(bitPattern: u16()) }
    mutating func u64() -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(u8()) << (8 * UInt64(k)) }
        return v
    }

    /// Values worth hitting on purpose: zero, signed zero, tiny, the 16-bit font limits, the Float32 edge,
    /// the index's ±1e9 view limit, and every kind of non-finite number.
    static let specials: [Double] = [
        0, -0.0, 1, -1, 0.5, 1e-300, -1e-300, .leastNonzeroMagnitude, 32767, -32767, 32768, -32768, 65535,
        1e6, 1e9, -1e9, 1.0000001e9, 3.4e38, 3.5e38, -3.5e38, 1e300, -1e300, .greatestFiniteMagnitude,
        .infinity, -.infinity, .nan, 0.1, 1e-7,
    ]

    /// A coordinate: mostly small integers and font-unit values, sometimes a special or raw double.
    mutating func coordinate() -> Double {
        let tag = u8()
        switch tag % 16 {
        case 0: return Self.specials[Int(u8()) % Self.specials.count]
        case 1: return Double(bitPattern: u64())
        case 2, 3, 4, 5: return Double(i16())
        case 6, 7: return Double(i16()) / 64
        default: return Double(Int8(bitPattern: u8()))
        }
    }

    mutating func point() -> Point { Point(coordinate(), coordinate()) }

    /// A positive-ish quantity (radius, tolerance): usually sane, sometimes hostile.
    mutating func magnitude() -> Double {
        let tag = u8()
        switch tag % 8 {
        case 0: return Self.specials[Int(u8()) % Self.specials.count]
        case 1: return Double(bitPattern: u64())
        default: return Double(u8()) / 16
        }
    }

    /// A transform: identity, scales, rotations, shears, y-flips, singular and non-finite ones.
    mutating func transform() -> AffineTransform {
        let tag = u8()
        switch tag % 10 {
        case 0: return .identity
        case 1: return .translation(coordinate(), coordinate())
        case 2:
            let s = Double(u8() | 1) / 32
            return .scale(s, -s).concatenating(.translation(coordinate(), coordinate()))
        case 3:
            let s = Double(u8() | 1) / 32
            return .scale(s, s).concatenating(.rotation(Double(i16()) / 1000)).concatenating(.translation(coordinate(), coordinate()))
        case 4:
            return .scale(Double(u8() | 1) / 16, Double(u8() | 1) / 256).concatenating(.shear(Double(Int8(bitPattern: u8())) / 64, 0))
        case 5: return .scale(0, 1)                                   // singular
        case 6: return AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0)   // singular, rank 1
        default:
            return AffineTransform(a: coordinate(), b: coordinate(), c: coordinate(), d: coordinate(),
                                   tx: coordinate(), ty: coordinate())
        }
    }
}

/// What the current input built, printed with a violation (set by the targets; single-threaded).
nonisolated(unsafe) var fuzzContext: [String] = []

/// Stops the fuzzer with a message (libFuzzer records the input as a crash).
func violated(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) -> Never {
    for c in fuzzContext {
        var line = "context: " + c + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
    fatalError("fuzz invariant violated: " + message(), file: file, line: line)
}

/// CPU seconds this process has used (user + system, every thread): time limits in the fuzzers are judged by
/// it as well as by the wall clock, so a machine busy with other work does not make a bounded input look slow.
func processCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
