import Foundation
import TriggerKit
import Workload

/// An event log streamed into replay buffers: one JSON event per line, as `bench replay` reads.
/// Replay control lines are not events and are skipped, as are blank lines; invalid lines are counted
/// and skipped.
package struct LoadedEventLog {
    package var columns: EventColumns
    package var lines = 0
    package var controlLines = 0
    package var blankLines = 0
    package var invalidLines = 0
    /// The first few invalid lines (1-based line number and the decoder's error).
    package var firstErrors: [RunReport.ReplayedFiles.LineError] = []
    package var sha256 = ""
    /// Whether `sha256` covers the whole file. A pipe or FIFO read for its first lines is not read to
    /// its end (it may never end): the digest then covers the lines read, each ended by a newline.
    package var digestCoversFile = true
    package var bytes = 0

    package static let errorsKept = 5
    static let maxLines = 2_000_000_000
    /// Bytes a string seen only in the events costs beyond its UTF-8: its `String`, its table entry and hash slot.
    static let bytesPerNewString = 128

    /// Reads `path` ("-" for standard input). With `strict`, the first invalid line is thrown.
    package static func load(path: String, vocabulary: Vocabulary, categories: ActionCategories, lineLimit: Int?,
                            strict: Bool, progress: (Int) -> Void = { _ in }) throws -> LoadedEventLog {
        let reader = try LineReader(path: path, maxLineBytes: EventDecoder.maxLineBytes)
        let name = path == "-" ? "standard input" : path
        var status = stat()
        let regular = path != "-" && stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        let hashWholeFile = regular || lineLimit == nil
        var lineDigest = SHA256()
        if hashWholeFile { reader.digest = SHA256() }
        var log = LoadedEventLog(columns: EventColumns(vocabulary: vocabulary))
        log.digestCoversFile = hashWholeFile
        // Replay buffers grow as lines arrive: refused with the line reached, not killed by the allocator.
        let budget = MemoryBudget.replayBytes() ?? Int.max
        while lineLimit.map({ log.lines < $0 }) ?? true, let line = try reader.next() {
            log.lines += 1
            // Blank lines hold no memory, so an endless stream of them would otherwise never end.
            guard log.lines <= Self.maxLines else {
                throw InputError(file: name, path: "line \(log.lines)", reason: "more than \(Self.maxLines) lines; replay fewer lines with --events N")
            }
            if !hashWholeFile, case .text(let bytes) = line {
                lineDigest.update(bytes)
                lineDigest.update([0x0A])
            }
            do {
                switch line {
                case .tooLong(let n):
                    throw InputError(path: "", reason: "line is over \(EventDecoder.maxLineBytes) bytes (\(n) read), the most allowed")
                case .text(let bytes):
                    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                        log.blankLines += 1
                        continue
                    }
                    let json = try EventDecoder.parseLine(bytes)
                    if try ControlLine(json) != nil {
                        log.controlLines += 1
                        continue
                    }
                    log.columns.append(try EventDecoder.decode(json, categories: categories))
                }
            } catch let error as InputError {
                let reason = (error.path.isEmpty || error.path == "$" ? "" : error.path + ": ") + error.reason
                if strict {
                    throw InputError(file: name, path: "line \(log.lines)", reason: "\(reason) (--strict; without it invalid lines are counted and skipped)")
                }
                log.invalidLines += 1
                if log.firstErrors.count < errorsKept {
                    log.firstErrors.append(.init(line: log.lines, error: PrintableText.escaped(reason)))
                }
            }
            // Checked every 4,096 lines: a log of long fresh strings can fill memory well within 65,536.
            if log.lines & 0xFFF == 0 {
                if log.lines & 0xFFFF == 0 { progress(log.lines) }
                let held = log.heldBytes + reader.bytesRead
                if held > budget {
                    throw InputError(file: name, path: "line \(log.lines)", reason: "the replay buffers already hold \(MemoryBudget.format(held)) and may not take more than \(MemoryBudget.format(budget)) (3/4 of the memory available); replay fewer lines with --events N")
                }
            }
        }
        if hashWholeFile { try reader.drain() }
        log.bytes = reader.bytesRead
        log.sha256 = hashWholeFile ? reader.digest!.finalize() : lineDigest.finalize()
        guard log.columns.count > 0 else {
            let first = log.firstErrors.first.map { "; line \($0.line): \($0.error)" } ?? ""
            throw InputError(file: name, path: "", reason: "no valid events in \(log.lines) lines (\(log.invalidLines) invalid, \(log.controlLines) control, \(log.blankLines) blank)\(first); an event log holds one JSON event per line, as `bench generate --events-out` writes")
        }
        return log
    }

    /// What the buffers hold so far, with room for the next doubling of the columns (the fresh strings'
    /// own bytes are at most the bytes read, which the caller adds).
    var heldBytes: Int {
        let columnBytes = columns.count * 21 + columns.propertyKeys.count * 13
        let strings = columns.symbols.count - Int(columns.corpusSymbolCount)
        // Growing a column reallocates it: the old and the new block are both held for a moment.
        return columnBytes * 3 + strings * Self.bytesPerNewString
    }
}
