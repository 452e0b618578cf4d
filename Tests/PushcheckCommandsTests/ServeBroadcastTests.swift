import Foundation
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `pushcheck serve` with broadcast channels: the `listen:` ports and the `apns: { broadcast: }` section, the
/// `broadcast` object of the ready line, Apple's channel-management host names through the CONNECT proxy, and the
/// control endpoint's `/apns/channels`.
@Suite(.serialized) struct ServeBroadcastTests {
    typealias D = ServeDevicesTests

    @Test func readyLineProxyAndControl() throws {
        let dir = try TempDirectory("serve-broadcast")
        defer { dir.remove() }
        let key = try P256PrivateKey.generate()
        try dir.write("AuthKey.p8", key.pkcs8PEM)
        let path = try dir.write(
            "serve.yaml",
            """
            listen: { broadcast_sandbox: 0, broadcast_production: 0, proxy: 0 }
            apns:
              keys:
                - { team_id: \(D.team), key_id: \(D.kid), private_key: AuthKey.p8 }
              broadcast:
                apps: [\(D.bundleID)]
                channels:
                  - { bundle_id: \(D.bundleID), channel_id: c3BvcnRzLWZpbmFs, environment: production, message_storage_policy: 0 }
            """)
        let config = try ServeConfiguration.load(path: path)
        #expect(config.world.apns.broadcast.channels.count == 1)
        let running = try RunningGateway.start(config, loops: 1, caOut: dir.file("ca.pem"))
        defer { running.stop(grace: 0) }
        let ready = try JSONValue.parse(Array(running.readyLine.utf8))
        let sandbox = try #require(ready[path: "broadcast.sandbox"]?.stringValue, "\(ready)")
        #expect(ready[path: "broadcast.production"]?.stringValue == running.url("broadcast_production"))
        #expect(sandbox == running.url("broadcast_sandbox"))
        #expect(ready["apns"]?["broadcast_sandbox"] == nil, "the apns object keeps the push listeners only")
        let proxy = try #require(running.proxyURL)
        let jwt = try JWT.apnsProviderToken(
            teamID: D.team, keyID: D.kid, issuedAt: Int(Date().timeIntervalSince1970), key: key)
        func viaProxy(_ url: String, _ extra: [String] = []) throws -> ToolOutput {
            try runTool(
                "curl",
                [
                    "-s", "-i", "--http2", "--max-time", "10", "--proxy", proxy, "--cacert", dir.file("ca.pem"),
                    "-H", "authorization: bearer \(jwt)",
                ] + extra + [url])
        }
        let list = try viaProxy("https://api-manage-broadcast.push.apple.com:2196/1/apps/\(D.bundleID)/all-channels")
        #expect(
            list.stdout.contains("HTTP/2 200") && list.stdout.contains(#"{"channels":["c3BvcnRzLWZpbmFs"]}"#), "\(list)"
        )
        let made = try viaProxy(
            "https://api-manage-broadcast.sandbox.push.apple.com:2195/1/apps/\(D.bundleID)/channels",
            ["-d", #"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#])
        #expect(made.stdout.contains("HTTP/2 201") && made.stdout.contains("apns-channel-id: "), "\(made)")
        // The production channel stores nothing: a broadcast needs apns-expiration: 0.
        let send = try viaProxy(
            "https://api.push.apple.com/4/broadcasts/apps/\(D.bundleID)",
            [
                "-H", "apns-channel-id: c3BvcnRzLWZpbmFs", "-H", "apns-push-type: liveactivity", "-d",
                #"{"aps":{"event":"end"}}"#,
            ])
        #expect(send.stdout.contains("HTTP/2 400") && send.stdout.contains("BadExpirationDate"), "\(send)")
        let control = try #require(running.url("control"))
        let channels = try runTool("curl", ["-s", "--max-time", "10", control + "/apns/channels"])
        let json = try JSONValue.parse(Array(channels.stdout.utf8))
        #expect(json["channels"]?.arrayValue?.map { $0["environment"] } == ["production", "sandbox"], "\(json)")
        let log = try runTool(
            "curl", ["-s", "--max-time", "10", control + "/apns/log?channel_id=c3BvcnRzLWZpbmFs"])
        let entries = try JSONValue.parse(Array(log.stdout.utf8))["entries"]?.arrayValue ?? []
        #expect(entries.map { $0["reason"] } == ["BadExpirationDate"], "\(log.stdout)")
    }
}
