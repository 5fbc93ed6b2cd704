/// How a row's timed passes were made and how undisturbed they were: the warm-up before each, how
/// many times each replayed the row's events to last long enough, and what the scheduler did during
/// them. Nil in files from before warm, time-targeted passes.
package struct PassFigures: Codable, Sendable, Equatable {
    /// Times each timed pass replayed the row's events (the same in every repetition).
    package var loops: Int
    /// Events one pass matched, on all its reader threads together: the row's events × `loops`.
    package var eventsPerPass: Int
    /// Untimed replay of the row's own events just before each timed pass, mean seconds per pass.
    package var warmupSeconds: Double
    /// Each repetition's pass, wall-clock seconds.
    package var seconds: [Double]
    /// The reader threads' CPU seconds over their wall seconds, all passes together (1: never off the
    /// CPU; a shared host's other tenants and this process's other threads lower it).
    package var cpuShare: Double
    /// Involuntary context switches of the reader threads in each repetition's pass (`getrusage`).
    package var involuntarySwitches: [Int]
    /// The mean of `involuntarySwitches` (0 with no passes).
    package var involuntarySwitchesPerPass: Double {
        involuntarySwitches.isEmpty ? 0 : Double(involuntarySwitches.reduce(0, +)) / Double(involuntarySwitches.count)
    }
    /// The timed batches outside Tukey's fences.
    package var outliers: OutlierCounts
    /// What makes this row's mean doubtful, by name (`Flag`); empty when nothing does.
    package var flags: [String]

    package init(loops: Int, eventsPerPass: Int, warmupSeconds: Double, seconds: [Double], cpuShare: Double, involuntarySwitches: [Int],
                 outliers: OutlierCounts, flags: [String] = []) {
        self.loops = loops
        self.eventsPerPass = eventsPerPass
        self.warmupSeconds = warmupSeconds
        self.seconds = seconds
        self.cpuShare = cpuShare
        self.involuntarySwitches = involuntarySwitches
        self.outliers = outliers
        self.flags = flags
    }

    /// The reasons a row is flagged in the table (one letter each) and in the JSON (the raw value).
    package enum Flag: String, CaseIterable, Sendable {
        /// The readers were off the CPU for more than `preemptedShare` of a pass.
        case preempted
        /// More than `outlierShare` of the batches are severe outliers.
        case outliers
        /// A pass lasted less than `shortPass`: too short for the clock and the caches to settle.
        case short
        /// The mean's 95 % interval is wider than ±`wideSpread` of it: a difference smaller than that is
        /// the host's noise, in this run or against another.
        case wide

        package var letter: String {
            switch self {
            case .preempted: "P"
            case .outliers: "O"
            case .short: "S"
            case .wide: "W"
            }
        }

        package var meaning: String {
            switch self {
            case .preempted: "preempted: the readers were off the CPU for over \(Int(PassFigures.preemptedShare * 100)) % of the passes"
            case .outliers: "outliers: over \(Int(PassFigures.outlierShare * 100)) % of the batches severely slow (beyond Q3 + 3 IQR)"
            case .short: "short: a pass under \(Int(PassFigures.shortPass * 1000)) ms, too short to time (raise --pass-seconds)"
            case .wide: "wide: the mean's 95 % interval is wider than ±\(Int(PassFigures.wideSpread * 100)) %, so smaller differences are noise (more --repetitions narrow it)"
            }
        }
    }

    static let preemptedShare = 0.05
    static let outlierShare = 0.05
    static let shortPass = 0.005
    static let wideSpread = 0.10

    /// The flags these figures earn, with the mean and its interval (`interval`) for the spread.
    package static func flags(cpuShare: Double, outliers: OutlierCounts, seconds: [Double], mean: Double, interval: [Double]?) -> [String] {
        var out: [Flag] = []
        // A pass too short to time is too short for its CPU share too (the clock reads around it count).
        let long = (seconds.min() ?? 0) >= shortPass
        if long, cpuShare < 1 - preemptedShare { out.append(.preempted) }
        if outliers.samples > 0, Double(outliers.highSevere) / Double(outliers.samples) > outlierShare { out.append(.outliers) }
        if let shortest = seconds.min(), shortest < shortPass { out.append(.short) }
        if let interval, interval.count == 2, mean > 0, (interval[1] - interval[0]) / 2 > wideSpread * mean { out.append(.wide) }
        return out.map(\.rawValue)
    }
}
