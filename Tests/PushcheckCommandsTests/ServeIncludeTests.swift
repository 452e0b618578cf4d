import Foundation
@testable import APNsGateway
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `serve --config` with `include:`: the world files a suite includes (`apps:`, `devices:`, `gateway:`, nested
/// `include:`) give serve its apps, devices and gateway, paths relative to the file that names them; a gateway
/// declared both in an included file and in the config is refused at its line.
@Suite(.serialized) struct ServeIncludeTests {
    static let team = "ABCDE12345", kid = "KEY1234567", bundleID = "com.example.pushdemo"

    /// A config in the top directory including `shared/world.yaml`, which includes `apps/app.yaml` and declares the
    /// gateway with its key beside it (`shared/keys/…`): every relative path is the including file's.
    struct Layout {
        let dir: TempDirectory
        let key: P256PrivateKey

        init(config: String) throws {
            dir = try TempDirectory("serve-include")
            key = try P256PrivateKey.generate()
            try FileManager.default.createDirectory(
                atPath: dir.file("shared/keys"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                atPath: dir.file("shared/apps"), withIntermediateDirectories: true)
            try dir.write("shared/keys/AuthKey_\(ServeIncludeTests.kid).p8", key.pkcs8PEM)
            try dir.write(
                "shared/apps/app.yaml",
                """
                apps:
                  - bundle_id: \(ServeIncludeTests.bundleID)
                    team_id: \(ServeIncludeTests.team)
                    aps_environment: development
                    profile: { devices: [00008110-000A1C2E0E12801E], expires: 2099-01-01T00:00:00Z }
                    authorization: authorized
                """)
            try dir.write(
                "shared/world.yaml",
                """
                include: apps/app.yaml
                gateway:
                  apns:
                    keys:
                      - { team_id: \(ServeIncludeTests.team), key_id: \(ServeIncludeTests.kid), private_key: keys/AuthKey_\(ServeIncludeTests.kid).p8 }
                """)
            try dir.write("serve.yaml", config)
        }

        var configPath: String { dir.file("serve.yaml") }
    }

    @Test func includedWorldGivesServeItsAppsDevicesAndGateway() throws {
        let layout = try Layout(
            config: """
                include: [shared/world.yaml]
                devices:
                  - { name: phone, udid: 00008110-000A1C2E0E12801E, apps: [\(Self.bundleID)] }
                """)
        defer { layout.dir.remove() }
        let config = try ServeConfiguration.load(path: layout.configPath)
        #expect(config.world.apps.map(\.bundleID) == [Self.bundleID])
        #expect(config.world.devices.map(\.name) == ["phone"])
        #expect(
            config.world.apns.providerKeys.map(\.keyID) == [Self.kid], "the included gateway's key, read from its path")
        // `serve --check`: what it declares, and nothing started.
        let checked = try runTool(pushcheckExecutable(), ["serve", "--config", layout.configPath, "--check"])
        #expect(checked.status == 0, "\(checked)")
        #expect(
            checked.stdout
                == "\(layout.configPath): ok: 1 app (\(Self.bundleID)); 1 device (phone); apns: 1 provider key (\(Self.kid))\n",
            "\(checked)")

        // Served: the device registers for the included app, and a push signed with the included key reaches it.
        let running = try RunningGateway.start(config, loops: 1, caOut: layout.dir.file("ca.pem"))
        defer {
            running.host.shutdown(grace: .seconds(1))
            running.web.shutdown()
        }
        let sandbox = try #require(running.url("sandbox"))
        let token = try #require(running.fleet.devices.first?.tokens[Self.bundleID]?.hex)
        let jwt = try JWT.apnsProviderToken(
            teamID: Self.team, keyID: Self.kid, issuedAt: Int(Date().timeIntervalSince1970), key: layout.key)
        let pushed = try runTool(
            "curl",
            [
                "-s", "-i", "--http2", "--max-time", "10", "--cacert", layout.dir.file("ca.pem"),
                "-H", "authorization: bearer \(jwt)", "-H", "apns-topic: \(Self.bundleID)",
                "-H", "apns-push-type: alert", "-d", #"{"aps":{"alert":"included"}}"#, "\(sandbox)/3/device/\(token)",
            ])
        #expect(pushed.stdout.hasPrefix("HTTP/2 200"), "\(pushed)")
        let control = try #require(running.url("control"))
        let events = try runTool("curl", ["-s", "--max-time", "10", "\(control)/devices/phone/events"])
        #expect(events.stdout.contains("push-received"), "\(events)")
    }

    @Test func ownGatewayServesBesideIncludedApps() throws {
        let layout = try Layout(
            config: "include: shared/apps/app.yaml\napns:\n  teams: { \(Self.team): [\(Self.bundleID)] }\n")
        defer { layout.dir.remove() }
        let config = try ServeConfiguration.load(path: layout.configPath)
        #expect(config.world.apps.map(\.bundleID) == [Self.bundleID])
        #expect(config.world.apns.teamTopics[Self.team] == [Self.bundleID], "serve's own apns: section")
        #expect(
            config.world.devices.map(\.name) == ["iphone"] && config.world.devices.first?.apps == [Self.bundleID],
            "apps and no devices: a suite world's default iPhone, with the app")
    }

    /// Apps and no `devices:` get a suite world's default devices (`iphone` for iOS apps, `pixel` for Android apps),
    /// as `serve --check` shows; no apps, no device.
    @Test func appsWithoutDevicesGetASuiteWorldsDefaultDevices() throws {
        let layout = try Layout(
            config: "include: [shared/apps/app.yaml, \(SuiteFiles.suites)/apps/android-shop.yaml]\n")
        defer { layout.dir.remove() }
        let out = try runTool(pushcheckExecutable(), ["serve", "--config", layout.configPath, "--check"])
        #expect(
            out.stdout
                == "\(layout.configPath): ok: 2 apps (\(Self.bundleID), com.example.shop); 2 devices (iphone, pixel); apns: 0 provider keys\n",
            "\(out)")
        let none = try runTool(pushcheckExecutable(), ["serve", "--check"])
        #expect(none.stdout == "no --config, the defaults: ok: 0 apps; 0 devices; apns: 0 provider keys\n", "\(none)")
    }

    @Test func gatewayInBothPlacesAndMissingFilesAreErrorsAtTheirLine() throws {
        let both = try Layout(config: "include: shared/world.yaml\nlisten: { sandbox: 0 }\napns:\n  keys: []\n")
        defer { both.dir.remove() }
        let out = try runTool(pushcheckExecutable(), ["serve", "--config", both.configPath])
        #expect(out.status == 2, "\(out)")
        #expect(out.stderr.contains("--> \(both.configPath):3:1"), "\(out)")
        #expect(out.stderr.contains("the gateway is declared twice"), "\(out)")
        #expect(out.stderr.contains("world.yaml's gateway:"), "\(out)")
        let checked = try runTool(pushcheckExecutable(), ["serve", "--config", both.configPath, "--check"])
        #expect(checked.status == 2 && checked.stdout.isEmpty, "\(checked)")
        #expect(checked.stderr.contains("the gateway is declared twice"), "\(checked)")

        let missing = try both.dir.write(
            "missing.yaml", "listen: { sandbox: 0 }\ninclude: [shared/world.yaml, nope.yaml]\n")
        let missingOut = try runTool(pushcheckExecutable(), ["serve", "--config", missing])
        #expect(missingOut.status == 2, "\(missingOut)")
        #expect(missingOut.stderr.contains("--> \(missing):2:30"), "\(missingOut)")
        #expect(missingOut.stderr.contains("no such file"), "\(missingOut)")

        // An included file holds world keys only (a suite's rule): serve's own keys there are unknown.
        let wrong = try both.dir.write("wrong.yaml", "listen: { sandbox: 0 }\n")
        let including = try both.dir.write("including.yaml", "include: wrong.yaml\n")
        let wrongOut = try runTool(pushcheckExecutable(), ["serve", "--config", including])
        #expect(wrongOut.status == 2, "\(wrongOut)")
        #expect(
            wrongOut.stderr.contains("--> \(wrong):1:1") && wrongOut.stderr.contains("unknown key 'listen'"),
            "\(wrongOut)")
    }
}
