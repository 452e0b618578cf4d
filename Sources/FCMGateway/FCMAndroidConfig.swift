import PushModel

/// `message.android` as the gateway acts on it: what becomes the
/// `AndroidMessage` an Android instance receives (Tests/reference/android.md §9, fcm.md §1.3).
package struct FCMAndroidConfig: Sendable, Equatable {
    package var collapseKey: String?
    package var priority: AndroidMessagePriority?
    package var ttlSeconds: Int64?
    var restrictedPackageName: String?
    /// `android.data` when it was sent: it replaces `Message.data` ("If present, it will override
    /// google.firebase.fcm.v1.Message.data", [G-API]).
    package var data: [String: String]?
    /// `android.notification` as sent (the top-level `notification` is merged under it when the message is built).
    package var notification: AndroidNotificationPayload?
    package var directBootOK: Bool
    package var analyticsLabel: String?

    package init(
        collapseKey: String? = nil, priority: AndroidMessagePriority? = nil, ttlSeconds: Int64? = nil,
        restrictedPackageName: String? = nil, data: [String: String]? = nil,
        notification: AndroidNotificationPayload? = nil, directBootOK: Bool = false, analyticsLabel: String? = nil
    ) {
        self.collapseKey = collapseKey
        self.priority = priority
        self.ttlSeconds = ttlSeconds
        self.restrictedPackageName = restrictedPackageName
        self.data = data
        self.notification = notification
        self.directBootOK = directBootOK
        self.analyticsLabel = analyticsLabel
    }
}

extension FCMMessageRules {
    static let notificationPriorities = [
        "PRIORITY_UNSPECIFIED", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_DEFAULT", "PRIORITY_HIGH", "PRIORITY_MAX",
    ]
    static let visibilities = ["VISIBILITY_UNSPECIFIED", "PRIVATE", "PUBLIC", "SECRET"]
    static let proxies = ["PROXY_UNSPECIFIED", "ALLOW", "DENY", "IF_PRIORITY_LOWERED"]
    static let androidPriorities = ["NORMAL", "HIGH"]

    /// A proto enum field of `o`: its value's name (`names` in number order, so a name's index is its number
    /// [G-API]), given as the name, the number, or the number in a string, as proto3 JSON parsers take them; only the
    /// numbers the enum defines (`Tests/reference/fcm.md` §11). `value`: what to read instead of `o[name]`.
    static func enumName(
        _ o: ProtoObject, _ name: String, _ names: [String], _ type: String, value: JSONValue? = nil
    ) throws(FCMErrorResponse) -> String? {
        guard let v = value ?? o[name] else { return nil }
        let number: Double?
        switch v {
        case .string(let s):
            if names.contains(s) { return s }
            number = Int32(s).map(Double.init)
        case .number(let d): number = d
        default: number = nil
        }
        guard let number, number.rounded() == number, number >= 0, number < Double(names.count) else {
            throw ProtoObject.invalidValue(o.child(name), "type.googleapis.com/google.firebase.fcm.v1.\(type)", v)
        }
        return names[Int(number)]
    }

    /// `message.android`. (`message.android_v2` never gets here: it is not a known message field, see
    /// `messageFields`.)
    static func parseAndroid(_ m: ProtoObject) throws(FCMErrorResponse) -> FCMAndroidConfig? {
        guard let a = try m.object("android", type: "google.firebase.fcm.v1.AndroidConfig", known: androidFields) else {
            return nil
        }
        var c = try commonAndroid(a)
        // firebase-admin-python 7.7.0 sends "high" / "normal" in lower case (`_messaging_encoder.py`), which the
        // service takes; the proto enum names and numbers are the standard proto3 JSON forms.
        if let p = a["priority"] {
            let sent: JSONValue = p == .string("high") ? "HIGH" : p == .string("normal") ? "NORMAL" : p
            let name = try enumName(a, "priority", androidPriorities, "AndroidMessagePriority", value: sent)
            c.priority = name == "HIGH" ? .high : .normal
        }
        if let n = try a.object(
            "notification", type: "google.firebase.fcm.v1.AndroidNotification", known: androidNotificationFields)
        {
            c.notification = try androidNotification(n)
        }
        return c
    }

    /// `AndroidConfig`'s delivery options (all but `priority` and `notification`).
    private static func commonAndroid(_ a: ProtoObject) throws(FCMErrorResponse) -> FCMAndroidConfig {
        var c = FCMAndroidConfig()
        c.collapseKey = try a.string("collapse_key")
        c.restrictedPackageName = try a.string("restricted_package_name")
        if a["data"] != nil {
            var data: [String: String] = [:]
            for (k, v) in try a.stringMap("data") {
                guard !isReservedDataKey(k) else { throw reservedDataKey(a.child("data"), k) }
                data[k] = v
            }
            c.data = data
        }
        c.directBootOK = try a.bool("direct_boot_ok") ?? false
        for flag in ["bandwidth_constrained_ok", "restricted_satellite_ok"] { _ = try a.bool(flag) }
        if let t = a["ttl"] {
            guard case .string(let s) = t, let seconds = durationSeconds(s) else {
                throw ProtoObject.invalidValue(a.child("ttl"), "type.googleapis.com/google.protobuf.Duration", t)
            }
            guard (0...maxTTLSeconds).contains(seconds) else {
                throw FCMErrorResponse.invalid(
                    a.child("ttl"), "TTL must be between 0 and \(maxTTLSeconds) seconds (28 days); got '\(s)'.")
            }
            c.ttlSeconds = seconds
        }
        if let o = try a.object(
            "fcm_options", type: "google.firebase.fcm.v1.AndroidFcmOptions", known: ["analytics_label"])
        {
            try checkLabel(o)
            c.analyticsLabel = try o.string("analytics_label")
        }
        return c
    }

