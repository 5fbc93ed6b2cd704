import TriggerKit

/// A row as the runner measured it, before its ratios to its peers are known.
struct MeasuredRow {
    var key: RowKey
    var matches: MatchFigures
    var timing: TimingFigures
    var memory: MemoryFigures
    var publishing: PublishingFigures?
    var latencyNs: EventLatency?
}
