import Foundation

/// A provider token's `iat` as APNs reads it. RFC 7519 makes `iat` a JSON number of seconds; APNs is
/// more lenient and delivers with a fractional number (pyapns_client signs `time.time()`) and with a
/// numeric string (kalyke-apns, APNSwift before mid-2026). The mock accepts the same and keeps a warning,
/// so a backend learns about the quirk without being refused for it.
package struct IssuedAtClaim: Sendable, Equatable {
    /// How the claim was written.
    package enum Form: String, Sendable, Equatable {
        case integer, fractional, numericString = "numeric-string"
    }

    /// Whole seconds since the epoch (a fraction is dropped, as APNs does).
    package var seconds: Int64
    package var form: Form

    /// Largest magnitude accepted (year ~33 000 000): beyond it a number has lost whole-second precision.
    static let limit = 1e15

    /// From a JSON number.
    package init?(number: Double) {
        guard number.isFinite, abs(number) < Self.limit else { return nil }
        seconds = Int64(number.rounded(.down))
        form = number.rounded(.down) == number ? .integer : .fractional
    }

    /// From a JSON string holding a decimal number (`"1767225600"`, `"1767225600.5"`); nil otherwise.
    package init?(string: String) {
        let allowed = Set("0123456789.-")
        guard !string.isEmpty, string.allSatisfy(allowed.contains), let n = Double(string),
            Self(number: n) != nil
        else { return nil }
        self.init(number: n)
        form = .numericString
    }

    /// From whatever `JSONSerialization` decoded (`NSNumber` or `String`); nil for booleans and other types.
    package init?(foundationValue value: Any?) {
        if let s = value as? String {
            self.init(string: s)
        } else if let n = value as? NSNumber, String(cString: n.objCType) != "c" {
            self.init(number: n.doubleValue)
        } else {
            return nil
        }
    }

    /// What to tell the backend when the form is not the standard one (nil for an integer).
    package var warning: String? { Self.warning(for: form) }

    /// The warning for a form (nil for an integer).
    package static func warning(for form: Form) -> String? {
        switch form {
        case .integer: return nil
        case .fractional:
            return "iat is a fractional number; APNs accepts it (whole seconds are used), RFC 7519 allows it, "
                + "but most verifiers expect an integer"
        case .numericString:
            return "iat is a JSON string, not a number; APNs accepts it, but RFC 7519 requires a NumericDate "
                + "(a JSON number)"
        }
    }

    /// Human wording for a span of seconds (sign ignored): `8 h 12 min`, `5 min 3 s`, `42 s`, `3 days 2 h`.
    package static func describe(seconds: Int64) -> String {
        let s = seconds.magnitude
        if s >= 86_400 * 2 { return "\(s / 86_400) days \((s % 86_400) / 3600) h" }
        if s >= 3600 { return "\(s / 3600) h \((s % 3600) / 60) min" }
        if s >= 60 { return "\(s / 60) min \(s % 60) s" }
        return "\(s) s"
    }
}