    /// `AndroidNotification`, with the checks the Admin SDKs make before sending (color `#RRGGBB`, `*_loc_args` need
    /// their `*_loc_key`) [R-ADMIN], and proto3 JSON's for the enums, numbers and lists.
    private static func androidNotification(_ n: ProtoObject) throws(FCMErrorResponse) -> AndroidNotificationPayload {
        func strings(_ name: String) throws(FCMErrorResponse) -> [String] {
            guard let v = n[name] else { return [] }
            guard case .array(let items) = v else { throw ProtoObject.invalidValue(n.child(name), "TYPE_STRING", v) }
            var out: [String] = []
            for item in items {
                guard case .string(let s) = item else {
                    throw ProtoObject.invalidValue(n.child(name), "TYPE_STRING", item)
                }
                out.append(s)
            }
            return out
        }
        var p = AndroidNotificationPayload()
        p.title = try n.string("title")
        p.body = try n.string("body")
        p.icon = try n.string("icon")
        p.sound = try n.string("sound")
        p.tag = try n.string("tag")
        p.clickAction = try n.string("click_action")
        p.channelID = try n.string("channel_id")
        p.image = try n.string("image")
        p.ticker = try n.string("ticker")
        p.titleLocKey = try n.string("title_loc_key")
        p.bodyLocKey = try n.string("body_loc_key")
        p.titleLocArgs = try strings("title_loc_args")
        p.bodyLocArgs = try strings("body_loc_args")
        p.sticky = try n.bool("sticky") ?? false
        p.localOnly = try n.bool("local_only") ?? false
        p.defaultSound = try n.bool("default_sound") ?? false
        for flag in ["default_vibrate_timings", "default_light_settings", "bypass_proxy_notification"] {
            _ = try n.bool(flag)
        }
        p.notificationPriority = try enumName(
            n, "notification_priority", notificationPriorities, "AndroidNotification.NotificationPriority")
        p.visibility = try enumName(n, "visibility", visibilities, "AndroidNotification.Visibility")
        _ = try enumName(n, "proxy", proxies, "AndroidNotification.Proxy")
        if let v = n["notification_count"] {
            switch v {
            case .number(let d) where d.rounded() == d && abs(d) <= Double(Int32.max): p.notificationCount = Int(d)
            case .string(let s) where Int32(s) != nil: p.notificationCount = Int(s)
            default: throw ProtoObject.invalidValue(n.child("notification_count"), "TYPE_INT32", v)
            }
        }
        if let t = n["event_time"] {
            guard case .string(let s) = t, isTimestamp(s) else {
                throw ProtoObject.invalidValue(
                    n.child("event_time"), "type.googleapis.com/google.protobuf.Timestamp", t)
            }
            p.eventTime = s
        }
        for timing in try strings("vibrate_timings") where durationSeconds(timing) == nil {
            throw ProtoObject.invalidValue(
                n.child("vibrate_timings"), "type.googleapis.com/google.protobuf.Duration", .string(timing))
        }
        try checkLightSettings(n)
        if let color = try n.string("color") {
            guard color.utf8.count == 7, color.hasPrefix("#"), color.dropFirst().allSatisfy(\.isHexDigit) else {
                throw FCMErrorResponse.invalid(
                    n.child("color"), "android.notification.color must be in the form #RRGGBB")
            }
            p.color = color
        }
        if !p.titleLocArgs.isEmpty, p.titleLocKey == nil {
            throw FCMErrorResponse.invalid(
                n.child("title_loc_args"),
                "android.notification.title_loc_key is required when specifying title_loc_args")
        }
        if !p.bodyLocArgs.isEmpty, p.bodyLocKey == nil {
            throw FCMErrorResponse.invalid(
                n.child("body_loc_args"), "android.notification.body_loc_key is required when specifying body_loc_args")
        }
        return p
    }

    /// RFC 3339 as proto3 JSON writes a Timestamp: `2026-01-01T00:00:00Z`, optional fraction, `Z` or an offset.
    static func isTimestamp(_ s: String) -> Bool {
        let u = Array(s.utf8)
        func digits(_ r: Range<Int>) -> Bool {
            r.upperBound <= u.count && u[r].allSatisfy { (0x30...0x39).contains($0) }
        }
        guard u.count >= 20, digits(0..<4), u[4] == 0x2D, digits(5..<7), u[7] == 0x2D, digits(8..<10),
            u[10] == UInt8(ascii: "T"), digits(11..<13), u[13] == 0x3A, digits(14..<16), u[16] == 0x3A, digits(17..<19)
        else { return false }
        var i = 19
        if u[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < u.count, (0x30...0x39).contains(u[i]) { i += 1 }
            guard (1...9).contains(i - start) else { return false }
        }
        guard i < u.count else { return false }
        if u[i] == UInt8(ascii: "Z") { return i == u.count - 1 }
        guard u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-"), u.count - i == 6 else { return false }
        return digits(i + 1..<i + 3) && u[i + 3] == 0x3A && digits(i + 4..<i + 6)
    }
}
