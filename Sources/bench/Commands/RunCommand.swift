import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Generate (or load) a workload and replay it through the chosen strategies; print a comparison table.",
        discussion: """
            Every strategy replays the same struct-of-arrays event buffers. `reference` replays only the first \
            --reference-events events; every other strategy is checked against it on that prefix, and against each \
            other on the full run. A checksum disagreement exits 1.
            """)

    @OptionGroup var input: InputOptions

    @OptionGroup var options: RunOptions

    @OptionGroup var outputs: RunOutputs

    @Flag(help: "Also count instructions/event of each strategy's 1-thread loop under valgrind --tool=callgrind (adds a minute or more).")
    var instructions = false

    func validate() throws {
        // Refused now: the counting children run after the whole timed run, which would be lost.
        if instructions { try input.requireRereadableFiles("--instructions runs callgrind children that each read it again") }
    }

    func run() throws {
        options.progressOption.apply()
        try OutputPaths.refuseOverwriting(
            outputs: outputs.paths,
            inputs: [("--corpus", input.corpus), ("--event-log", input.eventLog), ("--workload", input.workloadFile)]
                + options.plugins.map { ("--plugin", PluginLibrary.path(ofArgument: $0)) })
        // Opened before the run, so an unwritable path fails now, not after minutes of measuring.
        let files = try outputs.open()
        let configuration = try options.makeConfiguration(input: input.source())
        let report = try Self.measure(configuration, instructions: instructions)
        try TextOutput.printLine(report.table())
        try files.commit(report)
    }

    /// Runs `configuration` and, with `instructions`, adds each strategy's callgrind count (`bench gate` too).
    static func measure(_ configuration: RunConfiguration, instructions: Bool) throws -> RunReport {
        var report = try Runner(configuration).run()
        if instructions {
            let progress = ProgressLine(enabled: true)
            let counts = try InstructionCounter.count(
                input: configuration.input, strategies: configuration.strategies,
                events: report.workload.events, referenceEvents: report.run?.settings.referenceEvents ?? configuration.referenceEvents, progress: { progress.note($0) })
            progress.note("")
            try report.merge(counts)
        }
        return report
    }
}
