import TriggerKit

extension WorkloadSpec {
    /// The spec as a document (every key, defaults included; a fitted spec's shape instead of the keys it decides).
    package var json: JSONValue {
        if let shape {
            return .object([
                ("format", .string(Self.fittedFormat)), ("name", .string(name)), ("seed", .int(Int64(seed))), ("events", .int(Int64(events))),
                ("triggers", .int(Int64(triggers))),
                ("kinds", .object(kinds.keys.sorted().map { ($0, JSONValue.double(kinds[$0]!)) })),
                ("shape", shape.json),
            ])
        }
        if let routing {
            return .object([("format", .string(Self.format)), ("name", .string(name)), ("seed", .int(Int64(seed))),
                            ("events", .int(Int64(events))), ("triggers", .int(Int64(triggers))), ("routing", .string(routing.rawValue))])
        }
        if let pubsub {
            return .object([("format", .string(Self.format)), ("name", .string(name)), ("seed", .int(Int64(seed))),
                            ("events", .int(Int64(events))), ("triggers", .int(Int64(triggers))), ("pubsub", pubsub.json)])
        }
        func range(_ r: ClosedRange<Int>) -> JSONValue { .array([.int(Int64(r.lowerBound)), .int(Int64(r.upperBound))]) }
        return .object([
            ("format", .string(Self.format)), ("name", .string(name)), ("seed", .int(Int64(seed))), ("events", .int(Int64(events))),
            ("triggers", .int(Int64(triggers))), ("event_names", .int(Int64(eventNames))), ("zipf", .double(zipf)),
            ("properties_per_event", range(propertiesPerEvent)), ("filters_per_trigger", range(filtersPerTrigger)),
            ("regex_share", .double(regexShare)),
            ("kinds", .object(kinds.keys.sorted().map { ($0, JSONValue.double(kinds[$0]!)) })),
            ("crowded", .object([("triggers", .int(Int64(crowdedTriggers)))])),
            ("fresh_string_share", .double(freshStringShare)),
        ])
    }

    /// The spec with `key` (a spec key, or `parent.child` such as `crowded.triggers` or
    /// `kinds.purchase`) set to `value`: a number, or `min:max` for a range key. Validated as a spec
    /// file is, so a value out of range is an error naming the key.
    package func setting(_ key: String, to value: String) throws -> WorkloadSpec {
        let parsed: JSONValue
        let bounds = value.split(separator: ":", omittingEmptySubsequences: false)
        if bounds.count == 2, let lo = Int64(bounds[0]), let hi = Int64(bounds[1]) {
            parsed = .array([.int(lo), .int(hi)])
        } else if let i = Int64(value) {
            parsed = .int(i)
        } else if let d = Double(value), d.isFinite {
            parsed = .double(d)
        } else {
            throw InputError(file: "--vary", path: key, reason: "\"\(value)\" is not a number or a min:max range")
        }
        guard case .object(var members) = json else { fatalError("a spec encodes as an object") }
        let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(path.count), !path.contains(""), !["format", "name", "shape"].contains(path[0]),
              let index = members.firstIndex(where: { $0.key == path[0] }) else {
            let keys = members.map(\.key).filter { $0 != "format" && $0 != "name" }
            throw InputError(file: "--vary", path: key, reason: "not a numeric workload key; choose from \(keys.filter { $0 != "shape" }.joined(separator: ", "))\(shape == nil ? ", crowded.triggers" : "") or kinds.KIND")
        }
        if path.count == 1 {
            members[index].value = parsed
        } else {
            guard case .object(var inner) = members[index].value else {
                throw InputError(file: "--vary", path: key, reason: "\(path[0]) has no keys inside it")
            }
            if let k = inner.firstIndex(where: { $0.key == path[1] }) { inner[k].value = parsed } else { inner.append((path[1], parsed)) }
            members[index].value = .object(inner)
        }
        return try Self.decode(Array(JSONValue.object(members).serialized.utf8), file: "--vary \(key)=\(value)")
    }
}
