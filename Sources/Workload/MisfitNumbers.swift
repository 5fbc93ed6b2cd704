import Foundation
import TriggerKit

/// Finds the number a `Decodable` document cannot hold where it stands: a fraction, an exponent or a
/// value beyond Int64 in an integer field. Foundation's decoder reports such a number as "The given
/// data was not valid JSON.", without a path; a spec or results file must say where, and that an
/// integer is expected.
package enum MisfitNumbers {
    /// The error decoding `value` as `T` gives with every non-integer number (`JSONValue.double`) but
    /// the first `prefix` replaced by 0; nil when that decodes. With no number kept, what it names is
    /// another fault, with a path.
    package static func error<T: Decodable>(_ value: JSONValue, as type: T.Type, decoder: JSONDecoder, keeping prefix: Int = 0) -> DecodingError? {
        var seen = 0
        func replaced(_ v: JSONValue) -> JSONValue {
            switch v {
            case .double:
                seen += 1
                return seen <= prefix ? v : .int(0)
            case .array(let items): return .array(items.map(replaced))
            case .object(let members): return .object(members.map { ($0.key, replaced($0.value)) })
            default: return v
            }
        }
        do {
            _ = try decoder.decode(type, from: Data(replaced(value).serialized.utf8))
            return nil
        } catch {
            return error as? DecodingError
        }
    }

    /// The first non-integer number of `value` (in document order) where `T` wants an integer, as its
    /// path below `root` and its text; nil when there is none (or `value` has another fault). A binary
    /// search: with stand-ins for all but a prefix of the numbers, `value` decodes only while that
    /// prefix holds no misfit.
    package static func first<T: Decodable>(_ value: JSONValue, as type: T.Type, decoder: JSONDecoder, root: String) -> (path: String, found: String)? {
        let doubles: [(path: String, found: String)] = value.numbers(under: root).compactMap {
            if case .double(let d) = $0.value { return ($0.path, "\(d)") } else { return nil }
        }
        guard !doubles.isEmpty, error(value, as: type, decoder: decoder) == nil else { return nil }
        var lo = 0, hi = doubles.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if error(value, as: type, decoder: decoder, keeping: mid + 1) == nil { lo = mid + 1 } else { hi = mid }
        }
        return lo < doubles.count ? doubles[lo] : nil
    }
}

extension JSONValue {
    /// Every number in this value, in document order, with its path below `root` (`a.b[2].c`; a key
    /// at an empty root has no leading dot).
    package func numbers(under root: String) -> [(path: String, value: JSONValue)] {
        var out: [(path: String, value: JSONValue)] = []
        func walk(_ v: JSONValue, _ path: String) {
            switch v {
            case .int, .double: out.append((path, v))
            case .array(let items): for (i, x) in items.enumerated() { walk(x, "\(path)[\(i)]") }
            case .object(let members): for m in members { walk(m.value, path.isEmpty ? m.key : "\(path).\(m.key)") }
            default: break
            }
        }
        walk(self, root)
        return out
    }
}
