/// ArgumentParser's error text made fit for one line.
enum UsageMessage {
    /// ArgumentParser's message on one line (its own may run over several), pointing at --help.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let first = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : $0 } ?? "invalid arguments"
        let rest = lines.dropFirst().filter { !$0.hasPrefix("Usage:") && !$0.hasPrefix("See '") && !$0.hasPrefix("Help:") }
        return ([first] + rest).joined(separator: "; ") + " (see bench --help)"
    }
}
