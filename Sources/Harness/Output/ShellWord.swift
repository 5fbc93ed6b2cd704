/// A word as a POSIX shell reads it back unchanged, for commands the tool prints for users to paste.
package enum ShellWord {
    /// `word` itself when it holds only characters no shell treats specially, else single-quoted; with
    /// control characters, ANSI-C quoted (`$'a\nb'`, as bash and zsh read it), so none reaches a terminal.
    package static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || "-_./,=:+@%".unicodeScalars.contains($0)
        }
        if plain { return word }
        guard word.unicodeScalars.contains(where: PrintableText.isControl) else {
            return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var out = "$'"
        for s in word.unicodeScalars {
            switch s {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where PrintableText.isControl(s): out += "\\x" + (s.value < 0x10 ? "0" : "") + String(s.value, radix: 16)
            default: out.unicodeScalars.append(s)
            }
        }
        return out + "'"
    }
}
