import Foundation
import TriggerKit

/// One generated check: a corpus and the events replayed against it, kept as JSON values so the
/// shrinker can cut them down and the case can be written as a conformance case folder.
package struct RuleCase: Sendable {
    package var settings: JSONValue?
    /// Trigger objects, in corpus order.
    package var triggers: [JSONValue]
    /// Event objects, one per events.jsonl line.
    package var events: [JSONValue]

    package var corpusJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("format", .string("trigger-corpus/1"))]
        if let settings { members.append(("settings", settings)) }
        members.append(("triggers", .array(triggers)))
        return .object(members)
    }

    /// The corpus as a file: one trigger per line, so a written case reads (and diffs) trigger by trigger.
    package var corpusText: String {
        var out = "{\"format\": \"trigger-corpus/1\",\n"
        if let settings { out += " \"settings\": " + Self.text(settings) + ",\n" }
        out += " \"triggers\": [\n" + triggers.map { "  " + Self.text($0) }.joined(separator: ",\n") + "\n]}\n"
        return out
    }

    package var eventLines: [String] { events.map(Self.text) }

    /// JSON text that keeps a double a double (`3.0`, `-0.0`): a port's number handling is what is tested.
    package static func text(_ value: JSONValue) -> String { value.serialized(keepingDoubles: true) }
}

extension JSONValue {
    /// The object with member `key` set to `value` (appended when absent), or removed when `value` is nil.
    func setting(_ key: String, _ value: JSONValue?) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let k = members.firstIndex(where: { $0.key == key }) {
            if let value { members[k].value = value } else { members.remove(at: k) }
        } else if let value {
            members.append((key, value))
        }
        return .object(members)
    }

    var arrayItems: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
