import CInkHit
import InkFreeType
import InkHit

// Fonts over borrowed bytes and at other design coordinates (inkhit.h, "What the renderer drew").

/// The caller's release callback and its data, called at most once.
private final class Lender: @unchecked Sendable {
    private let release: inkhit_release_func?
    private let userData: UnsafeMutableRawPointer?
    private var done = false
    private let lock = Lock()

    init(_ release: inkhit_release_func?, _ userData: UnsafeMutableRawPointer?) {
        self.release = release; self.userData = userData
    }

    func callOnce() {
        let first = lock.withLock { () -> Bool in
            defer { done = true }
            return !done
        }
        if first { release?(userData) }
    }
}

/// `inkhit_font_from_borrowed_bytes` (inkhit.h): the release callback runs exactly once, whatever happens.
@_cdecl("inkhit_font_from_borrowed_bytes")
public func inkhit_font_from_borrowed_bytes(_ bytes: UnsafePointer<UInt8>?, _ length: Int, _ faceIndex: Int32,
                                            _ release: inkhit_release_func?, _ userData: UnsafeMutableRawPointer?,
                                            _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    let lender = Lender(release, userData)
    return call("inkhit_font_from_borrowed_bytes") { () throws(CError) in
        do throws(CError) {
            guard let out else { throw CError.null("out") }
            let n = try count(length, "length")
            guard n <= Font.maximumFileSize else {
                throw CError(INKHIT_ERROR_LIMIT, "length \(n) is more than the limit of \(Font.maximumFileSize) bytes")
            }
            let data = try buffer(bytes, n, "bytes", countName: "length")
            let font: Font
            do throws(FontError) {
                // Font(borrowing:) calls the release itself on failure (and when equal bytes are loaded).
                font = try Font(borrowing: UnsafeRawBufferPointer(data), faceIndex: Int(faceIndex), release: { lender.callOnce() })
            } catch {
                throw CError(error)
            }
            try publish(FontBox(font), .font, to: out)
        } catch {
            lender.callOnce()       // an argument refused before the font took the bytes (no-op if it did)
            throw error
        }
    }
}

/// `inkhit_font_with_variations` (inkhit.h).
@_cdecl("inkhit_font_with_variations")
public func inkhit_font_with_variations(_ font: OpaquePointer?, _ variations: UnsafePointer<inkhit_variation>?, _ n: Int,
                                        _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_font_with_variations") { () throws(CError) in
        guard let out else { throw .null("out") }
        let f = try resolve(font, .font, "font", as: FontBox.self).font
        let list = try buffer(variations, n, "variations", countName: "count")
        var requests: [FontVariation] = []
        for (i, v) in list.enumerated() {
            let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v.tag >> UInt32($0)) }
            guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw .argument("variations[\(i)].tag 0x\(String(v.tag, radix: 16)) is not four printable ASCII characters "
                                + "(make it with INKHIT_TAG)")
            }
            guard v.value.isFinite else { throw .argument("variations[\(i)].value must be finite (got \(v.value))") }
            requests.append(FontVariation(String(decoding: bytes, as: UTF8.self), Double(v.value)))
        }
        let varied: Font
        do throws(FontError) {
            varied = try f.withVariations(requests, instance: f.namedInstanceIndex.map { .index($0) })
        } catch {
            throw CError(error)
        }
        try publish(FontBox(varied), .font, to: out)
    }
}

/// `inkhit_font_get_variations` (inkhit.h).
@_cdecl("inkhit_font_get_variations")
public func inkhit_font_get_variations(_ font: OpaquePointer?, _ out: UnsafeMutablePointer<inkhit_variation>?, _ capacity: Int,
                                       _ countOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_font_get_variations") { () throws(CError) in
        guard let countOut else { throw .null("count_out") }
        let f = try resolve(font, .font, "font", as: FontBox.self).font
        let slots = try mutableBuffer(out, capacity, "out", countName: "capacity")
        let coordinates = f.variationCoordinates
        for (i, c) in coordinates.prefix(slots.count).enumerated() {
            slots[i] = inkhit_variation(tag: c.tagValue ?? 0, value: Float(c.value))
        }
        countOut.pointee = coordinates.count
    }
}
