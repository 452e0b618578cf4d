import APNsGateway
import Foundation
import HTTPServer
import HTTPTypes
import PushCrypto
import PushModel

extension FCMGateway {
    /// What a send resolved to before delivery: the token's record (`token`, `entry`).
    typealias Recipient = TokenRecord

    /// `POST /v1/projects/{p}/messages:send`. Order: auth (bearer, scopes, project) → body rules → faults →
    /// target (token state, sender, an Android instance's restricted package) → APNs header and payload rules →
    /// quota → validate_only stops here → APNs for iOS instances, the Android consumer for Android ones.
    func send(_ request: HTTPRequest, projectPath: String) -> HTTPResponse {
        let now = clock.now()
        // An optional, so that the log's ring swaps it in (and the entry it drops out) without a copy.
        var entry: FCMLogEntry? = FCMLogEntry(receivedAt: now, method: request.method, path: request.path)
        let response: HTTPResponse
        do {
            let result = try sendChecked(request, projectPath: projectPath, now: now, log: &entry!)
            entry!.nameStorage = .issued(result)
            response = Self.nameResponse(result)
        } catch {
            entry!.status = error.status
            entry!.errorCode = error.errorCode?.rawValue ?? error.canonical
            entry!.fcmErrorDetail = error.errorCode != nil
            entry!.errorMessage = error.message
            response = error.response
        }
        appendLog(swapping: &entry)  // `entry` now holds the dropped entry (if any), freed here
        return response
    }

    /// `now`: when the request arrived (one clock reading per send: authorization, quota, message id, log).
    func sendChecked(_ request: HTTPRequest, projectPath: String, now: Date, log: inout FCMLogEntry)
        throws(FCMErrorResponse) -> FCMMessageName
    {
        let runtime = self.runtime(projectPath)
        // `authorize`'s checks, in its order, on the shared objects (no copy of the project or the token).
        let issued = try issuedToken(request)
        guard issued.value.expiresAt > now else { throw .invalidCredentials(expired: true) }
        guard issued.allowsMessaging else { throw .insufficientScopes }
        guard let runtime, issued.allows(id: runtime.id, number: runtime.number) else {
            throw .permissionDenied(project: projectPath)
        }
        log.project = runtime.id
        // The usual token send: translated from the body's bytes (no `FCMMessage`).
        if let direct = FCMDirectSend.read(request.body),
            let name = try sendDirect(direct, body: request.body, runtime: runtime, now: now, log: &log)
        {
            return name
        }
        // Taken apart, not copied: a local copy of `message` retained every field, then released `send`'s.
        let (validateOnly, message) = try FCMMessageRules.parseSendBodyParts(request.body)
        log.validateOnly = validateOnly
        log.requestStorage = .send(message.rawStorage, validateOnly: validateOnly)
        try FCMMessageRules.refuseUnmodelled(message)

        if let fault = takeFault(for: message.target) { throw fault.answer(to: message.target, projectID: runtime.id) }
        var recipients = try resolve(message.target, projectID: runtime.id)
        if let instance = recipients.first?.entry.android, !message.target.isFanOut,
            !Self.restrictedPackageAllows(message, instance)
        {
            throw Self.restrictedPackageMismatch(message, instance)
        }
        if recipients.contains(where: { $0.entry.android != nil }) {
            recipients.removeAll { r in
                r.entry.android.map { !Self.restrictedPackageAllows(message, $0) } ?? false
            }
        }

        // Size: FCM's count of what the recipient's platform receives (`FCMMessageSize`); a fan-out, before it
        // knows its recipients, by the largest platform's.
        let limit =
            message.target.isFanOut ? FCMMessageRules.maxTopicPayloadBytes : FCMMessageRules.maxPayloadBytes
        if request.body.count > limit / Self.maxSizeGrowth {
            try Self.checkSize(message, recipient: recipients.first.map { FCMPlatform($0.entry) })
        }
        // apns.headers and the translated payload, by the APNs gateway's own rules, once: on the first recipient's
        // translation, which a token send then delivers as validated (the gateway does not run them again).
        let name = nextMessageName(runtime, fanOut: message.target.isFanOut, now: now)
        let messageID = FCMTranslation.MessageID.micros(name.micros)
        let first = recipients.first
        let translated = FCMTranslation.translatedFields(
            message, messageID: messageID, senderID: runtime.number, fid: first?.entry.fid,
            bundleID: first?.entry.bundleID ?? "com.example.app")
        var validated = apnsPush(
            translated, token: first?.entry.apnsToken ?? Self.placeholderToken, path: first?.apnsPath,
            runtime: runtime)
        try Self.checkTranslation(&validated, toIOSInstance: first?.entry.apnsToken != nil)
        try checkQuota(runtime, recipients: recipients, target: message.target, now: now, counting: !validateOnly)

        if validateOnly { return name }
        // Moved (not copied) into the first recipient's delivery.
        var firstPush: APNsPushRequest? = consume validated
        for (i, r) in recipients.enumerated() {
            if let instance = r.entry.android {
                deliverAndroid(
                    message, to: r, instance: instance, project: runtime.project, name: name.text, now: now,
                    log: &log)
                continue
            }
            guard let apnsToken = r.entry.apnsToken else { continue }  // not an iOS instance: nothing goes to APNs
            let hopError: FCMErrorResponse?
            if i == 0, let push = firstPush.take() {
                hopError = deliver(push, to: r, apnsToken: apnsToken, runtime: runtime, now: now, log: &log)
            } else {
                let push = apnsPush(
                    FCMTranslation.translatedFields(
                        message, messageID: messageID, senderID: runtime.number, fid: r.entry.fid,
                        bundleID: r.entry.bundleID ?? ""), token: apnsToken, path: r.apnsPath, runtime: runtime)
                hopError = deliver(push, to: r, apnsToken: apnsToken, runtime: runtime, now: now, log: &log)
            }
            // A token send reports APNs' verdict; a fan-out was accepted already and its failures only show in the log.
            if let hopError, !message.target.isFanOut { throw hopError }
        }
        if recipients.contains(where: { $0.entry.apnsToken != nil }), runtime.apnsEnvironment == nil,
            !message.target.isFanOut
        {
            throw FCMErrorResponse(.thirdPartyAuthError)
        }
        return name
    }

