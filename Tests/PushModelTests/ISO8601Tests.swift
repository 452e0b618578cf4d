import Foundation
import Testing

@testable import PushModel

/// ISO 8601 without `ISO8601DateFormatter` (it corrupts the heap on Linux): the same text written, and the same
/// texts read and refused as the formatter did. The expected values are what the formatter gave for each text on this
/// toolchain (a throwaway program, run once; calling it here would bring its heap corruption into the test process).
@Suite struct ISO8601Tests {
    static let newYear = 1_767_225_600.0  // 2026-01-01T00:00:00Z

    @Test func writesUTCWholeSecondsAndDays() {
        #expect(ISO8601.string(Date(timeIntervalSince1970: Self.newYear + 0.75)) == "2026-01-01T00:00:00Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58Z")
        #expect(ISO8601.day(Date(timeIntervalSince1970: Self.newYear + 86_399)) == "2026-01-01")
    }

    @Test(
        arguments: [
            ("2026-01-01T00:00:00Z", newYear, newYear),
            ("2026-01-01T02:00:00+02:00", newYear, newYear),
            ("2026-01-01T00:00:00+0200", newYear - 7200, newYear - 7200),
            (" 2026-01-01T00:00:00Z", newYear, newYear),
            ("2026-02-30T00:00:00Z", 1_772_409_600, 1_772_409_600),
            ("2026-01-01T00:00:00.250Z", nil, newYear + 0.25),
            ("2026-01-01", nil, nil), ("2026-01-01T00:00:00", nil, nil), ("2026-01-01 00:00:00Z", nil, nil),
            ("2026-13-01T00:00:00Z", nil, nil), ("20260101T000000Z", nil, nil), ("now", nil, nil), ("", nil, nil),
        ] as [(String, Double?, Double?)])
    func readsWhatTheFormatterRead(text: String, plain: Double?, withFraction: Double?) {
        #expect(ISO8601.date(text)?.timeIntervalSince1970 == plain)
        #expect(ISO8601.date(text, fractionalSeconds: true)?.timeIntervalSince1970 == withFraction)
    }
}
