import TriggerKit

/// What a row matched: the run's events, its matches and their order-independent checksum.
public struct MatchFigures: Codable, Sendable, Equatable {
    public var events: Int
    public var checksum: MatchChecksum
    public var matchesPerEvent: Double
    public var candidatesPerEvent: Double

    public var matches: Int { checksum.matches }

    public init(events: Int, checksum: MatchChecksum, candidates: Int) {
        self.events = events
        self.checksum = checksum
        matchesPerEvent = Double(checksum.matches) / Double(events)
        candidatesPerEvent = Double(candidates) / Double(events)
    }

    enum CodingKeys: String, CodingKey { case events, matches, checksum, matchesPerEvent, candidatesPerEvent }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        events = try c.decode(Int.self, forKey: .events)
        let hex = try c.decode(String.self, forKey: .checksum)
        guard hex.utf8.count <= 16, let value = UInt64(hex, radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: .checksum, in: c, debugDescription: "a checksum is up to 16 hex digits, got \"\(hex.prefix(40))\"")
        }
        checksum = MatchChecksum(value: value, matches: try c.decode(Int.self, forKey: .matches))
        matchesPerEvent = try c.decode(Double.self, forKey: .matchesPerEvent)
        candidatesPerEvent = try c.decode(Double.self, forKey: .candidatesPerEvent)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(checksum.matches, forKey: .matches)
        try c.encode(checksum.hex, forKey: .checksum)
        try c.encode(matchesPerEvent, forKey: .matchesPerEvent)
        try c.encode(candidatesPerEvent, forKey: .candidatesPerEvent)
    }
}

/// How long a row's timed passes took.
public struct TimingFigures: Codable, Sendable, Equatable {
    /// Batch-mean percentiles: each batch's time over its size is one sample.
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
}

/// What a row's matcher costs in memory: per event in steady state (an untimed, counted pass), and held.
public struct MemoryFigures: Codable, Sendable, Equatable {
    public var allocationsPerEvent: Double
    public var bytesPerEvent: Double
    /// Seconds to build the matcher (interning, compiling, indexing).
    public var buildSeconds: Double
    /// Bytes the built matcher holds (jemalloc: what the building thread allocated and did not free).
    public var matcherBytes: Int?
    /// Bytes of one reader thread's scratch.
    public var scratchBytes: Int?
}

/// What the writer of a publication row did while readers matched.
public struct PublishingFigures: Codable, Sendable, Equatable {
    /// Sets published during the timed passes.
    public var publications: Int
    /// Mean milliseconds the writer spent making one published set, by the clock (a writer that shares
    /// the cores with readers is descheduled part of that time) and on its own CPU (what readers lose).
    public var rebuildMsPerPublication: Double?
    public var rebuildCpuMsPerPublication: Double?
    /// Triggers in each delta (`--delta-triggers`); nil when the writer rebuilt whole sets.
    public var deltaTriggers: Int?
    /// Publications that were full builds: all of them without deltas, a delta writer's merges.
    public var fullRebuilds: Int?
    /// jemalloc `stats.allocated` before the writer started and after it stopped: replaced sets must
    /// be freed, so the two differ by about one set, not by the sets published.
    public var heapBytesBeforePublishing: Int?
    public var heapBytesAfterPublishing: Int?
}

/// A row's time per event against its peers' in the same configuration (same threads and publication).
public struct RatioFigures: Codable, Sendable, Equatable {
    /// `reference`'s ns/event over this row's.
    public var speedupVsReference: Double?
    /// This row's ns/event over `floor`'s.
    public var ratioToFloor: Double?
    /// Bootstrap 95 % intervals of the two over the paired repetitions.
    public var speedupVsReferenceCi95: [Double]?
    public var ratioToFloorCi95: [Double]?

    public init(speedupVsReference: Double? = nil, ratioToFloor: Double? = nil, speedupVsReferenceCi95: [Double]? = nil, ratioToFloorCi95: [Double]? = nil) {
        self.speedupVsReference = speedupVsReference
        self.ratioToFloor = ratioToFloor
        self.speedupVsReferenceCi95 = speedupVsReferenceCi95
        self.ratioToFloorCi95 = ratioToFloorCi95
    }
}
