import Foundation
import TriggerKit

/// An event log streamed into replay buffers: one JSON event per line, as `bench replay` reads.
/// Replay control lines are not events and are skipped; invalid lines are counted and skipped.
public struct LoadedEventLog {
    public var columns: EventColumns
    public var lines = 0
    public var controlLines = 0
    public var invalidLines = 0
    /// The first few invalid lines (1-based line number and the decoder's error).
    public var firstErrors: [RunReport.DataFiles.LineError] = []
    /// Of the whole file, even when only a prefix was replayed.
    public var sha256 = ""
    public var bytes = 0

    public static let errorsKept = 5

    /// Reads `path` ("-" for standard input). With `strict`, the first invalid line is thrown.
    public static func load(path: String, vocabulary: Vocabulary, categories: ActionCategories, lineLimit: Int?,
                            strict: Bool, progress: (Int) -> Void = { _ in }) throws -> LoadedEventLog {
        let reader = try LineReader(path: path, maxLineBytes: EventDecoder.maxLineBytes)
        reader.digest = SHA256()
        var log = LoadedEventLog(columns: EventColumns(vocabulary: vocabulary))
        let name = path == "-" ? "standard input" : path
        while lineLimit.map({ log.lines < $0 }) ?? true, let line = try reader.next() {
            log.lines += 1
            do {
                switch line {
                case .tooLong(let n):
                    throw InputError(path: "$", reason: "line is \(n) bytes; at most \(EventDecoder.maxLineBytes) are allowed")
                case .text(let bytes):
                    let json = try EventDecoder.parseLine(bytes)
                    if try ControlLine(json) != nil {
                        log.controlLines += 1
                        continue
                    }
                    log.columns.append(try EventDecoder.decode(json, categories: categories))
                }
            } catch let error as InputError {
                if strict {
                    throw InputError(file: name, path: "line \(log.lines)", reason: "\(error.path == "$" ? "" : error.path + ": ")\(error.reason) (--strict; without it invalid lines are counted and skipped)")
                }
                log.invalidLines += 1
                if log.firstErrors.count < errorsKept {
                    log.firstErrors.append(.init(line: log.lines, error: PrintableText.escaped(error.description)))
                }
            }
            if log.lines & 0xFFFF == 0 { progress(log.lines) }
        }
        try reader.drain()
        log.bytes = reader.bytesRead
        log.sha256 = reader.digest!.finalize()
        guard log.columns.count > 0 else {
            throw InputError(file: name, path: "", reason: "no valid events in \(log.lines) lines (\(log.invalidLines) invalid, \(log.controlLines) control); an event log holds one JSON event per line, as `bench generate --events-out` writes")
        }
        return log
    }
}
