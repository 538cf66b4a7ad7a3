/// A time written in a text, as a reducer formats the clock: `2026-11-22T12:03:04Z`,
/// `2026-11-22 12:03:04 +0000` (`Date`'s description), `2026-11-22 12:03`, `2026-11-22`,
/// `12:03:04`, `12:03 PM`, or a number of 9 to 13 digits (seconds or milliseconds since
/// 1970, seconds since 2001), alone or inside a longer text (`saved at 12:03:04`).
///
/// Found by a scan of the UTF-8 bytes rather than date formatters: a text may hold several,
/// anywhere, and a formatter parses only a whole text of one format.
struct TimeInText {
    enum Value {
        /// Seconds since 1970 of a date-time, in UTC when `zoned`, else in a zone it does
        /// not say; `resolution` is 1 or 60 seconds.
        case dateTime(Double, zoned: Bool, resolution: Double)
        /// A date alone: its midnight, in a zone it does not say.
        case day(Double)
        /// A time of day in seconds after midnight, in a zone it does not say.
        case timeOfDay(Double, resolution: Double)
        /// A number of seconds or milliseconds.
        case number(Double)

        /// Whether this time falls in `range` (seconds since 1970), read in each zone of
        /// `offsets` (seconds east of UTC) when it does not say its own.
        func falls(in range: ClosedRange<Double>, offsets: [Double]) -> Bool {
            let day: Double = 86_400
            func overlaps(_ start: Double, _ length: Double) -> Bool { start <= range.upperBound && start + length > range.lowerBound }
            switch self {
            case let .dateTime(seconds, zoned, resolution):
                return zoned ? overlaps(seconds, resolution) : offsets.contains { overlaps(seconds - $0, resolution) }
            case let .day(midnight):
                return offsets.contains { overlaps(midnight - $0, day) }
            case let .timeOfDay(seconds, resolution):
                // The time on the day the range starts, and on the days either side: a range
                // across midnight.
                return offsets.contains { offset in
                    let midnight = ((range.lowerBound + offset) / day).rounded(.down) * day - offset
                    return [-day, 0, day].contains { overlaps(midnight + $0 + seconds, resolution) }
                }
            case let .number(number):
                let since2001: Double = 978_307_200
                return range.contains(number) || (range.lowerBound * 1_000...range.upperBound * 1_000).contains(number)
                    || (range.lowerBound - since2001...range.upperBound - since2001).contains(number)
            }
        }
    }

    /// Where it is, in the text's UTF-8 bytes.
    let range: Range<Int>
    let value: Value

    /// Every time in `text`, in order.
    static func scan(_ text: [UInt8]) -> [TimeInText] {
        var scanner = Scanner(text: text)
        var found: [TimeInText] = []
        while scanner.position < text.count {
            let start = scanner.position
            // A time starts a run of digits, and not after a colon: `1:02:03` holds no `02:03`.
            guard scanner.isDigit(at: start), start == 0 || !(scanner.isDigit(at: start - 1) || text[start - 1] == UInt8(ascii: ":")) else {
                scanner.position += 1
                continue
            }
            if let value = scanner.dateTime() ?? scanner.timeOfDay() ?? scanner.number() {
                found.append(TimeInText(range: start..<scanner.position, value: value))
            } else {
                scanner.position = start + 1
                while scanner.isDigit(at: scanner.position) { scanner.position += 1 }
            }
        }
        return found
    }

    /// Reads times at its position; a read that fails leaves the position where it was.
    private struct Scanner {
        let text: [UInt8]
        var position = 0

        func isDigit(at index: Int) -> Bool { index < text.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) }

        func byte(at index: Int) -> UInt8? { index < text.count ? text[index] : nil }

        /// `count` digits, not followed by another unless `alone` is false.
        mutating func digits(_ count: Int, alone: Bool = true) -> Int? {
            guard (position..<position + count).allSatisfy(isDigit), !alone || !isDigit(at: position + count) else { return nil }
            let value = text[position..<position + count].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            position += count
            return value
        }

        mutating func skip(_ character: Character) -> Bool {
            guard byte(at: position) == character.asciiValue else { return false }
            position += 1
            return true
        }

