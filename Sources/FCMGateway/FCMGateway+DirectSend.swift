import APNsGateway
import Foundation
import HTTPServer
import PushModel

extension FCMGateway {
    /// `sendChecked` after authorization for a body `FCMDirectSend` read: the same steps in the same order, the
    /// APNs payload written from the body's bytes. `nil` (before anything is taken, counted or logged) when the
    /// token is an Android instance's: the message path then reads the body (restricted package, Android delivery).
    func sendDirect(
        _ send: FCMDirectSend, body: [UInt8], runtime: ProjectRuntime, now: Date, log: inout FCMLogEntry
    ) throws(FCMErrorResponse) -> FCMMessageName? {
        // `resolve`'s one look-up, made first (side-effect free) to choose the path.
        let found = state.withLock { $0.record(send.token) }
        if found?.entry.android != nil { return nil }
        log.validateOnly = send.validateOnly
        log.requestStorage = .send(.slice(body, send.messageRange), validateOnly: send.validateOnly)

        let target = FCMTarget.token(send.token)
        if let fault = takeFault(for: target) { throw fault.answer(to: target, projectID: runtime.id) }
        guard let record = found else {
            guard Self.looksLikeRegistrationToken(send.token) else { throw FCMMessageRules.invalidToken() }
            throw FCMErrorResponse(.unregistered)
        }
        guard record.project == runtime.id else { throw FCMErrorResponse(.senderIDMismatch) }
        guard !record.entry.unregistered else { throw FCMErrorResponse(.unregistered) }

        let name = nextMessageName(runtime, fanOut: false, now: now)
        let translated = send.translatedFields(
            body, messageID: name.micros, senderID: runtime.number, fid: record.entry.fid,
            bundleID: record.entry.bundleID ?? "com.example.app")
        var validated = apnsPush(
            translated, token: record.entry.apnsToken ?? Self.placeholderToken, path: record.apnsPath, runtime: runtime)
        if let r = APNsRequestValidation.validate(&validated) {
            // APNs' 4 KB limit is on the payload an iOS instance gets (bodies here are too small to reach it).
            if r != .payloadTooLarge { throw Self.apnsHeaderError(r) }
            if record.entry.apnsToken != nil { throw Self.messageTooBig }
        }
        if runtime.quota.perProjectPerMinute != nil || runtime.quota.perDevicePerMinute != nil {
            try checkQuota(runtime, recipients: [record], target: target, now: now, counting: !send.validateOnly)
        }

        if send.validateOnly { return name }
        guard let apnsToken = record.entry.apnsToken else { return name }  // not an iOS instance: nothing to APNs
        if let hopError = deliver(
            consume validated, to: record, apnsToken: apnsToken, runtime: runtime, now: now, log: &log)
        {
            throw hopError
        }
        if runtime.apnsEnvironment == nil { throw FCMErrorResponse(.thirdPartyAuthError) }
        return name
    }
}
