import Foundation
import PushModel

/// Who sent a broadcast or channel request, once authenticated.
struct BroadcastIdentity {
    var auth: APNsAuthKind = .none
    /// The request carried the connection's first valid provider token (lift the one-stream limit).
    var firstValidToken = false
    /// A warning the provider-token rules gave (a fractional `iat`, …).
    var note: String?
}

extension APNsGateway {
    /// Authenticates a broadcast send or channel request for the app `bundleID` of its path, as
    /// [A-BRD]/[A-CHM] describe: "either the provided authentication token or your server's certificate"; the
    /// token "Required, if mTLS authentication is omitted".
    ///
    /// Order: a client certificate → BadCertificate / BadCertificateEnvironment; else the provider-token rules
    /// (MissingProviderToken, InvalidProviderToken, ExpiredProviderToken, …, TooManyProviderTokenUpdates). Then
    /// a push-type suffix on the bundle ID (or an `apns-topic` other than the bare bundle ID) → TopicDisallowed
    /// ("Ensure that no push type suffix is added to the bundle ID"); then the bundle ID must be one the
    /// credentials cover (the certificate's UID or topics and `certificate_topics`; the key's topics and the
    /// team's bundle IDs) → 403 TopicMismatch ("The bundle IDs parsed from your token or certificate don't include
    /// the topic present in the path").
    func authenticateBroadcast(
        connection: APNsConnectionFacts, headers h: APNsHeaderFields, bundleID: String, now: Date,
        endpoint: APNsEnvironment, rules snapshot: AuthRules, identity: inout BroadcastIdentity
    ) -> BroadcastRejection? {
        let covered: Bool
        if let der = connection.clientCertificateDER {
            guard let facts = certificateFacts(der, on: connection) else { return BroadcastRejection(.badCertificate) }
            identity.auth = .certificate(uid: facts.uid)
            guard facts.isTrusted, now >= facts.notBefore, now <= facts.notAfter else {
                return BroadcastRejection(.badCertificate)
            }
            guard facts.environments.contains(endpoint) else { return BroadcastRejection(.badCertificateEnvironment) }
            covered =
                facts.allowedTopics.contains(bundleID) && configuration.certificateTopics?.contains(bundleID) ?? true
        } else {
            let authorization = h.authorization
            var note: String?
            let result = connection.state.withProviderTokenBinding { binding in
                snapshot.tokens.authenticate(
                    authorization: authorization, endpoint: endpoint, now: now, state: &binding, note: &note)
            }
            identity.note = note
            let provider: AuthorizedProvider
            switch result {
            case .failure(let r): return BroadcastRejection(deviceTokenReason: r)
            case .success(let p): provider = p
            }
            identity.auth = .token(teamID: provider.teamID, keyID: provider.keyID)
            identity.firstValidToken = provider.isFirstValidToken
            covered =
                TokenTopicRules.authorize(
                    topic: bundleID, provider: provider, teamTopics: snapshot.teamTopics[provider.teamID]) == nil
        }
        if APNsPushType.impliedBy(topic: bundleID) != nil { return BroadcastRejection(.topicDisallowed) }
        if let topic = h.topic, topic != bundleID { return BroadcastRejection(.topicDisallowed) }
        return covered ? nil : BroadcastRejection(.topicMismatch)
    }
}
