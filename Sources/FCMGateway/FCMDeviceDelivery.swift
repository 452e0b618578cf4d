import APNsGateway
import HTTPTypes
import PushModel

/// What an iOS app instance receives from a v1 message, and what FCM answers the send, by the send path's own rules
/// without a gateway or a registered token (`pushcheck check-payload --fcm`): `FCMMessageRules.parseMessage`, the
/// size rule (`FCMGateway.checkSize`), `FCMTranslation` and the APNs gateway's rules on the translated request
/// (`FCMGateway.checkTranslation`).
///
/// The parts that depend on the recipient are placeholders of their usual length: `gcm.message_id` 16 digits (an
/// issued id's microseconds), `google.c.sender.id` a 12-digit project number, and `google.c.fid` a 22-character
/// installation ID (a token the Firebase SDK registers is `<fid>:…`; a token without one gets 38 bytes fewer).
package struct FCMDeviceDelivery: Sendable {
    /// The APNs payload the app receives (nil: FCM refused the message before translating it).
    package var payload: [UInt8]?
    /// The translated request's `apns-push-type` (nil when it is not one APNs knows).
    package var pushType: APNsPushType?
    /// FCM's error for the send (nil: accepted). A message over the size rule still has its payload, to route.
    package var refusal: FCMErrorResponse?

    static let placeholderMessageMicros: UInt64 = 1_700_000_000_000_000
    static let placeholderSenderID = "123456789012"
    static let placeholderFID = "cPlaceholderInstallID0"
    /// The target a message without one is checked with (a token send: FCM's 4096-byte limit).
    static let placeholderToken = "check-payload"

    /// `message` is the v1 `message` object; without a target it is checked as a token send.
    package init(message value: JSONValue, bundleID: String) {
        var value = value
        if case .object(var fields) = value,
            !["token", "topic", "condition", "fid"].contains(where: { fields[$0] != nil })
        {
            fields["token"] = .string(Self.placeholderToken)
            value = .object(fields)
        }
        let message: FCMMessage
        do {
            message = try FCMMessageRules.parseMessage(value)
            try FCMMessageRules.refuseUnmodelled(message)
        } catch {
            refusal = error
            return
        }
        // A fan-out reaches iOS instances too: each gets this translation.
        do { try FCMGateway.checkSize(message, recipient: message.target.isFanOut ? nil : .iOS) } catch {
            refusal = error
        }
        let translated = FCMTranslation.translatedFields(
            message, messageID: .micros(Self.placeholderMessageMicros), senderID: Self.placeholderSenderID,
            fid: Self.placeholderFID, bundleID: bundleID)
        payload = translated.payload
        pushType = translated.fields.first { $0.name == "apns-push-type" }.flatMap { APNsPushType(rawValue: $0.value) }
        guard refusal == nil else { return }
        let token = DeviceToken(hex: String(repeating: "ab", count: 32))!
        var push = APNsPushRequest(
            environment: .sandbox, token: token, fields: translated.fields, payload: translated.payload,
            connection: APNsInProcessConnection(id: 0).facts)
        push.payloadWrittenAsJSONObject = true  // as the send path builds it
        do { try FCMGateway.checkTranslation(&push, toIOSInstance: true) } catch { refusal = error }
    }
}

extension FCMErrorResponse {
    /// One line: `400 INVALID_ARGUMENT: message` and the field a BadRequest names, when it says more.
    package var summary: String {
        var text = "\(status) \(canonical): \(message)"
        for v in fieldViolations where v.description != message || !v.field.isEmpty {
            text += v.description == message ? " (\(v.field))" : " (\(v.field): \(v.description))"
        }
        return text
    }
}
