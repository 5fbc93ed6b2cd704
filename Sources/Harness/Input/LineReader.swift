import Foundation
import TriggerKit

/// Reads a file (or standard input) line by line in fixed-size chunks, so event files of any size
/// stream through in constant memory. Over-long lines are reported, not buffered.
package final class LineReader {
    /// One input line: its bytes, or the fact that it was longer than the limit.
    package enum Line {
        case text([UInt8])
        case tooLong(bytes: Int)
    }

    private let descriptor: Int32
    private let name: String
    private let maxLineBytes: Int
    private var chunk = [UInt8](repeating: 0, count: 1 << 20)
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEOF = false
    /// When set, every byte read is hashed (the digest of the whole input once `drain()` returned).
    package var digest: SHA256?
    /// Bytes read from the input so far.
    package private(set) var bytesRead = 0
    /// The rest of an over-long line already returned is still to be dropped, and how much was.
    private var skipping = false
    private var skipped = 0
    /// Past this without a newline the input is not a text log: refused rather than read forever.
    static let maxSkippedBytes = 1 << 26

    private func skipRestOfLongLine() throws {
        while skipping {
            if let nl = buffer[position...].firstIndex(of: 0x0A) {
                position = nl + 1
                skipping = false
                skipped = 0
                return
            }
            skipped += buffer.count - position
            position = buffer.count
            guard skipped <= Self.maxSkippedBytes else {
                throw InputErrorFactory.file(name, "a line runs past \(Self.maxSkippedBytes >> 20) MiB with no end; an event log is text, one JSON event per line")
            }
            if try !fill() { skipping = false }
        }
    }

    /// A regular file is read up to the size it had when opened: a log another process keeps appending
    /// to is read (and digested) as it was, instead of chased forever.
    private var sizeAtOpen: Int?

    /// Opens `path` ("-" for standard input).
    package init(path: String, maxLineBytes: Int) throws {
        name = path == "-" ? "standard input" : path
        if path == "-" {
            descriptor = 0
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw InputErrorFactory.file(path, "no such file (or not a readable file); check the path")
            }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw InputErrorFactory.file(path, "cannot open: \(String(cString: strerror(errno))); check its permissions")
            }
            var status = stat()
            if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG { sizeAtOpen = Int(status.st_size) }
        }
        self.maxLineBytes = maxLineBytes
    }

    deinit {
        if descriptor != 0 { close(descriptor) }
    }

    /// Reads the next chunk with read(2); a read error is an `InputError` naming the input, not a trap.
    private func fill() throws -> Bool {
        guard !atEOF else { return false }
        var n: Int
        let wanted = min(chunk.count, sizeAtOpen.map { $0 - bytesRead } ?? chunk.count)
        repeat {
            n = wanted == 0 ? 0 : chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
        } while n < 0 && errno == EINTR
        guard n >= 0 else { throw InputErrorFactory.file(name, "cannot read: \(String(cString: strerror(errno)))") }
        if n == 0 {
            atEOF = true
            return false
        }
        bytesRead += n
        if digest != nil { chunk.withUnsafeBytes { digest!.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Reads the rest of the input without keeping it (so `digest` covers the whole input).
    package func drain() throws {
        buffer.removeAll(keepingCapacity: true)
        position = 0
        while try fill() { buffer.removeAll(keepingCapacity: true) }
    }

    /// The next line without its terminator (`\n` or `\r\n`); nil at the end of input.
    /// A final line without a newline is still returned.
    package func next() throws -> Line? {
        try skipRestOfLongLine()
        var scanned = 0  // bytes after `position` known to hold no newline
        while true {
            if let nl = buffer[(position + scanned)...].firstIndex(of: 0x0A) {
                let length = nl - position
                defer { position = nl + 1 }
                if length > maxLineBytes { return .tooLong(bytes: length) }
                var end = nl
                if end > position, buffer[end - 1] == 0x0D { end -= 1 }
                return .text(Array(buffer[position..<end]))
            }
            scanned = buffer.count - position
            if scanned > maxLineBytes {
                // Reported at once, whether or not it ever ends (`/dev/zero` never does); the next call
                // drops the rest of it.
                position = buffer.count
                skipping = true
                return .tooLong(bytes: scanned)
            }
            if try !fill() {
                if position == buffer.count { return nil }
                let length = buffer.count - position
                defer { position = buffer.count }
                if length > maxLineBytes { return .tooLong(bytes: length) }
                return .text(Array(buffer[position...]))
            }
        }
    }
}

enum InputErrorFactory {
    static func file(_ path: String, _ reason: String) -> InputError {
        InputError(file: path, path: "", reason: reason)
    }
}
