import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import SuiteFormat
import YAMLSource

/// A payload checked against an app's declared navigation without a world (`pushcheck check-payload`):
/// which route takes it on tap and in the foreground (the device's own `Router`, so the answer is the
/// simulator's), the screen it ends on, required keys missing or mistyped (with a did-you-mean against the
/// keys present), the APNs size limit of its push type, and FCM `data` rules.
package struct PayloadContract: Sendable {
    /// What a trigger did with the payload.
    package struct RouteOutcome: Sendable, Equatable {
        package var trigger: RouteTrigger
        /// The route whose conditions matched (nil: none).
        package var route: String?
        /// The key that failed it, what it should be, what was there, and a key present that looks meant.
        package var failure: (key: String, expected: String, found: String, didYouMean: String?)?
        /// Tab title, screen ids and the top screen's title after routing.
        package var tabTitle: String?
        package var stack: [String]
        package var title: String?

        package static func == (a: RouteOutcome, b: RouteOutcome) -> Bool {
            a.trigger == b.trigger && a.route == b.route && a.failure?.key == b.failure?.key
                && a.tabTitle == b.tabTitle && a.stack == b.stack && a.title == b.title
        }
    }

    /// The result for one payload.
    package struct Report: Sendable {
        package var outcomes: [RouteOutcome]
        package var pushType: APNsPushType
        package var bytes: Int
        /// Problems that make the payload wrong (exit 1): a failed route, a size over the limit, FCM rules,
        /// `--route` not taken.
        package var problems: [String]
        /// Not JSON: where it breaks (1-based line and column in Unicode scalars) and why; no push type or size then.
        package var invalidJSON: (line: Int, column: Int, message: String)?
        package var ok: Bool { problems.isEmpty }
    }

    package let app: AppDeclaration

    package init(app: AppDeclaration) { self.app = app }

    /// Checks `payload` (its JSON bytes as sent); `route` is the route it is meant for, if known;
    /// `pushType` is the `apns-push-type` it is sent with (default: `APNsPushType.implied(byPayload:)`).
    package func check(
        _ bytes: [UInt8], route meant: String? = nil, fcm: Bool = false, pushType declared: APNsPushType? = nil
    ) -> Report {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch {
            // Where it breaks, as line:column (the suite loader's positions).
            let at = error.lineAndColumn(in: bytes)
            var report = Report(
                outcomes: [], pushType: .alert, bytes: bytes.count,
                problems: ["invalid JSON at \(at.line):\(at.column): \(error.message)"])
            report.invalidJSON = (at.line, at.column, error.message)
            return report
        }
        guard case .object = json else {
            return Report(outcomes: [], pushType: .alert, bytes: bytes.count, problems: ["not a JSON object"])
        }
        var problems: [String] = []
        var devicePayload = json
        var deviceBytes = bytes.count
        var translatedPushType: APNsPushType?
        var sizeCheckedByFCM = false
        if fcm, let message = Self.fcmMessage(json) {
            // What FCM builds for the device, by the FCM gateway's own rules (FCMDeviceDelivery).
            let (data, dataProblems) = Self.fcmDataRules(message["data"]?.objectValue ?? [:], sent: true)
            problems += dataProblems
            var checked = message
            if case .object(var fields) = message, !dataProblems.isEmpty {
                fields["data"] = .object(data)  // the rest of the message is still checked
                checked = .object(fields)
            }
            let delivery = FCMDeviceDelivery(message: checked, bundleID: app.bundleID)
            if let refusal = delivery.refusal { problems.append("FCM refuses the message: " + refusal.summary) }
            guard let payload = delivery.payload, let translated = try? JSONValue.parse(payload) else {
                return Report(outcomes: [], pushType: .alert, bytes: bytes.count, problems: problems)
            }
            devicePayload = translated
            deviceBytes = payload.count
            translatedPushType = delivery.pushType
            sizeCheckedByFCM = true
        } else if fcm {
            let (data, rules) = Self.fcmDataRules(
                (json.objectValue ?? [:]).filter { $0.key != "aps" }, sent: false)
            problems += rules
            var device = data
            if let aps = json["aps"] { device["aps"] = aps }
            devicePayload = .object(device)
        }
        let aps = APSDictionary(payload: devicePayload)
        let pushType = declared ?? translatedPushType ?? APNsPushType.implied(byPayload: devicePayload)
        if !sizeCheckedByFCM, bytes.count > pushType.maxPayloadBytes {
            problems.append(
                "\(bytes.count) bytes is over the APNs limit of \(pushType.maxPayloadBytes) for \(pushType.rawValue) pushes (413 PayloadTooLarge)"
            )
        }
        var outcomes: [RouteOutcome] = []
        if pushType == .liveactivity { problems += liveActivityProblems(devicePayload) }
        // A silent push shows nothing to tap; a Live Activity push goes to ActivityKit, never to the app's router.
        let triggers: [RouteTrigger] =
            pushType == .liveactivity
            ? [] : pushType == .background && !aps.hasAlertText ? [.foreground] : [.tap, .foreground]
        for trigger in triggers {
            let outcome = route(devicePayload, trigger: trigger)
            outcomes.append(outcome)
            if let f = outcome.failure, let name = outcome.route {
                problems.append(
                    "\(trigger.rawValue): route \(name) fails: key '\(f.key)' should be \(f.expected), found \(f.found)"
                        + (f.didYouMean.map { " (did you mean '\($0)'?)" } ?? ""))
            }
        }
        if let meant {
            if let r = app.navigation.routes.first(where: { $0.name == meant }) {
                let taken = outcomes.contains { $0.route == meant && $0.failure == nil }
                // A failure of that very route is already a problem above.
                let failedAbove = outcomes.contains { $0.route == meant && $0.failure != nil }
                if !taken, !failedAbove {
                    // Why not: its own required keys, even when another route matched first.
                    let keyProblems = Self.requiredKeyProblems(r, devicePayload)
                    let what = outcomes.map { o in "\(o.trigger.rawValue) → \(o.route ?? "no route")" }
                        .joined(separator: ", ")
                    problems.append(
                        "meant for route \(meant), but \(what)"
                            + (keyProblems.isEmpty ? "" : ": " + keyProblems.joined(separator: "; ")))
                }
            } else {
                let names = app.navigation.routes.map(\.name)
                problems.append(
                    "the app has no route '\(meant)'"
                        + (Spelling.closest(to: meant, in: names).map { " (did you mean '\($0)'?)" } ?? "")
                        + " — routes: \(names.joined(separator: ", "))")
            }
        }
        return Report(outcomes: outcomes, pushType: pushType, bytes: deviceBytes, problems: problems)
    }

    /// A `liveactivity` payload against the app's `live_activities:` (the device's own decoding rules,
    /// `LiveActivityEngine.payloadDrop`).
    func liveActivityProblems(_ payload: JSONValue) -> [String] {
        guard app.supportsLiveActivities else {
            return ["the app does not support Live Activities (NSSupportsLiveActivities is not YES): iOS drops it"]
        }
        guard !app.liveActivities.isEmpty else {
            return ["the app declares no live_activities: nothing on the device takes a liveactivity push"]
        }
        guard
            let drop = LiveActivityEngine.payloadDrop(payload["aps"] ?? .object([:]), declarations: app.liveActivities)
        else { return [] }
        return ["the device drops it (\(drop.reason.text)): \(drop.detail)"]
    }

    /// Runs the app's `Router` from its start state.
    func route(_ payload: JSONValue, trigger: RouteTrigger) -> RouteOutcome {
        var router = Router(app.navigation)
        let events = router.route(payload, trigger: trigger)
        var outcome = RouteOutcome(trigger: trigger, stack: [])
        for e in events {
            switch e {
            case .routed(let r, _), .loginRequired(let r): outcome.route = r
            case .routingFailed(let r, let key, let expected, let found):
                outcome.route = r
                outcome.failure = (
                    key, expected.rawValue, found, found == "missing" ? Self.didYouMean(key, payload) : nil
                )
            default: break
            }
        }
        if outcome.failure == nil, outcome.route != nil {
            let tabs = app.navigation.tabs
            outcome.tabTitle = tabs.indices.contains(router.selectedTab) ? tabs[router.selectedTab] : nil
            outcome.stack = router.stack.map(\.id)
            outcome.title = router.stack.last?.title
        }
        return outcome
    }

    static func requiredKeyProblems(_ r: RouteDeclaration, _ payload: JSONValue) -> [String] {
        r.allRequiredKeys.compactMap { key in
            guard let value = payload[path: key.path] else {
                return "key '\(key.path)' is missing"
                    + (didYouMean(key.path, payload).map { " (did you mean '\($0)'?)" } ?? "")
            }
            return key.type.accepts(value)
                ? nil : "key '\(key.path)' should be \(key.type.rawValue), found \(JSONDiff.typeName(value))"
        }
    }

    /// A key present next to where `path` should be that looks like a typo or a rename of it.
    static func didYouMean(_ path: String, _ payload: JSONValue) -> String? {
        let parts = path.split(separator: ".").map(String.init)
        let parent = parts.dropLast().joined(separator: ".")
        guard let leaf = parts.last, case .object(let siblings)? = payload[path: parent] else { return nil }
        let candidates = siblings.keys.sorted()
        // Spelling covers typos; a case/underscore rename (order_id → orderId) is matched on its letters.
        let squash = { (s: String) in s.lowercased().filter { $0 != "_" && $0 != "-" } }
        if let rename = candidates.first(where: { squash($0) == squash(leaf) }) {
            return parent.isEmpty ? rename : parent + "." + rename
        }
        return Spelling.closest(to: leaf, in: candidates).map { parent.isEmpty ? $0 : parent + "." + $0 }
    }

    /// The v1 message in `json`: `{"message":{…}}`, or a bare message (`data`, `notification`, `apns`, a target …
    /// and no `aps`). Nil: the keys FCM delivers beside `aps` (a received push).
    static func fcmMessage(_ json: JSONValue) -> JSONValue? {
        if case .object? = json["message"] { return json["message"] }
        guard json["aps"] == nil else { return nil }
        let messageKeys = ["data", "notification", "apns", "android", "webpush", "token", "topic", "condition", "fid"]
        return messageKeys.contains { json[$0] != nil } ? json : nil
    }

    /// FCM `data` rules, every broken key at once (FCM's parser stops at the first): string values; reserved keys
    /// `from`, `message_type`, `google…`, `gcm…`. `sent`: the data of a message as a backend sends it; otherwise the
    /// keys beside `aps` of a received push, where `gcm.message_id` and `google.c.…` were added by FCM. Returns the
    /// keys that pass.
    static func fcmDataRules(_ data: [String: JSONValue], sent: Bool) -> (
        passing: [String: JSONValue], problems: [String]
    ) {
        var passing: [String: JSONValue] = [:]
        var problems: [String] = []
        for key in data.keys.sorted() {
            let value = data[key]!
            var ok = true
            if key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm") {
                if sent || !(key == "gcm.message_id" || key.hasPrefix("google.c.")) {
                    problems.append("FCM data key '\(key)' is reserved (400 INVALID_ARGUMENT)")
                    ok = false
                }
            }
            if case .string = value {
            } else {
                problems.append(
                    "FCM data value '\(key)' is a \(JSONDiff.typeName(value)), FCM takes only strings (400 INVALID_ARGUMENT)"
                )
                ok = false
            }
            if ok || !sent { passing[key] = value }
        }
        return (passing, problems)
    }
}
