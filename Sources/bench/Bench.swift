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
        subcommands: [RunCommand.self, CheckCommand.self, ABCommand.self, InstructionsCommand.self, BuildsCommand.self, FlameGraphCommand.self, ReplayCommand.self, ExplainCommand.self, GenerateCommand.self, StrategiesCommand.self],
        defaultSubcommand: RunCommand.self)
}

/// Exit codes of SPEC §8.
enum Exit {
    static let regression: Int32 = 1
    static let badInput: Int32 = 2
}

/// Entry point: maps errors to SPEC §8 exit codes (usage and input errors are 2, not ArgumentParser's 64).
@main
enum BenchMain {
    static func main() {
        // The measurements need jemalloc as the process allocator; this call also keeps it linked.
        if trigger_bench_jemalloc_present() == 0 {
            FileHandle.standardError.write(Data("bench: warning: jemalloc is not the allocator; allocation counts will read 0\n".utf8))
        }
        do {
            var command = try Bench.parseAsRoot()
            try command.run()
        } catch let error as ValidationError {
            FileHandle.standardError.write(Data("bench: error: \(error.message)\n".utf8))
            exit(Exit.badInput)
        } catch let error as InputError {
            FileHandle.standardError.write(Data("bench: error: \(error)\n".utf8))
            exit(Exit.badInput)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            let code = Bench.exitCode(for: error)
            let message = Bench.fullMessage(for: error)
            if code == .success {
                print(message)
                exit(0)
            }
            FileHandle.standardError.write(Data("\(message)\n".utf8))
            exit(Exit.badInput)
        }
    }
}

/// Buffered standard output: replays write millions of lines.
final class StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
