import Foundation
import TriggerKit

/// A user's own trigger set and event log, named on the command line (`--corpus`, `--event-log`).
package struct UserFiles: Sendable, Equatable {
    package var corpusPath: String
    package var eventLogPath: String
    /// Any invalid event-log line is an error (exit 2) instead of being counted and skipped.
    package var strict = false
    /// Read only the first N lines of the event log (`--events`).
    package var lineLimit: Int?
    /// The user asked for `lineLimit` lines (`--events N`), so a log with fewer is refused rather than
    /// replayed short (a debug build's own limit is not a request).
    package var limitAsked = false

    package init(corpusPath: String, eventLogPath: String, strict: Bool = false, lineLimit: Int? = nil) {
        self.corpusPath = corpusPath
        self.eventLogPath = eventLogPath
        self.strict = strict
        self.lineLimit = lineLimit
    }
}
