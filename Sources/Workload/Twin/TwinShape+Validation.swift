import Foundation
import TriggerKit

extension TwinShape {
    /// Decodes the `shape` object of a spec, then checks every figure is in range so the generator
    /// cannot trap on a hand-edited spec.
    static func decode(_ value: JSONValue, file: String) throws -> TwinShape {
        let shape: TwinShape
        do {
            shape = try JSONDecoder().decode(TwinShape.self, from: Data(value.serialized.utf8))
        } catch var error as DecodingError {
            // Foundation calls a number an integer field cannot hold invalid JSON, without a path: with
            // whole-number stand-ins for the fractions, what else is wrong shows with its path, and
            // if nothing is, the search names the number.
            if let other = MisfitNumbers.error(value, as: TwinShape.self, decoder: JSONDecoder()) {
                error = other
            } else if let misfit = MisfitNumbers.first(value, as: TwinShape.self, decoder: JSONDecoder(), root: "shape") {
                throw InputError(file: file, path: misfit.path, reason: "expected an integer, found \(misfit.found)")
            }
            throw InputError(file: file, path: "shape" + Self.path(of: error), reason: Self.reason(of: error))
        }
        // The decoder skips keys it does not know; a misspelt key must not quietly change the twin.
        if let unknown = Self.unknownKey(value, known: shape.json, path: "shape") {
            throw InputError(file: file, path: unknown, reason: "unknown key; a fitted spec's shape holds only what bench fit writes")
        }
        try shape.validate(file: file)
        return shape
    }

