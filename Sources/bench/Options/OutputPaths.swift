import Foundation
import ArgumentParser
import Harness

/// Output files checked before anything is written.
enum OutputPaths {
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
            // "-" reads standard input where an input takes it; as an output it would be a file named "-".
            if path == "-" {
                throw ValidationError("\(option) - would write a file named \"-\"; outputs are files: give a path (/dev/stdout for standard output, ./- for that name)")
            }
            let id = identity(path)
            if let other = seen[id] {
                throw ValidationError("\(option) \(PrintableText.escaped(path)) is \(other); writing it would replace it, so choose another path")
            }
            seen[id] = "the \(option) output"
        }
    }
}
