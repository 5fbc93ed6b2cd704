import ArgumentParser
import Foundation
import Harness
import TriggerKit

/// The options that change what a simulated device decides, shared by `replay` and `explain`.
struct ReplayOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Seconds a displayed message stays on screen unless a dismiss line comes first.")
    var displaySeconds: Double = 10

    @Option(help: "The matcher strategy deciding matches (see `bench strategies`); outputs are identical for all.")
    var strategy: String = "reference"

    func validate() throws {
        guard StrategyRegistry.named(strategy) != nil else {
            throw ValidationError("unknown strategy \"\(strategy)\"; choose one of \(StrategyRegistry.names.filter { $0 != "floor" }.joined(separator: ", "))")
        }
        guard strategy != "floor" else { throw ValidationError("floor evaluates nothing and cannot decide matches; pick another strategy") }
        guard displaySeconds >= 0, displaySeconds.isFinite else {
            throw ValidationError("--display-seconds must be a finite number of seconds, zero or more")
        }
    }

    func makeMatcher() -> (TriggerSet) -> (Event) -> [Int] {
        StrategyRegistry.eventMatcher(StrategyRegistry.named(strategy)!)
    }
}
