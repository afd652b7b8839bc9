/// Texts of the workloads. All are in the public domain.
public enum SampleText {
    /// Lewis Carroll, *Alice's Adventures in Wonderland* (1865), opening of chapter I (public domain).
    /// ASCII only: every character is one DejaVu Sans glyph, except where HarfBuzz joins "fi" and "fl" into
    /// ligatures (2 of the first 2,000 characters).
    public static let english = """
    Alice was beginning to get very tired of sitting by her sister on the bank, and of having nothing to do: \
    once or twice she had peeped into the book her sister was reading, but it had no pictures or \
    conversations in it, 'and what is the use of a book,' thought Alice 'without pictures or conversations?' \
    So she was considering in her own mind (as well as she could, for the hot day made her feel very sleepy \
    and stupid), whether the pleasure of making a daisy-chain would be worth the trouble of getting up and \
    picking the daisies, when suddenly a White Rabbit with pink eyes ran close by her. There was nothing so \
    very remarkable in that; nor did Alice think it so very much out of the way to hear the Rabbit say to \
    itself, 'Oh dear! Oh dear! I shall be late!' (when she thought it over afterwards, it occurred to her \
    that she ought to have wondered at this, but at the time it all seemed quite natural); but when the \
    Rabbit actually took a watch out of its waistcoat-pocket, and looked at it, and then hurried on, Alice \
    started to her feet, for it flashed across her mind that she had never before seen a rabbit with either \
    a waistcoat-pocket, or a watch to take out of it, and burning with curiosity, she ran across the field \
    after it, and fortunately was just in time to see it pop down a large rabbit-hole under the hedge. In \
    another moment down went Alice after it, never once considering how in the world she was to get out again.
    """

    /// Confucius, *Analects* 1.1 (public domain), traditional characters with full-width punctuation.
    public static let chinese = "子曰：「學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？」"

    /// `english` repeated (joined by a space) and cut to exactly `count` Unicode scalars: a layout of it has
    /// `count` glyphs (spaces included: they are placements without ink) less one per fi/fl ligature
    /// (1,998 for 2,000).
    public static func english(scalars count: Int) -> String {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(count)
        let unit = Array(english.unicodeScalars) + [" "]
        while scalars.count < count {
            scalars.append(contentsOf: unit.prefix(count - scalars.count))
        }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }
}
