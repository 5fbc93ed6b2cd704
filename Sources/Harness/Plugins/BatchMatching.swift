import TriggerKit

/// A matcher that matches a run of events in one call (the plugin ABI's optional `match_batch`); the
/// timed loop uses it on unpublished rows, where every event of a batch sees the same matcher.
protocol BatchMatching {
    /// Matches events `range` in order, adding each event's matches to `checksum`.
    func matchBatch(_ range: Range<Int>, in events: EventView, scratch: MatchScratch, into checksum: inout MatchChecksum)
}
