import Foundation
import TriggerKit

/// Simulates one device replaying a JSONL stream (docs/semantics.md, "Replay"): app in the foreground, portrait, nothing
/// showing; one JSON outcome line per input line, in input order.
package final class ReplaySession: DeliveryDelegate {
    /// Asset URLs with this prefix fail to load in a replay, so asset failure and fallbacks can be scripted.
    package static let failingAssetPrefix = "fail:"

    package let engine: DeliveryEngine
    private let triggerSet: TriggerSet
    package private(set) var invalidLines = 0
    /// Lines processed so far (the next line's index).
    package private(set) var index = 0
    /// What the last line processed was: its time (when it was valid: an invalid line moves no clock), its error (when invalid), and the
    /// delivery outcome (when it was an event). `bench explain` reads them.
    package private(set) var lastTime: Double?
    package private(set) var lastError: InputError?
    package private(set) var lastOutcome: DeliveryOutcome?
    package private(set) var lastDisplays: [DisplayRecord] = []
    /// What looks wrong in the stream, said once at its end by `bench replay` (nil for explain and
    /// the generated cases, which say nothing of it).
    var lint: DataLint?

    package init(triggerSet: TriggerSet, displaySeconds: Double = 10,
                makeMatcher: @escaping (TriggerSet) -> (Event) -> [Int] = { ReferenceMatcher($0).match }, lint: DataLint? = nil) {
        self.triggerSet = triggerSet
        self.lint = lint
        engine = DeliveryEngine(
            triggerSet: triggerSet, startTime: -.infinity,
            configuration: .init(displaySeconds: displaySeconds), makeMatcher: makeMatcher)
        engine.delegate = self
    }

    package func loadAssets(of message: PendingMessage) -> Bool {
        !message.message.assets.contains { $0.hasPrefix(Self.failingAssetPrefix) }
    }

    /// Processes one input line and returns its output line (without a newline).
    package func process(_ line: LineReader.Line) -> String {
        defer { index += 1 }
        lastTime = nil
        lastError = nil
        lastOutcome = nil
        var out = "{\"index\":\(index)"
        do {
            let bytes: [UInt8]
            switch line {
            case .text(let b): bytes = b
            case .tooLong(let n):
                throw InputError(path: "$", reason: "line is over \(EventDecoder.maxLineBytes) bytes (\(n) read), the most allowed")
            }
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
                throw InputError(path: "$", reason: "empty line; expected one JSON object per line")
            }
            let json = try EventDecoder.parseLine(bytes)
            if let control = try ControlLine(json) {
                lastTime = control.time
                apply(control)
                out += ",\"outcome\":\"control\""
            } else {
                let (event, warning) = try EventDecoder.decodeReportingWarning(json, categories: triggerSet.actionCategories)
                lastTime = event.time
                lint?.observe(event, line: index + 1)
                let outcome = engine.handle(event)!
                lastOutcome = outcome
                out += ",\"outcome\":\"\(outcome.kind.rawValue)\""
                if let w = outcome.winner {
                    out += ",\"trigger\":"
                    JSONValue.quote(triggerSet.triggers[w].id, into: &out)
                }
                out += ",\"matched\":["
                for (k, m) in outcome.matched.enumerated() {
                    if k > 0 { out += "," }
                    JSONValue.quote(triggerSet.triggers[m].id, into: &out)
                }
                out += "]"
                if let warning {
                    out += ",\"warning\":"
                    JSONValue.quote(warning, into: &out)
                }
            }
        } catch {
            invalidLines += 1
            lastError = error as? InputError ?? InputError(path: "$", reason: "\(error)")
            out += ",\"outcome\":\"invalid\",\"error\":"
            JSONValue.quote("\(error)", into: &out)
        }
        let displays = engine.drainRecords()
        lastDisplays = displays
        if !displays.isEmpty {
            out += ",\"displays\":["
            for (k, r) in displays.enumerated() {
                if k > 0 { out += "," }
                out += "{\"time\":\(JSONValue.format(r.time)),\"trigger\":"
                if let id = r.triggerID { JSONValue.quote(id, into: &out) } else { out += "null" }
                out += ",\"display\":\"\(r.display.rawValue)\""
                if let reason = r.reason { out += ",\"reason\":\"\(reason.rawValue)\"" }
                out += "}"
            }
            out += "]"
        }
        out += "}"
        return out
    }

    private func apply(_ control: ControlLine) {
        switch control {
        case .appState(let t, let s): engine.setAppState(s, at: t)
        case .orientation(let t, let o): engine.setOrientation(o, at: t)
        case .dismiss(let t): engine.dismiss(at: t)
        }
    }

    /// Replays `eventsPath` ("-" for stdin) against the corpus, writing one line per input line to `write`.
    /// Returns the number of invalid lines; `warn` is given what looks wrong in the stream, once, at its end.
    package static func run(corpusPath: String, eventsPath: String, displaySeconds: Double,
                           makeMatcher: @escaping (TriggerSet) -> (Event) -> [Int] = { ReferenceMatcher($0).match },
                           progress: ProgressLine = ProgressLine(enabled: false),
                           checkBuild: (TriggerSet) throws -> Void = { _ in },
                           warn: (String) -> Void = { _ in }, write: (String) throws -> Void) throws -> Int {
        progress.note("loading \(PrintableText.escaped(corpusPath))")
        let set = try CorpusDecoder.load(path: corpusPath, progress: progress.corpusLoading())
        let reader = try LineReader(path: eventsPath, maxLineBytes: EventDecoder.maxLineBytes)
        progress.note("building the matcher for \(set.triggers.count) triggers")
        do { try checkBuild(set) } catch let error as InputError { throw error.inFile(corpusPath) }
        // The lint's tables are made on another core while the matcher builds: both only read the set.
        let lint = Background { DataLint(set) }
        let session = ReplaySession(triggerSet: set, displaySeconds: displaySeconds, makeMatcher: makeMatcher)
        session.lint = lint.value()
        progress.note("")
        while let line = try reader.next() {
            try write(session.process(line))
        }
        if let summary = session.lint?.summary(corpusPath: corpusPath, eventLogPath: eventsPath) { warn(summary) }
        return session.invalidLines
    }
}
