import Foundation

/// Lets `perf record --control fifo:CTL,ACK --delay=-1` sample only the timed matching: `scripts/profile`
/// names the two FIFOs in `TRIGGER_BENCH_PERF_CONTROL` ("CTL,ACK"), and the runner sends `enable` before
/// its timed repetitions and `disable` after, each acknowledged by perf before the run goes on.
/// Without the variable, both calls do nothing. `TRIGGER_BENCH_PERF_ROW` names the one strategy to
/// sample (`plugin:*` any plugin's): sampling is then on only while that strategy's rows are timed.
enum PerfControl {
    static let environmentKey = "TRIGGER_BENCH_PERF_CONTROL"
    static let rowKey = "TRIGGER_BENCH_PERF_ROW"

    /// Whether the rows of `strategy` are sampled: all when no row is named.
    static func samples(_ strategy: String) -> Bool {
        guard let name = ProcessInfo.processInfo.environment[rowKey], !name.isEmpty else { return true }
        return name.hasSuffix("*") ? strategy.hasPrefix(name.dropLast()) : strategy == name
    }

    /// Whether sampling is turned on and off around each row rather than once around them all.
    static var perRow: Bool { ProcessInfo.processInfo.environment[rowKey].map { !$0.isEmpty } ?? false }

    static func enable() { send("enable") }
    static func disable() { send("disable") }

    private static func send(_ command: String) {
        guard let value = ProcessInfo.processInfo.environment[environmentKey] else { return }
        let paths = value.split(separator: ",").map(String.init)
        guard paths.count == 2 else { return }
        // Non-blocking: with no perf reading the FIFO the open fails (ENXIO) instead of waiting forever,
        // and perf's answer is awaited for at most 10 s.
        let control = open(paths[0], O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard control >= 0 else {
            TextOutput.standardError("bench: warning: \(environmentKey) names \(paths[0]), which no perf reads; profiling control ignored")
            return
        }
        defer { close(control) }
        let line = Array((command + "\n").utf8)
        guard write(control, line, line.count) == line.count else { return }
        let ack = open(paths[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard ack >= 0 else { return }
        defer { close(ack) }
        var wait = pollfd(fd: ack, events: Int16(POLLIN), revents: 0)
        guard poll(&wait, 1, 10_000) == 1 else { return }
        var reply = [UInt8](repeating: 0, count: 16)
        _ = read(ack, &reply, reply.count)
    }
}
