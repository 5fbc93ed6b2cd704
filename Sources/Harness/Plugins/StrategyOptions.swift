import TriggerKit

extension StrategyRegistry {
    /// The strategy a `--strategies` entry names, or an input error listing the known ones.
    package static func option(_ name: String) throws -> Strategy {
        guard let strategy = named(name) else {
            throw InputError(file: "--strategies", path: name, reason: "unknown strategy; choose from \(names.joined(separator: ", "))")
        }
        return strategy
    }
}
