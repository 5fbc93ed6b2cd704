/// Text from inputs (trigger ids, property keys, workload and strategy names read from files) made safe
/// to echo: a newline cannot split an error line or a table row, and an escape sequence cannot paint
/// the terminal.
package enum PrintableText {
    /// Control characters written as escapes (`\n`, `\t`, `\u{1b}`); everything else as it is.
    package static func escaped(_ text: String) -> String {
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

    /// `text` cut to its first `limit` characters, with a marker saying how much was left out, so a
    /// plugin's thousand-character reason does not flood a line.
    package static func cut(_ text: String, to limit: Int = 200) -> String {
        guard text.count > limit else { return text }
        return text.prefix(limit) + "… (\(text.count - limit) more characters)"
    }

    /// `escaped`, with `|` escaped and HTML's `<`, `>`, `&` as entities, for one cell of a Markdown table
    /// (a CI job summary renders inline HTML: a results file must not put an `<img>` there).
    package static func markdownCell(_ text: String) -> String {
        entities(escaped(text)).replacingOccurrences(of: "|", with: "\\|")
    }

    /// `escaped`, with HTML's `<`, `>`, `&` as entities, for Markdown prose (a CI job summary renders
    /// inline HTML).
    package static func markdownText(_ text: String) -> String { entities(escaped(text)) }

    /// `escaped` as one Markdown code span: fenced by one backtick more than the longest run inside, so
    /// a backtick in a path cannot close it (inside a span, markup is shown as written).
    package static func markdownCode(_ text: String) -> String {
        let plain = escaped(text)
        // By scalar, as Markdown counts: a backtick with a combining mark is one Character, not a backtick.
        var longest = 0, run = 0
        for c in plain.unicodeScalars {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1), pad = longest > 0 ? " " : ""
        return fence + pad + plain + pad + fence
    }

    /// Text for XML and HTML (the report, SVG charts, flame graphs): `escaped`, the markup characters as
    /// entities, and U+FFFE and U+FFFF (not characters XML allows) written as escapes, so the page stays
    /// well-formed whatever a name holds.
    package static func xml(_ text: String) -> String {
        var out = entities(escaped(text)).replacingOccurrences(of: "\"", with: "&quot;")
        if out.unicodeScalars.contains(where: { $0.value == 0xFFFE || $0.value == 0xFFFF }) {
            out = String(String.UnicodeScalarView(out.unicodeScalars.flatMap { s -> [Unicode.Scalar] in
                s.value == 0xFFFE || s.value == 0xFFFF ? Array("\\u{\(String(s.value, radix: 16))}".unicodeScalars) : [s]
            }))
        }
        return out
    }

    static func entities(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7F..<0xA0).contains(s.value) }
}
