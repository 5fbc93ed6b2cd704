import TriggerKit

/// Every strategy that evaluates must report the same matches, and a plugin must keep its ABI.
enum CrossCheck {
    /// A plugin's two entry points must agree (`match` serves the prefix and single events, `match_batch`
    /// the timed unpublished rows), and neither may break the ABI.
    static func pluginEntryPoints(_ matcher: any Matcher, name: String, prefix: MatchChecksum, untimedScratches: [MatchScratch],
                                  events: EventColumns, referenceEvents: Int) throws {
        guard let plugin = matcher as? PluginMatcher else { return }
        let triggers = matcher.triggerSet.triggers.count
        let batchScratch = plugin.makeScratch(for: events)
        var batched = MatchChecksum()
        let n = min(referenceEvents, events.count)
        events.withView { plugin.matchBatch(0..<n, in: $0, scratch: batchScratch, into: &batched) }
        for (entry, scratch) in zip(["match", "match", "match_batch"], untimedScratches + [batchScratch]) {
            let invalid = PluginMatcher.invalidResults(in: scratch)
            if invalid.count > 0 {
                throw MatchedWrongly(description: "\(name): its \(entry) broke the plugin ABI \(invalid.count) times (first: \(invalid.first): a trigger index outside 0..<\(triggers) or reported twice, a count outside 0...\(triggers) or, from match_batch, a bad end offset or no progress); run bench conform --plugin \(plugin.library.path)")
            }
        }
        if batched != prefix {
            throw MatchedWrongly(description: "\(name): match and match_batch disagree over the first \(n) events (checksums \(prefix.hex) and \(batched.hex)); run bench conform --plugin \(plugin.library.path)")
        }
    }

    /// Over the reference prefix against `reference`, and over the full run against each other (every
    /// thread count and publication). A plugin is checked against the oracle even when no `reference`
    /// row runs.
    static func strategiesAgree(built: [BuiltStrategy], rows: [MeasuredRow], input: LoadedInput, configuration: RunConfiguration,
                                progress: ProgressLine) throws {
        let referenceEvents = min(configuration.referenceEvents, input.events.count)
        var prefixes = Dictionary(built.map { ($0.name, $0.prefix) }, uniquingKeysWith: { a, _ in a })
        prefixes[FloorMatcher.strategyName] = nil
        if !configuration.plugins.isEmpty, prefixes[ReferenceMatcher.strategyName] == nil {
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
                let hint = b.name.hasPrefix(PluginLibrary.strategyPrefix) ? "run bench conform --plugin on it to see the events" : "run the differential tests to find the event"
                throw MatchedWrongly(description: "strategy \(b.name) disagrees with reference over the first \(referenceEvents) events: checksum \(sum.hex) (\(sum.matches) matches) vs \(oracle.hex) (\(oracle.matches) matches); \(hint)")
            }
        }
        let full = rows.filter { $0.key.strategy != FloorMatcher.strategyName && $0.key.strategy != ReferenceMatcher.strategyName }
        let isPlugin = { (row: MeasuredRow) in row.key.strategy.hasPrefix(PluginLibrary.strategyPrefix) }
        // Rows are checked against a built-in one; a plugin with none beside it gets an untimed full run of
        // the default strategy to answer to, so its whole run is never checked only against itself.
        var expected = full.first { !isPlugin($0) }.map { (name: "\($0.key)", checksum: $0.matches.checksum) }
        if expected == nil, let plugin = full.first(where: isPlugin) {
            let name = StrategyRegistry.defaultStrategyName
            progress.note("checking the plugins' full runs against \(name) (untimed; no built-in strategy ran beside them)")
            let matcher = try StrategyRegistry.named(name)!.make(input.set, input.vocabulary)
            let sum = input.events.withView { ReplayLoop.checksum(matcher, $0, 0..<plugin.matches.events, matcher.makeScratch(for: input.events)) }
            expected = (name: "\(name) (untimed check)", checksum: sum)
        }
        guard let expected else { return }
        if let other = full.first(where: { $0.matches.checksum != expected.checksum }) {
            let hint = isPlugin(other) ? "; run bench conform --plugin on it to see the events" : ""
            throw MatchedWrongly(description: "\(other.key) checksum \(other.matches.checksum.hex) (\(other.matches.matches) matches) ≠ \(expected.name) \(expected.checksum.hex) (\(expected.checksum.matches) matches)\(hint)")
        }
    }
}
