/// ArgumentParser's error text made fit for one line.
enum UsageMessage {
    /// ArgumentParser's message on one line (its own may run over several), pointing at the help of
    /// the subcommand the arguments name (`bench run --help`), else at `bench --help`.
    static func oneLine(_ message: String, arguments: [String] = []) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let first = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : $0 } ?? "invalid arguments"
        let rest = lines.dropFirst().filter { !$0.hasPrefix("Usage:") && !$0.hasPrefix("See '") && !$0.hasPrefix("Help:") }
        let help = subcommand(in: arguments).map { "bench \($0) --help" } ?? "bench --help"
        return ([first] + rest).joined(separator: "; ") + " (see \(help))"
    }

    /// The subcommand the arguments start with; the default one (`run`) when they start with an
    /// option, since its options are the ones parsed; nil for a word that names no subcommand.
    static func subcommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return Bench.configuration.defaultSubcommand?._commandName }
        return Bench.configuration.subcommands.map { $0._commandName }.first { $0 == first }
    }
}
