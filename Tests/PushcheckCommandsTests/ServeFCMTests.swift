import Foundation
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `pushcheck serve` with an `fcm:` section: the official Firebase Admin SDK (firebase-admin from PyPI, in
/// `.build/venv` made by `make venv`) against the binary, config errors, and the `/fcm` control routes.
@Suite(.serialized) struct ServeFCMTests {
    static let tokens: [String: String] = [
        "a": "instanceA0001:APA91bAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "b": "instanceB0002:APA91bBBBBBBBBBBBBBBBBBBBBBBBBBBBB",
        "gone": "instanceGone1:APA91bGGGGGGGGGGGGGGGGGGGGGGGGGGGG",
        "other": "instanceOther:APA91bOOOOOOOOOOOOOOOOOOOOOOOOOOOO",
        "noapns": "instanceNoAPN:APA91bNNNNNNNNNNNNNNNNNNNNNNNNNNNN",
    ]
    static let apnsA = "aa" + String(repeating: "01", count: 31), apnsB = "bb" + String(repeating: "02", count: 31)
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Keys made now, a Google-format service-account JSON, and a serve config with three projects.
    struct Fixture {
        let dir: TempDirectory
        let configPath: String
        init() throws {
            dir = try TempDirectory("serve-fcm")
            try dir.write("AuthKey.p8", try P256PrivateKey.generate().pkcs8PEM)
            let sa: JSONValue = [
                "type": "service_account", "project_id": "demo-project", "private_key_id": "k1",
                "private_key": .string(try RSAPrivateKey.generate().pkcs8PEM),
                "client_email": "sa@demo-project.iam.gserviceaccount.com",
                "token_uri": "https://oauth2.googleapis.com/token",
            ]
            try dir.write("service-account.json", sa.serialized())
            let t = ServeFCMTests.tokens
            configPath = try dir.write(
                "serve.yaml",
                """
                apns:
                  keys:
                    - { key_id: KEY1234567, team_id: TEAM123456, private_key: AuthKey.p8 }
                  tokens:
                    - { token: \(ServeFCMTests.apnsA), topic: com.example.app, environment: sandbox }
                    - { token: \(ServeFCMTests.apnsB), topic: com.example.app, environment: sandbox }
                fcm:
                  service_accounts:
                    - { credentials_file: service-account.json, projects: [demo-project, noapns-project] }
                  projects:
                    - id: demo-project
                      number: "123456789012"
                      apns: { team_id: TEAM123456, key_id: KEY1234567, environment: sandbox }
                      tokens:
                        - { token: "\(t["a"]!)", apns_token: \(ServeFCMTests.apnsA), topic: com.example.app }
                        - { token: "\(t["b"]!)", apns_token: \(ServeFCMTests.apnsB), topic: com.example.app }
                        - { token: "\(t["gone"]!)", unregistered: true }
                    - id: other-project
                      number: "222222222222"
                      tokens: [{ token: "\(t["other"]!)" }]
                    - id: noapns-project
                      number: "333333333333"
                      tokens: [{ token: "\(t["noapns"]!)", apns_token: \(ServeFCMTests.apnsA), topic: com.example.app }]
                """)
        }
    }

    @Test func officialAdminSDKAgainstServe() throws {
        let python = Self.repoRoot + "/.build/venv/bin/python"
        try #require(
            FileManager.default.isExecutableFile(atPath: python), "no \(python): run `make venv` (make test does)")
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let child = try ChildProcess(
            pushcheckExecutable(), ["serve", "--config", fixture.configPath, "--ca-out", fixture.dir.file("ca.pem")])
        defer { _ = child.stop() }
        let line = try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)")
        let ready = try JSONValue.parse(line)
        let fcm = try #require(ready["fcm"]?.stringValue)
        #expect(fcm.hasPrefix("https://127.0.0.1:"))
        let credentials = try #require(ready[path: "fcm_credentials"]?["demo-project"]?.stringValue)
        let file = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: credentials))))
        #expect(file["token_uri"]?.stringValue == fcm + "/token")
        #expect(file["client_email"] == "sa@demo-project.iam.gserviceaccount.com")
        let ca = fixture.dir.file("ca.pem")
        let run = try runTool(
            python, [Self.repoRoot + "/Tests/python/fcm_admin_sdk.py"],
            environment: [
                "GOOGLE_APPLICATION_CREDENTIALS": credentials, "REQUESTS_CA_BUNDLE": ca, "SSL_CERT_FILE": ca,
                "PUSHCHECK_FCM_URL": fcm,
                "PUSHCHECK_FCM_TOKENS": JSONValue.object(Self.tokens.mapValues(JSONValue.string)).serialized(),
                "PYTHONWARNINGS": "ignore::DeprecationWarning",
            ], timeout: 120)
        #expect(run.status == 0, "firebase-admin script failed:\n\(run.stdout)\n\(run.stderr)\nserve: \(child.stderr)")
        #expect(run.stdout.contains(#"{"done": true}"#))

        // What the SDK's sends became on the APNs side, seen through the control endpoint.
        let control = try #require(ready["control"]?.stringValue)
        let log = try JSONValue.parse(try runTool("curl", ["-s", control + "/fcm/log"]).stdout)
        let entries = try #require(log["entries"]?.arrayValue)
        let sends = entries.filter { $0["path"]?.stringValue?.hasSuffix("messages:send") == true }
        let first = try #require(sends.first)
        #expect(first["status"] == 200)
        #expect(first[path: "apns.0.status"] == 200)
        #expect(first[path: "apns.0.payload.aps.alert.title"] == "Hello")
        #expect(first[path: "apns.0.payload.order"] == "42")
        #expect(first[path: "apns.0.payload.google.c.sender.id"] == nil)  // dotted keys are not paths: read the object
        #expect(first[path: "apns.0.payload"]?["google.c.sender.id"] == "123456789012")
        // The topic send reached both subscribers through APNs.
        let topic = try #require(sends.first { $0[path: "request.message.topic"] == "news" && $0["status"] == 200 })
        #expect(topic["apns"]?.arrayValue?.count == 2)
        let apnsLog = try JSONValue.parse(try runTool("curl", ["-s", control + "/apns/log?status=200"]).stdout)
        #expect((apnsLog["entries"]?.arrayValue?.count ?? 0) >= 5)
    }

    /// The service-account file serve writes holds the account's private key: only its owner may read it, and it
    /// goes when serve stops, as the generated CA file does.
    @Test func credentialsFileIsOwnerOnlyAndGoesWithServe() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let child = try ChildProcess(pushcheckExecutable(), ["serve", "--config", fixture.configPath])
        defer { _ = child.stop() }
        let line = try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)")
        let credentials = try #require(try JSONValue.parse(line)[path: "fcm_credentials"]?["demo-project"]?.stringValue)
        var info = stat()
        #expect(stat(credentials, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: credentials, encoding: .utf8).contains("PRIVATE KEY"))
        #expect(child.stop() == 0, "serve: \(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: credentials), "\(credentials) is left behind")
    }

    @Test func controlRoutes() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try RunningGateway.start(
            try ServeConfiguration.load(path: fixture.configPath), loops: 1, caOut: fixture.dir.file("ca.pem"))
        defer { running.host.shutdown(grace: .seconds(1)) }
        let control = try #require(running.url("control"))
        let ready = try JSONValue.parse(running.readyLine)
        #expect(ready["fcm"]?.stringValue == running.url("fcm"))
        #expect(ready["apns"]?["fcm"] == nil)

        let added = try runTool(
            "curl",
            [
                "-s", "-XPOST", control + "/fcm/tokens", "-d",
                #"{"project":"demo-project","token":"newInstance01:APA91bZZZZZZZZZZZZZZZZZZZZZZZ","apns_token":"\#(Self.apnsB)","topic":"com.example.app"}"#,
            ])
        #expect(added.stdout.contains(#""project":"demo-project""#), "\(added)")
        let badProject = try runTool(
            "curl", ["-s", "-XPOST", control + "/fcm/tokens", "-d", #"{"project":"nope","token":"x"}"#])
        #expect(badProject.stdout.contains("a project declared under fcm.projects"), "\(badProject)")
        let tokens = try JSONValue.parse(try runTool("curl", ["-s", control + "/fcm/tokens"]).stdout)
        #expect(tokens["tokens"]?.arrayValue?.count == 6)
        // The listing says what each instance is, as the delivery path does: an Android package, iOS, or web.
        let android = try runTool(
            "curl",
            [
                "-s", "-XPOST", control + "/fcm/tokens", "-d",
                #"{"project":"demo-project","token":"androidInst01:APA91bYYYYYYYYYYYYYYYYYYYYYYY","package_name":"com.example.shop","app_id":"1:1234:android:ab"}"#,
            ])
        #expect(android.stdout.contains(#""package_name":"com.example.shop""#), "\(android)")
        let listed = try JSONValue.parse(try runTool("curl", ["-s", control + "/fcm/tokens"]).stdout)
        func entry(_ token: String) -> JSONValue? {
            listed["tokens"]?.arrayValue?.first { $0["token"]?.stringValue == token }
        }
        let a = try #require(entry("androidInst01:APA91bYYYYYYYYYYYYYYYYYYYYYYY"), "\(listed)")
        #expect(
            a["platform"] == "android" && a["package_name"] == "com.example.shop" && a["app_id"] == "1:1234:android:ab")
        #expect(entry("newInstance01:APA91bZZZZZZZZZZZZZZZZZZZZZZZ")?["platform"] == "ios", "\(listed)")
        #expect(
            try runTool("curl", ["-s", "-XPOST", control + "/fcm/tokens/\(Self.tokens["a"]!)/unregister"]).stdout
                .contains("unregistered"))
        let fault = try runTool(
            "curl", ["-s", "-XPOST", control + "/fcm/faults", "-d", #"{"error":"UNAVAILABLE","count":1}"#])
        #expect(fault.stdout.contains(#""id":1"#), "\(fault)")
        let badFault = try runTool(
            "curl", ["-s", "-XPOST", control + "/fcm/faults", "-d", #"{"error":"UNAVAILABLE","cont":1}"#])
        #expect(badFault.stdout.contains("did you mean 'count'?"), "\(badFault)")
        let retryOn500 = try runTool(
            "curl", ["-s", "-XPOST", control + "/fcm/faults", "-d", #"{"error":"INTERNAL","retry_after":30}"#])
        #expect(retryOn500.stdout.contains("QUOTA_EXCEEDED and UNAVAILABLE"), "\(retryOn500)")
        #expect(try runTool("curl", ["-s", control + "/fcm/faults"]).stdout.contains("UNAVAILABLE"))
        #expect(try runTool("curl", ["-s", control + "/fcm/topics"]).stdout.contains(#""topics":{}"#))
        #expect(try runTool("curl", ["-s", control + "/fcm/log"]).stdout.contains(#""entries":[]"#))
        #expect(
            try runTool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-XDELETE", control + "/fcm/faults"])
                .stdout == "204")
    }

    /// A simulated device whose app uses Firebase: its FCM token is in the ready line beside its APNs token and
    /// registered with the FCM gateway (mapped to that APNs token); `POST /reset` keeps it registered.
    @Test func devicesFCMTokensInTheReadyLine() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let config =
            try String(contentsOfFile: fixture.configPath, encoding: .utf8) + """

                apps:
                  - bundle_id: com.example.fcmapp
                    team_id: TEAM123456
                    aps_environment: development
                    profile: { devices: [00008110-000A1C2E0E12801E] }
                    firebase: { sender_id: "123456789012", project_id: demo-project }
                devices:
                  - { name: iphone, udid: 00008110-000A1C2E0E12801E, apps: [com.example.fcmapp] }
                """
        let path = try fixture.dir.write("serve-devices.yaml", config)
        let running = try RunningGateway.start(
            try ServeConfiguration.load(path: path), loops: 1, caOut: fixture.dir.file("ca.pem"))
        defer { running.host.shutdown(grace: .seconds(1)) }
        let ready = try JSONValue.parse(running.readyLine)
        let fcmToken = try #require(
            ready[path: "devices"]?["iphone"]?["fcm_tokens"]?["com.example.fcmapp"]?.stringValue)
        let apnsToken = try #require(ready[path: "devices"]?["iphone"]?["tokens"]?["com.example.fcmapp"]?.stringValue)
        #expect(fcmToken.contains(":APA91b"))
        let control = try #require(running.url("control"))
        func registered() throws -> JSONValue? {
            let tokens = try JSONValue.parse(try runTool("curl", ["-s", control + "/fcm/tokens"]).stdout)
            return tokens["tokens"]?.arrayValue?.first { $0["token"]?.stringValue == fcmToken }
        }
        let entry = try #require(try registered())
        #expect(entry["apns_token"]?.stringValue == apnsToken)
        #expect(entry["project"]?.stringValue == "demo-project")
        let devices = try JSONValue.parse(try runTool("curl", ["-s", control + "/devices"]).stdout)
        #expect(devices.serialized().contains(fcmToken), "\(devices)")
        _ = try runTool("curl", ["-s", "-XPOST", control + "/reset"])
        #expect(try registered()?["apns_token"]?.stringValue == apnsToken)
    }

    /// With `h2c`, a cleartext FCM listener too (prior-knowledge HTTP/2), named in the ready line.
    @Test func cleartextListener() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        var config = try ServeConfiguration.load(path: fixture.configPath)
        config.h2c = true
        let running = try RunningGateway.start(config, loops: 1, caOut: fixture.dir.file("ca.pem"))
        defer { running.host.shutdown(grace: .seconds(1)) }
        let h2c = try #require(JSONValue.parse(running.readyLine)["fcm_h2c"]?.stringValue)
        #expect(h2c.hasPrefix("http://127.0.0.1:"))
        let r = try runTool(
            "curl",
            [
                "-s", "-i", "--http2-prior-knowledge", "-XPOST", h2c + "/v1/projects/demo-project/messages:send", "-d",
                "{}",
            ])
        #expect(r.stdout.hasPrefix("HTTP/2 401"), "\(r)")
        #expect(r.stdout.contains("CREDENTIALS_MISSING"))
    }

    @Test func configErrorsPointAtFileLineColumn() throws {
        let dir = try TempDirectory("serve-fcm-bad")
        defer { dir.remove() }
        let typo = try dir.write("typo.yaml", "fcm:\n  projects:\n    - id: p\n      numbr: \"1\"\n")
        let typoOut = try runTool(pushcheckExecutable(), ["serve", "--config", typo])
        #expect(typoOut.status == 2 && typoOut.stderr.contains("did you mean 'number'?"), "\(typoOut)")
        #expect(typoOut.stderr.contains("\(typo):4:7"), "\(typoOut)")

        let noKey = try dir.write(
            "nokey.yaml",
            "fcm:\n  projects:\n    - id: p\n      number: \"1\"\n      apns: { team_id: T, key_id: KEY1234567 }\n")
        let noKeyOut = try runTool(pushcheckExecutable(), ["serve", "--config", noKey])
        #expect(noKeyOut.status == 2 && noKeyOut.stderr.contains("\(noKey):5:"), "\(noKeyOut)")
        #expect(noKeyOut.stderr.contains("apns.keys with private_key"), "\(noKeyOut)")

        let badNumber = try dir.write("num.yaml", "fcm:\n  projects:\n    - { id: p, number: abc }\n")
        let badNumberOut = try runTool(pushcheckExecutable(), ["serve", "--config", badNumber])
        #expect(badNumberOut.status == 2 && badNumberOut.stderr.contains("digits only"), "\(badNumberOut)")

        let sa = try dir.write(
            "sa.yaml", "fcm:\n  service_accounts:\n    - { client_email: a@b, public_key: missing.pem }\n")
        let saOut = try runTool(pushcheckExecutable(), ["serve", "--config", sa])
        #expect(saOut.status == 2 && saOut.stderr.contains("cannot read"), "\(saOut)")

        let unknownProject = try dir.write(
            "proj.yaml",
            "fcm:\n  projects: [{ id: demo-project, number: \"1\" }]\n  service_accounts:\n    - { client_email: a@b, public_key: \(dir.file("k.pem")), projects: [demo-projct] }\n"
        )
        try dir.write("k.pem", try RSAPrivateKey.generate().publicKey.pem)
        let projOut = try runTool(pushcheckExecutable(), ["serve", "--config", unknownProject])
        #expect(projOut.status == 2 && projOut.stderr.contains("did you mean 'demo-project'?"), "\(projOut)")
    }
}
