import TriggerKit

extension RunReport {
    /// Which files a run replayed, fingerprinted, so `bench check` refuses to compare runs over different data.
    package struct ReplayedFiles: Codable, Sendable, Equatable {
        package struct File: Codable, Sendable, Equatable {
            package var path: String
            package var sha256: String
            package var bytes: Int
        }

        package struct LineError: Codable, Sendable, Equatable {
            /// 1-based.
            package var line: Int
            package var error: String
        }

        package var corpus: File
        /// The digest covers the whole file even when `--events` replayed only its first lines, except
        /// for a pipe read for its first lines (`eventLogDigest` says which).
        package var eventLog: File
        /// `file`, or `lines read` (each line read, ended by a newline).
        package var eventLogDigest: String?
        package var lines: Int
        package var invalidLines: Int
        package var controlLines: Int
        package var blankLines: Int?
        package var firstErrors: [LineError]

        init(corpusPath: String, corpus: LoadedCorpus, eventLogPath: String, log: LoadedEventLog) {
            self.corpus = File(path: corpusPath, sha256: corpus.sha256, bytes: corpus.byteCount)
            eventLog = File(path: eventLogPath, sha256: log.sha256, bytes: log.bytes)
            lines = log.lines
            invalidLines = log.invalidLines
            controlLines = log.controlLines
            blankLines = log.blankLines
            eventLogDigest = log.digestCoversFile ? "file" : "lines read"
            firstErrors = log.firstErrors
        }

        /// Why two runs' data differ, or nil when both replayed the same bytes.
        static func difference(_ a: ReplayedFiles?, _ b: ReplayedFiles?) -> String? {
            switch (a, b) {
            case (nil, nil): return nil
            case (nil, _?), (_?, nil): return "one replayed generated data, the other files"
            case let (a?, b?):
                if a.corpus.sha256 != b.corpus.sha256 { return "corpus \(a.corpus.path) (sha256 \(a.corpus.sha256.prefix(12))…) ≠ \(b.corpus.path) (\(b.corpus.sha256.prefix(12))…)" }
                if a.eventLog.sha256 != b.eventLog.sha256 { return "event log \(a.eventLog.path) (sha256 \(a.eventLog.sha256.prefix(12))…) ≠ \(b.eventLog.path) (\(b.eventLog.sha256.prefix(12))…)" }
                if a.lines != b.lines { return "\(a.lines) vs \(b.lines) event-log lines read" }
                return nil
            }
        }
    }
}
