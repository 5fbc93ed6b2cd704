import Foundation
import TriggerKit
import Workload

/// The `literals` shape: a crowd of regexes on one string property, written in the forms
/// `predicate-index` reads literals from (prefixes, factors, wildcards) and the forms it must not
/// misread (optional atoms, classes, groups, escapes, non-ASCII), some beside a common equality. Its
/// events carry texts that contain a trigger's literals in every case RE2 folds: capitals, `ſ` for
/// `s`, the Kelvin sign for `k`, a combining mark that NFC composes onto a literal's letter, a
/// newline (which `.` does not match), the literal twice, cut short, or moved off the start.
extension RuleCaseGenerator {
    static let literalAlphabet = Array("aAkKsSbz09-_/ ")

    mutating func literalWord() -> String {
        String((0..<rng.between(1, 10)).map { _ in Self.literalAlphabet[rng.below(Self.literalAlphabet.count)] })
    }

    /// A pattern and a text it is meant to match (a mutation may make it miss).
    mutating func literalPattern() -> (pattern: String, text: String) {
        let a = literalWord(), b = literalWord()
        switch rng.below(15) {
        case 0: return ("^" + a, a + b)
        case 1: return (a, b + a + b)
        case 2: return (a + ".*" + b, a + "xx" + b)
        case 3: return (a + "$", b + a)
        case 4: return (a + "\\." + b, a + "." + b)
        case 5: return (a + "[xy]" + b, a + "y" + b)
        case 6: return (a + "e?" + b, rng.chance(0.5) ? a + b : a + "e" + b)
        case 7: return (a + "b+" + b, a + "bbb" + b)
        case 8: return ("(x|" + a + ")" + b, a + b)
        case 9: return (a + "\\d" + b, a + "7" + b)
        case 10: return (a + "{2}" + b, a + String(a.last!) + b)
        case 11: return ("\\Q" + a + "\\E" + b, a + b)
        case 12: return ("^" + a + ".*" + b + "$", a + "-" + b)
        case 13: return (a + "é" + b, a + "e\u{301}" + b)
        default: return (a + "*?" + b, a + b)
        }
    }

    /// The crowd: 256–300 regex triggers on `s` (literals are filed in crowds of 256 or more; a third
    /// also requiring the common `m eq "prod"`, a few with a second regex), each remembered with its
    /// text for the events.
    mutating func literalCrowd() {
        for _ in 0..<rng.between(256, 300) {
            let (pattern, text) = literalPattern()
            var clauses = [[filter("s", type: "string", op: "regex", value: .string(pattern))]]
            if rng.chance(0.3) { clauses.append([filter("m", type: "string", op: "eq", value: .string("prod"))]) }
            if rng.chance(0.1) {
                let (second, _) = literalPattern()
                clauses.append([filter("s", type: "string", op: "regex", value: .string(second))])
            }
            literalTexts.append(text)
            addTrigger(conditions: [custom("e", clauses)])
        }
    }

    /// A text aimed at one of the crowd's regexes, mutated as RE2 folds case (or to just miss).
    mutating func literalText() -> String {
        var text = literalTexts.isEmpty ? literalWord() : literalTexts[rng.below(literalTexts.count)]
        for _ in 0..<rng.between(0, 3) {
            switch rng.below(10) {
            case 8: text.insert("\n", at: text.index(text.startIndex, offsetBy: rng.below(text.count + 1)))
            case 0: text = text.uppercased()
            case 1: text = text.replacingOccurrences(of: "s", with: "\u{17F}")
            case 2: text = text.replacingOccurrences(of: "k", with: "\u{212A}")
            case 3: text = text.replacingOccurrences(of: "a", with: "a\u{301}")
            case 4: text += text
            case 5: if !text.isEmpty { text.removeLast() }
            case 6: text = literalWord() + text
            case 7: text += literalWord()
            default: text = String(text.map { rng.chance(0.5) ? Character($0.uppercased()) : $0 })
            }
        }
        return text
    }
}
