/// Strict ISO-8601 timestamps (docs/semantics.md, "Events"): `YYYY-MM-DDTHH:MM:SS`, optional fraction, `Z` or `±HH:MM`.
package enum ISO8601 {
    /// Epoch seconds, or nil when `text` is not exactly in the strict form (or names an impossible date).
    package static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for i in at..<at + n {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
              let day = digits(8, 2), b[10] == UInt8(ascii: "T"), let hour = digits(11, 2), b[13] == UInt8(ascii: ":"),
              let minute = digits(14, 2), b[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var i = 19
        var fraction: ArraySlice<UInt8> = []
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            guard i > start else { return nil }
            fraction = b[start..<i]
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == UInt8(ascii: "Z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "+") ? 1 : -1
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = digits(i + 4, 2),
                  oh <= 23, om <= 59
            else { return nil }
            offset = sign * (oh * 3600 + om * 60)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return nearestDouble(seconds: seconds, fraction: fraction)
    }

    /// The double nearest `seconds + 0.fraction`, exactly as `{"$date": …}` with that decimal reads:
    /// the exact decimal is written out and rounded once (adding a rounded fraction to the seconds
    /// would round twice, and digit by digit more often still).
    static func nearestDouble(seconds: Int, fraction: ArraySlice<UInt8>) -> Double {
        guard fraction.contains(where: { $0 != 0x30 }) else { return Double(seconds) }
        if seconds >= 0 { return Double("\(seconds)." + String(decoding: fraction, as: UTF8.self))! }
        // s + 0.f = -((-s - 1) + (1 - 0.f)); 1 - 0.f is the ten's complement of f's digits.
        var digits = Array(fraction)
        var k = digits.count - 1
        while digits[k] == 0x30 { k -= 1 }
        digits[k] = 0x30 + 10 - (digits[k] - 0x30)
        for j in 0..<k { digits[j] = 0x30 + 9 - (digits[j] - 0x30) }
        return Double("-\(-seconds - 1)." + String(decoding: digits, as: UTF8.self))!
    }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
