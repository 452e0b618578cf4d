import Foundation
import PushModel

/// The facts of a client certificate that APNs certificate authentication needs.
/// PushCrypto's X.509 reader produces them (see `APNsGatewayConfiguration.certificateInspector`).
package struct APNsClientCertificate: Sendable, Equatable {
    /// Subject `UID`: the app's bundle ID, the certificate's default topic.
    package var uid: String
    /// Extra topics from Apple's 1.2.840.113635.100.6.3.6 extension (`com.app.voip`, `com.app.complication`, …).
    var extensionTopics: [String]
    /// Endpoints the certificate may use (Apple's development/production OIDs).
    package var environments: Set<APNsEnvironment>
    package var notBefore: Date
    package var notAfter: Date
    /// Whether the issuer is one the gateway trusts (and the certificate is not revoked).
    var isTrusted: Bool

    package init(
        uid: String, extensionTopics: [String] = [], environments: Set<APNsEnvironment> = [.sandbox, .production],
        notBefore: Date = .distantPast, notAfter: Date = .distantFuture, isTrusted: Bool = true
    ) {
        self.uid = uid
        self.extensionTopics = extensionTopics
        self.environments = environments
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.isTrusted = isTrusted
    }

    /// Every topic the certificate may push to: its UID plus the extension topics.
    var allowedTopics: Set<String> { Set([uid] + extensionTopics) }
}

/// Certificate-authentication rules, free of I/O. Order: BadCertificate (untrusted, not yet valid,
/// expired by the injected clock) → BadCertificateEnvironment → MissingTopic (no `apns-topic` and the
/// certificate has several topics; with a single-topic certificate the UID is used) → BadTopic (suffix ≠ push
/// type) / BadPriority → TopicDisallowed for a token-only type (`location`, `liveactivity`, `fileprovider`:
/// `APNsPushType.requiresTokenAuth`), whatever the certificate lists → TopicDisallowed (same bundle ID but the
/// certificate lacks that topic) / BadTopic (another bundle ID).
///
/// Which reason APNs gives a certificate connection for a token-only type is not documented; pushcheck answers
/// `TopicDisallowed` ("Pushing to this topic is not allowed"), the reason it gives any topic the certificate may
/// not push to (Tests/reference/apns.md §6.2; Pushy's mock answers `BadTopic`).
package enum CertificateAuthRules {
    /// Returns the effective topic on success. `topicShapeChecked`: the shape of the topic sent was checked
    /// already (a validated push); a topic taken from the certificate is checked here either way.
    package static func authorize(
        _ cert: APNsClientCertificate, request: APNsParsedRequest, endpoint: APNsEnvironment, now: Date,
        topicShapeChecked: Bool = false
    ) -> Result<String, APNsReason> {
        guard cert.isTrusted, now >= cert.notBefore, now <= cert.notAfter else { return .failure(.badCertificate) }
        guard cert.environments.contains(endpoint) else { return .failure(.badCertificateEnvironment) }
        let topic: String
        if let t = request.topic {
            topic = t
        } else if cert.extensionTopics.filter({ $0 != cert.uid }).isEmpty {
            topic = cert.uid
        } else {
            return .failure(.missingTopic)
        }
        if !(topicShapeChecked && request.topic != nil),
            let shape = APNsRequestValidation.checkTopicShape(request, topic: topic)
        {
            return .failure(shape)
        }
        if request.pushType.requiresTokenAuth { return .failure(.topicDisallowed) }
        guard cert.allowedTopics.contains(topic) else {
            return .failure(APNsPushType.bundleID(ofTopic: topic) == cert.uid ? .topicDisallowed : .badTopic)
        }
        return .success(topic)
    }
}

/// Token-authentication topic rules: the topic's bundle ID must be covered by a topic-specific key,
/// and by the team's bundle IDs when those are configured; otherwise TopicDisallowed.
package enum TokenTopicRules {
    package static func authorize(topic: String, provider: AuthorizedProvider, teamTopics: Set<String>?) -> APNsReason?
    {
        let bundle = APNsPushType.bundleID(ofTopic: topic)
        if let keyTopics = provider.keyTopics, !keyTopics.contains(bundle) { return .topicDisallowed }
        if let teamTopics, !teamTopics.contains(bundle) { return .topicDisallowed }
        return nil
    }
}
