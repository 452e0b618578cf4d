import Foundation
import PushModel

/// A refusal on the broadcast send or the channel-management API: a reason of Apple's broadcast table, or one of
/// the device-token table that the same provider front end gives (`DuplicateHeaders`, and the JWT rules'
/// `UnrelatedKeyIdInToken`, `BadEnvironmentKeyIdInToken`, which the broadcast table does not list).
struct BroadcastRejection: Error, Equatable {
    var status: Int
    var reason: String

    init(_ r: APNsBroadcastReason) {
        status = r.status
        reason = r.rawValue
    }

    /// A reason of the device-token table (the reasons both tables list have the same status in each).
    init(deviceTokenReason r: APNsReason) {
        status = r.status
        reason = r.rawValue
    }
}

/// The request rules of broadcast sends and channel management that need no state: paths, header syntax and the
/// channel-creation body (Tests/reference/apns.md §8). Free of I/O.
enum BroadcastRules {
    static let broadcastPrefix = "/4/broadcasts/apps/"

    /// Whether `path` is meant for the broadcast route (then it is answered in the broadcast API's words).
    static func isBroadcastPath(_ path: String) -> Bool { path.hasPrefix("/4/broadcasts/") }

    /// The bundle ID of `/4/broadcasts/apps/<bundle id>` (query ignored); `nil`: not that shape (BadPath).
    static func broadcastBundleID(_ path: String) -> String? {
        let clean = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard clean.hasPrefix(broadcastPrefix) else { return nil }
        let rest = clean.dropFirst(broadcastPrefix.count)
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        return String(rest)
    }

    /// A channel-management route.
    enum ChannelRoute: Equatable {
        case create(bundleID: String)
        case read(bundleID: String)
        case delete(bundleID: String)
        case list(bundleID: String)

        var bundleID: String {
            switch self {
            case .create(let b), .read(let b), .delete(let b), .list(let b): return b
            }
        }
    }

    /// `POST|GET|DELETE /1/apps/<bundle id>/channels`, `GET /1/apps/<bundle id>/all-channels`. Another method
    /// on one of those paths → 405 MethodNotAllowed; any other path → 404 BadPath (Apple's table lists both;
    /// Tests/reference/apns.md §8.3, §8.4).
    static func channelRoute(method: String, path: String) -> Result<ChannelRoute, APNsBroadcastReason> {
        let clean = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = clean.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "1", parts[2] == "apps", !parts[3].isEmpty else {
            return .failure(.badPath)
        }
        let bundle = String(parts[3])
        switch (parts[4], method) {
        case ("channels", "POST"): return .success(.create(bundleID: bundle))
        case ("channels", "GET"): return .success(.read(bundleID: bundle))
        case ("channels", "DELETE"): return .success(.delete(bundleID: bundle))
        case ("all-channels", "GET"): return .success(.list(bundleID: bundle))
        case ("channels", _), ("all-channels", _): return .failure(.methodNotAllowed)
        default: return .failure(.badPath)
        }
    }

    /// `apns-id` or `apns-request-id`, when sent, must be a canonical lowercase UUID. Apple's broadcast table gives
    /// `BadMessageId` for an invalid `apns-id` and no reason for `apns-request-id`; pushcheck refuses both alike.
    static func checkIDs(_ h: APNsHeaderFields) -> APNsBroadcastReason? {
        for id in [h.apnsID, h.requestID] {
            if let id, !APNsRequestValidation.isCanonicalLowercaseUUID(id) { return .badMessageId }
        }
        return nil
    }

    /// `apns-channel-id`: present (`MissingChannelId`) and base64 of an allowed length (`BadChannelId`).
    static func checkChannelHeader(_ h: APNsHeaderFields) -> Result<String, APNsBroadcastReason> {
        guard let id = h.channelID, !id.isEmpty else { return .failure(.missingChannelId) }
        guard BroadcastChannelID.isValid(id) else { return .failure(.badChannelId) }
        return .success(id)
    }

