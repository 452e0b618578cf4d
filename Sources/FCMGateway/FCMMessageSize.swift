import PushModel

/// The platform an FCM instance is, which decides what of a message it receives.
package enum FCMPlatform: String, CaseIterable {
    case iOS = "ios", android, web

    /// An Android instance has a package; an iOS one an APNs token or a bundle ID; the rest are web instances.
    package init(_ token: FCMRegisteredToken) {
        if token.android != nil {
            self = .android
        } else if token.apnsToken != nil || token.bundleID != nil {
            self = .iOS
        } else {
            self = .web
        }
    }
}

/// FCM's message-size count: "4096 bytes for most messages, or 2048 bytes for messages to topics", counting keys
/// and values (reference/fcm.md §1.4, the ErrorCode page). Google does not say which parts of the message it adds
/// up; pushcheck counts what the recipient's platform receives (README "Validation and errors"): data keys and
/// values, the notification text and image URL, and for iOS the `apns.payload` JSON. For Android `android.data`
/// replaces `data` ("If present, it will override google.firebase.fcm.v1.Message.data", reference/fcm.md §1.3,
/// Tests/reference/android.md §9) and `android.notification`'s text replaces the top-level one, so the two are
/// never added up.
enum FCMMessageSize {
    /// The count for an instance of `platform`.
    static func count(_ m: FCMMessage, for platform: FCMPlatform) -> Int {
        switch platform {
        case .iOS:
            var n = dataSize(m.data) + textSize(m.notificationTitle, m.notificationBody, m.notificationImage)
            if let p = m.apnsPayload { n += JSONValue.object(p).serializedBytes().count }  // small: one allocation
            return n
        case .android:
            let a = m.android
            let n = a?.notification
            return dataSize(a?.data ?? m.data)
                + textSize(
                    n?.title ?? m.notificationTitle, n?.body ?? m.notificationBody, n?.image ?? m.notificationImage)
        case .web:
            return dataSize(m.data) + textSize(m.notificationTitle, m.notificationBody, m.notificationImage)
        }
    }

    /// The count a topic or condition send is held to, before its fan-out: the largest of the platforms'.
    static func largestCount(_ m: FCMMessage) -> Int {
        FCMPlatform.allCases.map { count(m, for: $0) }.max() ?? 0
    }

    static func dataSize(_ data: [String: String]) -> Int {
        data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }

    static func textSize(_ parts: String?...) -> Int { parts.reduce(0) { $0 + ($1?.utf8.count ?? 0) } }
}
