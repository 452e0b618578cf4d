import HTTPServer
import PushModel

/// How a v1 message becomes the APNs request FCM sends for an iOS instance (reference/fcm.md §2). Pure.
///
/// Payload: `data` keys at the top level; `notification.title/body` → `aps.alert {title, body}`;
/// `apns.payload` merged over that (its `aps` keys win, an `aps.alert` object merged key by key);
/// `apns.fcm_options.image` (else `notification.image`) → top-level `fcm_options.image`; FCM's keys
/// `gcm.message_id`, `google.c.sender.id`, `google.c.fid` (when the instance has one), `google.c.a.e` = `1`.
/// Headers: `apns.headers` as sent; `apns-topic` defaults to the app's bundle ID; `apns-push-type` defaults to
/// `background` when `aps` has `content-available: 1` and no alert/badge/sound, else `alert`;
/// `apns-priority` defaults to 5 for background pushes and 10 otherwise.
public enum FCMTranslation {
    /// The translated request: headers (without `authorization`) and the payload.
    public struct APNsPush: Sendable, Equatable {
        public var headers: [(name: String, value: String)]
        public var payload: JSONValue
        public static func == (a: APNsPush, b: APNsPush) -> Bool {
            a.payload == b.payload && a.headers.map { "\($0.name):\($0.value)" } == b.headers.map { "\($0.name):\($0.value)" }
        }
    }

    public static func translate(
        _ m: FCMMessage, messageID: String, senderID: String, fid: String?, bundleID: String
    ) -> APNsPush {
        var top: [String: JSONValue] = [:]
        for (k, v) in m.data { top[k] = .string(v) }
        var aps: [String: JSONValue] = [:]
        var alert: [String: JSONValue] = [:]
        if let t = m.notificationTitle { alert["title"] = .string(t) }
        if let b = m.notificationBody { alert["body"] = .string(b) }
        if !alert.isEmpty { aps["alert"] = .object(alert) }
        if let payload = m.apnsPayload {
            for (k, v) in payload where k != "aps" { top[k] = v }
            if case .object(let overrides)? = payload["aps"] {
                for (k, v) in overrides {
                    if k == "alert", case .object(let a) = v, case .object(var base)? = aps["alert"] {
                        for (ak, av) in a { base[ak] = av }
                        aps["alert"] = .object(base)
                    } else {
                        aps[k] = v
                    }
                }
            }
        }
        top["aps"] = .object(aps)
        if let image = m.apnsImage ?? m.notificationImage { top["fcm_options"] = ["image": .string(image)] }
        top["gcm.message_id"] = .string(messageID)
        top["google.c.sender.id"] = .string(senderID)
        if let fid { top["google.c.fid"] = .string(fid) }
        top["google.c.a.e"] = "1"

        var headers: [(String, String)] = []
        var sent: [String: String] = [:]
        for (k, v) in m.apnsHeaders.sorted(by: { $0.key < $1.key }) {
            sent[k.lowercased()] = v
            headers.append((k.lowercased(), v))
        }
        if sent["apns-topic"] == nil { headers.append(("apns-topic", bundleID)) }
        let background = isBackground(aps)
        if sent["apns-push-type"] == nil { headers.append(("apns-push-type", background ? "background" : "alert")) }
        let pushType = sent["apns-push-type"] ?? (background ? "background" : "alert")
        if sent["apns-priority"] == nil { headers.append(("apns-priority", pushType == "background" ? "5" : "10")) }
        return APNsPush(headers: headers, payload: .object(top))
    }

    /// `content-available: 1` without anything the user sees.
    static func isBackground(_ aps: [String: JSONValue]) -> Bool {
        aps["content-available"]?.intValue == 1 && aps["alert"] == nil && aps["badge"] == nil && aps["sound"] == nil
    }

    /// The HTTP/2 request to APNs for `push` to `deviceTokenHex`, with a provider token.
    public static func request(_ push: APNsPush, deviceTokenHex: String, authorization: String?) -> HTTPRequest {
        var fields = push.headers.map { HTTPField($0.name, $0.value) }
        if let authorization { fields.append(HTTPField("authorization", authorization)) }
        return HTTPRequest(
            version: .http2, method: "POST", path: "/3/device/\(deviceTokenHex)", scheme: "https", headers: fields,
            body: push.payload.serializedBytes())
    }
}
