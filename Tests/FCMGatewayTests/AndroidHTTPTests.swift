import Foundation
@testable import HTTPClient
import HTTPServer
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import FCMGateway

/// Sends to an Android instance over real HTTP/2 + TLS: with our `FCMClient` (libcurl) and with the official
/// firebase-admin SDK from the venv (Tests/python/fcm_admin_android.py), asserting the typed messages the gateway
/// hands to its Android consumer.
@Suite(.serialized) struct AndroidHTTPTests {
    static let ca = try! CertificateAuthority.generate(commonName: "fcm android test CA")
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    let world = World()
    let server: HTTPServer
    let url: String
    let token: String
    let recorder = AndroidRecorder()

    init() throws {
        let leaf = try Self.ca.issueServerCertificate()
        server = HTTPServer(
            listeners: [
                ListenerConfiguration(
                    name: "fcm",
                    tls: TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM),
                    handler: world.fcm.handler)
            ], loops: 1)
        url = try server.start()[0].url
        token = world.fcm.issueAndroidInstanceToken(
            installationID: AndroidSendTests.fid, senderID: "123456789012", projectID: "demo-project",
            packageName: AndroidSendTests.pkg, appID: "1:123456789012:android:0a1b2c")!
        world.fcm.setAndroidConsumer(recorder)
    }

    func message(named name: String?) -> AndroidMessage? {
        guard let name else { return nil }
        return recorder.all.first { "projects/demo-project/messages/" + $0.messageID == name }
    }

    @Test func ourClientOverHTTP2() async throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let client = try FCMClient(
            baseURL: url, account: GoogleServiceAccount(clientEmail: Fixture.email, privateKey: Fixture.saKey),
            trustRoots: .pem([Array(Self.ca.certificatePEM.utf8)]))
        defer { client.shutdown() }
        let sends: [(JSONValue, (AndroidMessage) -> Bool)] = [
            (
                ["token": .string(token), "notification": ["title": "Goal!"]],
                { $0.notification?.title == "Goal!" && $0.priority == .high }
            ),
            (
                [
                    "token": .string(token), "data": ["k": "v"],
                    "android": ["priority": "HIGH", "ttl": "60s", "collapse_key": "c"],
                ],
                { $0.data == ["k": "v"] && $0.priority == .high && $0.ttlSeconds == 60 && $0.collapseKey == "c" }
            ),
            (
                [
                    "token": .string(token), "notification": ["title": "t"], "data": ["k": "v"],
                    "android": ["priority": "NORMAL"],
                ],
                { $0.notification?.title == "t" && $0.data == ["k": "v"] && $0.priority == .normal }
            ),
        ]
        for (body, check) in sends {
            let r = try await client.send(project: "demo-project", message: body)
            #expect(r.status == 200, "\(r.errorMessage ?? "")")
            #expect(r.http.httpVersion == .http2)
            let m = try #require(message(named: r.name))
            #expect(check(m), "\(m)")
        }
        let refused = try await client.send(
            project: "demo-project",
            message: ["token": .string(token), "android": ["restricted_package_name": "com.example.other"]])
        #expect(refused.status == 400 && refused.errorCode == "INVALID_ARGUMENT")
        #expect(recorder.all.count == 3)
    }

    @Test func firebaseAdminSDK() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let python = Self.repoRoot + "/.build/venv/bin/python"
        try #require(
            FileManager.default.isExecutableFile(atPath: python), "no \(python): run `make venv` (make test does)")
        let dir = try TempDirectory("fcm-android-admin")
        defer { dir.remove() }
        let ca = try dir.write("ca.pem", Self.ca.certificatePEM)
        let sa: JSONValue = [
            "type": "service_account", "project_id": "demo-project", "private_key_id": "k1",
            "private_key": .string(Fixture.saKey.pkcs8PEM), "client_email": .string(Fixture.email),
            "token_uri": .string(url + "/token"),
        ]
        let credentials = try dir.write("sa.json", sa.serialized())
        let run = try runTool(
            python, [Self.repoRoot + "/Tests/python/fcm_admin_android.py"],
            environment: [
                "GOOGLE_APPLICATION_CREDENTIALS": credentials, "REQUESTS_CA_BUNDLE": ca, "SSL_CERT_FILE": ca,
                "PUSHCHECK_FCM_URL": url,
                "PUSHCHECK_FCM_TOKENS": JSONValue.object(["android": .string(token)]).serialized(),
                "PYTHONWARNINGS": "ignore::DeprecationWarning",
            ], timeout: 120)
        #expect(run.status == 0, "firebase-admin script failed:\n\(run.stdout)\n\(run.stderr)")
        let last = try #require(run.stdout.split(separator: "\n").last.map(String.init))
        let names = try #require(try JSONValue.parse(Array(last.utf8))["names"])

        let notification = try #require(message(named: names["notification"]?.stringValue))
        #expect(notification.notification?.title == "Goal!" && notification.notification?.body == "1-0")
        #expect(notification.data.isEmpty && notification.priority == .high && notification.requestedPriority == nil)

        let data = try #require(message(named: names["data"]?.stringValue))
        #expect(data.notification == nil && data.data == ["match": "7", "score": "1-0"])
        #expect(data.priority == .high && data.ttlSeconds == 3600 && data.collapseKey == "score-7")

        let both = try #require(message(named: names["both"]?.stringValue))
        let n = try #require(both.notification)
        #expect(n.title == "Goal (Android)" && n.body == "2-0" && n.image == "https://example.com/g.png")
        #expect(n.channelID == "goals" && n.tag == "match-7" && n.color == "#3366ff" && n.notificationCount == 3)
        #expect(n.clickAction == "com.example.news.OPEN_ARTICLE" && n.sticky && n.icon == "ic_stat_goal")
        #expect(
            n.visibility == "PUBLIC" && n.notificationPriority == "PRIORITY_MAX"
                && n.eventTime?.hasPrefix("2026-01-01T12:00:00") == true)
        #expect(both.data == ["match": "7"] && both.priority == .normal && both.ttlSeconds == 0)
        #expect(both.collapseKey == "score-7" && both.directBootOK && both.analyticsLabel == "goals")

        #expect(message(named: names["android_data"]?.stringValue)?.data == ["only": "android"])
        // The dry run and the refused send reached nobody.
        #expect(recorder.all.count == 4)
        // Every send went through the HTTP/2 listener and was logged with its Android hop.
        let sends = world.fcm.log().filter { $0.path.hasSuffix("messages:send") }
        #expect(sends.filter { $0.status == 200 && !$0.validateOnly }.allSatisfy { $0.android.count == 1 })
    }
}
