import PushModel

/// Where a message goes: exactly one of these (`oneof target` in FCM's proto).
package enum FCMTarget: Sendable, Equatable {
    case token(String)
    case topic(String)
    case condition(FCMCondition, text: String)
    /// A Firebase installation ID (admin-python 7.5+).
    case fid(String)

    /// Topic and condition sends fan out (and have the 2048-byte limit).
    var isFanOut: Bool {
        switch self {
        case .topic, .condition: return true
        case .token, .fid: return false
        }
    }
}

/// A v1 `messages:send` request that passed every syntactic rule (reference/fcm.md §1.3–1.4).
package struct FCMSendRequest: Sendable, Equatable {
    package var validateOnly: Bool
    package var message: FCMMessage
}

/// The parts of a v1 `Message` the gateway acts on (the rest was shape-checked only).
package struct FCMMessage: Sendable, Equatable {
    package var target: FCMTarget
    /// `data`, sorted by key.
    package var data: [String: String]
    var notificationTitle: String?
    var notificationBody: String?
    var notificationImage: String?
    /// `apns.headers` as sent (names as the sender spelled them).
    var apnsHeaders: [String: String]
    /// `apns.payload` (a JSON object), merged over what `notification` and `data` give.
    var apnsPayload: [String: JSONValue]?
    /// `apns.fcm_options.image`.
    var apnsImage: String?
    /// `apns.live_activity_token` (hex APNs token a live-activity push goes to).
    package var liveActivityToken: String?
    /// `android`: what an Android instance gets.
    package var android: FCMAndroidConfig?
    /// The `message` object as received (for the log). Read from the body only when asked for: the send path
    /// keeps the body's bytes, not a parsed copy.
    package var raw: JSONValue {
        get { rawStorage.value }
        set { rawStorage = .value(newValue) }
    }
    var rawStorage: RawMessage

    init(
        target: FCMTarget, data: [String: String], notificationTitle: String?, notificationBody: String?,
        notificationImage: String?, apnsHeaders: [String: String], apnsPayload: [String: JSONValue]?,
        apnsImage: String?,
        liveActivityToken: String?, android: FCMAndroidConfig? = nil, raw: JSONValue
    ) {
        self.target = target
        self.data = data
        self.notificationTitle = notificationTitle
        self.notificationBody = notificationBody
        self.notificationImage = notificationImage
        self.apnsHeaders = apnsHeaders
        self.apnsPayload = apnsPayload
        self.apnsImage = apnsImage
        self.liveActivityToken = liveActivityToken
        self.android = android
        self.rawStorage = .value(raw)
    }
}

/// `FCMMessage.raw`: a parsed value, or the bytes of the `message` member inside the request body.
enum RawMessage: Sendable, Equatable {
    case value(JSONValue)
    case slice([UInt8], Range<Int>)

    var value: JSONValue {
        switch self {
        case .value(let v): return v
        case .slice(let body, let range): return (try? JSONValue.parse(Array(body[range]))) ?? .null
        }
    }

    static func == (a: RawMessage, b: RawMessage) -> Bool { a.value == b.value }
}

