import TriggerKit

/// What a row matched: the run's events, its matches and their order-independent checksum.
package struct MatchFigures: Codable, Sendable, Equatable {
    package var events: Int
    package var checksum: MatchChecksum
    package var matchesPerEvent: Double
    package var candidatesPerEvent: Double

    package var matches: Int { checksum.matches }

    package init(events: Int, checksum: MatchChecksum, candidates: Int) {
        self.events = events
        self.checksum = checksum
        matchesPerEvent = Double(checksum.matches) / Double(events)
        candidatesPerEvent = Double(candidates) / Double(events)
    }

    enum CodingKeys: String, CodingKey { case events, matches, checksum, matchesPerEvent, candidatesPerEvent }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        events = try c.decode(Int.self, forKey: .events)
        let hex = try c.decode(String.self, forKey: .checksum)
        guard hex.utf8.count <= 16, let value = UInt64(hex, radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: .checksum, in: c, debugDescription: "a checksum is up to 16 hex digits, got \"\(hex.prefix(40))\"")
        }
        checksum = MatchChecksum(value: value, matches: try c.decode(Int.self, forKey: .matches))
        matchesPerEvent = try c.decode(Double.self, forKey: .matchesPerEvent)
        candidatesPerEvent = try c.decode(Double.self, forKey: .candidatesPerEvent)
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(checksum.matches, forKey: .matches)
        try c.encode(checksum.hex, forKey: .checksum)
        try c.encode(matchesPerEvent, forKey: .matchesPerEvent)
        try c.encode(candidatesPerEvent, forKey: .candidatesPerEvent)
    }
}