    /// The first key of `value` that `known` (the decoded shape, encoded again) lacks; a key whose
    /// value is null stands for an absent optional.
    static func unknownKey(_ value: JSONValue, known: JSONValue, path: String) -> String? {
        switch (value, known) {
        case (.object(let members), .object(let knownMembers)):
            for (key, v) in members where v != .null {
                guard let k = knownMembers.first(where: { $0.key == key }) else { return "\(path).\(key)" }
                if let found = unknownKey(v, known: k.value, path: "\(path).\(key)") { return found }
            }
        case (.array(let items), .array(let knownItems)):
            for (i, (v, k)) in zip(items, knownItems).enumerated() {
                if let found = unknownKey(v, known: k, path: "\(path)[\(i)]") { return found }
            }
        default: break
        }
        return nil
    }

    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
        case .keyNotFound(let key, let c): return (c.codingPath + [key]).map(Self.step).joined()
        @unknown default: return ""
        }
        return context.codingPath.map(Self.step).joined()
    }

    static func step(_ key: CodingKey) -> String { key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }

    static func reason(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing key \"\(key.stringValue)\""
        case .typeMismatch(let type, _): "expected \(type == Double.self || type == Int.self ? "a number" : "\(type)")"
        case .valueNotFound: "expected a value, found null"
        case .dataCorrupted(let c): c.debugDescription
        @unknown default: "invalid"
        }
    }

    func validate(file: String) throws {
        func fail(_ path: String, _ reason: String) -> InputError { InputError(file: file, path: "shape." + path, reason: reason) }
        func share(_ v: Double, _ path: String) throws {
            guard v.isFinite, v >= 0, v <= 1 else { throw fail(path, "expected a share from 0 to 1, found \(v)") }
        }
        func count(_ v: Int, _ path: String, max: Int = Self.maxCount) throws {
            guard v >= 0, v <= max else { throw fail(path, "expected a count from 0 to \(max), found \(v)") }
        }
        func finite(_ v: Double?, _ path: String) throws {
            if let v, !v.isFinite || abs(v) > 1e15 { throw fail(path, "expected a finite number within ±1e15, found \(v)") }
        }
        try count(fittedTriggers, "fittedTriggers", max: CorpusDecoder.maxTriggers)
        guard fittedTriggers > 0 else { throw fail("fittedTriggers", "expected at least 1 trigger") }
        guard !conditionsPerTrigger.isEmpty, conditionsPerTrigger.count <= 64 else {
            throw fail("conditionsPerTrigger", "expected shares of 1 to 64 conditions")
        }
        for (i, s) in conditionsPerTrigger.enumerated() { try share(s, "conditionsPerTrigger[\(i)]") }
        guard conditionsPerTrigger.reduce(0, +) > 0 else { throw fail("conditionsPerTrigger", "the shares must not all be zero") }
        try share(windows.share, "windows.share")
        try share(windows.coverage, "windows.coverage")
        for (v, path) in [(time.start, "time.start"), (time.span, "time.span")] where !v.isFinite || abs(v) > Self.maxTime {
            throw fail(path, "expected a finite number within ±\(Self.maxTime), found \(v)")
        }
        guard time.span >= 0 else { throw fail("time.span", "expected a span of 0 seconds or more") }
        try share(push.withoutCampaign, "push.withoutCampaign")
        try share(push.withAction, "push.withAction")
        try share(push.conditionsWithAction, "push.conditionsWithAction")
        guard push.actions.count <= 64, push.actionConditions.count <= 65, push.actionConditions.allSatisfy({ $0 >= 0 }) else {
            throw fail("push.actions", "expected at most 64 button shares and 65 non-negative condition counts")
        }
        for (i, s) in push.actions.enumerated() { try share(s, "push.actions[\(i)]") }
        try count(sessionConditions, "sessionConditions")
        for (i, c) in push.actionConditions.enumerated() { try count(c, "push.actionConditions[\(i)]") }
        guard keys.count <= Self.maxKeys else { throw fail("keys", "at most \(Self.maxKeys) keys") }
        func checkKey(_ k: Key, _ p: String) throws {
            guard Self.types.contains(k.type) else { throw fail(p + ".type", "expected number, string, boolean or date") }
            for (name, v) in [("min", k.min), ("max", k.max), ("offsetMin", k.offsetMin), ("offsetMax", k.offsetMax), ("zipf", k.zipf)] {
                try finite(v, "\(p).\(name)")
            }
            if let lo = k.min, let hi = k.max, lo > hi { throw fail(p + ".min", "min \(lo) is above max \(hi)") }
            if let lo = k.offsetMin, let hi = k.offsetMax, lo > hi { throw fail(p + ".offsetMin", "offsetMin is above offsetMax") }
            if let d = k.distinct { try count(d, p + ".distinct", max: Self.maxDistinct) }
            if let z = k.zipf, z < 0 || z > 10 { throw fail(p + ".zipf", "expected a Zipf exponent from 0 to 10") }
            if let f = k.fresh { try share(f, p + ".fresh") }
            if let t = k.trueShare { try share(t, p + ".trueShare") }
            for (j, atom) in (k.atoms ?? []).enumerated() {
                guard atom.count == 2, atom[0].isFinite, abs(atom[0]) <= 1e15 else { throw fail("\(p).atoms[\(j)]", "expected [value, share] with a finite value within ±1e15") }
                try share(atom[1], "\(p).atoms[\(j)][1]")
            }
            guard (k.atoms ?? []).count <= 64, (k.atoms ?? []).reduce(0, { $0 + $1[1] }) <= 1 + 1e-9 else {
                throw fail(p + ".atoms", "expected at most 64 atoms whose shares sum to at most 1")
            }
            if let q = k.quantiles {
                guard q.count == 17, zip(q, q.dropFirst()).allSatisfy({ $0 <= $1 }) else { throw fail(p + ".quantiles", "expected 17 quantiles in rising order") }
                for (j, v) in q.enumerated() { try finite(v, "\(p).quantiles[\(j)]") }
            }
            if let bins = k.bins {
                guard bins.count <= Self.maxBins else { throw fail(p + ".bins", "at most \(Self.maxBins) bins") }
                for (j, v) in bins.enumerated() { try share(v, "\(p).bins[\(j)]") }
            }
        }
        for (i, k) in keys.enumerated() {
            let p = "keys[\(i)]"
            try checkKey(k, p)
            if k.share != nil { throw fail(p + ".share", "a key's own type takes the share its others leave; share belongs to others[…]") }
            var types: Set<String> = [k.type], total = 0.0
            for (j, other) in (k.others ?? []).enumerated() {
                let q = "\(p).others[\(j)]"
                try checkKey(other, q)
                guard types.insert(other.type).inserted else { throw fail(q + ".type", "\(other.type) is listed twice for one key") }
                guard other.others == nil else { throw fail(q + ".others", "others are one level deep") }
                guard let own = other.share else { throw fail(q + ".share", "missing: the share of the key's values of this type") }
                try share(own, q + ".share")
                total += own
            }
            guard total <= 1 + 1e-9 else { throw fail(p + ".others", "the others' shares sum to \(total), more than 1") }
        }
        for (ranked, name) in [(names, "names"), (products, "products"), (campaigns, "campaigns")] {
            try count(ranked.count, name + ".count", max: 10_000_000)
            guard ranked.bins.count <= Self.maxBins else { throw fail(name + ".bins", "at most \(Self.maxBins) bins") }
            try finite(ranked.zipf, name + ".zipf")
            try share(ranked.fitKS, name + ".fitKS")
            try count(ranked.anyConditions, name + ".anyConditions")
            for (b, bin) in (ranked.bins + [ranked.unseen]).enumerated() {
                let p = b == ranked.bins.count ? "\(name).unseen" : "\(name).bins[\(b)]"
                try share(bin.share, p + ".share")
                try count(bin.conditions, p + ".conditions")
                let size = b == ranked.bins.count ? Int.max : Self.binRange(b, count: ranked.count).count
                guard bin.targeted >= 0, bin.targeted <= min(size, bin.conditions), bin.conditions == 0 || bin.targeted > 0 else {
                    throw fail(p + ".targeted", "expected 1 to \(min(size, bin.conditions)) targeted members for \(bin.conditions) conditions")
                }
                if let f = bin.filters { try f.validate(p + ".filters", keys: keys.count, fail: fail) }
                let heavy = bin.heavy ?? []
                for (j, h) in heavy.enumerated() {
                    try count(h.conditions, "\(p).heavy[\(j)].conditions")
                    try Self.checkPresence(h.presence ?? [], "\(p).heavy[\(j)].presence", keys: keys.count, fail: fail)
                }
                guard heavy.count <= min(bin.targeted, Self.maxHeavy), heavy.reduce(0, { $0 + $1.conditions }) <= bin.conditions,
                      heavy.allSatisfy({ $0.conditions > 0 && $0.share >= 0 }), heavy.reduce(0, { $0 + $1.share }) <= 1 + 1e-9,
                      b < ranked.bins.count || heavy.isEmpty else {
                    throw fail(p + ".heavy", "expected at most \(Self.maxHeavy) (and at most targeted) members with conditions that sum to at most the bin's and shares that sum to at most 1")
                }
            }
        }
        try purchases.validate("purchases", keys: keys.count, fail: fail)
        guard push.actions.count == push.actionConditions.count - 1 || push.actionConditions.isEmpty else {
            throw fail("push.actionConditions", "expected one count per button and one for buttons no click has (\(push.actions.count + 1))")
        }
        try anyPurchases.validate("anyPurchases", keys: keys.count, fail: fail)
    }

}

