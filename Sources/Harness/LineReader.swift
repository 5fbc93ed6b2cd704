import Foundation
import TriggerKit

/// Reads a file (or standard input) line by line in fixed-size chunks, so event files of any size
/// stream through in constant memory. Over-long lines are reported, not buffered.
public struct LineReader {
    /// One input line: its bytes, or the fact that it was longer than the limit.
    public enum Line {
        case text([UInt8])
        case tooLong(bytes: Int)
    }

    private let handle: FileHandle
    private let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEOF = false

    /// Opens `path` ("-" for standard input).
    public init(path: String, maxLineBytes: Int) throws {
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let h = FileHandle(forReadingAtPath: path)
            else {
                throw InputErrorFactory.file(path, "no such file (or not a readable file); check the path")
            }
            handle = h
        }
        self.maxLineBytes = maxLineBytes
    }

    private mutating func fill() -> Bool {
        guard !atEOF else { return false }
        let chunk = handle.readData(ofLength: 1 << 20)
        if chunk.isEmpty {
            atEOF = true
            return false
        }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// The next line without its terminator (`\n` or `\r\n`); nil at the end of input.
    /// A final line without a newline is still returned.
    public mutating func next() -> Line? {
        var scanned = 0  // bytes after `position` known to hold no newline
        var discarded = 0  // bytes of an over-long line already dropped
        while true {
            if let nl = buffer[(position + scanned)...].firstIndex(of: 0x0A) {
                let length = discarded + (nl - position)
                defer { position = nl + 1 }
                if discarded > 0 || length > maxLineBytes { return .tooLong(bytes: length) }
                var end = nl
                if end > position, buffer[end - 1] == 0x0D { end -= 1 }
                return .text(Array(buffer[position..<end]))
            }
            scanned = buffer.count - position
            if scanned > maxLineBytes {
                // Drop what we have of this over-long line and keep looking for its end.
                discarded += scanned
                position = buffer.count
                scanned = 0
            }
            if !fill() {
                if position == buffer.count, discarded == 0 { return nil }
                let length = discarded + buffer.count - position
                defer { position = buffer.count }
                if discarded > 0 || length > maxLineBytes { return .tooLong(bytes: length) }
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
