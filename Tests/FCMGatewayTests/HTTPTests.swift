@testable import APNsGateway
import Foundation
@testable import HTTPClient
@testable import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import FCMGateway

/// The FCM gateway on a real TLS listener (h2 via ALPN and HTTP/1.1) and a cleartext one, driven by curl,
/// nghttp and our libcurl client: the OAuth flow with keys made at test time, every error code, topics and fan-out.
@Suite(.serialized) struct HTTPTests {
    static let ca = try! CertificateAuthority.generate(commonName: "fcm test CA")
    static let dir: TempDirectory = {
        let d = try! TempDirectory.forProcess("fcm-http")
        try! d.write("ca.pem", ca.certificatePEM)
        return d
    }()

    let clock = ManualClock(start: Date())
    let world: World
    let server: HTTPServer
    let url: String
    let h2cURL: String

    init() throws {
        world = World(clock: clock)
        let leaf = try Self.ca.issueServerCertificate()
        let tls = TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM)
        server = HTTPServer(
            listeners: [
                ListenerConfiguration(name: "fcm", tls: tls, handler: world.fcm.handler),
                ListenerConfiguration(name: "fcm_h2c", tls: nil, handler: world.fcm.handler),
            ], loops: 1)
        let bound = try server.start()
        url = bound.first { $0.name == "fcm" }!.url
        h2cURL = bound.first { $0.name == "fcm_h2c" }!.url
    }

    struct Reply {
        var status: Int
        var headers: String
        var body: JSONValue
        var raw: String
    }

    /// One request with curl; `version` is `--http2`, `--http1.1` or `--http2-prior-knowledge`.
    func curl(
        _ method: String, _ path: String, body: String? = nil, form: Bool = false, bearer: String? = nil,
        version: String = "--http2", base: String? = nil
    ) throws -> Reply {
        let out = Self.dir.file("body-\(UUID().uuidString)")
        var args = ["-sS", version, "--cacert", Self.dir.file("ca.pem"), "-D", "-", "-o", out, "-X", method]
        if let bearer { args += ["-H", "Authorization: Bearer \(bearer)"] }
        if let body {
            args += [
                "-H", form ? "Content-Type: application/x-www-form-urlencoded" : "Content-Type: application/json",
                "--data-binary", body,
            ]
        }
        args.append((base ?? url) + path)
        let r = try runTool("curl", args)
        #expect(r.status == 0, "curl: \(r.stderr)")
        let status = Int(r.stdout.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first ?? "") ?? -1
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return Reply(
            status: status, headers: r.stdout.lowercased(), body: (try? JSONValue.parse(text)) ?? .null, raw: text)
    }

    func token(_ assertion: String = Fixture.assertion(), version: String = "--http2") throws -> Reply {
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        return try curl("POST", "/token", body: form, form: true, version: version)
    }

    func sendPath(_ project: String = "demo-project") -> String { "/v1/projects/\(project)/messages:send" }

    @Test(arguments: ["--http2", "--http1.1"])
    func oauthThenSend(version: String) throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let t = try token(version: version)
        #expect(t.status == 200)
        #expect(t.body["token_type"] == "Bearer")
        #expect(t.body["expires_in"] == 3599)
        let access = try #require(t.body["access_token"]?.stringValue)
        let sent = try curl(
            "POST", sendPath(), body: #"{"message":{"token":"\#(Fixture.tokenA)","notification":{"title":"t"}}}"#,
            bearer: access, version: version)
        #expect(sent.status == 200, "\(sent.raw)")
        #expect(sent.body["name"]?.stringValue?.hasPrefix("projects/demo-project/messages/0:") == true)
        #expect(world.apns.log().last?.status == 200)
    }

    /// A body over the listener's 1 MiB gets Google's front-end error as JSON (not a bare 413), before auth, over
    /// h2, HTTP/1.1 and h2c, and is logged; the HTTP/2 connection survives it.
    @Test(arguments: ["--http2", "--http1.1", "--http2-prior-knowledge"])
    func bodiesOverTheLimitGetGooglesError(version: String) throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let big = Self.dir.file("big-\(UUID().uuidString).json")
        let message = #"{"message":{"token":"\#(Fixture.tokenA)","data":{"k":""#
        try (message + String(repeating: "x", count: 1 << 20) + #""}}}"#).write(
            toFile: big, atomically: true, encoding: .utf8)
        let out = Self.dir.file("out-\(UUID().uuidString)")
        let base = version == "--http2-prior-knowledge" ? h2cURL : url
        var args = [
            "-sS", version, "--cacert", Self.dir.file("ca.pem"), "-o", out, "-w", "%{http_code} %{num_connects}\n",
            "-H", "Content-Type: application/json", "--data-binary", "@" + big, base + sendPath(),
        ]
        // Then a small request on the same connection: it is still served. (Not over h2c: Debian's curl 7.88
        // fails any second `--next` request on a prior-knowledge connection, against nghttpd too.)
        let reuse = version != "--http2-prior-knowledge"
        if reuse {
            args += [
                "--next", version, "--cacert", Self.dir.file("ca.pem"), "-o", "/dev/null", "-w",
                "%{http_code} %{num_connects}\n", base + "/nothing-here",
            ]
        }
        let r = try runTool("curl", args)
        #expect(r.status == 0, "curl: \(r.stderr)")
        // The second request reused the connection (no new connect).
        #expect(r.stdout.split(separator: "\n") == (reuse ? ["400 1", "404 0"] : ["400 1"]), "\(r.stdout)")
        let body = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(
            body
                == [
                    "error": [
                        "code": 400, "message": "Request payload size exceeds the limit: 1048576 bytes.",
                        "status": "INVALID_ARGUMENT",
                    ]
                ])
        let entry = try #require(world.fcm.log().first { $0.status == 400 })
        #expect(entry.path == sendPath() && entry.project == "demo-project" && entry.errorCode == "INVALID_ARGUMENT")
        #expect(entry.errorMessage?.contains("bytes received") == true, "\(entry.errorMessage ?? "")")
        #expect(world.apns.log().isEmpty, "nothing was sent to APNs")
    }

    @Test func oauthRefusals() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        // Signed by another key.
        let forged = try token(Fixture.assertion(key: Fixture.otherSAKey))
        #expect(
            forged.status == 400 && forged.body["error"] == "invalid_grant"
                && forged.body["error_description"] == "Invalid JWT Signature.")
        let unknown = try token(Fixture.assertion(email: "nobody@x.iam.gserviceaccount.com"))
        #expect(unknown.status == 400 && unknown.body["error_description"] == "Invalid grant: account not found")
        let old = try token(Fixture.assertion(issuedAt: Int(Date().timeIntervalSince1970) - 7200))
        #expect(old.status == 400 && old.body["error"] == "invalid_grant")
        #expect(
            old.body["error_description"]?.stringValue?.hasPrefix("Invalid JWT: Token must be a short-lived token")
                == true)
        let badAud = try token(Fixture.assertion(audience: "https://evil.example/oauth"))
        #expect(badAud.status == 400 && badAud.body["error_description"] == "Invalid JWT: Failed audience check.")
        // The mock's own token_uri as aud is fine (some libraries use token_uri).
        #expect(try token(Fixture.assertion(audience: url + "/token")).status == 200)
        let grant = try curl("POST", "/token", body: "grant_type=password&username=x", form: true)
        #expect(grant.status == 400 && grant.body["error"] == "unsupported_grant_type")
        let noScope = try token(Fixture.assertion(scopes: []))
        #expect(noScope.status == 400 && noScope.body["error"] == "invalid_scope")
    }

    @Test func bearerRefusals() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let message = #"{"message":{"token":"\#(Fixture.tokenA)"}}"#
        let missing = try curl("POST", sendPath(), body: message)
        #expect(missing.status == 401)
        #expect(missing.body[path: "error.status"] == "UNAUTHENTICATED")
        #expect(
            missing.body[path: "error.message"]?.stringValue?.hasPrefix(
                "Request is missing required authentication credential.") == true)
        #expect(missing.body.fcmErrorCode == nil)
        #expect(missing.headers.contains("www-authenticate: bearer realm=\"https://accounts.google.com/\""))
        let bogus = try curl("POST", sendPath(), body: message, bearer: "ya29.not-issued")
        #expect(bogus.status == 401)
        #expect(
            bogus.body[path: "error.message"]?.stringValue?.hasPrefix("Request had invalid authentication credentials.")
                == true)
        // Expired: the gateway's clock moves past the token's hour.
        let access = try #require(try token().body["access_token"]?.stringValue)
        clock.advance(by: 3600)
        let expired = try curl("POST", sendPath(), body: message, bearer: access)
        #expect(expired.status == 401 && expired.body[path: "error.status"] == "UNAUTHENTICATED")
        clock.advance(by: -3600)
        // Scopes without firebase.messaging / cloud-platform.
        let narrow = try #require(
            try token(Fixture.assertion(scopes: ["https://www.googleapis.com/auth/userinfo.email"])).body[
                "access_token"]?.stringValue)
        let scoped = try curl("POST", sendPath(), body: message, bearer: narrow)
        #expect(
            scoped.status == 403
                && scoped.body[path: "error.message"] == "Request had insufficient authentication scopes.")
        // cloud-platform is enough.
        let wide = try #require(
            try token(Fixture.assertion(scopes: [FCMOAuth.cloudPlatformScope])).body["access_token"]?.stringValue)
        #expect(try curl("POST", sendPath(), body: message, bearer: wide).status == 200)
        // A project the service account may not use, and one that does not exist.
        let other = try curl(
            "POST", sendPath("other-project"), body: #"{"message":{"token":"\#(Fixture.tokenOther)"}}"#, bearer: wide)
        #expect(other.status == 403 && other.body[path: "error.status"] == "PERMISSION_DENIED")
        #expect(other.body[path: "error.message"]?.stringValue?.contains("cloudmessaging.messages.create") == true)
        #expect(try curl("POST", sendPath("no-such-project"), body: message, bearer: wide).status == 403)
    }

    /// Every FCM error code over HTTP/2 and HTTP/1.1, with the exact triple (status, google.rpc status, errorCode).
    @Test(arguments: ["--http2", "--http1.1"])
    func everyErrorCode(version: String) throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let bearer = world.bearer()
        func send(_ message: String, project: String = "demo-project", bearer b: String? = nil) throws -> Reply {
            try curl(
                "POST", sendPath(project), body: #"{"message":\#(message)}"#, bearer: b ?? bearer, version: version)
        }
        func expectError(
            _ r: Reply, _ status: Int, _ canonical: String, _ code: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(r.status == status, "\(r.raw)", sourceLocation: sourceLocation)
            #expect(r.body[path: "error.code"]?.intValue == status, sourceLocation: sourceLocation)
            #expect(r.body[path: "error.status"]?.stringValue == canonical, sourceLocation: sourceLocation)
            #expect(r.body.fcmErrorCode == code, sourceLocation: sourceLocation)
        }
        expectError(try send(#"{"token":"x"}"#), 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT")
        expectError(try send(#"{"token":"\#(Fixture.tokenGone)"}"#), 404, "NOT_FOUND", "UNREGISTERED")
        expectError(try send(#"{"token":"\#(Fixture.tokenOther)"}"#), 403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH")
        expectError(
            try send(
                #"{"token":"\#(Fixture.tokenOther)"}"#, project: "other-project",
                bearer: world.bearer(Fixture.otherEmail)),
            401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR")
        world.fcm.addFault(FCMFault(.quotaExceeded, count: 1, retryAfter: 30))
        let quota = try send(#"{"token":"\#(Fixture.tokenA)"}"#)
        expectError(quota, 429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED")
        #expect(quota.headers.contains("retry-after: 30"))
        world.fcm.addFault(FCMFault(.unavailable, count: 1))
        let unavailable = try send(#"{"token":"\#(Fixture.tokenA)"}"#)
        expectError(unavailable, 503, "UNAVAILABLE", "UNAVAILABLE")
        #expect(unavailable.headers.contains("retry-after: 60"))
        world.fcm.addFault(FCMFault(.internalError, count: 1))
        expectError(try send(#"{"token":"\#(Fixture.tokenA)"}"#), 500, "INTERNAL", "INTERNAL")
        let ok = try send(#"{"token":"\#(Fixture.tokenA)","data":{"n":"1"}}"#)
        #expect(ok.status == 200)
    }

    /// Each validation rule over the wire, on both HTTP versions: the refused message, the field Google names, and
    /// the details it comes with (Tests/reference/fcm.md §12): a proto3 JSON decoding error a BadRequest alone
    /// (`decoding`), a bad registration token the FcmError alone (`field` nil), FCM's other checks both.
    @Test(arguments: ["--http2", "--http1.1"])
    func everyRuleOverTheWire(version: String) throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let bearer = world.bearer()
        let a = Fixture.tokenA
        let cases: [(message: String, field: String?, decoding: Bool)] = [
            (#"{"data":{"a":"b"}}"#, "message", false),
            (#"{"token":"\#(a)","topic":"t"}"#, "message", true),
            (#"{"token":"\#(a)","data":{"a":1}}"#, "message.data[0].value", true),
            (#"{"token":"\#(a)","data":{"gcm.x":"1"}}"#, "message.data", false),
            (#"{"topic":"a b"}"#, "message.topic", false),
            (#"{"condition":"'a' in topics &&"}"#, "message.condition", false),
            (
                #"{"condition":"\#((1...6).map { "'t\($0)' in topics" }.joined(separator: " || "))"}"#,
                "message.condition", false
            ),
            (#"{"token":"\#(a)","data":{"k":"\#(String(repeating: "x", count: 4100))"}}"#, "message", false),
            (#"{"topic":"t","data":{"k":"\#(String(repeating: "x", count: 2100))"}}"#, "message", false),
            (#"{"token":"\#(a)","android":{"ttl":"2419201s"}}"#, "message.android.ttl", false),
            (#"{"token":"\#(a)","android":{"ttl":"1 day"}}"#, "message.android.ttl", true),
            (#"{"token":"\#(a)","android":{"priority":"MAX"}}"#, "message.android.priority", true),
            (
                #"{"token":"\#(a)","webpush":{"fcm_options":{"link":"http://x"}}}"#, "message.webpush.fcm_options.link",
                false
            ),
            (#"{"token":"\#(a)","apns":{"headers":{"apns-priority":"3"}}}"#, "message.apns.headers", false),
            (#"{"token":"\#(a)","apns":{"payload":{"aps":"x"}}}"#, "message.apns.payload", false),
            (#"{"token":"\#(a)","bogus":1}"#, "message", true),
            (#"{"token":"nope"}"#, nil, false),
        ]
        for c in cases {
            let r = try curl("POST", sendPath(), body: #"{"message":\#(c.message)}"#, bearer: bearer, version: version)
            #expect(r.status == 400, "\(c.message): \(r.raw)")
            #expect(r.body[path: "error.status"] == "INVALID_ARGUMENT")
            #expect(r.body.fcmErrorCode == (c.decoding ? nil : "INVALID_ARGUMENT"), "\(c.message): \(r.raw)")
            #expect(r.body.violationField == c.field, "\(c.message): \(r.raw)")
        }
        #expect(world.apns.log().isEmpty)
    }

    @Test func cleartextH2CAndNghttp() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let bearer = world.bearer()
        let r = try curl(
            "POST", sendPath(), body: #"{"message":{"token":"\#(Fixture.tokenA)"}}"#, bearer: bearer,
            version: "--http2-prior-knowledge", base: h2cURL)
        #expect(r.status == 200)
        let body = try Self.dir.write(
            "nghttp-\(UUID().uuidString).json", #"{"message":{"token":"\#(Fixture.tokenGone)"}}"#)
        let n = try runTool(
            "nghttp",
            ["-v", "-H", ":method: POST", "-H", "authorization: Bearer \(bearer)", "-d", body, h2cURL + sendPath()])
        #expect(n.stdout.contains(":status: 404"), "\(n.stdout)\(n.stderr)")
        #expect(n.stdout.contains(#""errorCode":"UNREGISTERED""#))
    }

    @Test func ourLibcurlClient() async throws {
        defer { server.shutdown(grace: .seconds(1)) }
        var config = HTTPClientConfiguration()
        config.trustRoots = TrustRoots(pemBundle: Array(Self.ca.certificatePEM.utf8))
        let client = try HTTPClient(configuration: config)
        defer { client.shutdown() }
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(Fixture.assertion())"
        let t = try await client.execute(
            ClientRequest(
                method: "POST", url: url + "/token",
                headers: [HTTPField("content-type", "application/x-www-form-urlencoded")],
                body: Array(form.utf8)))
        #expect(t.status == 200)
        #expect(t.httpVersion == .http2)
        let access = try #require(try JSONValue.parse(t.body)["access_token"]?.stringValue)
        let s = try await client.execute(
            ClientRequest(
                method: "POST", url: url + sendPath(),
                headers: [
                    HTTPField("authorization", "Bearer \(access)"), HTTPField("content-type", "application/json"),
                ],
                body: Array(#"{"message":{"topic":"nobody-listens"}}"#.utf8)))
        #expect(s.status == 200)
        #expect(try JSONValue.parse(s.body)["name"]?.stringValue?.hasPrefix("projects/demo-project/messages/") == true)
    }

    @Test func topicsBothAPIsAndFanOut() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let bearer = world.bearer()
        // v1 registrations API (Admin SDK 7.x).
        let sub = try curl(
            "POST", "/v1/projects/demo-project/registrations/\(Fixture.tokenA)/topicSubscriptions?topic_name=news",
            body: "{}", bearer: bearer)
        #expect(sub.status == 200)
        let again = try curl(
            "POST", "/v1/projects/demo-project/registrations/\(Fixture.tokenA)/topicSubscriptions?topic_name=news",
            body: "{}", bearer: bearer)
        #expect(again.status == 409 && again.body[path: "error.status"] == "ALREADY_EXISTS")
        let gone = try curl(
            "POST", "/v1/projects/demo-project/registrations/\(Fixture.tokenGone)/topicSubscriptions?topic_name=news",
            body: "{}", bearer: bearer)
        #expect(gone.status == 404 && gone.body.fcmErrorCode == "UNREGISTERED")
        // Instance ID API: per-token results.
        let batch = try curl(
            "POST", "/iid/v1:batchAdd",
            body:
                #"{"to":"/topics/news","registration_tokens":["\#(Fixture.tokenB)","\#(Fixture.staleToken)","junk","\#(Fixture.tokenOther)"]}"#,
            bearer: bearer)
        #expect(batch.status == 200)
        #expect(
            batch.body["results"] == [
                [:], ["error": "NOT_FOUND"], ["error": "INVALID_ARGUMENT"], ["error": "PERMISSION_DENIED"],
            ])
        #expect(try curl("POST", "/iid/v1/\(Fixture.tokenA)/rel/topics/sports", body: "", bearer: bearer).status == 200)
        #expect(world.fcm.topics["news"] == [Fixture.tokenA, Fixture.tokenB].sorted())

        // Topic fan-out: both news subscribers get the push, through APNs.
        let sent = try curl(
            "POST", sendPath(), body: #"{"message":{"topic":"news","notification":{"title":"Breaking"}}}"#,
            bearer: bearer)
        #expect(sent.status == 200)
        #expect(sent.body["name"]?.stringValue?.contains("/messages/0:") == false)
        let delivered = Set(world.apns.log().filter { $0.status == 200 }.compactMap(\.token))
        #expect(delivered == [Fixture.sandboxAPNs, Fixture.sandboxAPNs2])
        #expect(world.fcm.log().last { $0.path.hasSuffix("messages:send") }?.apns.count == 2)
        // Condition fan-out: news && sports → only A.
        let before = world.apns.log().count
        #expect(
            try curl(
                "POST", sendPath(), body: #"{"message":{"condition":"'news' in topics && 'sports' in topics"}}"#,
                bearer: bearer
            ).status == 200)
        #expect(world.apns.log().dropFirst(before).map(\.token) == [Fixture.sandboxAPNs])

        // Unsubscribe both ways; allow_missing makes a second removal succeed.
        let del = try curl(
            "DELETE",
            "/v1/projects/demo-project/registrations/\(Fixture.tokenA)/topicSubscriptions/news?allow_missing=true",
            bearer: bearer)
        #expect(del.status == 200)
        #expect(
            try curl(
                "DELETE",
                "/v1/projects/demo-project/registrations/\(Fixture.tokenA)/topicSubscriptions/news?allow_missing=true",
                bearer: bearer
            ).status == 200)
        #expect(
            try curl(
                "DELETE", "/v1/projects/demo-project/registrations/\(Fixture.tokenA)/topicSubscriptions/news",
                bearer: bearer
            ).status == 404)
        let rm = try curl(
            "POST", "/iid/v1:batchRemove", body: #"{"to":"news","registration_tokens":["\#(Fixture.tokenB)"]}"#,
            bearer: bearer)
        #expect(rm.body["results"] == [[:]])
        #expect(world.fcm.topics["news"] == nil)
        // IID without a bearer.
        let unauth = try curl("POST", "/iid/v1:batchAdd", body: #"{"to":"/topics/x","registration_tokens":["a"]}"#)
        #expect(unauth.status == 401 && unauth.body["error"] == "UNAUTHENTICATED")
    }

    @Test func legacyAndGarbage() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let legacy = try curl("POST", "/fcm/send", body: #"{"to":"x","notification":{"title":"t"}}"#)
        #expect(legacy.status == 404 && legacy.raw.contains("Error 404"))
        let garbage = try curl("POST", sendPath(), body: "{not json", bearer: world.bearer())
        #expect(garbage.status == 400 && garbage.body[path: "error.status"] == "INVALID_ARGUMENT")
        #expect(try curl("GET", "/nothing-here").status == 404)
        #expect(try curl("GET", sendPath()).status == 405)
        // Still up.
        #expect(try token().status == 200)
    }
}