extension TwinShape.Filters {
    func validate(_ p: String, keys: Int, fail: (String, String) -> InputError) throws {
        func positive(_ v: Int, _ path: String) throws {
            guard v > 0, v <= TwinShape.maxCount else { throw fail(path, "expected a weight from 1 to \(TwinShape.maxCount), found \(v)") }
        }
        func share(_ v: Double, _ path: String) throws {
            guard v.isFinite, v >= 0, v <= 1 else { throw fail(path, "expected a share from 0 to 1, found \(v)") }
        }
        try TwinShape.checkPresence(presence, p + ".presence", keys: keys, fail: fail)
        guard clauses.count <= TwinShape.maxClauses + 1, widths.count <= TwinShape.maxWidth else {
            throw fail(p + ".clauses", "at most \(TwinShape.maxClauses) clauses of \(TwinShape.maxWidth) filters")
        }
        guard classes.count <= TwinShape.maxClasses else { throw fail(p + ".classes", "at most \(TwinShape.maxClasses) classes") }
        for (i, s) in clauses.enumerated() { try share(s, "\(p).clauses[\(i)]") }
        for (i, s) in widths.enumerated() { try share(s, "\(p).widths[\(i)]") }
        guard correlation.isFinite, correlation >= 0, correlation <= 1e6 else { throw fail(p + ".correlation", "expected a ratio from 0 to 1e6") }
        func filter(_ q: String, key: Int, type: String, op: String, pass: [TwinShape.Centroid]) throws {
            guard key >= -1, key < keys else { throw fail(q + ".key", "no key \(key); the spec has \(keys)") }
            guard let t = PropertyType(rawValue: type) else { throw fail(q + ".type", "expected number, string, boolean or date") }
            guard let o = FilterOperator(rawValue: op), FilterOperator.allowed(for: t).contains(o) else {
                throw fail(q + ".op", "\"\(op)\" is not an operator of type \(type)")
            }
            guard !pass.isEmpty, pass.count <= 64 else { throw fail(q + ".pass", "expected 1 to 64 pass centroids") }
            for (j, centroid) in pass.enumerated() {
                try share(centroid.rate, "\(q).pass[\(j)].rate")
                try positive(centroid.weight, "\(q).pass[\(j)].weight")
            }
        }
        for (i, c) in classes.enumerated() {
            try positive(c.weight, "\(p).classes[\(i)].weight")
            try filter("\(p).classes[\(i)]", key: c.key, type: c.type, op: c.op, pass: c.pass)
        }
        guard templates.count <= TwinShape.maxTemplates else { throw fail(p + ".templates", "at most \(TwinShape.maxTemplates) templates") }
        for (i, t) in templates.enumerated() {
            let q = "\(p).templates[\(i)]"
            try positive(t.weight, q + ".weight")
            guard t.clauses.reduce(0, { $0 + $1.count }) <= TwinShape.maxTemplateFilters, t.clauses.count <= TwinShape.maxClauses else {
                throw fail(q + ".clauses", "at most \(TwinShape.maxTemplateFilters) filters in at most \(TwinShape.maxClauses) clauses")
            }
            for (c, clause) in t.clauses.enumerated() {
                for (f, slot) in clause.enumerated() {
                    try filter("\(q).clauses[\(c)][\(f)]", key: slot.key, type: slot.type, op: slot.op, pass: [.init(rate: 0, weight: 1)])
                }
            }
            let filters = t.clauses.reduce(0) { $0 + $1.count }
            guard !t.rows.isEmpty, t.rows.count <= 64 else { throw fail(q + ".rows", "expected 1 to 64 rows") }
            for (r, row) in t.rows.enumerated() {
                try positive(row.weight, "\(q).rows[\(r)].weight")
                guard row.rates.count == filters else {
                    throw fail("\(q).rows[\(r)]", "expected a positive weight and \(filters) rates, one per filter")
                }
                for (j, rate) in row.rates.enumerated() { try share(rate, "\(q).rows[\(r)].rates[\(j)]") }
                guard row.present.count == filters else { throw fail("\(q).rows[\(r)].present", "expected \(filters) shares, one per filter") }
                for (j, v) in row.present.enumerated() { try share(v, "\(q).rows[\(r)].present[\(j)]") }
                guard row.correlation.isFinite, row.correlation >= 0, row.correlation <= 1e6 else {
                    throw fail("\(q).rows[\(r)].correlation", "expected a ratio from 0 to 1e6")
                }
            }
        }
        if !widths.isEmpty || clauses.count > 1 {
            guard !classes.isEmpty else { throw fail(p + ".classes", "clauses need at least one filter class") }
        }
    }
}


extension TwinShape {
    /// Keys carried: known, each once, with shares.
    static func checkPresence(_ presence: [KeyShare], _ p: String, keys: Int, fail: (String, String) -> InputError) throws {
        var seen = Set<Int>()
        for (i, k) in presence.enumerated() {
            guard k.key >= 0, k.key < keys else { throw fail("\(p)[\(i)].key", "no key \(k.key); the spec has \(keys)") }
            guard seen.insert(k.key).inserted else { throw fail("\(p)[\(i)].key", "key \(k.key) is listed twice") }
            for (v, name) in [(k.share, "share"), (k.members, "members")] where !v.isFinite || v < 0 || v > 1 {
                throw fail("\(p)[\(i)].\(name)", "expected a share from 0 to 1, found \(v)")
            }
        }
    }
}
