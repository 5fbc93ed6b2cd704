import TriggerKit

extension RoutingShape {
    /// `count` events of the shape for a set of `triggers` rules, straight into replay buffers.
    func events(triggers: Int, seed: UInt64, vocabulary: Vocabulary, count n: Int, progress: ((Int) -> Void)?) -> EventColumns {
        var rng = DeterministicRandom(seed: seed &* 0x9E37_79B9 &+ 2)
        var columns = EventColumns(vocabulary: vocabulary)
        columns.reserveCapacity(events: n, properties: n * 4)
        let name = columns.intern(Self.eventName)
        var stringIDs: [String: Int32] = [:]
        func id(_ s: String) -> UInt64 {
            if let id = stringIDs[s] { return UInt64(id) }
            let id = columns.intern(s)
            stringIDs[s] = id
            return UInt64(id)
        }
        var keyIDs: [String: Int32] = [:]
        func key(_ k: String) -> Int32 {
            if let id = keyIDs[k] { return id }
            let id = columns.intern(k)
            keyIDs[k] = id
            return id
        }
        let groups = max(1, triggers / Self.groupSize)
        let services = (0..<50).map { Self.word($0, salt: 4) }
        var props: [(key: Int32, tag: ValueTag, bits: UInt64)] = []
        for e in 0..<n {
            if let progress, e & 0xFFFFF == 0 { progress(e) }
            props.removeAll(keepingCapacity: true)
            func string(_ k: String, _ s: String) { props.append((key(k), .string, id(s))) }
            func int(_ k: String, _ v: Int) { props.append((key(k), .int, UInt64(bitPattern: Int64(v)))) }
            let rule = rng.below(triggers)
            switch self {
            case .mixed, .nearMiss:
                // One test of every rule on this event's number fails in a near-miss.
                let broken = self == .nearMiss ? rng.below(7) : -1
                string("env", broken == 0 ? "staging" : "prod")
                int("number", broken == 1 ? groups + rng.below(groups) : rng.below(groups))
                string("name", (broken == 2 ? "web-" : "svc-") + services[rng.below(services.count)] + (broken == 2 ? "-app" : "-api"))
                string("tag", broken == 3 ? "none" : Self.tags[rng.below(Self.tags.count)])
                if broken != 4 { string("region", broken == 5 ? "cn" : Self.regions[rng.below(Self.regions.count)]) }
                string("type", broken == 6 ? "z" : Self.types[rng.below(Self.types.count)])
                int("user_id", rng.below(1_000_000))
            case .prefix:
                string("path", "/api/v1/r\(rule)/items/\(rng.below(10))")
                string("method", rng.chance(0.8) ? "GET" : "POST")
            case .wildcard:
                let a = Self.word(rule, salt: 1), b = Self.word(rule, salt: 2)
                string("path", "/\(services[rng.below(services.count)])/\(a)/\(services[rng.below(services.count)])/\(b)/end")
            case .equals:
                string("user", "u\(rule)")
                string("country", Self.regions[rng.below(Self.regions.count)])
                int("app_version", rng.below(40))
            }
            props.sort { $0.key < $1.key }
            props.withUnsafeBufferPointer {
                columns.appendEncoded(kind: .customEvent, key: name, action: -1, time: WorkloadGenerator.startTime + Double(e), properties: $0)
            }
        }
        return columns
    }
}
