// swift_host.swift — a Swift program (its own Swift runtime: the toolchain's libswiftCore, libdispatch) that links
// libInkHit (which has a Swift runtime of its own inside, its symbols hidden): two runtimes in one process.
//
//   swiftc -O swift_host.swift -import-objc-header PREFIX/include/inkhit.h -L PREFIX/lib -lInkHit \
//     -Xlinker -rpath -Xlinker PREFIX/lib -o swift_host && ./swift_host
//
// Checks, and prints one line per check (exit 1 at the first that fails):
//   1. the process really has both: the toolchain's libswiftCore is mapped, `swift_retain` resolves into it, and
//      libInkHit exports no Swift runtime symbol that could stand in for it (dlsym on its handle finds none);
//   2. the README's C example answers through libInkHit (the l of "link", the gap, the gap with a 3.5 px radius);
//   3. on 8 threads of the host's Dispatch at once, each mixes work for the host's runtime (generic classes,
//      dictionaries, existential casts, type names: metadata instantiated while libInkHit's runtime is busy) with
//      20,000 inkhit_layout_hit calls, whose answers must equal the single-threaded ones.
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

func check(_ ok: Bool, _ what: String) {
    if !ok {
        fputs("swift_host: FAILED: \(what)\n", stderr)
        exit(1)
    }
    print("swift_host: \(what)")
}

func lastError() -> String { String(cString: inkhit_last_error()) }

// 1. Two runtimes.
func readAll(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "r") else { return [] }
    defer { fclose(f) }
    var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return bytes
}
let maps = String(decoding: readAll("/proc/self/maps"), as: UTF8.self)
let mapped = Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
check(mapped.contains { $0.hasSuffix("/libswiftCore.so") }, "the host's own Swift runtime (libswiftCore.so) is loaded")
check(mapped.contains { $0.contains("libInkHit.so") }, "libInkHit is loaded")
/// The file /proc/self/maps shows at `address`.
func mappedFile(at address: UnsafeMutableRawPointer?) -> String {
    let a = UInt(bitPattern: address)
    for line in maps.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        let range = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
        if range.count == 2, range[0] <= a, a < range[1], fields.count >= 6 { return String(fields[5]) }
    }
    return "?"
}
let retain = dlsym(UnsafeMutableRawPointer(bitPattern: 0) /* RTLD_DEFAULT */, "swift_retain")
check(mappedFile(at: retain).hasSuffix("/libswiftCore.so"), "swift_retain resolves into the host's libswiftCore")
let inkhit = dlopen("libInkHit.so.1", RTLD_NOW | RTLD_NOLOAD)
check(inkhit != nil, "dlopen(RTLD_NOLOAD) finds libInkHit")
// dlsym on the library's handle searches it and its dependencies (libc, libstdc++, FreeType, ...): none of them
// may define the Swift runtime's, libdispatch's or BlocksRuntime's entry points.
for symbol in ["swift_retain", "swift_release", "swift_allocObject", "swift_getGenericMetadata", "swift_once",
               "swift_conformsToProtocol", "swift_addNewDSOImage", "dispatch_async_f", "_Block_copy"] {
    check(dlsym(inkhit, symbol) == nil, "libInkHit (and what it loads) defines no \(symbol)")
}

// 2. The README's example.
var font: inkhit_font?
let fontStatus = inkhit_font_from_path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0, &font)
check(fontStatus == 0, "inkhit_font_from_path: \(fontStatus == 0 ? "ok" : lastError())")
let text = "Tap the link, not the gap."
var link = inkhit_text_link(start: 8, end: 12)
var options = inkhit_layout_options()
inkhit_layout_options_init(&options)
var layout: inkhit_layout?
withUnsafePointer(to: &font) { fonts in
    withUnsafePointer(to: &link) { links in
        options.fonts = fonts
        options.font_count = 1
        options.size = 16
        options.links = links
        options.link_count = 1
        let status = text.withCString { inkhit_layout_create_utf8($0, strlen($0), &options, &layout) }
        check(status == 0, "inkhit_layout_create_utf8: \(status == 0 ? "ok" : lastError())")
    }
}
func hit(_ x: Double, _ y: Double, _ r: Double) -> inkhit_text_hit {
    var h = inkhit_text_hit()
    let status = inkhit_layout_hit(layout, x, y, r, Int32(INKHIT_TEXT_HIT_INK), &h)
    if status != 0 { check(false, "inkhit_layout_hit: \(lastError())") }
    return h
}
let l = hit(65.7, 8, 0), gap = hit(100.5, 8, 0), near = hit(100.5, 8, 3.5)
check(l.hit == 1 && l.utf8_start == 8 && l.utf8_end == 9 && l.link == 0 && l.distance < 0,
      "(65.7, 8): the l of the link, bytes \(l.utf8_start)..<\(l.utf8_end), link \(l.link)")
check(gap.hit == 0, "(100.5, 8): the gap, a miss")
check(near.hit == 1 && near.utf8_start == 14 && near.utf8_end == 15 && near.link == -1,
      "(100.5, 8) with r = 3.5: the n of \"not\", bytes \(near.utf8_start)..<\(near.utf8_end)")

// 3. Both runtimes busy at once, on the host's Dispatch threads.
final class Box<T>: CustomStringConvertible {
    let value: T
    init(_ value: T) { self.value = value }
    var description: String { "Box<\(T.self)>(\(value))" }
}
struct Pair<A: Hashable, B>: Hashable { let a: A; let b: Int
    init(_ a: A, _ b: Int) { self.a = a; self.b = b }
}
func hostWork(_ seed: Int) -> Int {
    var table: [Pair<String, Double>: [Int]] = [:]
    for i in 0..<64 { table[Pair("k\(i % 5)", seed), default: []].append(i &* seed) }
    let values: [Any] = [Box(seed), Box("s\(seed)"), Box([seed, seed]), Box(Box(Double(seed))), table.count]
    var total = 0
    for value in values {
        if let text = value as? CustomStringConvertible { total += text.description.utf8.count }
        total += String(describing: type(of: value)).utf8.count
    }
    return total
}
let points: [(Double, Double, Double)] = (0..<2000).map { (i: Int) -> (Double, Double, Double) in
    let x: Double = Double(i % 200) * 1.13 - 10
    let y: Double = Double(i / 200) * 2.2 - 4
    return (x, y, i % 3 == 0 ? 3.5 : 0)
}
let expected = points.map { hit($0.0, $0.1, $0.2) }
let expectedWork = (0..<8).map(hostWork)
let hits = expected.filter { $0.hit == 1 }.count
check(hits > 300 && hits < 1700, "\(points.count) points, \(hits) hits single-threaded")
let lock = NSLockish()
var mismatches = 0
DispatchQueue.concurrentPerform(iterations: 8) { thread in
    var bad = 0
    for _ in 0..<10 {
        if hostWork(thread) != expectedWork[thread] { bad += 1 }
        for (i, p) in points.enumerated() {
            let h = hit(p.0, p.1, p.2), e = expected[i]
            if h.hit != e.hit || h.utf8_start != e.utf8_start || h.distance.bitPattern != e.distance.bitPattern { bad += 1 }
        }
    }
    lock.locked { mismatches += bad }
}
check(mismatches == 0, "8 threads x 10 rounds x \(points.count) queries, with the host's runtime busy alongside: \(mismatches) differ")
inkhit_layout_release(layout)
inkhit_font_release(font)

/// A pthread mutex (Foundation's NSLock would make this program need Foundation).
final class NSLockish: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func locked(_ body: () -> Void) { pthread_mutex_lock(&mutex); body(); pthread_mutex_unlock(&mutex) }
}
