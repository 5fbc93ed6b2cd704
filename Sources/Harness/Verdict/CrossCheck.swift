import TriggerKit

/// Every strategy that evaluates must report the same matches.
enum CrossCheck {
    /// Over the reference prefix against `reference`, and over the full run against each other (every
    /// thread count and publication). A plugin is checked against the oracle even when no `reference`
    /// row runs.
    static func strategiesAgree(built: [BuiltStrategy], rows: [MeasuredRow], input: LoadedInput, configuration: RunConfiguration,
                                progress: ProgressLine) throws {
        let referenceEvents = min(configuration.referenceEvents, input.events.count)
        var prefixes = Dictionary(built.map { ($0.name, $0.prefix) }, uniquingKeysWith: { a, _ in a })
        prefixes[FloorMatcher.strategyName] = nil
        let foreign = Dictionary(built.compactMap { b in (b.matcher as? any ForeignMatcher).map { (b.name, $0.remedy) } },
                                 uniquingKeysWith: { a, _ in a })
        if !foreign.isEmpty, prefixes[ReferenceMatcher.strategyName] == nil {
            progress.note("checking the plugins against reference over the first \(referenceEvents) events")
            let oracle = ReferenceMatcher(input.set)
            prefixes[ReferenceMatcher.strategyName] = input.events.withView {
                ReplayLoop.checksum(oracle, $0, 0..<referenceEvents, oracle.makeScratch(for: input.events))
            }
        }
        if let oracle = prefixes[ReferenceMatcher.strategyName] {
            for b in built where b.name != FloorMatcher.strategyName {
                let sum = b.prefix
                guard sum != oracle else { continue }
                let hint = foreign[b.name] ?? "run the differential tests to find the event"
                throw MatchedWrongly(description: "strategy \(b.name) disagrees with reference over the first \(referenceEvents) events: checksum \(sum.hex) (\(sum.matches) matches) vs \(oracle.hex) (\(oracle.matches) matches); \(hint)")
            }
        }
        let full = rows.filter { $0.key.strategy != FloorMatcher.strategyName && $0.key.strategy != ReferenceMatcher.strategyName }
        let isForeign = { (row: MeasuredRow) in foreign[row.key.strategy] != nil }
        // Rows are checked against a built-in one; a plugin with none beside it gets an untimed full run of
        // the default strategy to answer to, so its whole run is never checked only against itself.
        var expected = full.first { !isForeign($0) }.map { (name: "\($0.key)", checksum: $0.matches.checksum) }
        if expected == nil, let foreignRow = full.first(where: isForeign) {
            let name = StrategyRegistry.defaultStrategyName
            progress.note("checking the plugins' full runs against \(name) (untimed; no built-in strategy ran beside them)")
            let matcher = try StrategyRegistry.named(name)!.make(input.set, input.vocabulary)
            let sum = input.events.withView { ReplayLoop.checksum(matcher, $0, 0..<foreignRow.matches.events, matcher.makeScratch(for: input.events)) }
            expected = (name: "\(name) (untimed check)", checksum: sum)
        }
        guard let expected else { return }
        if let other = full.first(where: { $0.matches.checksum != expected.checksum }) {
            let hint = foreign[other.key.strategy].map { "; \($0)" } ?? ""
            throw MatchedWrongly(description: "\(other.key) checksum \(other.matches.checksum.hex) (\(other.matches.matches) matches) ≠ \(expected.name) \(expected.checksum.hex) (\(expected.checksum.matches) matches)\(hint)")
        }
    }
}
