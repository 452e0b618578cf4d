/// Every `reason` in Apple's error table for broadcast pushes and channel management ("Handling error responses
/// from APNs", the broadcast page; Tests/reference/apns.md §8.3), with its HTTP status. `rawValue` is Apple's exact
/// string, `Service Unavailable` with its space included (the gateway itself answers 503 only through faults,
/// which name their reason). A separate table from `APNsReason`: it has reasons the device-token API lacks
/// (`FeatureNotEnabled`, `TopicMismatch`, the channel ones) and lacks some it has (`BadDeviceToken`, …).
package enum APNsBroadcastReason: String, Sendable, Hashable, CaseIterable, Error, CustomStringConvertible {
    // 400
    case featureNotEnabled = "FeatureNotEnabled"
    case missingChannelId = "MissingChannelId"
    case badChannelId = "BadChannelId"
    case channelNotRegistered = "ChannelNotRegistered"
    case badRequestParams = "BadRequestParams"
    case badRequestPayload = "BadRequestPayload"
    case payloadEmpty = "PayloadEmpty"
    case badMessageId = "BadMessageId"
    case missingPushType = "MissingPushType"
    case invalidPushType = "InvalidPushType"
    case cannotCreateChannelConfig = "CannotCreateChannelConfig"
    case badExpirationDate = "BadExpirationDate"
    case topicDisallowed = "TopicDisallowed"
    case badPriority = "BadPriority"
    // 403
    case badCertificate = "BadCertificate"
    case badCertificateEnvironment = "BadCertificateEnvironment"
    case topicMismatch = "TopicMismatch"
    case missingProviderToken = "MissingProviderToken"
    case expiredProviderToken = "ExpiredProviderToken"
    case invalidProviderToken = "InvalidProviderToken"
    // 404, 405, 413
    case badPath = "BadPath"
    case methodNotAllowed = "MethodNotAllowed"
    case payloadTooLarge = "PayloadTooLarge"
    // 429
    case tooManyRequests = "TooManyRequests"
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    // 500, 503
    case internalServerError = "InternalServerError"
    case serviceUnavailable = "Service Unavailable"
    case shutdown = "Shutdown"

    /// The HTTP status Apple pairs with this reason.
    package var status: Int {
        switch self {
        case .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .badRequestParams,
            .badRequestPayload, .payloadEmpty, .badMessageId, .missingPushType, .invalidPushType,
            .cannotCreateChannelConfig, .badExpirationDate, .topicDisallowed, .badPriority:
            return 400
        case .badCertificate, .badCertificateEnvironment, .topicMismatch, .missingProviderToken,
            .expiredProviderToken, .invalidProviderToken:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .payloadTooLarge: return 413
        case .tooManyRequests, .tooManyProviderTokenUpdates: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .shutdown: return 503
        }
    }

    /// What it means and what the sender should do (Apple's descriptions, shortened).
    package var description: String {
        switch self {
        case .featureNotEnabled:
            return "Broadcast is not enabled for this bundle ID (enable the capability on developer.apple.com)."
        case .missingChannelId: return "The apns-channel-id header is missing."
        case .badChannelId: return "apns-channel-id is not base64 or is longer than allowed."
        case .channelNotRegistered: return "No channel with this apns-channel-id exists in this environment."
        case .badRequestParams: return "The JSON body has an attribute APNs does not recognize, or a wrong value."
        case .badRequestPayload: return "The JSON body cannot be parsed."
        case .payloadEmpty: return "The request has no body."
        case .badMessageId: return "apns-id (or apns-request-id) must be a canonical lowercase UUID."
        case .missingPushType: return "The push type is missing (apns-push-type, or push-type in the body)."
        case .invalidPushType:
            return "The push type is wrong: broadcasts are liveactivity, channels are \"LiveActivity\"."
        case .cannotCreateChannelConfig: return "The app has reached its 10,000 channels in this environment."
        case .badExpirationDate:
            return "apns-expiration is not an epoch time, or is not 0 on a No Messages Stored channel."
        case .topicDisallowed: return "The bundle ID carries a push-type suffix; use the bare bundle ID."
        case .badPriority: return "apns-priority must be 1, 5 or 10."
        case .badCertificate: return "The client certificate is invalid."
        case .badCertificateEnvironment: return "The client certificate is for the other environment."
        case .topicMismatch:
            return "The bundle IDs of the token or certificate do not include the bundle ID in the path."
        case .missingProviderToken: return "No client certificate and no 'authorization: bearer <JWT>'."
        case .expiredProviderToken: return "The JWT's iat is more than one hour old."
        case .invalidProviderToken: return "The JWT is invalid."
        case .badPath: return "The method or path is not one of the broadcast or channel routes."
        case .methodNotAllowed: return "The method is not allowed on this path."
        case .payloadTooLarge: return "The payload is too large."
        case .tooManyRequests: return "Too many requests on this channel; slow down."
        case .tooManyProviderTokenUpdates: return "The provider token changed less than 20 minutes ago."
        case .internalServerError: return "Internal server error; retry later."
        case .serviceUnavailable: return "The service is unavailable; retry later."
        case .shutdown: return "The server is shutting down."
        }
    }
}
