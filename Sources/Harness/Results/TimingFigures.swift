/// How long a row's timed passes took.
package struct TimingFigures: Codable, Sendable, Equatable {
    /// `mean`: wall-clock ns per event over the timed passes (the mean of `nsPerEventSamples`; with
    /// several reader threads, the run's time per event, not a thread's). The percentiles are of
    /// reader threads' batches, merged: each batch's time over its size, on its thread, is one sample.
    package struct Latency: Codable, Sendable, Equatable {
        package var mean, p50, p90, p99, p999, max: Double

        package init(mean: Double, p50: Double, p90: Double, p99: Double, p999: Double, max: Double) {
            (self.mean, self.p50, self.p90, self.p99, self.p999, self.max) = (mean, p50, p90, p99, p999, max)
        }
    }

    package var eventsPerSecond: Double
    package var nsPerEvent: Latency
    package var cpuSeconds: Double
    package var wallSeconds: Double
    /// Each reader's own rate (rows with more than one thread).
    package var perThreadEventsPerSecond: [Double]?
    /// Mean ns/event of each timed repetition (`--repetitions`): the samples the gate's wall-clock tier tests.
    package var nsPerEventSamples: [Double]?
    /// Bootstrap 95 % interval of the mean ns/event over the repetitions (nil with one repetition).
    package var meanCi95: [Double]?

    /// The fastest and slowest repetition's mean ns/event (nil with fewer than two).
    package var repetitionRange: (fastest: Double, slowest: Double)? {
        guard let s = nsPerEventSamples, s.count > 1, let lo = s.min(), let hi = s.max(), lo > 0 else { return nil }
        return (lo, hi)
    }

    package init(eventsPerSecond: Double, nsPerEvent: Latency, cpuSeconds: Double, wallSeconds: Double, perThreadEventsPerSecond: [Double]? = nil, nsPerEventSamples: [Double]? = nil, meanCi95: [Double]? = nil) {
        self.eventsPerSecond = eventsPerSecond
        self.nsPerEvent = nsPerEvent
        self.cpuSeconds = cpuSeconds
        self.wallSeconds = wallSeconds
        self.perThreadEventsPerSecond = perThreadEventsPerSecond
        self.nsPerEventSamples = nsPerEventSamples
        self.meanCi95 = meanCi95
    }
}
