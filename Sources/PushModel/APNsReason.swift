/// Every `reason` string in Apple's "Handling notification responses from APNs" table, with its
/// HTTP status. `rawValue` is Apple's exact string.
package enum APNsReason: String, Sendable, Hashable, CaseIterable, Codable, Error, CustomStringConvertible {
    // 400
    case badCollapseId = "BadCollapseId"
    case badDeviceToken = "BadDeviceToken"
    case badExpirationDate = "BadExpirationDate"
    case badMessageId = "BadMessageId"
    case badPriority = "BadPriority"
    case badTopic = "BadTopic"
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    case duplicateHeaders = "DuplicateHeaders"
    case idleTimeout = "IdleTimeout"
    case invalidPushType = "InvalidPushType"
    case missingDeviceToken = "MissingDeviceToken"
    case missingTopic = "MissingTopic"
    case payloadEmpty = "PayloadEmpty"
    case topicDisallowed = "TopicDisallowed"
    // 403
    case badCertificate = "BadCertificate"
    case badCertificateEnvironment = "BadCertificateEnvironment"
    case expiredProviderToken = "ExpiredProviderToken"
    case forbidden = "Forbidden"
    case invalidProviderToken = "InvalidProviderToken"
    case missingProviderToken = "MissingProviderToken"
    case unrelatedKeyIdInToken = "UnrelatedKeyIdInToken"
    case badEnvironmentKeyIdInToken = "BadEnvironmentKeyIdInToken"
    // 404
    case badPath = "BadPath"
    // 405
    case methodNotAllowed = "MethodNotAllowed"
    // 410
    case expiredToken = "ExpiredToken"
    case unregistered = "Unregistered"
    // 413
    case payloadTooLarge = "PayloadTooLarge"
    // 429
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    case tooManyRequests = "TooManyRequests"
    // 500
    case internalServerError = "InternalServerError"
    // 503
    case serviceUnavailable = "ServiceUnavailable"
    case shutdown = "Shutdown"

    /// The HTTP status APNs pairs with this reason.
    package var status: Int {
        switch self {
        case .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
            .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
            .missingTopic, .payloadEmpty, .topicDisallowed:
            return 400
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
            .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .expiredToken, .unregistered: return 410
        case .payloadTooLarge: return 413
        case .tooManyProviderTokenUpdates, .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .shutdown: return 503
        }
    }

    /// Apple: never retry these (fix the request or drop the token instead).
    var isRetryable: Bool {
        switch self {
        case .badDeviceToken, .deviceTokenNotForTopic, .forbidden, .expiredToken, .unregistered, .payloadTooLarge:
            return false
        default:
            return status == 429 || status >= 500
        }
    }

    /// What it means and what the sender should do.
    package var description: String {
        switch self {
        case .badCollapseId: return "apns-collapse-id is longer than 64 bytes; shorten it."
        case .badDeviceToken:
            return
                "The device token is not hex or not known for this environment; check sandbox vs production and stop sending to it."
        case .badExpirationDate: return "apns-expiration must be an integer UNIX time in seconds."
        case .badMessageId: return "apns-id must be a canonical lowercase UUID (8-4-4-4-12)."
        case .badPriority:
            return "apns-priority must be 1, 5 or 10 (background pushes 5 or 1, Live Activity pushes 5 or 10)."
        case .badTopic:
            return
                "apns-topic does not fit the push type or the credentials; use the bundle ID plus the push type's suffix."
        case .deviceTokenNotForTopic: return "The device token belongs to another topic (bundle ID)."
        case .duplicateHeaders: return "A header was sent more than once; send each apns-* header once."
        case .idleTimeout: return "The connection was idle too long; reconnect."
        case .invalidPushType:
            return "apns-push-type is not one of Apple's push types (alert, background, liveactivity, voip, …)."
        case .missingDeviceToken: return "The :path has no device token after /3/device/."
        case .missingTopic: return "apns-topic is required (always with token auth, or with a multi-topic certificate)."
        case .payloadEmpty: return "The body is empty or not a JSON object; send a JSON object such as {\"aps\":{...}}."
        case .topicDisallowed:
            return
                "These credentials may not push to this topic (certificates: never to location, liveactivity or fileprovider)."
        case .badCertificate:
            return "The client certificate is not trusted, revoked or expired; use a valid APNs certificate."
        case .badCertificateEnvironment:
            return "The client certificate is for the other environment (sandbox vs production)."
        case .expiredProviderToken: return "The JWT's iat is more than one hour old; sign a new token."
        case .forbidden: return "The action is not allowed."
        case .invalidProviderToken:
            return "The JWT is malformed, not ES256, signed with an unknown key, badly signed or for another team."
        case .missingProviderToken: return "No 'authorization: bearer <JWT>' header and no client certificate."
        case .unrelatedKeyIdInToken:
            return
                "The JWT's key ID is not related to the key bound by this connection's first push; open a new connection."
        case .badEnvironmentKeyIdInToken: return "The JWT's key is scoped to the other environment."
        case .badPath:
            return
                "The :path is not one of APNs's: /3/device/<token> for a push, /4/broadcasts/apps/<bundle id> for a broadcast."
        case .methodNotAllowed: return "Only POST is supported."
        case .expiredToken: return "The device token has expired; stop sending to it."
        case .unregistered: return "The device token is no longer active for the topic; stop sending to it."
        case .payloadTooLarge: return "The payload exceeds 4096 bytes (5120 for VoIP)."
        case .tooManyProviderTokenUpdates:
            return "The provider token changed less than 20 minutes after the previous change on this connection."
        case .tooManyRequests: return "Too many requests in a row to this device token; slow down."
        case .internalServerError: return "Internal server error; retry later with backoff."
        case .serviceUnavailable: return "The service is unavailable; retry later with backoff."
        case .shutdown: return "The APNs server is shutting down; reconnect and retry."
        }
    }
}
