import HTTPServer
import HTTPTypes
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
package enum FCMTranslation {
    /// A message id as `gcm.message_id` carries it: text, or an issued id's microseconds (written as digits,
    /// without a `String`: the send path's form).
    enum MessageID {
        case text(String)
        case micros(UInt64)
    }

    /// The translated request: headers (without `authorization`) and the payload.
    package struct APNsPush: Sendable, Equatable {
        package var headers: [(name: String, value: String)]
        package var payload: JSONValue
        package static func == (a: APNsPush, b: APNsPush) -> Bool {
            a.payload == b.payload
                && a.headers.map { "\($0.name):\($0.value)" } == b.headers.map { "\($0.name):\($0.value)" }
        }
    }

    /// The translation with its payload as JSON.
    static func translate(
        _ m: FCMMessage, messageID: String, senderID: String, fid: String?, bundleID: String
    ) -> APNsPush {
        let t = translatedBytes(m, messageID: messageID, senderID: senderID, fid: fid, bundleID: bundleID)
        return APNsPush(headers: t.headers, payload: (try? JSONValue.parse(t.payload)) ?? .null)
    }

    /// The translation with its payload written as bytes (compact, keys sorted by their UTF-8 bytes: what
    /// `JSONValue.serializedBytes()` writes), without building the merged objects: the send path's form.
    package static func translatedBytes(
        _ m: FCMMessage, messageID: String, senderID: String, fid: String?, bundleID: String
    ) -> (headers: [(name: String, value: String)], payload: [UInt8]) {
        let t = translatedFields(m, messageID: .text(messageID), senderID: senderID, fid: fid, bundleID: bundleID)
        return (t.fields.map { ($0.name, $0.value) }, t.payload)
    }

    /// `translatedBytes` with the headers as the APNs request's fields (the send path's form).
    static func translatedFields(
        _ m: FCMMessage, messageID: MessageID, senderID: String, fid: String?, bundleID: String
    ) -> (fields: [HTTPField], payload: [UInt8]) {
        // aps: notification's alert, then apns.payload's aps over it (an alert object merged key by key). "alert",
        // "title" and "body" are equal (as dictionary keys) only to themselves, so the merge is by name.
        let base = Alert(title: m.notificationTitle, body: m.notificationBody)
        var aps: [(key: String, value: Member)] = []
        var apsHasAlert = false
        if case .object(let overrides)? = m.apnsPayload?["aps"] {
            aps.reserveCapacity(overrides.count + 1)
            for (k, v) in overrides {
                if k == "alert" {
                    apsHasAlert = true
                    if case .object(let a) = v, !base.isEmpty {
                        var merged = a
                        if let t = base.title, merged["title"] == nil { merged["title"] = .string(t) }
                        if let b = base.body, merged["body"] == nil { merged["body"] = .string(b) }
                        aps.append((k, .json(.object(merged))))
                        continue
                    }
                }
                aps.append((k, .json(v)))
            }
        }
        if !apsHasAlert, !base.isEmpty {
            aps.append(("alert", .alert(base)))
            apsHasAlert = true
        }

        // Top level: data, apns.payload's other keys over it, then FCM's own keys over both (the spelling a
        // dictionary keeps is the first one inserted: a data key's, with the payload's value). "aps" is an FCM key.
        let payload = m.apnsPayload ?? [:]
        let payloadHasOthers = payload.count > (payload["aps"] == nil ? 0 : 1)
        let image = m.apnsImage ?? m.notificationImage
        func isFCMKey(_ k: String) -> Bool {
            switch k {
            case "aps", "gcm.message_id", "google.c.sender.id", "google.c.a.e": return true
            case "fcm_options": return image != nil
            case "google.c.fid": return fid != nil
            default: return false
            }
        }
        var top: [(key: String, value: Member)] = []
        top.reserveCapacity(m.data.count + payload.count + 6)
        for (k, v) in m.data where !isFCMKey(k) {
            if payloadHasOthers, let p = payload[k] { top.append((k, .json(p))) } else { top.append((k, .string(v))) }
        }
        if payloadHasOthers {
            for (k, v) in payload where !isFCMKey(k) && m.data[k] == nil { top.append((k, .json(v))) }
        }
        top.append(("aps", .nested))  // `aps`, written in place
        if let image { top.append(("fcm_options", .json(["image": .string(image)]))) }
        switch messageID {
        case .text(let id): top.append(("gcm.message_id", .string(id)))
        case .micros(let n): top.append(("gcm.message_id", .digits(n)))
        }
        top.append(("google.c.sender.id", .string(senderID)))
        if let fid { top.append(("google.c.fid", .string(fid))) }
        top.append(("google.c.a.e", .string("1")))
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(top, nested: aps, into: &out)

        // Room for the provider token's `authorization`, which the gateway adds.
        var headers: [HTTPField] = []
        headers.reserveCapacity(m.apnsHeaders.count + 4)
        var topicSent = false, pushTypeSent: String?, prioritySent = false
        for (k, v) in m.apnsHeaders.sorted(by: { $0.key < $1.key }) {
            let field = HTTPField(k.lowercased(), v)
            switch field.name {
            case "apns-topic": topicSent = true
            case "apns-push-type": pushTypeSent = v
            case "apns-priority": prioritySent = true
            default: break
            }
            headers.append(field)
        }
        if !topicSent { headers.append(HTTPField(lowercased: "apns-topic", bundleID)) }
        let background =
            APNsPushType.implied(
                contentAvailable: aps.contains { $0.key == "content-available" && $0.value.json?.intValue == 1 },
                apsHasKey: { key in aps.contains { $0.key == key } }) == .background
        if pushTypeSent == nil {
            headers.append(HTTPField(lowercased: "apns-push-type", background ? "background" : "alert"))
        }
        let pushType = pushTypeSent ?? (background ? "background" : "alert")
        if !prioritySent {
            headers.append(HTTPField(lowercased: "apns-priority", pushType == "background" ? "5" : "10"))
        }
        return (headers, out)
    }

    struct Alert {
        var title: String?
        var body: String?
        var isEmpty: Bool { title == nil && body == nil }
    }

    enum Member {
        case string(String)
        case json(JSONValue)
        case alert(Alert)
        /// The object given to `write(_:nested:into:)` as `nested`.
        case nested
        /// A string of decimal digits (an issued message id).
        case digits(UInt64)

        var json: JSONValue? { if case .json(let v) = self { return v } else { return nil } }
    }

    /// `{…}` of distinct members as `JSONValue.serializedBytes()` writes an object (keys sorted by their UTF-8
    /// bytes, values compact); a `.nested` member's value is `nested`'s object.
    static func write(
        _ members: [(key: String, value: Member)], nested: [(key: String, value: Member)] = [],
        into out: inout [UInt8]
    ) {
        out.append(UInt8(ascii: "{"))
        // The order as indices on the stack: moving the members themselves retains and releases their contents.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: members.count) { order in
            for n in 0..<members.count {
                var j = n
                while j > 0, keyBytesPrecede(members[n].key, members[order[j - 1]].key) {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = n
            }
            for n in 0..<members.count {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                write(members[order[n]], nested: nested, into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `"key":value`.
    static func write(
        _ member: (key: String, value: Member), nested: [(key: String, value: Member)], into out: inout [UInt8]
    ) {
        JSONValue.writeString(member.key, into: &out)
        out.append(UInt8(ascii: ":"))
        switch member.value {
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .json(let v): writeJSON(v, into: &out)
        case .nested: write(nested, into: &out)
        case .digits(let n):
            out.append(UInt8(ascii: "\""))
            FCMMessageName.withDigits(n) { out.append(contentsOf: $0) }
            out.append(UInt8(ascii: "\""))
        case .alert(let a):  // {"body":…,"title":…}
            out.append(UInt8(ascii: "{"))
            if let b = a.body {
                out.append(contentsOf: #""body":"#.utf8)
                JSONValue.writeString(b, into: &out)
            }
            if let t = a.title {
                if a.body != nil { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #""title":"#.utf8)
                JSONValue.writeString(t, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `v.write(into:)`, with objects sorted in place and integral numbers written without a `String`.
    static func writeJSON(_ v: JSONValue, into out: inout [UInt8]) {
        switch v {
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .number(let d) where d.isFinite && d.rounded() == d && abs(d) < 9.0e15:  // JSONValue.format's integers
            writeInteger(Int64(d), into: &out)
        case .object(let o):
            var members = o.map { (key: $0.key, value: $0.value) }
            sortByKeyBytes(&members)
            out.append(UInt8(ascii: "{"))
            for i in members.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(members[i].key, into: &out)
                out.append(UInt8(ascii: ":"))
                writeJSON(members[i].value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, e) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeJSON(e, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        default: v.write(into: &out)
        }
    }

    /// `String(n)`'s digits.
    static func writeInteger(_ n: Int64, into out: inout [UInt8]) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        var m = n.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, written backwards
        withUnsafeMutableBytes(of: &digits) { buf in
            var i = buf.count
            repeat {
                i -= 1
                buf[i] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
            } while m > 0
            out.append(contentsOf: buf[i...])
        }
    }

    /// Sorts members by their keys' UTF-8 bytes (the keys are distinct; objects here are small: insertion sort).
    static func sortByKeyBytes<V>(_ members: inout [(key: String, value: V)]) {
        guard members.count > 1 else { return }
        for i in 1..<members.count {
            var j = i
            while j > 0, keyBytesPrecede(members[j].key, members[j - 1].key) {
                members.swapAt(j, j - 1)
                j -= 1
            }
        }
    }

    /// `a.utf8.lexicographicallyPrecedes(b.utf8)`, on contiguous bytes.
    static func keyBytesPrecede(_ a: String, _ b: String) -> Bool {
        // In place (no copy of either string to make it contiguous: native strings are).
        let result = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in FCMDirectSend.precedes(x, y) }
        }
        return (result ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
