/// One row of results (docs/harness.md, "Results"): a composition of parts, written to JSON as one flat
/// object whose keys are the parts' own (schema 2 unchanged).
package struct StrategyResult: Codable, Sendable, Equatable {
    package var key: RowKey
    package var matches: MatchFigures
    package var timing: TimingFigures
    package var memory: MemoryFigures
    /// Publication rows with a writer only.
    package var publishing: PublishingFigures?
    /// Percentiles of single events, timed one at a time (plain rows only).
    package var latencyNs: EventLatency?
    package var ratios: RatioFigures
    /// Instructions per event of the plain row's matching loop under callgrind (`--instructions`): counted
    /// in another process, so filled in by `RunReport.merge` after the row is made.
    package var instructionsPerEvent: Double?
    /// Percentiles of single events each timed after the caches were evicted (plain rows only; nil with
    /// `--cold-events 0` and in older files).
    package var coldLatencyNs: EventLatency?
    /// How the timed passes were made: warm-up, loops, preemption, outliers (nil in older files).
    package var passes: PassFigures?
    /// A plugin row's `describe` facts, `[key, value]` in the plugin's order (ABI 2; nil without them).
    package var pluginFacts: [[String]]?

    package init(key: RowKey, matches: MatchFigures, timing: TimingFigures, memory: MemoryFigures, publishing: PublishingFigures?,
                latencyNs: EventLatency?, ratios: RatioFigures, instructionsPerEvent: Double? = nil) {
        self.key = key
        self.matches = matches
        self.timing = timing
        self.memory = memory
        self.publishing = publishing
        self.latencyNs = latencyNs
        self.ratios = ratios
        self.instructionsPerEvent = instructionsPerEvent
    }

    package var strategy: String { key.strategy }

    private enum CodingKeys: String, CodingKey { case latencyNs, coldLatencyNs, passes, instructionsPerEvent, publications, pluginFacts }

    package init(from decoder: Decoder) throws {
        key = try RowKey(from: decoder)
        matches = try MatchFigures(from: decoder)
        timing = try TimingFigures(from: decoder)
        memory = try MemoryFigures(from: decoder)
        ratios = try RatioFigures(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        publishing = c.contains(.publications) ? try PublishingFigures(from: decoder) : nil
        latencyNs = try c.decodeIfPresent(EventLatency.self, forKey: .latencyNs)
        coldLatencyNs = try c.decodeIfPresent(EventLatency.self, forKey: .coldLatencyNs)
        passes = try c.decodeIfPresent(PassFigures.self, forKey: .passes)
        instructionsPerEvent = try c.decodeIfPresent(Double.self, forKey: .instructionsPerEvent)
        pluginFacts = try c.decodeIfPresent([[String]].self, forKey: .pluginFacts)
        if let facts = pluginFacts, facts.contains(where: { $0.count != 2 }) || facts.count > 64 {
            throw DecodingError.dataCorruptedError(forKey: .pluginFacts, in: c, debugDescription: "plugin_facts holds at most 64 [key, value] pairs")
        }
    }

    package func encode(to encoder: Encoder) throws {
        for part in [key, matches, timing, memory, ratios, publishing] as [(any Encodable)?] { try part?.encode(to: encoder) }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(latencyNs, forKey: .latencyNs)
        try c.encodeIfPresent(coldLatencyNs, forKey: .coldLatencyNs)
        try c.encodeIfPresent(passes, forKey: .passes)
        try c.encodeIfPresent(instructionsPerEvent, forKey: .instructionsPerEvent)
        try c.encodeIfPresent(pluginFacts, forKey: .pluginFacts)
    }
}
