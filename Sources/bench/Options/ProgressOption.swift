import ArgumentParser
import Harness

/// `--quiet`: no progress lines (they go to standard error, on a terminal or off one, never into
/// standard output or an output file).
struct ProgressOption: ParsableArguments {
    @Flag(name: .long, help: "Print no progress on standard error (warnings and errors still are).")
    var quiet = false

    func apply() { if quiet { ProgressLine.silence() } }
}
