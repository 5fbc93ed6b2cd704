import Foundation
import Synchronization

/// Progress of long work on standard error, never on standard output: on a terminal one line redrawn
/// in place (at most every 200 ms); off one (a CI log, a pipe, a tool running commands for a user)
/// plain lines with the time elapsed: a new phase (at most every 2 s), and within one at most every
/// 5 s; nothing with `--quiet`.
package final class ProgressLine: Sendable {
    let enabled: Bool
    let terminal: Bool
    /// Put before every label (a sweep's point).
    let prefix: String
    private let started: UInt64
    private let lastDraw = Atomic<UInt64>(0)

    /// Set once from `--quiet`, before any work starts.
    private static let silenced = Atomic<Bool>(false)
    // Relaxed: written once at start-up, before any thread that reads it exists.
    package static func silence() { silenced.store(true, ordering: .relaxed) }

    package init(enabled: Bool, prefix: String? = nil) {
        self.enabled = enabled && !Self.silenced.load(ordering: .relaxed)
        terminal = isatty(2) != 0
        self.prefix = prefix.map { $0 + " · " } ?? ""
        started = Clock.now()
    }

    /// Every line off a terminal starts with this (`bench: [12 s] `), so a reader of a log, or of a
    /// child's standard error, can tell progress from warnings and errors.
    var linePrefix: String { String(format: "bench: [%.0f s] ", Double(Clock.now() &- started) / 1e9) }
    package static func isProgressLine(_ line: Substring) -> Bool { line.hasPrefix("bench: [") }

    /// Shows `label: done/total events`: redrawn on a terminal, a line every 5 s off one.
    package func update(_ label: String, _ done: Int, _ total: Int) {
        guard enabled else { return }
        let now = Clock.now()
        // Relaxed: a rate limiter for drawing; a lost race only draws twice.
        guard now &- lastDraw.load(ordering: .relaxed) > (terminal ? 200_000_000 : 5_000_000_000) else { return }
        lastDraw.store(now, ordering: .relaxed)
        let pct = total > 0 ? min(100, done * 100 / total) : 0
        if terminal {
            TextOutput.standardErrorRaw("\r\u{1B}[K\(prefix)\(label): \(done)/\(total) events (\(pct)%)")
        } else {
            TextOutput.standardErrorRaw("\(linePrefix)\(prefix)\(label): \(done)/\(total) events (\(pct)%)\n")
        }
    }

    /// Shows a phase (`text`); an empty `text` clears the terminal's line and prints nothing off one.
    package func note(_ text: String) {
        guard enabled else { return }
        if terminal {
            TextOutput.standardErrorRaw("\r\u{1B}[K\(text)\(text.isEmpty ? "" : "\n")")
        } else if !text.isEmpty {
            // A new phase is news, but a log gets a line at most every 2 s: quick phases go unsaid.
            let now = Clock.now(), last = lastDraw.load(ordering: .relaxed)
            guard last == 0 || now &- last > 2_000_000_000 else { return }
            lastDraw.store(now, ordering: .relaxed)
            TextOutput.standardErrorRaw("\(linePrefix)\(prefix)\(text)\n")
        }
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
        let now = Clock.now()
        guard now &- lastDraw.load(ordering: .relaxed) > 5_000_000_000 else { return }
        lastDraw.store(now, ordering: .relaxed)
        TextOutput.standardErrorRaw("\(linePrefix)\(prefix)\(text)\n")
    }
}

/// Events replayed so far across reader threads (for progress only).
final class ProgressCounter: Sendable {
    private let count = Atomic<Int>(0)
    // Relaxed: an approximate counter for display; no other memory depends on it.
    func add(_ n: Int) { count.wrappingAdd(n, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
    func reset() { count.store(0, ordering: .relaxed) }
}
