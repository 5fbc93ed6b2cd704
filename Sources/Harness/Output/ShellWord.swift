/// A word as a POSIX shell reads it back unchanged, for commands the tool prints for users to paste.
package enum ShellWord {
    /// `word` itself when it holds only characters no shell treats specially, else single-quoted.
    package static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || "-_./,=:+@%".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
