/// Error text made fit for one line on a terminal.
enum UsageMessage {
    /// ArgumentParser's message on one line (its own may run over several), pointing at --help.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let first = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : $0 } ?? "invalid arguments"
        let rest = lines.dropFirst().filter { !$0.hasPrefix("Usage:") && !$0.hasPrefix("See '") && !$0.hasPrefix("Help:") }
        return ([first] + rest).joined(separator: "; ") + " (see bench --help)"
    }

    /// Control characters (a newline or an ANSI escape in a trigger id or a path) written as escapes, so
    /// input cannot split the error line or paint the terminal.
    static func printable(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F, 0x80..<0xA0: out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
