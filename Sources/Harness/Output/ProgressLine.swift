import Foundation
import Synchronization

/// Progress on a terminal (stderr), silent when stderr is not one.
package final class ProgressLine: Sendable {
    let enabled: Bool
    /// Put before every label (a sweep's point).
    let prefix: String
    private let lastDraw = Atomic<UInt64>(0)

    package init(enabled: Bool, prefix: String? = nil) {
        self.enabled = enabled && isatty(2) != 0
        self.prefix = prefix.map { $0 + " · " } ?? ""
    }

    /// Redraws `label: done/total` at most every 200 ms.
    package func update(_ label: String, _ done: Int, _ total: Int) {
        guard enabled else { return }
        let now = Clock.now()
        // Relaxed: a rate limiter for drawing; a lost race only draws twice.
        guard now &- lastDraw.load(ordering: .relaxed) > 200_000_000 else { return }
        lastDraw.store(now, ordering: .relaxed)
        let pct = total > 0 ? min(100, done * 100 / total) : 0
        TextOutput.standardErrorRaw("\r\u{1B}[K\(prefix)\(label): \(done)/\(total) events (\(pct)%)")
    }

    /// Prints a line (or clears the progress line when `text` is empty).
    package func note(_ text: String) {
        guard enabled else { return }
        TextOutput.standardErrorRaw("\r\u{1B}[K\(text)\(text.isEmpty ? "" : "\n")")
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
