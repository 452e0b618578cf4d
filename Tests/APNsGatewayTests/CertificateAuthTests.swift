import Foundation
import HTTPServer
@testable import PushModel
@testable import PushCrypto
import Testing

@testable import APNsGateway

@Suite struct CertificateAuthTests {
    /// Certificates are identified by their first DER byte in these tests; the inspector maps them to facts.
    static let facts: [UInt8: APNsClientCertificate] = [
        1: APNsClientCertificate(uid: Fixture.topic),
        2: APNsClientCertificate(
            uid: Fixture.topic,
            extensionTopics: [Fixture.topic, "com.example.app.voip", "com.example.app.complication"]),
        3: APNsClientCertificate(uid: Fixture.topic, environments: [.production]),
        4: APNsClientCertificate(uid: Fixture.topic, isTrusted: false),
        5: APNsClientCertificate(uid: Fixture.topic, notAfter: Date(timeIntervalSince1970: 1_767_225_600 + 10)),
        6: APNsClientCertificate(uid: Fixture.topic, notBefore: Date(timeIntervalSince1970: 1_767_225_600 + 10)),
    ]

    let f = Fixture { c in
        c.certificateInspector = { der in der.first.flatMap { CertificateAuthTests.facts[$0] } }
    }

    func send(
        cert: UInt8, omit: Set<String> = ["authorization"], headers: [(String, String)] = [],
        endpoint: APNsEnvironment = .sandbox
    )
        -> APNsOutcome
    {
        let token = endpoint == .sandbox ? Fixture.sandboxToken : Fixture.productionToken
        return f.send(
            f.request(token: token.hex, headers: headers, omit: omit), on: Fixture.connection(certificate: [cert]),
            endpoint: endpoint)
    }

    @Test func singleTopicCertificateUsesItsUID() throws {
        let o = send(cert: 1, omit: ["authorization", "apns-topic"])
        #expect(o.status == 200)
        #expect(o.auth == .certificate(uid: Fixture.topic))
        #expect(try #require(o.push).topic == Fixture.topic)
    }

    @Test func authorizationHeaderIsIgnored() {
        #expect(send(cert: 1, omit: [], headers: [("authorization", "bearer garbage")]).status == 200)
    }

    @Test func multiTopicCertificateNeedsTopic() {
        #expect(send(cert: 2, omit: ["authorization", "apns-topic"]).appleReason == .missingTopic)
        #expect(send(cert: 2).status == 200)
        #expect(
            send(cert: 2, headers: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")]).status == 200)
        #expect(
            send(
                cert: 2, headers: [("apns-push-type", "complication"), ("apns-topic", "com.example.app.complication")]
            ).status == 200)
    }

    @Test func topicsOutsideTheCertificate() {
        // Same app, topic not in the certificate's extension.
        #expect(
            send(cert: 1, headers: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")]).appleReason
                == .topicDisallowed)
        #expect(
            send(
                cert: 2, headers: [("apns-push-type", "widgets"), ("apns-topic", "com.example.app.push-type.widgets")]
            ).appleReason == .topicDisallowed)
        // Another app entirely.
        #expect(send(cert: 1, headers: [("apns-topic", "com.other.app")]).appleReason == .badTopic)
        // Suffix that does not fit the push type.
        #expect(send(cert: 2, headers: [("apns-push-type", "voip")]).appleReason == .badTopic)
    }

    @Test func certificatesForAppsOutsideTheAcceptedTopicsAreRefused() {
        let restricted = Fixture { c in
            c.certificateInspector = { der in der.first.flatMap { CertificateAuthTests.facts[$0] } }
            c.certificateTopics = ["com.example.other"]
        }
        let o = restricted.send(
            restricted.request(token: Fixture.sandboxToken.hex, omit: ["authorization"]),
            on: Fixture.connection(certificate: [1]), endpoint: .sandbox)
        #expect(o.appleReason == .topicDisallowed)
        #expect(send(cert: 1).status == 200, "without the list, the same certificate is accepted")
    }

    @Test func tokenOnlyTypesAreRefusedOnCertificates() {
        #expect(
            send(cert: 2, headers: [("apns-push-type", "location"), ("apns-topic", "com.example.app.location-query")])
                .appleReason == .topicDisallowed)
    }

    @Test func environmentTrustAndValidity() {
        #expect(send(cert: 3).appleReason == .badCertificateEnvironment)
        #expect(send(cert: 3, endpoint: .production).status == 200)
        #expect(send(cert: 4).appleReason == .badCertificate)
        #expect(send(cert: 9).appleReason == .badCertificate)  // inspector cannot read it
        #expect(send(cert: 6).appleReason == .badCertificate)  // not yet valid
        #expect(send(cert: 5).status == 200)
        f.clock.advance(by: 11)
        #expect(send(cert: 5).appleReason == .badCertificate)  // expired by the injected clock
        #expect(send(cert: 6).status == 200)
    }

    @Test func certificateTheListenerDidNotTrust() {
        let o = f.send(f.request(omit: ["authorization"]), on: Fixture.connection(certificate: [1], trusted: false))
        #expect(o.appleReason == .badCertificate)
        let lax = Fixture { c in
            c.certificateInspector = { der in der.first.flatMap { CertificateAuthTests.facts[$0] } }
            c.requireTransportTrustedCertificates = false
        }
        #expect(
            lax.send(lax.request(omit: ["authorization"]), on: Fixture.connection(certificate: [1], trusted: false))
                .status == 200)
    }

    @Test func unreadableCertificateIsBad() {
        let g = Fixture()
        #expect(g.send(g.request(), on: Fixture.connection(certificate: [1])).appleReason == .badCertificate)
    }
}