        /// `yyyy-MM-dd`, then `THH:mm[:ss[.fff]]` or ` HH:mm[:ss[.fff]]` and a zone when there.
        mutating func dateTime() -> Value? {
            let start = position
            guard let year = digits(4), skip("-"), let month = digits(2), skip("-"), let day = digits(2), (1...12).contains(month),
                (1...31).contains(day)
            else {
                position = start
                return nil
            }
            let midnight = Double(Self.daysSince1970(year: year, month: month, day: day)) * 86_400
            let date = position
            if skip("T") || skip(" "), let (time, resolution) = clockTime(twelveHour: false) {
                if let offset = zone() { return .dateTime(midnight + time - offset, zoned: true, resolution: resolution) }
                return .dateTime(midnight + time, zoned: false, resolution: resolution)
            }
            position = date
            return .day(midnight)
        }

        /// `H:mm`, `HH:mm:ss`, `HH:mm:ss.fff`, with `AM` or `PM` when there.
        mutating func timeOfDay() -> Value? {
            guard let (time, resolution) = clockTime(twelveHour: true) else { return nil }
            return .timeOfDay(time, resolution: resolution)
        }

        /// A run of 9 to 13 digits, with a fraction when there.
        mutating func number() -> Value? {
            let start = position
            while isDigit(at: position) { position += 1 }
            guard (9...13).contains(position - start) else {
                position = start
                return nil
            }
            if byte(at: position) == UInt8(ascii: "."), isDigit(at: position + 1) {
                position += 1
                while isDigit(at: position) { position += 1 }
            }
            return Double(String(decoding: text[start..<position], as: UTF8.self)).map(Value.number)
        }

        /// Seconds after midnight and the resolution (1 or 60) of a time of day.
        mutating func clockTime(twelveHour: Bool) -> (Double, Double)? {
            let start = position
            let hourDigits = twelveHour && !isDigit(at: position + 1) ? 1 : 2
            guard var hour = digits(hourDigits), skip(":"), let minute = digits(2), hour < 24, minute < 60 else {
                position = start
                return nil
            }
            var seconds = Double(hour * 3_600 + minute * 60), resolution: Double = 60
            let minutes = position
            if skip(":"), let second = digits(2), second < 61 {
                seconds += Double(second)
                resolution = 1
                if byte(at: position) == UInt8(ascii: "."), isDigit(at: position + 1) {
                    let fraction = position
                    position += 1
                    while isDigit(at: position) { position += 1 }
                    seconds += Double(String(decoding: text[fraction..<position], as: UTF8.self)) ?? 0
                }
            } else {
                position = minutes
            }
            if twelveHour, (1...12).contains(hour), let afternoon = meridiem() {
                hour = hour % 12 + (afternoon ? 12 : 0)
                seconds = Double(hour * 3_600 + minute * 60) + seconds.truncatingRemainder(dividingBy: 60)
            }
            return (seconds, resolution)
        }

        /// ` AM`, `pm`, after a space (U+0020, U+00A0 or U+202F, which formatters put there) or
        /// none: whether it is the afternoon.
        mutating func meridiem() -> Bool? {
            let start = position
            for space: [UInt8] in [[0x20], [0xC2, 0xA0], [0xE2, 0x80, 0xAF]] where text[position...].starts(with: space) {
                position += space.count
                break
            }
            let letters = (byte(at: position) ?? 0) | 0x20, m = (byte(at: position + 1) ?? 0) | 0x20
            let after = byte(at: position + 2) ?? 0x20
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(after | 0x20)
            guard letters == UInt8(ascii: "a") || letters == UInt8(ascii: "p"), m == UInt8(ascii: "m"), !isLetter else {
                position = start
                return nil
            }
            position += 2
            return letters == UInt8(ascii: "p")
        }

        /// `Z`, `+01:00`, `+0100`, or ` +0000` as `Date` describes itself: seconds east of UTC.
        mutating func zone() -> Double? {
            let start = position
            if skip("Z") { return 0 }
            _ = skip(" ")
            guard let sign = byte(at: position), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
                position = start
                return nil
            }
            position += 1
            // `+0100`, `+01:00` or `+01`.
            guard let hours = digits(2, alone: false), let minutes = skip(":") ? digits(2) : isDigit(at: position) ? digits(2) : 0 else {
                position = start
                return nil
            }
            return Double(hours * 3_600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }

        /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
        /// `days_from_civil`), without a `Calendar` for each time seen.
        static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
            let year = month <= 2 ? year - 1 : year
            let era = (year >= 0 ? year : year - 399) / 400
            let yearOfEra = year - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }
    }
}
