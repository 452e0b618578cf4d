import HTTPTypes
import APNsGateway
import Foundation
import HTTPServer
import PushModel

/// How a console send proves who it is: APNs sends sign with the console's key for the app's team (`ConsoleKeys`),
/// FCM sends get an access token FCM issues for the console's service account; or no credential at all
/// (MissingProviderToken, 401 UNAUTHENTICATED), or the token as pasted (`bearer`).
enum ConsoleAuth: Equatable {
    case console
    case none
    case bearer(String)

    /// The form's `auth` (console, none, bearer; empty is console) with its `bearer` text (a leading `bearer ` is
    /// dropped, as pasted from a header).
    static func decode(auth: String, bearer: String) -> Result<ConsoleAuth, QueryError> {
        switch auth {
        case "", "console": return .success(.console)
        case "none": return .success(.none)
        case "bearer":
            guard !bearer.isEmpty else { return .failure(QueryError("auth bearer needs the token in 'bearer'")) }
            return .success(.bearer(bearer.lowercased().hasPrefix("bearer ") ? String(bearer.dropFirst(7)) : bearer))
        case let other: return .failure(QueryError("auth must be console, none or bearer, not '\(other)'"))
        }
    }
}

/// What the console posts to `/ui/api/check` and `/ui/api/send`: a push through APNs or a message through FCM.
enum ConsoleSend: Equatable {
    case apns(ConsoleSendForm)
    case fcm(ConsoleFCMForm)
}

/// What the console's send form posts (`POST /ui/api/check`, `POST /ui/api/send`): the fields of Apple's Push
/// Notifications Console. Header values stay text, so a wrong one (`apns-priority: 7`) reaches the gateway's own
/// rules and gets their answer; an empty field sends no header.
struct ConsoleSendForm: Equatable {
    var endpoint: APNsEnvironment = .sandbox
    var token = ""
    var topic = ""
    var pushType = "alert"
    var priority = ""
    var expiration = ""
    var collapseID = ""
    var apnsID = ""
    var payload = ""
    var auth = ConsoleAuth.console

    static let keys = [
        "via", "endpoint", "token", "topic", "push_type", "priority", "expiration", "collapse_id", "apns_id", "payload",
        "auth", "bearer",
    ]

    /// Reads the form's JSON object: an APNs push, or an FCM message when it says `"via": "fcm"`.
    static func decode(_ body: [UInt8]) -> Result<ConsoleSend, QueryError> {
        guard let o = (try? JSONValue.parse(body))?.objectValue else {
            return .failure(QueryError("expected a JSON object with the form's fields"))
        }
        switch o["via"] {
        case nil, .null, .string("apns"): return decodeAPNs(o).map(ConsoleSend.apns)
        case .string("fcm"): return ConsoleFCMForm.decode(o).map(ConsoleSend.fcm)
        case let other?: return .failure(QueryError("via must be apns or fcm, not \(other.serialized())"))
        }
    }

    /// Reads an APNs push's fields; unknown keys are refused (a typo must not send a different push).
    static func decodeAPNs(_ o: [String: JSONValue]) -> Result<ConsoleSendForm, QueryError> {
        for key in o.keys.sorted() where !keys.contains(key) {
            return .failure(QueryError("unknown field '\(key)' (known: \(keys.joined(separator: ", ")))"))
        }
        func text(_ key: String) -> String {
            guard let v = o[key] else { return "" }
            if let s = v.stringValue { return s.trimmingCharacters(in: .whitespaces) }
            return v.isNull ? "" : v.serialized()
        }
        var form = ConsoleSendForm()
        switch text("endpoint") {
        case "", "sandbox": form.endpoint = .sandbox
        case "production": form.endpoint = .production
        case let other: return .failure(QueryError("endpoint must be sandbox or production, not '\(other)'"))
        }
        form.token = text("token")
        form.topic = text("topic")
        form.pushType = text("push_type")
        form.priority = text("priority")
        form.expiration = text("expiration")
        form.collapseID = text("collapse_id")
        form.apnsID = text("apns_id")
        form.payload = o["payload"]?.stringValue ?? ""
        switch ConsoleAuth.decode(auth: text("auth"), bearer: text("bearer")) {
        case .success(let auth): form.auth = auth
        case .failure(let e): return .failure(e)
        }
        return .success(form)
    }

