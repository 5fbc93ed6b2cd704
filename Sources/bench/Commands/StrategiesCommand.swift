import ArgumentParser
import Foundation
import Harness
import TriggerKit

struct StrategiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strategies", abstract: "List the matcher strategies.")

    func run() throws {
        let width = StrategyRegistry.names.map(\.count).max()!
        for s in StrategyRegistry.all {
            try TextOutput.printLine(s.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + s.summary)
        }
    }
}
