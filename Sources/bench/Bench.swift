import ArgumentParser
import CJemalloc
import Foundation
import Harness
import TriggerKit

/// The `bench` command: replays synthetic app events through trigger matchers and reports the cost.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure what it costs, per event, to decide which in-app message an app event triggers.",
        version: "bench (TriggerBench)",
        subcommands: [RunCommand.self, CheckCommand.self, GateCommand.self, ABCommand.self, InstructionsCommand.self, BuildsCommand.self, FlameGraphCommand.self, ReplayCommand.self, ExplainCommand.self, GenerateCommand.self, FitCommand.self, StrategiesCommand.self, ConformCommand.self, SweepCommand.self, ReportCommand.self, LintCommand.self],
        defaultSubcommand: RunCommand.self)
}

/// Exit codes (docs/semantics.md, "Exit codes").
enum Exit {
    static let regression: Int32 = 1
    static let badInput: Int32 = 2
    /// `bench ab --fail-if-slower` could not tell within its time budget: neither a pass nor a regression.
    static let inconclusive: Int32 = 3
}

/// Entry point: maps errors to the exit codes (usage and input errors are 2, not ArgumentParser's 64),
/// each as one line on standard error.
@main
enum BenchMain {
    static func main() {
        TextOutput.installSignalHandling()
        // The measurements need jemalloc as the process allocator; this call also keeps it linked.
        if trigger_bench_jemalloc_present() == 0 {
            TextOutput.standardError("bench: warning: jemalloc is not the allocator; allocation counts will read 0")
        }
        do {
            try RepeatedOptions.check(Array(CommandLine.arguments.dropFirst()))
            var command = try Bench.parseAsRoot()
            try command.run()
            if let failure = TextOutput.standardOutputFailure { fail("\(failure)") }
        } catch is OutputClosed {
            // The reader of our output left (`bench replay … | head`): nothing is lost that anyone reads.
            exit(0)
        } catch let error as ValidationError {
            fail(error.message)
        } catch let error as InputError {
            fail("\(error)")
        } catch let error as HarnessError {
            fail("\(error)")
        } catch let mismatch as MatchedWrongly {
            // A correctness bug, not bad input: strategies, builds or a plugin's entry points disagreed.
            TextOutput.standardError("bench: matched wrongly: \(PrintableText.escaped(mismatch.description))")
            exit(Exit.regression)
        } catch let code as ExitCode {
            // A verdict (1) stands whatever standard output did; a success that lost its output does not.
            if let failure = TextOutput.standardOutputFailure {
                if code.rawValue == 0 { fail("\(failure)") }
                TextOutput.standardError("bench: error: \(PrintableText.escaped("\(failure)"))")
            }
            exit(code.rawValue)
        } catch {
            let code = Bench.exitCode(for: error)
            if code == .success {
                // --help and --version: their text is the output asked for; --version, wherever it was
                // given, the full one, read at run time (the checkout's commit), not the static text.
                let message = Bench.fullMessage(for: error)
                do { try TextOutput.printLine(message == Bench.configuration.version ? VersionText.describe() : message) } catch {}
                if let failure = TextOutput.standardOutputFailure { fail("\(failure)") }
                exit(0)
            }
            fail(UsageMessage.oneLine(Bench.message(for: error), arguments: Array(CommandLine.arguments.dropFirst())))
        }
    }

    static func fail(_ message: String) -> Never {
        TextOutput.standardError("bench: error: \(PrintableText.escaped(message))")
        exit(Exit.badInput)
    }
}
