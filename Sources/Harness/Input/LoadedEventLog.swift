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

    /// Invalid lines kept for a run's report; `bench lint` keeps up to `errorsListed`.
    package static let errorsKept = 5
    package static let errorsListed = 10_000
    static let maxLines = 2_000_000_000
    /// Bytes a string seen only in the events costs beyond its UTF-8: its `String`, its table entry and hash slot.
    static let bytesPerNewString = 128
    /// Input read between two checks of the buffers' size, at most (besides every 4,096 lines).
    static let checkEveryBytes = 4 << 20

    /// Reads `path` ("-" for standard input). With `strict`, the first invalid line is thrown.
    package static func load(path: String, vocabulary: Vocabulary, categories: ActionCategories, lineLimit: Int?,
                            strict: Bool, lint: DataLint? = nil, errorsKept: Int = errorsKept,
                            progress: (Int) -> Void = { _ in }) throws -> LoadedEventLog {
        let reader = try LineReader(path: path, maxLineBytes: EventDecoder.maxLineBytes)
        let name = path == "-" ? "standard input" : path
        let regular = path != "-" && BoundedFile.isRegularFile(path)
        let hashWholeFile = regular || lineLimit == nil
        var lineDigest = SHA256()
        if hashWholeFile { reader.digest = SHA256() }
        var log = LoadedEventLog(columns: EventColumns(vocabulary: vocabulary))
        log.digestCoversFile = hashWholeFile
        // Replay buffers grow as lines arrive: refused with the line reached, not killed by the allocator.
        let budget = MemoryBudget.replayBytes() ?? Int.max
        var nextCheck = Self.checkEveryBytes
        // The first string the log brings copies the corpus's string table (shared until then): checked
        // before it can happen.
        try log.checkRoom(budget: budget, file: name)
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
                    let event = try EventDecoder.decode(json, categories: categories)
                    lint?.observe(event, line: log.lines)
                    log.columns.append(event)
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
            // Checked every 4,096 lines and every 4 MiB read: one 64 KB line can bring 64 KB of fresh strings,
            // so a line count alone lets a quarter of a gigabyte arrive between two checks.
            if log.lines & 0xFFF == 0 || reader.bytesRead >= nextCheck {
                if log.lines & 0xFFFF == 0 { progress(log.lines) }
                nextCheck = reader.bytesRead + Self.checkEveryBytes
                try log.checkRoom(budget: budget, file: name)
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

    /// Refuses the next line when the buffers, grown once more, would pass `budget` (3/4 of the memory
    /// available when reading began) or the address space an RLIMIT_AS leaves now.
    func checkRoom(budget: Int, file: String) throws {
        let held = heldBytes
        if held > budget {
            throw InputError(file: file, path: "line \(lines)", reason: "the replay buffers would need \(MemoryBudget.format(held)) at their next growth, more than \(MemoryBudget.format(budget)) (3/4 of the memory available); replay fewer lines with --events N")
        }
        // Under an address-space limit the allocator's mapped but free blocks count too: ask the kernel
        // what is left, and keep a quarter of it for the run that follows the reading.
        if let room = MemoryBudget.addressSpaceRoom(), growthBytes > room / 4 * 3 {
            throw InputError(file: file, path: "line \(lines)", reason: "the replay buffers' next growth needs \(MemoryBudget.format(growthBytes)) more, but the address-space limit (ulimit -v) leaves \(MemoryBudget.format(room)); replay fewer lines with --events N")
        }
    }

    /// The event columns' bytes: kind, key, action, time and property start per event, and key, tag and
    /// payload per property.
    var columnBytes: Int { columns.count * 21 + columns.propertyKeys.count * 13 }

    /// What the buffers hold so far, counted at the moment of their next growth: a growing array holds
    /// its old block and its new one of twice the size at once.
    var heldBytes: Int {
        // Every string of the table, the corpus's included: the log's first fresh string copies them all.
        let strings = columns.symbols.count
        // Each fresh string is held twice: as a `String` and in the table's byte run (`SymbolTable.text`).
        let text = columns.symbols.text
        return columnBytes * 3 + strings * Self.bytesPerNewString + text.count + text.capacity * 3
    }

    /// What the next growth of the buffers allocates while the old blocks are still held (the columns,
    /// the table's byte run, and its arrays and hash tables, rehashed in one block each), plus what the
    /// lines before the next check can add.
    var growthBytes: Int {
        return columnBytes * 2 + columns.symbols.text.capacity * 2 + columns.symbols.count * Self.bytesPerNewString
            + Self.checkEveryBytes * 4
    }
}
