import InkGeometry

/// One axis of a variable font (OpenType `fvar`), in design units (`wght` 100…900, `wdth` in %, `slnt`
/// in degrees, …).
public struct VariationAxis: Sendable, Hashable {
    /// The four-character axis tag (`"wght"`, `"wdth"`, `"opsz"`, `"slnt"`, `"ital"`, or a font's own).
    public var tag: String
    /// The axis name the font gives ("Weight"), or the tag when it gives none.
    public var name: String
    /// The least design value.
    public var minimum: Double
    /// The value of the font's default instance.
    public var defaultValue: Double
    /// The greatest design value.
    public var maximum: Double
    /// Clamps `value` to `minimum...maximum`, as FreeType does when it is given an out-of-range coordinate.
    public func clamp(_ value: Double) -> Double { min(max(value, minimum), maximum) }
}

/// A named instance of a variable font (`fvar`): a subfamily name such as "Bold" and its design coordinates.
public struct NamedInstance: Sendable, Hashable {
    /// The subfamily name from the font's `name` table ("SemiBold Italic"), or nil when it has none.
    public var name: String?
    /// One design coordinate per axis, in the order of `Font.variationAxes`.
    public var coordinates: [Double]
}

/// A design coordinate for one axis of a variable font: `FontVariation("wght", 650)`.
public struct FontVariation: Sendable, Hashable, CustomStringConvertible {
    /// The axis tag, 1…4 printable ASCII characters (shorter tags are padded with spaces, as in OpenType).
    public var tag: String
    /// The design value (units of the axis: `wght` 100…900, `slnt` degrees, …).
    public var value: Double
    /// A coordinate `value` on axis `tag`.
    public init(_ tag: String, _ value: Double) { self.tag = tag; self.value = value }
    /// `wght=650`.
    public var description: String { "\(tag)=\(DecimalText.short(value))" }
}

/// A coordinate FreeType would clamp: what was asked for an axis and what the instance uses.
public struct VariationClamp: Sendable, Hashable, CustomStringConvertible {
    /// The axis tag.
    public var tag: String
    /// The value asked for.
    public var requested: Double
    /// The value used: the nearest end of the axis's range.
    public var applied: Double
    /// `wght 1200 clamped to 900`.
    public var description: String { "\(tag) \(DecimalText.short(requested)) clamped to \(DecimalText.short(applied))" }
}

/// Which named instance of a variable font to start from.
public enum NamedInstanceSelector: Sendable, Hashable {
    /// The instance whose subfamily name equals this (ASCII case-insensitive): "Bold", "semibold italic".
    case name(String)
    /// The instance at this 0-based index of `Font.namedInstances`.
    case index(Int)
}

extension Font {
    /// The axes of a variable font, in the font's (`fvar`) order; empty for a font that does not vary.
    public var variationAxes: [VariationAxis] { face.variation.axes }

    /// The named instances of a variable font, in the font's (`fvar`) order; empty for a font that does not
    /// vary.
    public var namedInstances: [NamedInstance] { face.variation.instances }

    /// The 0-based index (into `namedInstances`) of the named instance `selector` picks: by subfamily name,
    /// ASCII case-insensitive ("semibold italic"), from the font's `name` table as FreeType reads it; or by
    /// index, checked.
    ///
    /// - Throws: `.unknownInstance`, naming the instances the font has (a font that does not vary has none).
    public func namedInstance(_ selector: NamedInstanceSelector) throws(FontError) -> Int {
        try face.variation.instanceIndex(selector)
    }

    /// The design coordinates this font draws with, one per axis of `variationAxes` (the defaults unless
    /// it was made by `withVariations(_:instance:)`); empty for a font that does not vary.
    public var variationCoordinates: [FontVariation] {
        zip(face.variation.axes, face.variation.coordinates).map { FontVariation($0.tag, $1) }
    }

    /// The coordinates that were outside their axis's range when this instance was made, with the values
    /// used instead (FreeType's clamping); empty when none were.
    public var clampedVariations: [VariationClamp] { face.variation.clamps }

