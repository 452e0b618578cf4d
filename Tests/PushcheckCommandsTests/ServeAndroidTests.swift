import Foundation
import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `pushcheck serve` hosting an Android phone: the binary's ready line names its FCM token, the official Firebase
/// Admin SDK (firebase-admin in `.build/venv`) sends to it, and curl drives and reads it through the control routes
/// (`GET /devices`, `/devices/{name}`, `/devices/{name}/events`, `POST /devices/{name}/actions`, `/fcm/log`).
@Suite(.serialized) struct ServeAndroidTests {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func config(_ dir: TempDirectory) throws -> String {
        let sa: JSONValue = [
            "type": "service_account", "project_id": "shop-demo", "private_key_id": "k1",
            "private_key": .string(try RSAPrivateKey.generate().pkcs8PEM),
            "client_email": "sa@shop-demo.iam.gserviceaccount.com", "token_uri": "https://oauth2.googleapis.com/token",
        ]
        try dir.write("service-account.json", sa.serialized())
        return try dir.write(
            "serve.yaml",
            """
            fcm:
              service_accounts: [{ credentials_file: service-account.json, projects: [shop-demo] }]
              projects: [{ id: shop-demo, number: "123456789012" }]
            apps:
              - package_name: com.example.shop
                firebase: { sender_id: "123456789012", project_id: shop-demo, app_id: "1:123456789012:android:0a1b2c3d" }
                manifest:
                  default_channel: orders
                  activities:
                    - { name: .MainActivity, launcher: true }
                    - { name: .OrderActivity, actions: [OPEN_ORDER] }
                channels: [{ id: orders, name: Orders, importance: high }]
            devices:
              - { name: pixel, platform: android, api_level: 34, apps: [com.example.shop] }
            """)
    }

    static func curl(_ arguments: [String]) throws -> JSONValue {
        let out = try runTool("curl", ["-s"] + arguments)
        return try JSONValue.parse(out.stdout)
    }

    @Test func firebaseAdminToAPixelDrivenWithCurl() throws {
        let python = Self.repoRoot + "/.build/venv/bin/python"
        try #require(
            FileManager.default.isExecutableFile(atPath: python), "no \(python): run `make venv` (make test does)")
        let dir = try TempDirectory("serve-android")
        defer { dir.remove() }
        let child = try ChildProcess(
            pushcheckExecutable(), ["serve", "--config", try Self.config(dir), "--ca-out", dir.file("ca.pem")])
        defer { _ = child.stop() }
        let ready = try JSONValue.parse(try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)"))
        #expect(ready[path: "devices.pixel.platform"] == "android")
        let token = try #require(ready[path: "devices.pixel.fcm_tokens"]?["com.example.shop"]?.stringValue)
        #expect(token.contains(":APA91b"))
        let control = try #require(ready["control"]?.stringValue)

        let list = try Self.curl([control + "/devices"])
        #expect(list[path: "devices.0.platform"] == "android")
        #expect(list[path: "devices.0.fcm_tokens"]?["com.example.shop"]?.stringValue == token)
        let moved = try Self.curl([
            "-XPOST", control + "/devices/pixel/actions", "-d",
            #"[{"launch": "com.example.shop"}, {"background": "com.example.shop"}]"#,
        ])
        #expect(moved["events"]?.arrayValue?.last?["summary"] == "state foreground -> background (user-went-home)")

        let credentials = try #require(ready[path: "fcm_credentials"]?["shop-demo"]?.stringValue)
        let ca = dir.file("ca.pem")
        let send = try runTool(
            python,
            [Self.repoRoot + "/Suites/scripts/fcm-admin-android.py", "both", token, "--click-action", "OPEN_ORDER"],
            environment: [
                "GOOGLE_APPLICATION_CREDENTIALS": credentials, "REQUESTS_CA_BUNDLE": ca, "SSL_CERT_FILE": ca,
                "PUSHCHECK_FCM_URL": try #require(ready["fcm"]?.stringValue),
                "PYTHONWARNINGS": "ignore::DeprecationWarning",
            ], timeout: 120)
        #expect(send.status == 0, "firebase-admin failed:\n\(send.stdout)\n\(send.stderr)\nserve: \(child.stderr)")

        // The SDK showed it: in the tray, on the app's channel, the data in the content intent's extras.
        let pixel = try Self.curl([control + "/devices/pixel"])
        #expect(pixel[path: "tray.0.title"] == "Order A2001")
        #expect(pixel[path: "tray.0.channel"] == "orders")
        #expect(pixel[path: "tray.0.extras.order_id"] == "A2001")
        let log = try Self.curl([control + "/fcm/log"])
        let hop = log["entries"]?.arrayValue?.last?[path: "android.0"]
        #expect(hop?["status"] == "delivered")
        #expect(hop?["package"] == "com.example.shop")

        let tapped = try Self.curl(["-XPOST", control + "/devices/pixel/actions", "-d", #"{"tap": "latest"}"#])
        #expect(tapped["events"]?.arrayValue?.contains { $0["summary"] == "activity .OrderActivity created" } == true)
        let callbacks = try Self.curl([control + "/devices/pixel/events?type=callback"])
        let names = callbacks["events"]?.arrayValue?.compactMap { $0["callback"]?.stringValue } ?? []
        #expect(names == ["applicationOnCreate", "onCreate", "onNewToken", "onCreate"])

        // An iPhone-only action is refused with the reason; force_stop is Android's own.
        let refused = try runTool(
            "curl",
            ["-s", "-w", "%{http_code}", "-XPOST", control + "/devices/pixel/actions", "-d", #"{"expand": "latest"}"#])
        #expect(refused.stdout.hasSuffix("422"))
        #expect(refused.stdout.contains("is not an action of an Android phone"))
        let stopped = try Self.curl([
            "-XPOST", control + "/devices/pixel/actions", "-d", #"{"force_stop": "com.example.shop"}"#,
        ])
        #expect(
            stopped["events"]?.arrayValue?.first?["summary"] == "state foreground -> force-stopped (user-force-stop)")
        let again = try runTool(
            python, [Self.repoRoot + "/Suites/scripts/fcm-admin-android.py", "data", token],
            environment: [
                "GOOGLE_APPLICATION_CREDENTIALS": credentials, "REQUESTS_CA_BUNDLE": ca, "SSL_CERT_FILE": ca,
                "PUSHCHECK_FCM_URL": try #require(ready["fcm"]?.stringValue),
                "PYTHONWARNINGS": "ignore::DeprecationWarning",
            ], timeout: 120)
        #expect(again.status == 0)
        let dropped = try Self.curl([control + "/fcm/log"]).self["entries"]?.arrayValue?.last?[path: "android.0"]
        #expect(dropped?["status"] == "dropped")
        #expect(dropped?["reason"] == "app-force-stopped")
    }
}
