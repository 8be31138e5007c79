/// Dates and times of day in UTC, from seconds since 1970, for findings' messages: exact and
/// the same on every machine (no locale, no time zone database).
public enum UTCCalendar {
    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a moment (the inverse of `days`).
    public static func civil(_ seconds: Int) -> (year: Int, month: Int, day: Int) {
        let days = (seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// "2026-12-04"
    public static func date(_ seconds: Int) -> String {
        let (year, month, day) = civil(seconds)
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))"
    }

    /// "03:40"
    public static func clock(_ seconds: Int) -> String {
        let inDay = ((seconds % 86_400) + 86_400) % 86_400
        return twoDigits(inDay / 3600) + ":" + twoDigits(inDay % 3600 / 60)
    }

    private static func twoDigits(_ value: Int) -> String { (value < 10 ? "0" : "") + String(value) }
}
