import Foundation

/// ISO 8601 times, written and read without `ISO8601DateFormatter`. On Linux, swift-corelibs-foundation's formatter
/// makes its `CFDateFormatter` lazily and frees memory it does not own when it is released
/// (swiftlang/swift-corelibs-foundation#5533, open, Swift 6.3): the heap is corrupted and the process aborts later,
/// somewhere else ("corrupted size vs. prev_size", "double free or corruption" in an ICU `DateFormatSymbols` destructor
/// in this project's test process). `Date.ISO8601FormatStyle` is swift-foundation's, written in Swift, without ICU.
package enum ISO8601 {
    /// `2026-01-01T00:00:00Z`: UTC, whole seconds (what `ISO8601DateFormatter().string(from:)` writes).
    package static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// `2026-01-01`: the UTC day (`formatOptions = [.withFullDate]`).
    package static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle().year().month().day())
    }

    /// `2026-01-01T00:00:00Z`, or with an offset (`2026-01-01T02:00:00+02:00`), as `ISO8601DateFormatter().date(from:)`
    /// reads it (leading spaces too); with `fractionalSeconds`, seconds may also have a fraction (`00:00:00.250Z`), as
    /// with `.withFractionalSeconds`. Nil for anything else.
    package static func date(_ text: String, fractionalSeconds: Bool = false) -> Date? {
        let text = text.drop { $0 == " " }
        // The style reads a fraction whether asked or not; the formatter without the option refused one.
        guard fractionalSeconds || !text.contains(".") else { return nil }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: text.contains(".")).parse(String(text))
    }
}
