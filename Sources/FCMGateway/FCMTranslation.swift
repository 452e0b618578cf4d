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

    /// The translation with its payload as JSON.
    public static func translate(
        _ m: FCMMessage, messageID: String, senderID: String, fid: String?, bundleID: String
    ) -> APNsPush {
        let t = translatedBytes(m, messageID: messageID, senderID: senderID, fid: fid, bundleID: bundleID)
        return APNsPush(headers: t.headers, payload: (try? JSONValue.parse(t.payload)) ?? .null)
    }

    /// The translation with its payload written as bytes (compact, keys sorted by their UTF-8 bytes: what
    /// `JSONValue.serializedBytes()` writes), without building the merged object: the send path's form.
    package static func translatedBytes(
        _ m: FCMMessage, messageID: String, senderID: String, fid: String?, bundleID: String
    ) -> (headers: [(name: String, value: String)], payload: [UInt8]) {
        // aps: notification's alert, then apns.payload's aps over it (an alert object merged key by key).
        var aps: [String: JSONValue] = [:]
        var alert: [String: JSONValue] = [:]
        if let t = m.notificationTitle { alert["title"] = .string(t) }
        if let b = m.notificationBody { alert["body"] = .string(b) }
        if !alert.isEmpty { aps["alert"] = .object(alert) }
        if case .object(let overrides)? = m.apnsPayload?["aps"] {
            for (k, v) in overrides {
                if k == "alert", case .object(let a) = v, case .object(var base)? = aps["alert"] {
                    for (ak, av) in a { base[ak] = av }
                    aps["alert"] = .object(base)
                } else {
                    aps[k] = v
                }
            }
        }

        // Top level: data, then apns.payload's other keys, then what FCM sets, each overriding a member of the same
        // name (the same name as a dictionary sees it: the first spelling stays, the last value counts).
        var members: [(key: String, value: Member)] = []
        var slots: [String: Int] = [:]
        let count = m.data.count + (m.apnsPayload?.count ?? 0) + 6
        members.reserveCapacity(count)
        slots.reserveCapacity(count)
        func set(_ key: String, _ value: Member) {
            if let i = slots[key] {
                members[i].value = value
            } else {
                slots[key] = members.count
                members.append((key, value))
            }
        }
        for (k, v) in m.data { set(k, .string(v)) }
        if let payload = m.apnsPayload {
            for (k, v) in payload where k != "aps" { set(k, .json(v)) }
        }
        set("aps", .json(.object(aps)))
        if let image = m.apnsImage ?? m.notificationImage { set("fcm_options", .json(["image": .string(image)])) }
        set("gcm.message_id", .string(messageID))
        set("google.c.sender.id", .string(senderID))
        if let fid { set("google.c.fid", .string(fid)) }
        set("google.c.a.e", .string("1"))
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }

        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(UInt8(ascii: "{"))
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(member.key, into: &out)
            out.append(UInt8(ascii: ":"))
            switch member.value {
            case .string(let s): JSONValue.writeString(s, into: &out)
            case .json(let v): v.write(into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))

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
        return (headers, out)
    }

    enum Member {
        case string(String)
        case json(JSONValue)
    }

    /// `content-available: 1` without anything the user sees.
    static func isBackground(_ aps: [String: JSONValue]) -> Bool {
        aps["content-available"]?.intValue == 1 && aps["alert"] == nil && aps["badge"] == nil && aps["sound"] == nil
    }

    /// The HTTP/2 request to APNs for `push` to `deviceTokenHex`, with a provider token.
    public static func request(_ push: APNsPush, deviceTokenHex: String, authorization: String?) -> HTTPRequest {
        request(headers: push.headers, payload: push.payload.serializedBytes(), deviceTokenHex: deviceTokenHex, authorization: authorization)
    }

    static func request(
        headers: [(name: String, value: String)], payload: [UInt8], deviceTokenHex: String, authorization: String?
    ) -> HTTPRequest {
        var fields: [HTTPField] = []
        fields.reserveCapacity(headers.count + 1)
        for h in headers { fields.append(HTTPField(h.name, h.value)) }
        if let authorization { fields.append(HTTPField("authorization", authorization)) }
        return HTTPRequest(
            version: .http2, method: "POST", path: "/3/device/\(deviceTokenHex)", scheme: "https", headers: fields, body: payload)
    }
}