/// Real certificates from PushCrypto's test CA, read by the default inspector.
@Suite struct RealCertificateTests {
    static let ca = try! CertificateAuthority.generate(commonName: "pushcheck test CA")
    static let otherCA = try! CertificateAuthority.generate(commonName: "someone else")

    static func cert(
        _ ca: CertificateAuthority = ca, environments: APNsCertificateEnvironments = .both, topics: [String]? = nil,
        notAfter: Date = Date(timeIntervalSince1970: 1_767_225_600 + 86400)
    ) -> [UInt8] {
        try! ca.issueAPNsClientCertificate(
            APNsClientCertificateRequest(
                bundleID: Fixture.topic, teamID: Fixture.team, environments: environments, topics: topics,
                notBefore: Date(timeIntervalSince1970: 1_767_225_600 - 86400), notAfter: notAfter)
        ).der
    }

    let f = Fixture {
        $0.certificateInspector = APNsClientCertificate.inspector(trustedCAPEMs: [
            RealCertificateTests.ca.certificatePEM
        ])
    }

    func status(_ der: [UInt8], endpoint: APNsEnvironment = .sandbox, headers: [(String, String)] = []) -> (
        Int, APNsReason?
    ) {
        let token = endpoint == .sandbox ? Fixture.sandboxToken : Fixture.productionToken
        let o = f.send(
            f.request(token: token.hex, headers: headers, omit: ["authorization"]),
            on: Fixture.connection(certificate: der), endpoint: endpoint)
        return (o.status, o.appleReason)
    }

    @Test func appleShapedCertificate() {
        let der = Self.cert()
        let facts = APNsClientCertificate(der: der, trustedCAPEMs: [])
        #expect(facts?.uid == Fixture.topic)
        #expect(facts?.environments == [.sandbox, .production])
        #expect(facts?.allowedTopics == [Fixture.topic, "com.example.app.voip", "com.example.app.complication"])
        #expect(status(der) == (200, nil))
        #expect(status(der, endpoint: .production) == (200, nil))
        #expect(
            status(der, headers: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")]) == (200, nil))
        #expect(
            status(der, headers: [("apns-push-type", "widgets"), ("apns-topic", "com.example.app.push-type.widgets")]).1
                == .topicDisallowed)
    }

    @Test func environmentFromAppleOIDs() {
        let dev = Self.cert(environments: .sandbox)
        #expect(status(dev) == (200, nil))
        #expect(status(dev, endpoint: .production).1 == .badCertificateEnvironment)
        let prod = Self.cert(environments: .production)
        #expect(status(prod).1 == .badCertificateEnvironment)
    }

    @Test func inProcessConnectionCarriesTheCertificate() {
        func push(_ r: HTTPRequest, on c: APNsInProcessConnection) -> APNsOutcome {
            f.gateway.evaluate(
                APNsPushRequest(
                    environment: .sandbox, token: Fixture.sandboxToken, fields: r.headers, payload: r.body,
                    connection: c.facts))
        }
        let c = APNsInProcessConnection(id: 9, clientCertificateDER: Self.cert())
        let o = push(f.request(omit: ["authorization"]), on: c)
        #expect(o.status == 200)
        #expect(o.auth == .certificate(uid: Fixture.topic))
        let tokenConnection = APNsInProcessConnection(id: 10)
        #expect(push(f.request(), on: tokenConnection).auth == .token(teamID: Fixture.team, keyID: Fixture.kid))
    }

    @Test func untrustedOrExpired() {
        #expect(status(Self.cert(Self.otherCA)).1 == .badCertificate)
        let shortLived = Self.cert(notAfter: Date(timeIntervalSince1970: 1_767_225_600 + 60))
        #expect(status(shortLived) == (200, nil))
        f.clock.advance(by: 61)
        #expect(status(Self.cert(notAfter: Date(timeIntervalSince1970: 1_767_225_600 + 60))).1 == .badCertificate)
    }
}
