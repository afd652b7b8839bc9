import InkFreeType

/// The fonts the tests use, from Debian packages the README's commands install.
public enum TestFonts {
    public static let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    public static let sansBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    public static let serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
    public static let mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
    public static let cjk = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
    /// A CFF (cubic) font.
    public static let cantarell = "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf"
    /// A variable font (glyf + gvar + HVAR; axes wght 100…900 and slnt −10…0), from fonts-inter-variable.
    public static let interVariable = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
    /// A bitmap-only colour font (CBDT, one strike at 109 ppem), from fonts-noto-color-emoji.
    public static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    /// Loads a test font; a missing font is a thrown error naming the package to install (never a crash
    /// of the whole test process).
    public static func load(_ path: String, faceIndex: Int = 0) throws -> Font {
        do { return try Font(path: path, faceIndex: faceIndex) } catch {
            throw MissingTestFont(path: path, underlying: error)
        }
    }

    public struct MissingTestFont: Error, CustomStringConvertible {
        public var path: String
        public var underlying: FontError
        public var description: String {
            "test font \(path) could not be loaded (\(underlying)); run ./inkhit deps to install the test fonts"
        }
    }
}
