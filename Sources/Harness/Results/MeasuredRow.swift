import TriggerKit

/// A row as the runner measured it, before its ratios to its peers are known.
package struct MeasuredRow {
    var key: RowKey
    var matches: MatchFigures
    var timing: TimingFigures
    var memory: MemoryFigures
    var publishing: PublishingFigures?
    var latencyNs: EventLatency?
    var coldLatencyNs: EventLatency?
    var passes: PassFigures?

    package init(key: RowKey, matches: MatchFigures, timing: TimingFigures, memory: MemoryFigures, publishing: PublishingFigures?, latencyNs: EventLatency?,
                 coldLatencyNs: EventLatency? = nil, passes: PassFigures? = nil) {
        self.key = key
        self.matches = matches
        self.timing = timing
        self.memory = memory
        self.publishing = publishing
        self.latencyNs = latencyNs
        self.coldLatencyNs = coldLatencyNs
        self.passes = passes
    }
}
