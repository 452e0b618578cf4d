import Foundation
import PushModel

/// Where sends to Android instances go once FCM accepted them: the world's fleet of simulated Android phones
/// (Part B's `DeviceFleet`), or a test's recorder. Called on the send's thread, outside the gateway's locks.
package protocol FCMAndroidDeliveryConsumer: Sendable {
    /// One message for one Android instance; the answer is recorded in the log's Android hop.
    func deliverAndroid(_ message: AndroidMessage) -> FCMAndroidDisposition
}

/// What became of a message handed to the Android side (FCM has accepted it either way: the sender got 200).
package enum FCMAndroidDisposition: Sendable, Equatable {
    /// The device's SDK got it.
    case delivered
    /// Waiting: stored while the device is offline, deferred by Doze, waiting for the first unlock.
    case held(String)
    /// Lost on the way (TTL, a stopped app, the store's limit …).
    case dropped(String)
    /// No device holds the token (or no consumer is attached): accepted, nothing arrives.
    case noDevice

    package var status: String {
        switch self {
        case .delivered: "delivered"
        case .held: "held"
        case .dropped: "dropped"
        case .noDevice: "no-device"
        }
    }

    package var reason: String? {
        switch self {
        case .held(let r), .dropped(let r): r
        case .delivered, .noDevice: nil
        }
    }
}

/// One Android instance a send reached, and what the Android side did with it (the Android counterpart of
/// `FCMAPNsHop`).
package struct FCMAndroidHop: Sendable, Equatable {
    package var fcmToken: String
    package var message: AndroidMessage
    package var disposition: FCMAndroidDisposition

    package var json: JSONValue {
        let m = message
        var o: [String: JSONValue] = [
            "fcm_token": .string(fcmToken), "package": .string(m.packageName), "message_id": .string(m.messageID),
            "priority": .string(m.priority.rawValue), "ttl": .number(Double(m.ttlSeconds)),
            "direct_boot_ok": .bool(m.directBootOK),
            "bundle": .object(m.bundle(deliveredPriority: m.priority).mapValues(JSONValue.string)),
            "status": .string(disposition.status),
        ]
        if let k = m.collapseKey { o["collapse_key"] = .string(k) }
        if let r = disposition.reason { o["reason"] = .string(r) }
        return .object(o)
    }
}

extension FCMGateway {
    /// Sends to Android instances go to `consumer` from now on (nil: nobody; they are accepted and logged).
    package func setAndroidConsumer(_ consumer: (any FCMAndroidDeliveryConsumer)?) {
        androidConsumer.withLock { $0 = consumer }
    }

    /// The message an Android instance receives: `android.data` over `data`, `android.notification` over
    /// `notification` field by field ([G-API]: each "will override" the top-level one), the config's delivery options.
    static func androidMessage(
        _ m: FCMMessage, messageID: String, token: String, senderID: String, instance: FCMAndroidInstance, now: Date
    ) -> AndroidMessage {
        let a = m.android
        var notification = a?.notification
        if notification != nil || m.notificationTitle != nil || m.notificationBody != nil || m.notificationImage != nil
        {
            var n = notification ?? AndroidNotificationPayload()
            n.title = n.title ?? m.notificationTitle
            n.body = n.body ?? m.notificationBody
            n.image = n.image ?? m.notificationImage
            notification = n
        }
        return AndroidMessage(
            messageID: messageID, token: token, senderID: senderID, packageName: instance.packageName,
            collapseKey: a?.collapseKey, requestedPriority: a?.priority,
            ttlSeconds: a?.ttlSeconds ?? AndroidMessage.defaultTTLSeconds, sentAt: now, data: a?.data ?? m.data,
            notification: notification, directBootOK: a?.directBootOK ?? false, analyticsLabel: a?.analyticsLabel)
    }

    /// `android.restricted_package_name` must match the token's package: a token send to another app's instance is
    /// refused (INVALID_ARGUMENT, the ErrorCode page's "invalid package name"; the wording is [U]); a fan-out skips
    /// those instances ("Package name of the application where the registration token must match in order to
    /// receive the message", [G-API]).
    static func restrictedPackageAllows(_ m: FCMMessage, _ instance: FCMAndroidInstance) -> Bool {
        guard let wanted = m.android?.restrictedPackageName else { return true }
        return wanted == instance.packageName
    }

    static func restrictedPackageMismatch(_ m: FCMMessage, _ instance: FCMAndroidInstance) -> FCMErrorResponse {
        FCMErrorResponse.invalid(
            "message.android.restricted_package_name",
            "The registration token belongs to package \(instance.packageName), not to restricted_package_name "
                + "\(m.android?.restrictedPackageName ?? "")")
    }

    /// Hands the message to the Android consumer and logs the hop.
    func deliverAndroid(
        _ m: FCMMessage, to r: Recipient, instance: FCMAndroidInstance, project: FCMProject, name: String, now: Date,
        log: inout FCMLogEntry
    ) {
        let id = name.range(of: "/messages/").map { String(name[$0.upperBound...]) } ?? name
        let message = Self.androidMessage(
            m, messageID: id, token: r.token, senderID: project.number, instance: instance, now: now)
        let consumer = androidConsumer.withLock { $0 }
        let disposition = consumer?.deliverAndroid(message) ?? .noDevice
        log.android.append(FCMAndroidHop(fcmToken: r.token, message: message, disposition: disposition))
    }
}