    /// The token(s) a target reaches, or the error the target itself earns.
    func resolve(_ target: FCMTarget, project: FCMProject) throws(FCMErrorResponse) -> [Recipient] {
        try resolve(target, projectID: project.id)
    }

    /// `resolve(_:project:)` by the project's id.
    func resolve(_ target: FCMTarget, projectID: String) throws(FCMErrorResponse) -> [Recipient] {
        switch target {
        case .token(let token), .fid(let token):
            let isFID: Bool
            if case .fid = target { isFID = true } else { isFID = false }
            let record: TokenRecord? = state.withLock { s in
                if isFID { return s.tokens.values.first { $0.entry.fid == token } }
                return s.record(token)
            }
            guard let record else {
                if isFID {
                    guard Self.looksLikeFID(token) else { throw FCMMessageRules.invalidToken() }
                } else {
                    guard Self.looksLikeRegistrationToken(token) else { throw FCMMessageRules.invalidToken() }
                }
                throw FCMErrorResponse(.unregistered)
            }
            guard record.project == projectID else { throw FCMErrorResponse(.senderIDMismatch) }
            guard !record.entry.unregistered else { throw FCMErrorResponse(.unregistered) }
            return [record]
        case .topic(let topic):
            return subscribers(projectID: projectID) { $0.contains(topic) }
        case .condition(let condition, _):
            return subscribers(projectID: projectID) { condition.matches($0) }
        }
    }

    func subscribers(projectID: String, where match: (Set<String>) -> Bool) -> [Recipient] {
        state.withLock { s in
            s.tokens.values.filter {
                $0.project == projectID && !$0.entry.unregistered && match(s.subscriptions[$0.entry.token] ?? [])
            }
        }.sorted { $0.token < $1.token }
    }

