import ArgumentParser
import Harness
import TriggerKit

/// Typed comma-separated option values (`--strategies compiled,floor`, `--threads 1,2`,
/// `--publication none,lock-free`), parsed and checked once, where the option is declared.
enum CommaLists {
    static func strategies(_ text: String) throws -> [String] {
        let names = try Limits.list("--strategies", text)
        for s in names where StrategyRegistry.named(s) == nil {
            throw ValidationError("unknown strategy \"\(s)\" in --strategies; choose from \(StrategyRegistry.names.joined(separator: ", "))")
        }
        return names
    }

    static func threadCounts(_ text: String) throws -> [Int] {
        try Limits.list("--threads", text).map {
            guard let n = Int($0), n >= 1, n <= 64 else { throw ValidationError("--threads takes counts from 1 to 64, got \"\($0)\"") }
            return n
        }
    }

    static func publications(_ text: String) throws -> [Publication] {
        try Limits.list("--publication", text).map {
            guard let p = Publication(rawValue: $0) else { throw ValidationError("unknown publication \"\($0)\"; choose from none, lock-free, mutex") }
            return p
        }
    }
}
