/// How long a row's timed passes took.
public struct TimingFigures: Codable, Sendable, Equatable {
    /// `mean`: wall-clock ns per event over the timed passes (the mean of `nsPerEventSamples`; with
    /// several reader threads, the run's time per event, not a thread's). The percentiles are of
    /// reader threads' batches, merged: each batch's time over its size, on its thread, is one sample.
    public struct Latency: Codable, Sendable, Equatable {
        public var mean, p50, p90, p99, p999, max: Double
    }

    public var eventsPerSecond: Double
    public var nsPerEvent: Latency
    public var cpuSeconds: Double
    public var wallSeconds: Double
    /// Each reader's own rate (rows with more than one thread).
    public var perThreadEventsPerSecond: [Double]?
    /// Mean ns/event of each timed repetition (`--repetitions`): the samples the gate's wall-clock tier tests.
    public var nsPerEventSamples: [Double]?
    /// Bootstrap 95 % interval of the mean ns/event over the repetitions (nil with one repetition).
    public var meanCi95: [Double]?

    /// The fastest and slowest repetition's mean ns/event (nil with fewer than two).
    public var repetitionRange: (fastest: Double, slowest: Double)? {
        guard let s = nsPerEventSamples, s.count > 1, let lo = s.min(), let hi = s.max(), lo > 0 else { return nil }
        return (lo, hi)
    }
}