    /// An FCM registration token has the shape `<instance id>:<base64url>` (e.g. `fGw0qy4TGgk:APA91b…`).
    static func looksLikeRegistrationToken(_ s: String) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count >= 8, parts[1].count >= 20 else { return false }
        return s.utf8.allSatisfy { isBase64URLByte($0) || $0 == UInt8(ascii: ":") }
    }

    /// A Firebase installation ID: 22 base64url characters.
    static func looksLikeFID(_ s: String) -> Bool { s.utf8.count == 22 && s.utf8.allSatisfy(isBase64URLByte) }

    static func isBase64URLByte(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: "_")
    }

    /// What `payloadSize` counts is parts of the request body: decoded strings are never longer than their JSON
    /// text, and `apns.payload` serializes to at most 4 times its text (`8e15` prints as 16 digits, `\b` as
    /// `\u0008`). A body of at most limit ÷ 8 therefore cannot be too big, and the exact count (which serializes
    /// the payload again) is skipped for it (the usual send).
    static let maxSizeGrowth = 8

    /// FCM's size rule: the count of what the recipient's platform receives (`FCMMessageSize`) against 4096 bytes;
    /// a fan-out (or a send with no recipient), before it knows its recipients, by the largest platform's against
    /// 2048 (a topic or condition) or 4096. The send path and `FCMDeviceDelivery` (check-payload) both run it.
    static func checkSize(_ message: FCMMessage, recipient: FCMPlatform?) throws(FCMErrorResponse) {
        let limit =
            message.target.isFanOut ? FCMMessageRules.maxTopicPayloadBytes : FCMMessageRules.maxPayloadBytes
        let size =
            message.target.isFanOut || recipient == nil
            ? FCMMessageSize.largestCount(message) : FCMMessageSize.count(message, for: recipient!)
        if size > limit { throw messageTooBig }
    }

    /// The APNs gateway's own rules on the translated request (headers from `apns.headers`, the translated payload's
    /// size against its push type's limit). APNs' 4 KB limit is on the payload an iOS instance gets: nothing to
    /// exceed for the others.
    static func checkTranslation(_ push: inout APNsPushRequest, toIOSInstance: Bool) throws(FCMErrorResponse) {
        guard let r = APNsRequestValidation.validate(&push) else { return }
        if r != .payloadTooLarge { throw apnsHeaderError(r) }
        if toIOSInstance { throw messageTooBig }
    }

    /// The largest of `FCMMessageSize`'s per-platform counts (what a topic send is held to).
    static func payloadSize(_ m: FCMMessage) -> Int { FCMMessageSize.largestCount(m) }

    /// Over FCM's size limit, or (for an iOS instance) over APNs' on the translated payload.
    static var messageTooBig: FCMErrorResponse {
        FCMErrorResponse.invalid("message", "Message is too big", message: "Message is too big")
    }

    static func apnsHeaderError(_ r: APNsReason) -> FCMErrorResponse {
        FCMErrorResponse.invalid("message.apns.headers", "Invalid APNs headers: \(r.rawValue) (\(r.description))")
    }

    func takeFault(for target: FCMTarget) -> FCMFault? {
        guard faultCount.load(ordering: .acquiring) > 0 else { return nil }
        var token: String?
        if case .token(let t) = target { token = t }
        return state.withLock { s in
            guard let i = s.faults.firstIndex(where: { $0.token == nil || $0.token == token }) else { return nil }
            let f = s.faults[i]
            if let r = f.remaining {
                if r <= 1 { s.faults.remove(at: i) } else { s.faults[i].remaining = r - 1 }
                faultCount.store(s.faults.count, ordering: .releasing)
            }
            return f
        }
    }

    /// Per-device and per-project sliding one-minute windows; a rejected send does not count (as Google's 429s), nor
    /// does a dry run (`counting` false: `validate_only` sends no message, and quotas count messages, reference/fcm.md
    /// §5), which is still answered 429 while a window is full (`Tests/reference/fcm.md` §8).
    func checkQuota(_ runtime: ProjectRuntime, recipients: [Recipient], target: FCMTarget, now: Date, counting: Bool)
        throws(FCMErrorResponse)
    {
        let quota = runtime.quota
        let projectID = runtime.id
        guard quota.perProjectPerMinute != nil || quota.perDevicePerMinute != nil else { return }  // no lock for no quota
        let cutoff = now.addingTimeInterval(-60)
        let devices = target.isFanOut ? [] : recipients.map(\.token)
        let exceeded: (subject: String, retry: Int)? = state.withLock { s in
            // Every window is checked before any is written: a send refused for one device's quota was not sent, so
            // it uses no quota (it filled the project's window while refused).
            var projectWindow: [Date]?
            if let limit = quota.perProjectPerMinute {
                let w = s.projectSends[projectID, default: []].filter { $0 > cutoff }
                if w.count >= limit {
                    return ("projects/\(projectID)", max(1, Int((w[0].timeIntervalSince(cutoff)).rounded(.up))))
                }
                projectWindow = w
            }
            var deviceWindows: [(device: String, window: [Date])] = []
            if let limit = quota.perDevicePerMinute {
                for d in devices {
                    let w = s.deviceSends[d, default: []].filter { $0 > cutoff }
                    if w.count >= limit { return (d, max(1, Int((w[0].timeIntervalSince(cutoff)).rounded(.up)))) }
                    deviceWindows.append((d, w))
                }
            }
            guard counting else { return nil }
            if var w = projectWindow {
                w.append(now)
                s.projectSends[projectID] = w
            }
            for (d, var w) in deviceWindows {
                w.append(now)
                s.deviceSends[d] = w
            }
            return nil
        }
        if let exceeded {
            var e = FCMErrorResponse(.quotaExceeded)
            e.quotaViolations = [.init(field: exceeded.subject, description: FCMErrorResponse.quotaDescription)]
            e.retryAfter = exceeded.retry
            throw e
        }
    }

    /// A message's id and `name` as FCM forms them: `projects/p/messages/0:1500415314455276%31bd1c9631bd1c96` for
    /// token targets (Google's example, `reference/fcm.md`), `projects/p/messages/<id>` for topics and conditions.
    /// The id (also the payload's `gcm.message_id`) is microseconds since the epoch on the world clock, so it moves
    /// with a suite's `clock:`, and is never less than one past the last issued, so it stays unique when the clock
    /// stands still or goes back (`reset()` keeps it). After `%`: 16 hex digits fixed per project (how FCM derives
    /// its suffix is unknown; it repeats one 8-digit group, as here).
    func nextMessageName(_ runtime: ProjectRuntime, fanOut: Bool, now: Date) -> FCMMessageName {
        let micros = UInt64((max(0, now.timeIntervalSince1970) * 1_000_000).rounded(.down))
        var last = lastMessageMicros.load(ordering: .relaxed)
        var issued: UInt64
        while true {
            issued = max(micros, last &+ 1)
            let (exchanged, seen) = lastMessageMicros.compareExchange(
                expected: last, desired: issued, ordering: .relaxed)
            if exchanged { break }
            last = seen
        }
        return FCMMessageName(runtime: runtime, micros: issued, fanOut: fanOut)
    }

    /// 16 lowercase hex digits: an FNV-1a hash of the project number, twice (made once per project).
    static func messageSuffix(project: FCMProject) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in project.number.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            let d = digits[Int(hash >> UInt32(28 - 4 * i) & 0xF)]
            hex[i] = d
            hex[i + 8] = d
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Stands in for the device token when validating a send no recipient of which has one (the rules need a token).
    static let placeholderToken = DeviceToken(hex: "00")!

    /// The APNs push FCM sends for `translated` to `token`, over the project's connection (no provider token yet).
    func apnsPush(
        _ translated: (fields: [HTTPField], payload: [UInt8]), token: DeviceToken, path: String? = nil,
        runtime: ProjectRuntime
    ) -> APNsPushRequest {
        var push = APNsPushRequest(
            environment: runtime.apnsEnvironment ?? .sandbox, token: token, path: path,
            fields: translated.fields, payload: translated.payload,
            connection: runtime.connectionFacts)
        push.payloadWrittenAsJSONObject = true  // the translation writes one JSON object
        return push
    }

    /// Signs and pushes through the APNs gateway; the FCM error APNs' answer maps to, if any.
    func deliver(
        _ push: consuming APNsPushRequest, to r: Recipient, apnsToken: DeviceToken, runtime: ProjectRuntime,
        now: Date, log: inout FCMLogEntry
    ) -> FCMErrorResponse? {
        guard let environment = runtime.apnsEnvironment else {
            return FCMErrorResponse(.thirdPartyAuthError)
        }
        let signed = providerAuthorization(runtime, now: now)
        if let signed { push.setAuthorization(signed) }
        // Shared with the request, not copied: nothing changes them after this.
        let sentFields = push.loggedHeaders, payloadBytes = push.payload
        let outcome = apns.evaluate(consume push)
        var hop = FCMAPNsHop()  // filled in place: see `FCMAPNsHop.init()`
        hop.fcmToken = r.token
        hop.apnsToken = apnsToken.hex
        hop.environment = environment
        hop.sentFields = sentFields
        hop.signedWithLast = signed != nil
        hop.payloadBytes = payloadBytes
        hop.status = outcome.status
        hop.reason = outcome.reason
        hop.apnsID = outcome.apnsID
        log.appendHop(moving: &hop)
        guard outcome.status != 200 else { return nil }
        return FCMAPNsMapping.error(status: outcome.status, reason: outcome.reason)
    }

    /// `bearer <provider token>`: the project's provider token, signed with its .p8 key and reused for 30 minutes
    /// (`nil` for certificates: the connection carries the certificate). The header value is kept with it (one
    /// string for every send, not one per send).
    func providerAuthorization(_ runtime: ProjectRuntime, now: Date) -> String? {
        let cached = runtime.providerToken.withLock { token -> String? in
            guard let token, now.timeIntervalSince(token.issuedAt) < 30 * 60 else { return nil }
            return token.authorization
        }
        if let cached { return cached }
        guard case .token(let teamID, let keyID, let key)? = runtime.project.apns?.auth else { return nil }
        return runtime.providerToken.withLock { token -> String? in
            if let token, now.timeIntervalSince(token.issuedAt) < 30 * 60 { return token.authorization }
            guard
                let jwt = try? JWT.apnsProviderToken(
                    teamID: teamID, keyID: keyID, issuedAt: Int(now.timeIntervalSince1970), key: key)
            else { return nil }
            let authorization = "bearer \(jwt)"
            token = (authorization, now)
            return authorization
        }
    }
}
