import PushModel

/// What a sender sees from FCM when APNs answers the translated push with an error (README table).
package enum FCMAPNsMapping {
    /// The FCM error for an APNs rejection (`reason` as Apple spells it; `status` when the reason is unknown).
    package static func error(status: Int, reason: String?) -> FCMErrorResponse {
        guard let r = reason.flatMap(APNsReason.init(rawValue:)) else {
            return FCMErrorResponse(status == 503 ? .unavailable : .internalError)
        }
        switch r {
        // The instance is gone for APNs (uninstalled, expired, or a token of the other APNs environment or app).
        case .unregistered, .expiredToken, .badDeviceToken, .deviceTokenNotForTopic:
            return FCMErrorResponse(.unregistered)
        // Firebase's APNs credentials are wrong for this push: the project owner must fix the uploaded key/certificate.
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
            .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken, .topicDisallowed,
            .tooManyProviderTokenUpdates, .missingTopic:
            return FCMErrorResponse(.thirdPartyAuthError)
        case .tooManyRequests:
            var e = FCMErrorResponse(.quotaExceeded)
            e.retryAfter = 60
            return e
        case .payloadTooLarge:
            return FCMErrorResponse.invalid("message", "Message is too big")
        case .badCollapseId, .badExpirationDate, .badMessageId, .badPriority, .badTopic, .duplicateHeaders,
            .invalidPushType, .payloadEmpty, .missingDeviceToken, .badPath, .methodNotAllowed, .idleTimeout:
            return FCMErrorResponse.invalid("message.apns", "Invalid APNs request: \(r.rawValue)")
        case .serviceUnavailable, .shutdown:
            return FCMErrorResponse(.unavailable)
        case .internalServerError:
            return FCMErrorResponse(.internalError)
        }
    }
}
