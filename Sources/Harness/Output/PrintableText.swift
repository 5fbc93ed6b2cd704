/// Text from inputs (trigger ids, property keys, workload and strategy names read from files) made safe
/// to echo: a newline cannot split an error line or a table row, and an escape sequence cannot paint
/// the terminal.
public enum PrintableText {
    /// Control characters written as escapes (`\n`, `\t`, `\u{1b}`); everything else as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `escaped`, with `|` escaped too, for one cell of a Markdown table.
    public static func markdownCell(_ text: String) -> String {
        escaped(text).replacingOccurrences(of: "|", with: "\\|")
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7F..<0xA0).contains(s.value) }
}