    /// This font's file and face at other design coordinates: a new `Font` (its own `id`, so glyph shapes
    /// are cached per instance) whose outlines (TrueType `gvar`, CFF2 blends) and advances (`HVAR`) follow
    /// the coordinates, through FreeType's variation API; InkText's shaping gets the same coordinates
    /// (`hb_font_set_variations`). The file's bytes are shared, not copied.
    ///
    /// Coordinates start from the font's own (or from `instance`), then each of `variations` replaces its
    /// axis's; a later entry for the same axis wins. Values outside an axis's range are clamped as FreeType
    /// clamps them and listed in the new font's `clampedVariations`.
    ///
    /// - Throws: `.notVariable` when the font has no axes; `.unknownAxis` for a tag the font lacks;
    ///   `.invalidVariation` for a malformed tag or a value that is not finite; `.unknownInstance` when
    ///   `instance` names none of `namedInstances`; `.freeType` when FreeType refuses the coordinates.
    public func withVariations(_ variations: [FontVariation],
                               instance: NamedInstanceSelector? = nil) throws(FontError) -> Font {
        try Font(face: FreeTypeFace(bytes: face.bytes, faceIndex: face.faceIndex,
                                    variations: variations, instance: instance))
    }
}

extension FontVariation {
    /// The tag as OpenType stores it (`hb_tag_t`, `FT_ULong`): four bytes, big-endian, padded with spaces; nil
    /// when the tag is empty, longer than 4 or not printable ASCII.
    public var tagValue: UInt32? {
        let bytes = Array(tag.utf8)
        guard (1...4).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return (bytes + [UInt8](repeating: 0x20, count: 4 - bytes.count)).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The four characters of an OpenType tag value.
    static func tagString(_ value: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        let printable = bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }
        var s = String(decoding: printable, as: UTF8.self)
        while s.hasSuffix(" ") && s.count > 1 { s.removeLast() }
        return s
    }
}

/// What a face knows about its variations: axes, named instances, the coordinates it was set to and what
/// was clamped. All empty for a font that does not vary.
struct FaceVariation: Sendable {
    var axes: [VariationAxis] = []
    var instances: [NamedInstance] = []
    var coordinates: [Double] = []
    var clamps: [VariationClamp] = []
    /// The named instance the coordinates started from (0-based), nil for the defaults.
    var instance: Int?
    /// The coordinates as FreeType was given them (16.16), empty when none were set (the font's defaults):
    /// with the face index, what names the face's outlines (its shape namespace).
    var fixedCoordinates: [Int] = []

    /// The full coordinate vector for `requests` on top of `start` (the default or an instance), with the
    /// clamps it needs.
    ///
    /// - Throws: `.unknownAxis`, `.invalidVariation`.
    func resolve(_ requests: [FontVariation], from start: [Double]) throws(FontError) -> (coordinates: [Double], clamps: [VariationClamp]) {
        var coordinates = start
        var clamps: [String: VariationClamp] = [:]
        for r in requests {
            guard let tag = r.tagValue else {
                throw .invalidVariation(tag: r.tag, reason: "an axis tag is 1 to 4 printable ASCII characters")
            }
            guard r.value.isFinite else {
                throw .invalidVariation(tag: r.tag, reason: "the value must be finite (got \(r.value))")
            }
            let name = FontVariation.tagString(tag)
            guard let i = axes.firstIndex(where: { $0.tag == name }) else {
                throw .unknownAxis(tag: name, axes: axes.map(\.tag))
            }
            let applied = axes[i].clamp(r.value)
            coordinates[i] = applied
            clamps[name] = applied == r.value ? nil : VariationClamp(tag: name, requested: r.value, applied: applied)
        }
        return (coordinates, axes.compactMap { clamps[$0.tag] })
    }

    /// The index of the named instance `selector` picks.
    ///
    /// - Throws: `.unknownInstance`.
    func instanceIndex(_ selector: NamedInstanceSelector) throws(FontError) -> Int {
        let names = instances.map { $0.name ?? "" }
        switch selector {
        case .index(let i):
            guard instances.indices.contains(i) else { throw .unknownInstance("#\(i)", available: names) }
            return i
        case .name(let wanted):
            guard let i = names.firstIndex(where: { $0.lowercased() == wanted.lowercased() }) else {
                throw .unknownInstance(wanted, available: names)
            }
            return i
        }
    }
}
