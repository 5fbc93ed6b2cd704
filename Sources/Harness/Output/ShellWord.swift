/// A word as a shell reads it back unchanged, for commands the tool prints for users to paste: plain or
/// single-quoted (any POSIX shell), or ANSI-C quoted when it holds control characters (bash, zsh, ksh).
package enum ShellWord {
    /// `word` itself when it holds only characters no shell treats specially, else single-quoted; with
    /// control characters, ANSI-C quoted (`$'a\nb'`), so none reaches a terminal. C1 controls are written
    /// as their UTF-8 bytes: `\x85` alone would be one byte, not the character.
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
            case _ where PrintableText.isControl(s):
                for byte in String(s).utf8 { out += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16) }
            default: out.unicodeScalars.append(s)
            }
        }
        return out + "'"
    }
}
