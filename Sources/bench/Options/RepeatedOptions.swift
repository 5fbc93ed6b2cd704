import ArgumentParser

/// Refuses an option given twice where only one value is kept: ArgumentParser keeps the last, so
/// `check --current BAD --current OK` would judge only OK and `conform --plugin A --plugin B` would never
/// check A. Options that take a list by repetition are named per command.
enum RepeatedOptions {
    static let repeatable: [String: Set<String>] = [
        "run": ["plugin"], "sweep": ["plugin", "vary"], "instructions": ["plugin"], "builds": ["plugin"], "ab": ["plugin"],
        "conform": ["cases"],
    ]

    static func check(_ arguments: [String]) throws {
        let commands = Set(Bench.configuration.subcommands.compactMap { $0.configuration.commandName })
        let command = arguments.first.flatMap { commands.contains($0) ? $0 : nil } ?? "run"
        var seen = Set<String>()
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let name = String(argument.dropFirst(2).prefix { $0 != "=" })
            guard !(repeatable[command] ?? []).contains(name) else { continue }
            if !seen.insert(name).inserted {
                throw ValidationError("--\(name) is given twice, and only one would count; give it once")
            }
        }
    }
}
