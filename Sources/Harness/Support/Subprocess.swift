import CSignals
import Foundation
import TriggerKit

/// Runs the tools the harness drives (valgrind, strip, other builds of bench).
package enum Subprocess {
    /// Runs a tool to completion; returns its standard output, or throws with its standard error.
    @discardableResult
    /// `failure`: the error for an exit status (not a signal) and the child's last error lines, where a
    /// caller gives a status its own meaning (nil: the default one-line `InputError`).
    package static func run(_ tool: String, _ arguments: [String], what: String,
                    failure: (Int32, String) -> (any Error)? = { _, _ in nil }) throws -> String {
        let process = Process()
        // Swift seeds Set and Dictionary hashing per process; a fixed seed keeps instruction counts repeatable.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { _, new in new }
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw InputError(file: tool, path: "", reason: "cannot run \(what): \(error.localizedDescription)")
        }
        // Stopped with bench: an interrupted bench must not leave a valgrind child running.
        let childSlot = trigger_bench_child_register(process.processIdentifier)
        defer { trigger_bench_child_unregister(childSlot) }
        // Drain standard error on another thread while reading standard output, so a chatty tool cannot
        // fill one pipe and block.
        let errorText = PipeDrain(err.fileHandleForReading)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let stderr = errorText.wait()
        guard process.terminationStatus == 0 else {
            // One line: the child's last error lines, joined, without its own "bench: error:" prefix.
            // valgrind's own `==PID==` lines and the child's progress lines are dropped: the child's
            // reason is what the user needs.
            let lines = stderr.split(separator: "\n")
            let own = lines.filter { !$0.hasPrefix("==") && !ProgressLine.isProgressLine($0) }
            let tail = (own.isEmpty ? lines : own).suffix(3).map { $0.replacingOccurrences(of: "bench: error: ", with: "") }.joined(separator: " / ")
            // A status the caller gives meaning to is an exit's: a child killed by SIGHUP also reports 1.
            if process.terminationReason == .exit, let error = failure(process.terminationStatus, PrintableText.escaped(tail)) { throw error }
            throw InputError(file: tool, path: "", reason: "\(what) exited with \(process.terminationStatus): \(PrintableText.escaped(tail))")
        }
        return stdout
    }
}

/// Reads a pipe to its end on a background thread.
final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
