import Foundation
import HTTPServer
import PushModel

/// The header facts of a request that passed the syntactic checks (no auth, no registry yet).
package struct APNsParsedRequest: Sendable, Equatable {
    package var token: DeviceToken
    /// The `apns-id` the client sent (lowercase), or `nil` (the gateway then generates one).
    package var apnsID: String?
    /// `apns-expiration` in UNIX seconds; `nil` when absent.
    package var expiration: Int64?
    package var priority: APNsPriority
    /// Whether `apns-priority` was sent (background pushes default to 5 when it is not).
    var priorityWasSent: Bool
    /// The push type sent, or the one implied by the topic suffix when the header is absent.
    package var pushType: APNsPushType
    package var pushTypeWasSent: Bool
    /// `apns-topic`, `nil` when absent (allowed only with a certificate).
    package var topic: String?
    package var collapseID: String?
    /// The `authorization` header, as sent.
    package var authorization: String?
    package var payload: [UInt8]
}

/// The syntactic request rules of the APNs provider API, free of I/O and state.
///
/// Check order (first failure wins):
/// 1. `:method` is `POST` → 405 MethodNotAllowed
/// 2. `:path` is `/3/device/<token>` → 404 BadPath; empty token → MissingDeviceToken; not even-length hex → BadDeviceToken
/// 3. a repeated `apns-*` or `authorization` header → DuplicateHeaders
/// 4. `apns-id` → BadMessageId, `apns-expiration` → BadExpirationDate, `apns-priority` → BadPriority,
///    `apns-push-type` → InvalidPushType, `apns-collapse-id` → BadCollapseId
/// Auth, topic and payload rules come after (see `APNsGateway.evaluate(_:)`).
package enum APNsRequestValidation {
    static let pathPrefix = "/3/device/"

    /// The device token part of `:path`, if the path has the `/3/device/` shape (query string ignored).
    static func tokenSegment(ofPath path: String) -> String? {
        // Byte-wise over contiguous UTF-8: Foundation's `contains` on String bridges to NSString, and
        // Substring.UTF8View indexing costs more per request than a buffer scan. Read in place when the String
        // is contiguous (always, for a request's path); `withUTF8` needs a mutable copy.
        if let segment = path.utf8.withContiguousStorageIfAvailable(tokenSegment(ofPathBytes:)) { return segment }
        var copy = path
        return copy.withUTF8(tokenSegment(ofPathBytes:))
    }

    private static func tokenSegment(ofPathBytes bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // The prefix compared with one `memcmp` (`elementsEqual` over a `String.UTF8View` walks it byte by
        // byte through the view's indexing).
        // `?` and `/` found by `memchr` (a byte loop per request over the 74-byte path before).
        let prefix: StaticString = "/3/device/"
        let n = prefix.utf8CodeUnitCount
        guard let base = bytes.baseAddress, bytes.count >= n else { return nil }
        let start = UnsafeRawPointer(base)
        let end = memchr(start, Int32(UInt8(ascii: "?")), bytes.count).map { start.distance(to: $0) } ?? bytes.count
        guard end >= n, memcmp(base, prefix.utf8Start, n) == 0 else { return nil }
        guard memchr(base + n, Int32(UInt8(ascii: "/")), end - n) == nil else { return nil }
        return String(decoding: UnsafeBufferPointer(start: base + n, count: end - n), as: UTF8.self)
    }

    /// Applies checks 1–4 above to a request a listener received.
    package static func parse(_ request: HTTPRequest) -> Result<APNsParsedRequest, APNsReason> {
        let segment = tokenSegment(ofPath: request.path)
        return parse(
            method: request.method, segment: segment, token: segment.flatMap { DeviceToken(hex: $0) },
            headers: APNsHeaderFields(request.headers), payload: request.body)
    }

    /// Applies checks 1–4 above to a push.
    package static func parse(_ push: APNsPushRequest) -> Result<APNsParsedRequest, APNsReason> {
        parse(
            method: push.method, segment: push.tokenSegment, token: push.token, headers: push.headers,
            payload: push.payload)
    }

    /// Checks 1–4, then (the topic present) the topic shape and the payload rules: what a caller that decides
    /// before sending runs (the FCM gateway, on its translation). On success the push carries the result
    /// (`validated`) and the gateway does not run these rules again.
    package static func validate(_ push: inout APNsPushRequest) -> APNsReason? {
        let parsed: APNsParsedRequest
        switch parse(push) {
        case .failure(let r): return r
        case .success(let p): parsed = p
        }
        if let topic = parsed.topic, let r = checkTopicShape(parsed, topic: topic) { return r }
        if let r = payloadRejection(
            parsed.payload, pushType: parsed.pushType, writtenAsJSONObject: push.payloadWrittenAsJSONObject)
        {
            return r
        }
        push.validated = parsed
        return nil
    }

    static func parse(
        method: String, segment: String?, token pathToken: DeviceToken?, headers h: APNsHeaderFields,
        payload: [UInt8]
    ) -> Result<APNsParsedRequest, APNsReason> {
        guard method == "POST" else { return .failure(.methodNotAllowed) }
        guard let segment else { return .failure(.badPath) }
        guard !segment.isEmpty else { return .failure(.missingDeviceToken) }
        guard let token = pathToken ?? DeviceToken(hex: segment) else { return .failure(.badDeviceToken) }

        if h.duplicate { return .failure(.duplicateHeaders) }

        var apnsID: String?
        if let id = h.apnsID {
            guard isCanonicalLowercaseUUID(id) else { return .failure(.badMessageId) }
            apnsID = id
        }
        var expiration: Int64?
        if let e = h.expiration {
            guard let v = Int64(e), v >= 0, e.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return .failure(.badExpirationDate)
            }
            expiration = v
        }
        var priority = APNsPriority.immediate
        let prioritySent = h.priority != nil
        if let p = h.priority {
            guard let v = APNsPriority(headerValue: p) else { return .failure(.badPriority) }
            priority = v
        }
        let topic = h.topic
        var pushType: APNsPushType
        let typeSent = h.pushType != nil
        if let t = h.pushType {
            guard let v = APNsPushType(rawValue: t) else { return .failure(.invalidPushType) }
            pushType = v
        } else {
            pushType = topic.flatMap { APNsPushType.impliedBy(topic: $0) } ?? impliedByPayload(payload)
        }
        if !prioritySent, pushType == .background { priority = .conserve }
        let collapse = h.collapseID
        if let c = collapse, c.utf8.count > 64 { return .failure(.badCollapseId) }

        return .success(
            APNsParsedRequest(
                token: token, apnsID: apnsID, expiration: expiration, priority: priority, priorityWasSent: prioritySent,
                pushType: pushType, pushTypeWasSent: typeSent, topic: topic, collapseID: collapse,
                authorization: h.authorization, payload: payload))
    }

    /// The push type of a request without `apns-push-type` whose topic has no suffix: `background` for a
    /// payload whose `aps` holds only `content-available: 1` (no alert, badge or sound), else `alert`.
    /// Apple calls the header "recommended" on iOS and several real clients cannot send it for every type
    /// (Tests/reference/apns.md §6.1, §9), so the type is read from the topic, then the payload, as PyPI's apns2
    /// does client-side. Parsed only on this path (most providers send the header), and only for a payload APNs could
    /// take as a background push: a larger one (up to the listener's 1 MiB, unauthenticated) is refused as too large
    /// whatever its type, and parsing it first would let anyone make the gateway parse megabytes per request.
    static func impliedByPayload(_ payload: [UInt8]) -> APNsPushType {
        guard payload.count <= APNsPushType.background.maxPayloadBytes, let json = try? JSONValue.parse(payload)
        else { return .alert }
        return APNsPushType.implied(byPayload: json)
    }

    /// Topic rules that need no credentials: a priority the push type does not take (`background` at 10,
    /// `liveactivity` at 1: `APNsPushType.allows`) → BadPriority; topic suffix must match the push type → BadTopic.
    package static func checkTopicShape(_ r: APNsParsedRequest, topic: String) -> APNsReason? {
        if !r.pushType.allows(r.priority) { return .badPriority }
        if r.pushType == .mdm { return nil }
        let suffix = r.pushType.topicSuffix
        if suffix.isEmpty {
            if APNsPushType.impliedBy(topic: topic) != nil { return .badTopic }
        } else {
            guard topic.hasSuffix(suffix), topic.count > suffix.count else { return .badTopic }
            // `.voip` must not be read from a `.voip-ptt` topic and vice versa.
            if APNsPushType.impliedBy(topic: topic) != r.pushType { return .badTopic }
        }
        return nil
    }

    /// Payload rules: empty → PayloadEmpty; over 4096 (5120 VoIP) → PayloadTooLarge;
    /// not a JSON object → PayloadEmpty (the closest reason Apple documents).
    package static func checkPayload(_ payload: [UInt8], pushType: APNsPushType) -> Result<JSONValue, APNsReason> {
        if let r = payloadRejection(payload, pushType: pushType) { return .failure(r) }
        guard let json = try? JSONValue.parse(payload) else { return .failure(.payloadEmpty) }
        return .success(json)
    }

    /// The same rules as `checkPayload`, without building the JSON value (what the gateway runs per request).
    /// `writtenAsJSONObject`: the caller wrote the payload itself as a JSON object (the FCM gateway's translation),
    /// so the grammar scan is skipped and only emptiness and size are checked.
    static func payloadRejection(_ payload: [UInt8], pushType: APNsPushType, writtenAsJSONObject: Bool = false)
        -> APNsReason?
    {
        if payload.isEmpty { return .payloadEmpty }
        if payload.count > pushType.maxPayloadBytes { return .payloadTooLarge }
        // The quick scan accepts the usual payload; anything it does not show plain gets the full grammar.
        if writtenAsJSONObject || PlainJSONObjectScan.accepts(payload) { return nil }
        return JSONValue.isValidObject(payload) ? nil : .payloadEmpty
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase hex.
    /// Read in place: a provider that sends `apns-id` sends it on every push (the check made an array of it).
    static func isCanonicalLowercaseUUID(_ s: String) -> Bool {
        let u = s.utf8
        guard u.count == 36 else { return false }
        var i = 0
        for c in u {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !((0x30...0x39).contains(c) || (0x61...0x66).contains(c)) {
                return false
            }
            i += 1
        }
        return true
    }

    /// A fresh lowercase UUID (version 4 format; unique within the process).
    static func newLowercaseUUID() -> String { APNsIDGenerator.next() }
}
