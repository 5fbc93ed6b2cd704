import TriggerKit

extension Explain {
    /// What `bench explain` prints, and how many history lines were invalid (it exits 2 when any were).
    package struct Run {
        package let report: String
        package let invalidHistoryLines: Int
    }

    /// Invalid history lines listed in the report; the rest are counted.
    static let listedInvalidLines = 10

    /// Loads the corpus, replays `historyPath` (streamed, "-" for standard input) through the same
    /// `ReplaySession` as `bench replay`, then explains `eventText`. A history line whose time is after
    /// the event's is refused: the event would be explained from a future it has not reached.
    package static func run(corpusPath: String, eventText: String, historyPath: String?, displaySeconds: Double,
                           makeMatcher: @escaping (TriggerSet) -> (Event) -> [Int]) throws -> Run {
        let set = try CorpusDecoder.load(path: corpusPath)
        let eventLine = Array(eventText.utf8)
        let event: Event
        do {
            let json = try EventDecoder.parseLine(eventLine)
            if try ControlLine(json) != nil {
                throw InputError(path: "type", reason: "is a replay control line; explain takes an event (put control lines in --history)")
            }
            event = try EventDecoder.decode(json, categories: set.actionCategories)
        } catch let e as InputError {
            throw InputError(file: "--event", path: e.path, reason: e.reason)
        }
        let session = ReplaySession(triggerSet: set, displaySeconds: displaySeconds, makeMatcher: makeMatcher)
        var header: [String] = []
        if let historyPath {
            let reader = try LineReader(path: historyPath, maxLineBytes: EventDecoder.maxLineBytes)
            var invalid: [String] = []
            while let line = try reader.next() {
                let number = session.index + 1
                _ = session.process(line)
                if let time = session.lastTime, time > event.time {
                    throw InputError(file: historyPath, path: "line \(number)",
                                     reason: "time \(JSONValue.format(time)) is after the explained event's time \(JSONValue.format(event.time)); the history must end before the event")
                }
                if let error = session.lastError, invalid.count < listedInvalidLines {
                    invalid.append("    line \(number): \(error)")
                }
            }
            header.append("history: \(session.index) line(s) replayed from \(historyPath)"
                + (session.invalidLines > 0 ? ", \(session.invalidLines) invalid (skipped, as replay skips them):" : ""))
            header += invalid
            if session.invalidLines > invalid.count { header.append("    … and \(session.invalidLines - invalid.count) more") }
        }
        let invalidHistory = session.invalidLines
        let body = report(session: session, eventLine: eventLine, event: event)
        return Run(report: (header.isEmpty ? body : printable(header) + "\n" + body), invalidHistoryLines: invalidHistory)
    }
}
