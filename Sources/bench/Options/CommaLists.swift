import ArgumentParser
import Harness
import TriggerKit

/// Typed comma-separated option values (`--strategies compiled,floor`, `--threads 1,2`,
/// `--publication none,lock-free`), parsed and checked once, where the option is declared.
enum CommaLists {
    static func strategies(_ text: String) throws -> [String] {
        let names = try OptionList.items("--strategies", text)
        for s in names where StrategyRegistry.named(s) == nil {
            throw ValidationError("unknown strategy \"\(s)\" in --strategies; choose from \(StrategyRegistry.names.joined(separator: ", "))")
        }
        return try unique("--strategies", names)
    }

    /// Refuses a list that names an item twice (it would run the same rows twice).
    static func unique<T: Hashable>(_ option: String, _ items: [T]) throws -> [T] {
        var seen = Set<T>()
        for item in items where !seen.insert(item).inserted { throw ValidationError("\(option) lists \(item) twice") }
        return items
    }

    static func threadCounts(_ text: String) throws -> [Int] {
        try unique("--threads", OptionList.items("--threads", text).map {
            guard let n = Int($0), n >= 1, n <= 64 else { throw ValidationError("--threads takes counts from 1 to 64, got \"\($0)\"") }
            return n
        })
    }

    static func publications(_ text: String) throws -> [Publication] {
        try unique("--publication", OptionList.items("--publication", text).map {
            guard let p = Publication(rawValue: $0) else { throw ValidationError("unknown publication \"\($0)\"; choose from none, lock-free, mutex") }
            return p
        })
    }
}
