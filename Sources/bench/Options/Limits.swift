import Foundation
import ArgumentParser

/// Bounds on numeric options, checked before any value is used (so no arithmetic on them can overflow),
/// and the parsing of comma-separated lists.
enum Limits {
    /// The most events a run, a replay buffer or a generated stream holds (a workload spec's own bound).
    static let maxEvents = 1_000_000_000
    static let maxBatchSize = 1 << 24
    /// One minute between publications is already far slower than any run it would measure.
    static let maxPublishEveryMs = 60_000

    static func check(_ option: String, _ value: Int, _ range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) takes \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
    }

    /// The items of a comma-separated list, trimmed; an empty list or an empty item is a usage error.
    static func list(_ option: String, _ text: String) throws -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.contains(where: \.isEmpty) else {
            throw ValidationError("\(option) needs a comma-separated list with no empty items, got \"\(text)\"")
        }
        return items
    }
}

extension Limits {
    /// Refuses an output path that names one of the inputs (or another output): writing it would
    /// replace the user's corpus, event log, plugin or results with ours.
    static func refuseOverwriting(outputs: [(option: String, path: String?)], inputs: [(option: String, path: String?)]) throws {
        func identity(_ path: String) -> String {
            var s = stat()
            // A file not made yet is known by its absolute, standardized path: `d.out` and `./d.out` are one.
            guard stat(path, &s) == 0 else { return "path:" + URL(fileURLWithPath: path).standardizedFileURL.path }
            // Devices and pipes (/dev/stdout) may be named by several options at once.
            guard (s.st_mode & S_IFMT) == S_IFREG else { return "unique:\(UUID())" }
            return "file:\(s.st_dev):\(s.st_ino)"
        }
        var seen: [String: String] = [:]
        for (option, path) in inputs { if let path, path != "-" { seen[identity(path)] = "the \(option) input" } }
        for (option, path) in outputs {
            guard let path else { continue }
            let id = identity(path)
            if let other = seen[id] {
                throw ValidationError("\(option) \(path) is \(other); writing it would replace it, so choose another path")
            }
            seen[id] = "the \(option) output"
        }
    }
}