    /// The `apns-*` headers the form sends, in order (empty fields left out).
    var headers: [(String, String)] {
        [
            ("apns-topic", topic), ("apns-push-type", pushType), ("apns-priority", priority),
            ("apns-expiration", expiration), ("apns-collapse-id", collapseID), ("apns-id", apnsID),
        ].filter { !$0.1.isEmpty }
    }

    /// The gateway's request rules that need no credentials, as the gateway runs them (`APNsRequestValidation`):
    /// path and token, header syntax, topic shape, payload; then whether the gateway knows the token for that
    /// topic and environment now. Each problem is `{reason, status, message}`; nothing is sent or logged.
    func check(registered: [RegisteredDeviceToken]) -> JSONValue {
        var problems: [JSONValue] = []
        // What APNs accepts but the device discards (`PushTokenKind.outcome(of:at:)`: mismatch, not modelled).
        var warnings: [JSONValue] = []
        let path = "/3/device/" + token
        // The reason's meaning or the rule it broke, in the gateway's words (`APNsGateway.explanation`, as its log
        // detail says), then what the console adds.
        var parsedType: APNsPushType?
        var typeInferred = false
        func problem(_ reason: APNsReason, _ note: String? = nil, atTokenKind: PushTokenKind? = nil) {
            let meaning = APNsGateway.explanation(
                reason, pushType: parsedType, pushTypeInferred: typeInferred, refusedAtTokenKind: atTokenKind,
                path: path)
            problems.append([
                "reason": .string(reason.rawValue), "status": .number(Double(reason.status)),
                "message": .string(meaning + (note.map { " " + $0 } ?? "")),
            ])
        }
        let request = HTTPRequest(
            version: .http2, method: "POST", path: path,
            headers: headers.map { HTTPField($0.0, $0.1) }, body: Array(payload.utf8))
        switch APNsRequestValidation.parse(request) {
        case .failure(let reason): problem(reason)
        case .success(let parsed):
            (parsedType, typeInferred) = (parsed.pushType, !parsed.pushTypeWasSent)
            if let t = parsed.topic, !t.isEmpty {
                if let r = APNsRequestValidation.checkTopicShape(parsed, topic: t) { problem(r) }
            } else if auth != .none {
                problem(.missingTopic)
            }
            if case .failure(let r) = APNsRequestValidation.checkPayload(parsed.payload, pushType: parsed.pushType) {
                problem(r, "(limit for \(parsed.pushType.rawValue): \(parsed.pushType.maxPayloadBytes) bytes)")
            }
            let known = registered.filter { $0.token == parsed.token }
            let bundle = APNsPushType.bundleID(ofTopic: topic)
            if known.isEmpty {
                problem(.badDeviceToken, "(the gateway has no such token registered now)")
            } else if !known.contains(where: { $0.environment == endpoint }) {
                problem(.badDeviceToken, "(the token is registered for \(known[0].environment.rawValue))")
            } else if !topic.isEmpty, !known.contains(where: { $0.topic == bundle }) {
                problem(.deviceTokenNotForTopic, "(it was issued for \(known[0].topic))")
            } else if let kind = known[0].kind {
                let what =
                    "\(APNsPushType.article(parsed.pushType.rawValue)) \(parsed.pushType.rawValue) push at the app's "
                    + "\(kind.rawValue) token"
                switch PushTokenKind.outcome(of: parsed.pushType, at: kind) {
                // At a VoIP token the explanation names the push and the token already.
                case .refuse(let r) where kind == .voip: problem(r, atTokenKind: kind)
                case .refuse(let r): problem(r, "(\(what))", atTokenKind: kind)
                case .mismatch:
                    warnings.append([
                        "message": .string(
                            "APNs answers 200, but the device drops \(what): token-kind-mismatch (send it to the token "
                                + "meant for \(parsed.pushType.rawValue) pushes)")
                    ])
                case .notModelled:
                    warnings.append([
                        "message": .string(
                            "APNs answers 200, but the simulated device does not model \(parsed.pushType.rawValue) "
                                + "pushes: it drops it (not-modelled)")
                    ])
                case .deliver: break
                }
            }
        }
        return [
            "ok": .bool(problems.isEmpty), "problems": .array(problems), "warnings": .array(warnings),
            "payload_bytes": .number(Double(payload.utf8.count)),
        ]
    }
}
