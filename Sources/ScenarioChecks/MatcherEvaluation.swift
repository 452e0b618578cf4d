import Foundation
import PushModel
import SuiteFormat

/// How a check's `Matcher` judges an observed value (nil = absent).
extension Matcher {
    /// Evaluates against `actual` (nil = absent); returns nil on success, else the expected text.
    func failure(_ actual: JSONValue?, resolve: (ExpectedValue) throws(VariableError) -> JSONValue)
        throws(VariableError)
        -> String?
    {
        switch self {
        case .exists: return actual == nil || actual == .null ? "present" : nil
        case .absent: return actual == nil || actual == .null ? nil : "absent"
        case .equals(let e):
            let expected = try resolve(e)
            guard let actual, Self.loosely(expected, actual) else { return Self.show(expected) }
            return nil
        case .matches(let pattern):
            let text = actual.map(Self.text) ?? ""
            let regex = try? NSRegularExpression(pattern: pattern)
            let hit = actual != nil && regex?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            return hit ? nil : "a value matching /\(pattern)/"
        case .contains(let e):
            let expected = try resolve(e)
            switch actual {
            case .array(let items)?:
                // An element equal to the value, or (for text) an element containing it.
                let hit = items.contains { item in
                    if Self.loosely(expected, item) { return true }
                    if case .string(let s) = expected, case .string(let t) = item { return t.contains(s) }
                    return false
                }
                return hit ? nil : "an array containing \(Self.show(expected))"
            case let value?:
                return Self.text(value).contains(Self.text(expected)) ? nil : "text containing \(Self.show(expected))"
            case nil:
                return "text containing \(Self.show(expected))"
            }
        case .not(let inner):
            let innerFailure = try inner.failure(actual, resolve: resolve)
            if innerFailure != nil { return nil }
            return "not " + (try Matcher.describe(inner, resolve: resolve))
        }
    }

    static func describe(_ m: Matcher, resolve: (ExpectedValue) throws(VariableError) -> JSONValue)
        throws(VariableError)
        -> String
    {
        switch m {
        case .exists: return "present"
        case .absent: return "absent"
        case .equals(let e): return show(try resolve(e))
        case .matches(let p): return "a value matching /\(p)/"
        case .contains(let e): return "containing \(show(try resolve(e)))"
        case .not(let inner): return "not " + (try describe(inner, resolve: resolve))
        }
    }

    /// Equality that lets `200` equal `"200"` and `1` equal `1.0`.
    static func loosely(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        if expected == actual { return true }
        switch (expected, actual) {
        case (.string(let s), .number), (.string(let s), .bool): return s == text(actual)
        case (.number, .string(let s)): return text(expected) == s
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { loosely($0, $1) }
        default: return false
        }
    }

    /// A value as text: strings bare, everything else as JSON.
    package static func text(_ v: JSONValue) -> String {
        if case .string(let s) = v { return s }
        if case .number(let d) = v, d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return v.serialized()
    }

    /// A value for messages: JSON (strings quoted).
    static func show(_ v: JSONValue?) -> String {
        guard let v else { return "absent" }
        if v.isNumber { return text(v) }
        return v.serialized()
    }
}
