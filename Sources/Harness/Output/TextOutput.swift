#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSignals
import TriggerKit

/// Buffered text output to standard output or standard error. Every write is checked (see
/// `DescriptorWriter`); replays write millions of lines, so lines are gathered into 64 KB writes.
package final class TextOutput {
    private let writer: DescriptorWriter
    private var buffer: [UInt8] = []

    package init(descriptor: Int32, name: String) {
        writer = DescriptorWriter(descriptor: descriptor, name: name)
        buffer.reserveCapacity(1 << 16)
    }

    package static func standardOutput() -> TextOutput { TextOutput(descriptor: 1, name: "standard output") }

    /// Appends `text` and a newline; writes when 64 KB have gathered.
    package func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends `text` as it is (no newline added).
    package func text(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    package func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        try writer.write(buffer)
    }

    /// Writes `text` and a newline to standard output at once (for commands that print a few lines).
    package static func printLine(_ text: String) throws {
        try printText(text + "\n")
    }

    /// Writes `text` to standard output at once, as it is. When the reader has gone (a closed pipe), the
    /// text is dropped and the command goes on: the files it writes and the exit code it ends with (a
    /// gate's verdict) must not depend on whether anyone reads its table. Only a stream whose output is
    /// the product (`bench replay` through `TextOutput.line`) stops early.
    package static func printText(_ text: String) throws {
        guard standardOutputFailure == nil else { return }
        do {
            try DescriptorWriter(descriptor: 1, name: "standard output").write(Array(text.utf8))
        } catch is OutputClosed {
        } catch let error as InputError {
            // A full disk under standard output: the command still writes its files and reaches its
            // verdict; `bench` reports this failure when it ends (exit 2 unless a verdict says 1).
            standardOutputFailure = error
        }
    }

    /// The first failure to write standard output through `printText`, if any. Set on the main thread only.
    nonisolated(unsafe) package private(set) static var standardOutputFailure: InputError?

    /// Ignores SIGPIPE (a closed pipe becomes `OutputClosed`) and removes temporary outputs on interruption.
    package static func installSignalHandling() { trigger_bench_signals_install() }

    /// One line on standard error, unbuffered. Failures are ignored: there is nowhere left to report them.
    package static func standardError(_ text: String) { standardErrorRaw(text + "\n") }

    /// Text on standard error without a newline (progress lines); failures ignored as above.
    package static func standardErrorRaw(_ text: String) {
        try? DescriptorWriter(descriptor: 2, name: "standard error").write(Array(text.utf8))
    }
}
