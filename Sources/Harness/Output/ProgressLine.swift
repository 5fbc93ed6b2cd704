import Foundation
import Synchronization
import TriggerKit

/// Progress of long work on standard error, never on standard output: on a terminal one line redrawn
/// in place (at most every 200 ms); off one (a CI log, a pipe, a tool running commands for a user)
/// plain lines with the seconds since the command started: a new phase (at most every 2 s), within
/// one at most every 5 s, and, when a phase says nothing for 5 s (a build, a pass through `reference`,
/// a callgrind child), a line naming it again. Nothing with `--quiet`.
package final class ProgressLine: Sendable {
    let enabled: Bool
    let terminal: Bool
    /// Put before every label (a sweep's point).
    let prefix: String
    private let lastDraw = Atomic<UInt64>(0)

    /// Set once from `--quiet`, before any work starts.
    private static let silenced = Atomic<Bool>(false)
    // Relaxed: written once at start-up, before any thread that reads it exists.
    package static func silence() { silenced.store(true, ordering: .relaxed) }

    /// Off a terminal, shared by every progress line of the process: when it started, when a line was
    /// last printed, and the phase under way (nil between phases), for the heartbeat.
    private static let started = Clock.now()
    private static let lastLine = Atomic<UInt64>(0)
    private static let phase = Mutex<String?>(nil)
    private static let heartbeat = Mutex<Bool>(false)

    package init(enabled: Bool, prefix: String? = nil) {
        self.enabled = enabled && !Self.silenced.load(ordering: .relaxed)
        terminal = isatty(2) != 0
        self.prefix = prefix.map { $0 + " · " } ?? ""
        _ = Self.started  // a lazy static: set now, not at the first line (which would print a negative time)
        if self.enabled && !terminal { Self.startHeartbeat() }
    }

    /// Every line off a terminal starts with this (`bench: [12 s] `), so a reader of a log, or of a
    /// child's standard error, can tell progress from warnings and errors.
    static var linePrefix: String { String(format: "bench: [%.0f s] ", Double(Clock.now() &- started) / 1e9) }
    package static func isProgressLine(_ line: Substring) -> Bool { line.hasPrefix("bench: [") }

    /// Prints `text` off a terminal when the last line is `spacing` ns old (a phase is news sooner than
    /// a count).
    private static func line(_ text: String, spacing: UInt64) {
        let now = Clock.now(), last = lastLine.load(ordering: .relaxed)
        // Relaxed: a rate limiter; two threads racing print one line too many, nothing else.
        guard last == 0 || now &- last > spacing else { return }
        lastLine.store(now, ordering: .relaxed)
        TextOutput.standardErrorRaw("\(linePrefix)\(text)\n")
    }

    /// A thread that names the phase under way again when nothing was printed for 5 s. It only reads
    /// the clock and, at most every 5 s, writes one line: nothing a timed loop would feel.
    private static func startHeartbeat() {
        let first = heartbeat.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: 1)
                guard let current = phase.withLock({ $0 }) else { continue }
                line("\(current) (working)", spacing: 5_000_000_000)
            }
        }
        thread.stackSize = 1 << 16
        thread.start()
    }

    /// Shows `label: done/total events`: redrawn on a terminal, a line every 5 s off one. With `since`
    /// (a `Clock.now()` at the start of the work), also the time left at the rate so far.
    package func update(_ label: String, _ done: Int, _ total: Int, unit: String = "events", since: UInt64? = nil) {
        guard enabled else { return }
        let pct = total > 0 ? min(100, done * 100 / total) : 0
        var text = "\(prefix)\(label): \(Self.count(done, unit))/\(Self.count(total, unit)) \(unit == "bytes" ? "" : unit + " ")(\(pct)%"
        if let since, done > 0, total > done {
            let left = Double(Clock.now() &- since) / 1e9 * Double(total - done) / Double(done)
            text += String(format: ", about %.0f s left", left.rounded(.up))
        }
        text += ")"
        if terminal {
            let now = Clock.now()
            // Relaxed: a rate limiter for drawing; a lost race only draws twice.
            guard now &- lastDraw.load(ordering: .relaxed) > 200_000_000 else { return }
            lastDraw.store(now, ordering: .relaxed)
            TextOutput.standardErrorRaw("\r\u{1B}[K\(text)")
        } else {
            // The count too: the heartbeat's "(working)" line then says how far the work had got.
            Self.phase.withLock { $0 = text }
            Self.line(text, spacing: 5_000_000_000)
        }
    }

    /// What a corpus decoder is given to report its bytes (nil when nothing is shown, so the decoder
    /// does not even ask).
    package func corpusLoading() -> CorpusDecoder.Progress? {
        guard enabled else { return nil }
        let started = Clock.now()
        return { done, total in self.update("loading the corpus", done, total, unit: "bytes", since: started) }
    }

    /// `n` as shown in a count: bytes in megabytes (`136.0 MB`), anything else as it is.
    static func count(_ n: Int, _ unit: String) -> String {
        unit == "bytes" ? String(format: "%.1f MB", Double(n) / 1e6) : String(n)
    }

    /// Shows a phase (`text`); an empty `text` ends it (clears the terminal's line, prints nothing off one).
    package func note(_ text: String) {
        guard enabled else { return }
        if terminal {
            TextOutput.standardErrorRaw("\r\u{1B}[K\(text)\(text.isEmpty ? "" : "\n")")
            return
        }
        Self.phase.withLock { $0 = text.isEmpty ? nil : prefix + text }
        if !text.isEmpty { Self.line(prefix + text, spacing: 2_000_000_000) }
    }

    /// A warning: printed wherever standard error goes, `--quiet` or not (it is not progress).
    package func warn(_ text: String) {
        TextOutput.standardErrorRaw((enabled && terminal ? "\r\u{1B}[K" : "") + text + "\n")
    }

    /// Like `note`, but on a terminal a line redrawn in place (the next one replaces it), and off one
    /// only every 5 s.
    package func status(_ text: String) {
        guard enabled else { return }
        if terminal {
            TextOutput.standardErrorRaw("\r\u{1B}[K\(prefix)\(text)")
            return
        }
        Self.phase.withLock { $0 = prefix + text }
        Self.line(prefix + text, spacing: 5_000_000_000)
    }
}

/// Events replayed so far across reader threads (for progress only).
final class ProgressCounter: Sendable {
    private let count = Atomic<Int>(0)
    // Relaxed: an approximate counter for display; no other memory depends on it.
    func add(_ n: Int) { count.wrappingAdd(n, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