/// The message rules, free of state and I/O.
package enum FCMMessageRules {
    /// Payload limit for token/fid sends and for topic/condition sends.
    package static let maxPayloadBytes = 4096
    static let maxTopicPayloadBytes = 2048
    /// 28 days, the largest `ttl`.
    static let maxTTLSeconds: Int64 = 2_419_200

    /// `android_v2` (AndroidConfigV2, a preview) is not among them: its members' fields are not published, so it
    /// is refused as an unknown name, as FCM answers a project without the preview (Tests/reference/android.md §9).
    static let messageFields = [
        "name", "data", "notification", "android", "webpush", "apns", "fcm_options", "token", "topic", "condition",
        "fid",
    ]
    static let notificationFields = ["title", "body", "image"]
    static let apnsFields = ["headers", "payload", "fcm_options", "live_activity_token"]
    static let apnsOptionFields = ["analytics_label", "image"]
    static let androidFields = [
        "collapse_key", "priority", "ttl", "restricted_package_name", "data", "notification", "fcm_options",
        "direct_boot_ok", "bandwidth_constrained_ok", "restricted_satellite_ok",
    ]
    static let androidNotificationFields = [
        "title", "body", "icon", "color", "sound", "tag", "click_action", "body_loc_key", "body_loc_args",
        "title_loc_key",
        "title_loc_args", "channel_id", "ticker", "sticky", "event_time", "local_only", "notification_priority",
        "default_sound", "default_vibrate_timings", "default_light_settings", "vibrate_timings", "visibility",
        "notification_count", "light_settings", "image", "bypass_proxy_notification", "proxy",
    ]
    static let webpushFields = ["headers", "data", "notification", "fcm_options"]

    /// `^[a-zA-Z0-9-_.~%]+$` (admin SDKs and the server agree).
    static func isValidTopicName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { isTopicByte($0) }
    }

    static func isTopicByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "~"),
            UInt8(ascii: "%"):
            return true
        default: return false
        }
    }

    /// `^[a-zA-Z0-9-_.~%]{1,50}$`.
    static func isValidAnalyticsLabel(_ s: String) -> Bool { s.utf8.count <= 50 && isValidTopicName(s) }

    /// Reserved `data` keys: `from`, `message_type`, or starting with `google` or `gcm`.
    static func isReservedDataKey(_ key: String) -> Bool {
        key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
    }

    /// Parses a proto `Duration` (`"3s"`, `"3.5s"`, `"-1s"`) into whole seconds (rounded down); `nil` if malformed.
    static func durationSeconds(_ s: String) -> Int64? {
        guard s.hasSuffix("s") else { return nil }
        var body = Substring(s.dropLast())
        let negative = body.hasPrefix("-")
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].allSatisfy(\.isASCIIDigit),
            let seconds = Int64(parts[0])
        else { return nil }
        if parts.count == 2 {
            guard (1...9).contains(parts[1].count), parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
        }
        return negative ? -seconds : seconds
    }

    /// Parses and checks a `messages:send` body. Token existence, APNs header rules and size come later
    /// (`FCMGateway` knows the token's app; the translation knows the payload).
    package static func parseSendBody(_ body: [UInt8]) throws(FCMErrorResponse) -> FCMSendRequest {
        // The usual shape, byte-wise; anything else (and every refusal) by the full rules below.
        if let fast = FCMSendFastReader.read(body) { return fast }
        return try parseSendBodyByRules(body)
    }

    /// `parseSendBody`'s request as its two fields (the send path's form: reading `message` off a request that
    /// is then dropped copied the message, then released the request's).
    static func parseSendBodyParts(_ body: [UInt8]) throws(FCMErrorResponse) -> (
        validateOnly: Bool, message: FCMMessage
    ) {
        if let fast = FCMSendFastReader.readParts(body) { return fast }
        let send = try parseSendBodyByRules(body)
        return (send.validateOnly, send.message)
    }

    /// `parseSendBody` by the full proto-JSON rules alone (what the fast reader is checked against).
    package static func parseSendBodyByRules(_ body: [UInt8]) throws(FCMErrorResponse) -> FCMSendRequest {
        let root: JSONValue
        do { root = try JSONValue.parse(body) } catch {
            throw FCMErrorResponse.decoding("", "Invalid JSON payload received. Unexpected token.")
        }
        let top = try ProtoObject(
            root, path: "", type: "google.firebase.fcm.v1.SendMessageRequest", known: ["validate_only", "message"],
            raw: body)
        let validateOnly = try top.bool("validate_only") ?? false
        guard let messageValue = top["message"] else {
            throw FCMErrorResponse.invalid(
                "message", "Message must be set.", message: "Request contains an invalid argument.")
        }
        return FCMSendRequest(validateOnly: validateOnly, message: try parseMessage(messageValue, raw: body))
    }

    /// What FCM takes but pushcheck does not model, refused with the reason rather than accepted and delivered
    /// elsewhere: `apns.live_activity_token` (FCM sends the push to that Live Activity token; how it sets the topic
    /// and push type is not in Tests/reference, so the mock would have to guess — the same call as `android_v2`,
    /// Tests/reference/android.md §9). Run by the send path and the console's check.
    package static func refuseUnmodelled(_ message: FCMMessage) throws(FCMErrorResponse) {
        if message.liveActivityToken != nil {
            throw FCMErrorResponse.invalid(
                "message.apns.live_activity_token",
                "pushcheck does not model apns.live_activity_token (a Live Activity update through FCM): send the "
                    + "liveactivity push to the activity's push token through APNs instead")
        }
    }

    /// `raw` is the whole request body (only read to give wire-order indexes in errors).
    static func parseMessage(_ value: JSONValue, raw: [UInt8] = []) throws(FCMErrorResponse) -> FCMMessage {
        let m = try ProtoObject(
            value, path: "message", type: "google.firebase.fcm.v1.Message", known: messageFields, raw: raw,
            jsonPath: ["message"])
        // oneof target: a second member is a JSON-parsing error, none is FCM's "Recipient of the message is not set."
        let targetNames = ["token", "topic", "condition", "fid"].filter { m[$0] != nil }
        if targetNames.count > 1 {
            throw FCMErrorResponse.decoding(
                "message",
                "Invalid JSON payload received. Oneof field 'target' is already set. Cannot set '\(targetNames[1])'")
        }
        guard let targetName = targetNames.first, let targetText = try m.string(targetName) else {
            throw FCMErrorResponse.invalid(
                "message", "Recipient of the message is not set.", message: "Recipient of the message is not set.")
        }
        let target = try self.target(name: targetName, text: targetText)

        var data: [String: String] = [:]
        for (key, v) in try m.stringMap("data") {
            guard !isReservedDataKey(key) else { throw reservedDataKey("message.data", key) }
            data[key] = v
        }
        var title: String?, bodyText: String?, image: String?
        if let n = try m.object("notification", type: "google.firebase.fcm.v1.Notification", known: notificationFields)
        {
            title = try n.string("title")
            bodyText = try n.string("body")
            image = try n.string("image")
        }
        if let o = try m.object("fcm_options", type: "google.firebase.fcm.v1.FcmOptions", known: ["analytics_label"]) {
            try checkLabel(o)
        }
        let android = try parseAndroid(m)
        try checkWebpush(m)

        var headers: [String: String] = [:]
        var payload: [String: JSONValue]?
        var apnsImage: String?
        var liveActivityToken: String?
        if let a = try m.object("apns", type: "google.firebase.fcm.v1.ApnsConfig", known: apnsFields) {
            for (k, v) in try a.stringMap("headers") { headers[k] = v }
            if let p = a["payload"] {
                guard case .object(let o) = p else {
                    throw ProtoObject.invalidValue(
                        "message.apns.payload", "type.googleapis.com/google.protobuf.Struct", p)
                }
                if let aps = o["aps"], aps.objectValue == nil {
                    throw FCMErrorResponse.invalid(
                        "message.apns.payload", "Invalid APNs payload: 'aps' must be a JSON object.")
                }
                payload = o
            }
            if let o = try a.object(
                "fcm_options", type: "google.firebase.fcm.v1.ApnsFcmOptions", known: apnsOptionFields)
            {
                try checkLabel(o)
                apnsImage = try o.string("image")
            }
            liveActivityToken = try a.string("live_activity_token")
        }
        return FCMMessage(
            target: target, data: data, notificationTitle: title, notificationBody: bodyText, notificationImage: image,
            apnsHeaders: headers, apnsPayload: payload, apnsImage: apnsImage, liveActivityToken: liveActivityToken,
            android: android, raw: value)
    }

    /// The target member `name` (`token`, `topic`, `condition` or `fid`) holding `text`, by its rules.
    static func target(name: String, text: String) throws(FCMErrorResponse) -> FCMTarget {
        switch name {
        case "token":
            guard !text.isEmpty else { throw invalidToken() }
            return .token(text)
        case "fid":
            guard !text.isEmpty else { throw invalidToken() }
            return .fid(text)
        case "topic":
            let topic = text.hasPrefix("/topics/") ? String(text.dropFirst(8)) : text
            guard isValidTopicName(topic) else {
                throw FCMErrorResponse.invalid(
                    "message.topic", "Invalid topic name '\(text)'. Topic names must match [a-zA-Z0-9-_.~%]+.")
            }
            return .topic(topic)
        default:
            do { return .condition(try FCMCondition.parse(text), text: text) } catch {
                throw FCMErrorResponse.invalid("message.condition", error.description)
            }
        }
    }

    /// INVALID_ARGUMENT for a token that is not an FCM registration token (error-codes doc, example 2).
    /// A token (or `fid`) that is not one: the FcmError alone, as the error-codes page's example 2 shows it (no
    /// BadRequest; Tests/reference/fcm.md §12).
    static func invalidToken() -> FCMErrorResponse {
        FCMErrorResponse(.invalidArgument, message: "The registration token is not a valid FCM registration token")
    }

    static func checkLabel(_ o: ProtoObject) throws(FCMErrorResponse) {
        if let label = try o.string("analytics_label"), !isValidAnalyticsLabel(label) {
            throw FCMErrorResponse.invalid(
                o.child("analytics_label"), "Analytics label must match ^[a-zA-Z0-9-_.~%]{1,50}$.")
        }
    }

    /// A reserved key in `data` or `android.data`.
    static func reservedDataKey(_ field: String, _ key: String) -> FCMErrorResponse {
        FCMErrorResponse.invalid(
            field,
            "Invalid data payload key: \(key). Keys 'from', 'message_type' and keys starting with 'google' or 'gcm' are reserved."
        )
    }

    static func checkWebpush(_ m: ProtoObject) throws(FCMErrorResponse) {
        guard let w = try m.object("webpush", type: "google.firebase.fcm.v1.WebpushConfig", known: webpushFields) else {
            return
        }
        _ = try w.stringMap("headers")
        _ = try w.stringMap("data")
        if let n = w["notification"], n.objectValue == nil {
            throw ProtoObject.invalidValue(w.child("notification"), "type.googleapis.com/google.protobuf.Struct", n)
        }
        if let o = try w.object(
            "fcm_options", type: "google.firebase.fcm.v1.WebpushFcmOptions", known: ["link", "analytics_label"])
        {
            try checkLabel(o)
            if let link = try o.string("link"), !link.lowercased().hasPrefix("https://") {
                throw FCMErrorResponse.invalid(o.child("link"), "The link must use HTTPS.")
            }
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
