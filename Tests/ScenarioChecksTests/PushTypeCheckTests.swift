@testable import DeviceSimulator
import Foundation
@testable import PushModel
import Testing

@testable import ScenarioChecks
@testable import SuiteFormat

/// `reached`, `callkit` and the throttled `dropped` reason, read from a device driven in memory
/// (Tests/reference/ios-push-types.md §1, §4, §5.2).
@Suite struct PushTypeCheckTests {
    static func app(voip reportsCall: Bool) throws -> AppDeclaration {
        var app = try Fixture.app()
        app.pushTypes = [.voip, .fileProvider]
        app.signing.backgroundModes += ["voip"]  // ios-push-types.md §4.5
        app.voip = VoIPBehaviour(reportsCall: reportsCall)
        return app
    }

    static func push(_ type: APNsPushType, _ token: DeviceToken?, id: String) -> IncomingPush {
        IncomingPush(
            bundleID: Fixture.bundleID, token: token, payload: .object(["aps": .object([:])]), pushType: type,
            apnsID: id)
    }

    @Test func reachedAndCallKitFollowTheLastSend() throws {
        let device = Fixture.device(try Self.app(voip: true))
        let tokens = try #require(device.snapshot.apps[Fixture.bundleID]).pushTokens
        var since = device.snapshot.events.count
        device.deliver(Self.push(.voip, tokens[.voip], id: "v1"))
        var o = Fixture.observe(device, since: since, lastSend: Fixture.send(apnsID: "v1"))
        #expect(
            try Fixture.evaluate("{ delivered: true, reached: pushkit, callkit: reported }", o).verdict.failures.isEmpty
        )

        since = device.snapshot.events.count
        device.deliver(Self.push(.fileprovider, tokens[.fileProvider], id: "w1"))
        o = Fixture.observe(device, since: since, lastSend: Fixture.send(apnsID: "w1"))
        #expect(
            try Fixture.evaluate("{ reached: file-provider-extension, callkit: { absent: true } }", o).verdict.failures
                .isEmpty)

        // At the wrong token: not delivered, nothing reached, the mismatch named; expecting delivery fails.
        since = device.snapshot.events.count
        device.deliver(Self.push(.fileprovider, tokens[.voip], id: "w2"))
        o = Fixture.observe(device, since: since, lastSend: Fixture.send(apnsID: "w2"))
        #expect(
            try Fixture.evaluate(
                #"{ delivered: false, reached: { absent: true }, dropped: "token-kind-mismatch: fileprovider push to voip token" }"#,
                o
            ).verdict.failures.isEmpty)
        let wrong = try Fixture.evaluate("{ delivered: true }", o)
        #expect(wrong.verdict.failures.first?.actual.contains("token-kind-mismatch") == true)
    }

    @Test func callKitNotReported() throws {
        let device = Fixture.device(try Self.app(voip: false))
        let voip = device.snapshot.apps[Fixture.bundleID]?.pushTokens[.voip]
        let since = device.snapshot.events.count
        device.deliver(Self.push(.voip, voip, id: "v1"))
        let o = Fixture.observe(device, since: since, lastSend: Fixture.send(apnsID: "v1"))
        #expect(
            try Fixture.evaluate("{ callkit: not-reported, state: not-running }", o).verdict.failures.isEmpty)
    }

    @Test func aHeldBackgroundPushReadsAsThrottled() throws {
        let device = SimulatedDevice(
            name: "iphone", udid: "00008110-000A1C2E0E12801E", seed: 1, clock: ManualClock(),
            rules: DeviceRules(backgroundWakesPerHour: 0))
        device.setUp(try Fixture.app())
        device.launch(Fixture.bundleID)
        device.moveToBackground(Fixture.bundleID)
        let since = device.snapshot.events.count
        device.deliver(try Fixture.push(#"{"aps":{"content-available":1}}"#, id: "b1"))
        let o = Fixture.observe(device, since: since, lastSend: Fixture.send(apnsID: "b1"))
        #expect(
            try Fixture.evaluate(
                #"{ callbacks: [], dropped: "throttled: background budget spent; held until the user launches the app" }"#,
                o
            ).verdict.failures.isEmpty)
    }
}
