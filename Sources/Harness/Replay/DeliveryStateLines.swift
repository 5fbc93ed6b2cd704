import TriggerKit

/// The delivery state an explained event finds: what is showing, what waits, and the clocks that
/// decide re-eligibility and the minimum interval.
enum DeliveryStateLines {
    static func describe(_ engine: DeliveryEngine, at time: Double) -> [String] {
        let t = JSONValue.format
        var lines = ["state at \(t(time)): app \(engine.appState.rawValue), \(engine.orientation.rawValue)"]
        if let showing = engine.showing {
            let until = engine.autoDismissAt.map { "until \(t($0))" } ?? "until dismissed"
            lines.append("    showing: \(name(showing)) (\(until))")
        } else {
            lines.append("    showing: nothing")
        }
        if engine.stack.isEmpty {
            lines.append("    stack: empty")
        } else {
            let top = engine.stack.reversed().map { "\(name($0)) (expires \(t($0.expiresAt)))" }
            lines.append("    stack (top first): " + top.joined(separator: ", "))
        }
        for (due, message) in engine.scheduled.sorted(by: { $0.due < $1.due }) {
            lines.append("    waiting for its delay: \(name(message)) due at \(t(due))")
        }
        if let last = engine.lastDisplayAt {
            lines.append("    interval clock: last display at \(t(last)), \(t(time - last)) s ago; minimum interval \(t(engine.triggerSet.minimumTriggerInterval)) s unless a trigger sets its own")
        } else {
            lines.append("    interval clock: nothing displayed yet")
        }
        for (id, at) in engine.lastDisplayOfTrigger.sorted(by: { $0.key < $1.key }) {
            lines.append("    last display of \(Explain.quote(id)): \(t(at))")
        }
        return lines
    }

    static func name(_ m: PendingMessage) -> String { m.triggerID.map(Explain.quote) ?? "local message" }
}
