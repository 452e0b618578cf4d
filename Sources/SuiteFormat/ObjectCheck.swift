import Foundation
import PushModel
import YAMLSource

/// A whole-object comparison in `expect:`:
///
/// ```yaml
/// expect:
///   exactly:  { user_info: { order_id: A1001, aps: { alert: Hi } } }   # every key, no more
///   at_least: { notification: { title: Order shipped } }               # these keys (nested), others allowed
/// ```
/// `user_info: {…}` alone checks paths one by one (a key named `equals` is a path); `exactly:` and
/// `at_least:` always mean the whole object, so there is nothing to guess. A mismatch prints a
/// structural diff by path (`JSONDiff`, ScenarioChecks).
package struct ObjectCheck: Sendable {
    /// Which object (`WholeObject`).
    package var object: WholeObject
    package var mode: Mode
    package var expected: ExpectedValue
    package var range: SourceRange

    /// `exactly:` or `at_least:`.
    package enum Mode: Sendable {
        /// Every key and value written, no more.
        case exact
        /// The keys written (nested) with their values; others allowed.
        case subset
    }

    package var label: String { (mode == .exact ? "exactly." : "at_least.") + object.rawValue }

    /// `user_info: { equals: {…} }` reads as a path named `equals`, which is almost never meant: refused,
    /// pointing at `exactly:` / `at_least:`. (A payload key really named `equals` holding an object is
    /// checked with `at_least: { user_info: { equals: {…} } }`.)
    static func refuseAmbiguousWholeObject(_ node: YAMLNode, subject: String) throws(SourceError) {
        guard let pairs = node.pairs, pairs.count == 1, let only = pairs.first,
            ["equals", "contains"].contains(only.keyString), only.value.pairs != nil
        else { return }
        let spelling = only.keyString == "equals" ? "exactly" : "at_least"
        throw SourceError(
            .invalidValue, "'\(subject): { \(only.keyString): {…} }' would check a key named '\(only.keyString)'",
            at: only.key.range,
            expected: "expected key paths under \(subject) (user_info: { order_id: A1001 })",
            suggestion:
                "to compare the whole object write '\(spelling): { \(subject): {…} }' (exactly: every key, no more; at_least: these keys)"
        )
    }

    /// `exactly: { user_info: {…}, … }` or `at_least: …`.
    static func decode(_ node: YAMLNode, mode: Mode) throws(SourceError) -> [ObjectCheck] {
        let m = try YAMLMapping(node)
        try m.checkKeys(allowed: WholeObject.names)
        var out: [ObjectCheck] = []
        for pair in m.pairs {
            guard let object = WholeObject(rawValue: pair.keyString) else { continue }  // refused above
            guard pair.value.pairs != nil else {
                throw pair.value.invalidValue(expected: "a mapping: the whole \(pair.keyString) as it must be")
            }
            out.append(
                ObjectCheck(
                    object: object, mode: mode, expected: try ExpectationDecoder.expected(pair.value),
                    range: pair.value.range))
        }
        return out
    }
}
