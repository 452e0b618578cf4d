import APNsGateway
import DeviceSimulator
import Foundation
import PushModel
import SuiteFormat

/// Evaluates an `expect:` block's checks and whole-object comparisons over an `Observation` (its `snapshot:` is
/// `SnapshotCheck.compare`, run by ScenarioRun because it names entries by the scenario's count of them).
package enum Checker {
    /// What a block's checks gave.
    package struct Verdict {
        package var failures: [AssertionFailure] = []
        /// A `run:` step's `exit` check failed: it is reported alone and the block's other checks (and its
        /// snapshot) are skipped, since they would only fail in its wake.
        package var commandFailed = false
    }

    /// Evaluates every check of `expectation` on `o`, then its `exactly:`/`at_least:` objects; appends a line per
    /// check to `transcript` (kept up to a variable that cannot be resolved, which throws).
    /// - Parameters:
    ///   - afterRun: the block belongs to a `run:` step (its `exit` check goes first).
    ///   - lookup: the value of a `${…}` reference in an expected value (nil: undefined).
    package static func evaluate(
        _ expectation: Expectation, _ o: Observation, afterRun: Bool, lookup: (String) -> String?,
        transcript: inout [String]
    ) throws(VariableError) -> Verdict {
        var verdict = Verdict()
        func resolve(_ e: ExpectedValue) throws(VariableError) -> JSONValue { try Self.resolve(e, lookup) }
        var checks = expectation.checks
        if afterRun, let i = checks.firstIndex(where: { $0.subject == .exitCode }) {
            checks.insert(checks.remove(at: i), at: 0)
        }
        for check in checks {
            let actual = o.value(check.subject)
            let expected = try check.matcher.failure(actual, resolve: resolve)
            transcript.append("  expect \(check.label): " + (expected == nil ? "ok" : "FAILED"))
            guard let expected else { continue }
            var failure = AssertionFailure(
                message: "expect \(check.label)", expected: expected,
                actual: Matcher.show(actual) + hint(check.subject, o)
                    + o.readNote(check.subject.scope, subject: check.subject),
                file: check.range.file,
                line: check.range.line, column: check.range.column, events: relevantEvents(o),
                focus: check.subject.traceFocus)
            if check.subject == .exitCode, afterRun {
                let stderr = o.lastRun?.stderr ?? ""
                failure.events =
                    (stderr.isEmpty ? "stderr: (empty)" : "stderr (last lines):\n" + FailureContext.tail(stderr))
                    + "\n" + failure.events
                verdict.failures.append(failure)
                let skipped = checks.count - 1
                if skipped > 0 { transcript.append("  (\(skipped) later check(s) skipped: the command failed)") }
                verdict.commandFailed = true
                return verdict
            }
            verdict.failures.append(failure)
        }
        for check in expectation.objects {
            let failure = check.failure(
                o.object(check.object), expected: try resolve(check.expected),
                read: o.readNote(
                    check.object.scope, subject: check.object == .userInfo ? .userInfo("") : .notification(.id)))
            transcript.append("  expect \(check.label): " + (failure == nil ? "ok" : "FAILED"))
            if var failure {
                failure.events = relevantEvents(o)
                verdict.failures.append(failure)
            }
        }
        return verdict
    }

    /// An expected value with its references resolved, as JSON (a string when the text is not JSON).
    static func resolve(_ e: ExpectedValue, _ lookup: (String) -> String?) throws(VariableError) -> JSONValue {
        let text = try e.json.render(lookup, escape: jsonStringEscape)
        return (try? JSONValue.parse(text)) ?? .string(text)
    }

    /// Why the actual value is what it is, when the events say so.
    static func hint(_ subject: Subject, _ o: Observation) -> String {
        if let android = o.android {
            switch subject {
            case .delivered, .callbacks, .notification, .extras, .channel, .tray, .userInfo:
                if case .string(let why)? = android.dropped(o.lastSend) { return " (message: \(why))" }
                return ""
            default: return ""
            }
        }
        switch subject {
        case .userInfo(let path):
            if let why = o.droppedReason() { return " (push dropped: \(why))" }
            return o.value(subject) == nil ? FailureContext.userInfoHint(path: path, userInfo: o.userInfo()) : ""
        case .delivered, .callbacks, .callback, .notification, .reached, .callkit:
            if let why = o.droppedReason() { return " (push dropped: \(why))" }
            return ""
        case .findings, .install, .registration, .symptoms:
            let f = o.findings()
            return f.isEmpty ? "" : " — " + f.map { "\($0.code): \($0.symptom)" }.joined(separator: "; ")
        case .navigation:
            for e in o.window.reversed() {
                if case .navigation(let n) = e.kind, case .routingFailed = n { return " (\(n))" }
                if case .navigation(let n) = e.kind, case .noRoute = n { return " (\(n))" }
            }
            return ""
        case .fcmErrorCode, .fcmName: return FailureContext.fcmAnswerHint(o.lastSend?.fcm)
        case .status, .reason, .header, .timestamp, .dropped, .stored, .extensions, .page, .openedURLs, .token,
            .state, .badge, .exitCode, .stdout, .stderr, .extras, .channel, .tray, .permission:
            return ""
        case .activity(let field, _):
            // A start_activity that failed leaves nothing to check: say why (not in the foreground, …).
            guard field != .error, case .string(let why)? = o.value(.activity(.error, path: "")) else { return "" }
            return " (Activity.request failed: \(why))"
        }
    }

    /// The device events of the window and the gateways' requests since the previous `expect`: the FCM requests
    /// first, each with the APNs request(s) it became, then the APNs gateway's.
    package static func relevantEvents(_ o: Observation) -> String {
        var lines = o.android.map { $0.window.map { "device \($0)" } } ?? o.window.map { "device \($0)" }
        for entry in o.fcmRequests { lines.append(FailureContext.describe(entry)) }
        for entry in o.gatewayRequests { lines.append(FailureContext.describe(entry)) }
        if lines.isEmpty { lines.append("(no device or gateway events since the previous expect)") }
        return lines.joined(separator: "\n")
    }
}