    /// The header syntax of a broadcast send, before authentication (as on the device-token API):
    /// `apns-id`/`apns-request-id` → BadMessageId; `apns-priority` other than 1, 5, 10 → BadPriority;
    /// `apns-expiration` not an epoch time → BadExpirationDate; `apns-push-type` missing → MissingPushType, other
    /// than `liveactivity` → InvalidPushType (compared ignoring ASCII case: Apple writes it `LiveActivity` in the
    /// channel body and `liveactivity` in the header, and how APNs compares is not documented).
    static func checkSendHeaders(_ h: APNsHeaderFields) -> Result<SendHeaders, APNsBroadcastReason> {
        if let r = checkIDs(h) { return .failure(r) }
        var out = SendHeaders()
        if let p = h.priority {
            guard let v = APNsPriority(headerValue: p) else { return .failure(.badPriority) }
            out.priority = v
        }
        if let e = h.expiration {
            guard let v = Int64(e), v >= 0, e.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return .failure(.badExpirationDate)
            }
            out.expiration = v
        }
        guard let type = h.pushType else { return .failure(.missingPushType) }
        guard type.lowercased() == APNsPushType.liveactivity.rawValue else { return .failure(.invalidPushType) }
        return .success(out)
    }

    /// The headers of a broadcast send once their syntax passed.
    struct SendHeaders: Equatable {
        var priority = APNsPriority.immediate
        var expiration: Int64?
    }

    /// What APNs reads from a create body, and what it tolerated.
    struct ChannelConfig: Equatable {
        var policy: APNsMessageStoragePolicy
        /// Spellings APNs is not documented to accept, taken anyway (logged as the entry's `detail`).
        var warning: String?
    }

    /// The create body `{"message-storage-policy": 0|1, "push-type": "LiveActivity"}`, both required
    /// [A-CHM]: no body → PayloadEmpty; not a JSON object → BadRequestPayload; another key, or a policy missing or
    /// not 0/1 → BadRequestParams; `push-type` missing → MissingPushType, not LiveActivity → InvalidPushType.
    /// node-apn's README sends the policy as a string (`"1"`) and the type lower-case (`liveactivity`): accepted
    /// with a warning until a source shows APNs refuses them (Tests/reference/apns.md §8.4).
    static func channelConfig(_ body: [UInt8]) -> Result<ChannelConfig, APNsBroadcastReason> {
        if body.isEmpty { return .failure(.payloadEmpty) }
        guard case .object(let o)? = try? JSONValue.parse(body) else { return .failure(.badRequestPayload) }
        let keys = ["message-storage-policy", "push-type"]
        if o.keys.contains(where: { !keys.contains($0) }) { return .failure(.badRequestParams) }
        var warnings: [String] = []
        guard let type = o["push-type"] else { return .failure(.missingPushType) }
        switch type {
        case .string("LiveActivity"): break
        case .string(let t) where t.lowercased() == "liveactivity":
            warnings.append("push-type \"\(t)\" taken as \"LiveActivity\" (Apple documents only that spelling)")
        default: return .failure(.invalidPushType)
        }
        let policy: APNsMessageStoragePolicy
        switch o["message-storage-policy"] {
        case .number(let n)? where n == 0 || n == 1:
            policy = n == 0 ? .noMessageStored : .mostRecentMessageStored
        case .string(let t)? where t == "0" || t == "1":
            policy = t == "0" ? .noMessageStored : .mostRecentMessageStored
            warnings.append("message-storage-policy \"\(t)\" taken as the number \(t) (Apple documents a number)")
        default: return .failure(.badRequestParams)
        }
        return .success(
            ChannelConfig(policy: policy, warning: warnings.isEmpty ? nil : warnings.joined(separator: "; ")))
    }

    /// The body of a channel read: `{"message-storage-policy": 0|1, "push-type": "LiveActivity"}`.
    static func channelJSON(_ c: BroadcastChannel) -> JSONValue {
        ["message-storage-policy": .number(Double(c.storagePolicy.rawValue)), "push-type": "LiveActivity"]
    }
}
