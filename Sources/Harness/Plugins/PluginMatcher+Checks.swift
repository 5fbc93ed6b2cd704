import TriggerKit

/// What a plugin owes a run beyond matching (`ForeignMatcher`).
extension PluginMatcher {
    func faults(in scratch: MatchScratch) -> ABIFaults { Self.invalidResults(in: scratch) }

    var remedy: String { "run bench conform --plugin \(library.path) to see the events" }

    /// The two entry points must agree (`match` serves the prefix and single events, `match_batch` the
    /// timed unpublished rows), and neither may break the ABI.
    func checkEntryPoints(name: String, prefix: MatchChecksum, untimedScratches: [MatchScratch], events: EventColumns,
                          referenceEvents: Int) throws {
        let triggers = triggerSet.triggers.count
        let batchScratch = makeScratch(for: events)
        var batched = MatchChecksum()
        let n = min(referenceEvents, events.count)
        events.withView { matchBatch(0..<n, in: $0, scratch: batchScratch, into: &batched) }
        for (entry, scratch) in zip(["match", "match", "match_batch"], untimedScratches + [batchScratch]) {
            let invalid = faults(in: scratch)
            if invalid.count > 0 {
                throw MatchedWrongly(description: "\(name): its \(entry) broke the plugin ABI \(invalid.count) times (first: \(invalid.first): a trigger index outside 0..<\(triggers) or reported twice, a count outside 0...\(triggers) or, from match_batch, a bad end offset or no progress); \(remedy)")
            }
        }
        if batched != prefix {
            throw MatchedWrongly(description: "\(name): match and match_batch disagree over the first \(n) events (checksums \(prefix.hex) and \(batched.hex)); \(remedy)")
        }
    }
}
