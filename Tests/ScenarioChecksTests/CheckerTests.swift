import APNsGateway
@testable import DeviceSimulator
import Foundation
@testable import PushModel
import Testing
@testable import YAMLSource

@testable import ScenarioChecks
@testable import SuiteFormat

/// `Checker` over observations built by hand: what each kind of check reads, what a failure says, how a `run:`
/// step's failed `exit` is reported, how expected values resolve.
@Suite struct CheckerTests {
    static let alert = #"{"aps":{"alert":{"title":"Order shipped","body":"A1001"}},"order_id":"A1001"}"#

    @Test func sendChecksReadTheLastSendsAnswer() throws {
        let device = Fixture.device(try Fixture.app())
        var send = Fixture.send(apnsID: "p1", status: 410, reason: "Unregistered")
        send.response.timestamp = 1_767_225_600_000
        let o = Fixture.observe(device, since: device.snapshot.events.count, lastSend: send)
        let ok = try Fixture.evaluate(
            "{ status: 410, reason: Unregistered, headers: { APNS-ID: p1 }, timestamp: { exists: true } }", o)
        #expect(ok.verdict.failures.isEmpty)
        #expect(
            ok.transcript == [
                "  expect status: ok", "  expect reason: ok", "  expect headers.APNS-ID: ok", "  expect timestamp: ok",
            ])

        let bad = try Fixture.evaluate("{ status: 200, reason: none }", o)
        #expect(bad.transcript == ["  expect status: FAILED", "  expect reason: FAILED"])
        let status = try #require(bad.verdict.failures.first)
        #expect(status.message == "expect status")
        #expect(status.expected == "200")
        #expect(status.actual == "410")
        #expect(status.file == "expect.yaml" && status.line == 1)
        // No device event in the window and no gateway request: the failure says so.
        #expect(status.events == "(no device or gateway events since the previous expect)")
        #expect(bad.verdict.failures.last?.expected == "absent")
        #expect(bad.verdict.failures.last?.actual == "\"Unregistered\"")
    }

    @Test func deliveryChecksFollowTheLastSendsAPNsID() throws {
        let device = Fixture.device(try Fixture.app())
        device.deliver(try Fixture.push(Self.alert, id: "p1"))

        let delivered = Fixture.observe(device, lastSend: Fixture.send(apnsID: "p1"))
        #expect(delivered.value(.delivered) == .bool(true))
        #expect(delivered.value(.dropped) == nil)
        #expect(delivered.value(.stored) == .bool(false))

        // A push the device never got: not delivered, and why.
        let lost = Fixture.observe(device, lastSend: Fixture.send(apnsID: "p2"))
        #expect(lost.value(.delivered) == .bool(false))
        #expect(lost.value(.dropped) == .string("not-routed-to-a-device (unknown token)"))

        // One the gateway keeps for an offline device.
        let token = try #require(device.snapshot.apps[Fixture.bundleID]?.token)
        let kept = DeliveredPush(
            environment: .sandbox, token: token, topic: Fixture.bundleID, pushType: .alert, priority: .immediate,
            apnsID: "p3", apnsUniqueID: nil, collapseID: nil, expiration: nil, payload: Array(Self.alert.utf8),
            receivedAt: Date())
        let stored = Fixture.observe(
            device, lastSend: Fixture.send(apnsID: "p3", token: token.hex), storedPushes: [kept])
        #expect(stored.value(.stored) == .bool(true))
        #expect(stored.value(.dropped) == .string("stored-by-gateway (device offline)"))
        let verdict = try Fixture.evaluate("{ delivered: true }", stored).verdict
        #expect(verdict.failures.first?.actual == "false (push dropped: stored-by-gateway (device offline))")

        // Refused by the gateway: the reason is the drop.
        let refused = Fixture.observe(device, lastSend: Fixture.send(apnsID: "p4", status: 400, reason: "BadTopic"))
        #expect(refused.value(.dropped) == .string("rejected-by-gateway: BadTopic"))
    }

    @Test func aFailedExitIsReportedAloneWithTheTailOfStderr() throws {
        let device = Fixture.device(try Fixture.app())
        let o = Fixture.observe(device, lastRun: RunRecord(exitCode: 2, stdout: "", stderr: "usage: backend\nboom\n"))
        let (verdict, transcript) = try Fixture.evaluate(
            "{ stdout: { contains: sent }, delivered: true, exit: 0, exactly: { user_info: { a: b } } }", o,
            afterRun: true)
        #expect(verdict.commandFailed)
        #expect(verdict.failures.count == 1)
        let exit = try #require(verdict.failures.first)
        #expect(exit.message == "expect exit")
        #expect(exit.actual == "2")
        #expect(exit.events.hasPrefix("stderr (last lines):\nusage: backend\nboom\n"))
        #expect(transcript == ["  expect exit: FAILED", "  (2 later check(s) skipped: the command failed)"])

        // Outside a run step the block is checked in the order written, every check.
        let all = try Fixture.evaluate("{ stdout: { contains: sent }, exit: 0 }", o)
        #expect(!all.verdict.commandFailed)
        #expect(all.verdict.failures.map(\.message) == ["expect stdout", "expect exit"])
    }

    @Test func expectedValuesResolveTheirReferences() throws {
        let device = Fixture.device(try Fixture.app())
        let o = Fixture.observe(device, lastSend: Fixture.send(apnsID: "p1"))
        let ok = try Fixture.evaluate(#"{ headers: { apns-id: "${id}" } }"#, o, variables: ["id": "p1"])
        #expect(ok.verdict.failures.isEmpty)

        // An undefined one stops the block at that check, keeping the lines before it.
        var lines: [String] = []
        let expectation = try Fixture.expectation(#"{ status: 200, reason: "${missing}" }"#)
        do throws(VariableError) {
            _ = try Checker.evaluate(expectation, o, afterRun: false, lookup: { _ in nil }, transcript: &lines)
            Issue.record("an undefined variable was resolved")
        } catch {
            #expect(error.name == "missing")
            #expect(error.range.line == 1)
        }
        #expect(lines == ["  expect status: ok"])
    }

    @Test func callbacksAndTheirArgumentsReadTheWindow() throws {
        let device = Fixture.device(try Fixture.app())
        device.launch(Fixture.bundleID)
        let before = device.snapshot.events.count
        device.deliver(try Fixture.push(Self.alert, id: "p1"))
        let o = Fixture.observe(device, since: before, lastSend: Fixture.send(apnsID: "p1"))
        #expect(o.value(.callbacks) == .array(["willPresent"]))
        #expect(o.value(.callback(.willPresent, .userInfo, path: "order_id")) == .string("A1001"))
        #expect(o.value(.callback(.willPresent, .calls, path: "")) == .number(1))
        #expect(o.value(.callback(.didReceiveResponse, .calls, path: "")) == .number(0))

        // A later window without the push has no callbacks.
        let later = Fixture.observe(device, since: device.snapshot.events.count)
        #expect(later.value(.callbacks) == .array([]))
    }

    @Test func wholeObjectsAreComparedByPath() throws {
        let device = Fixture.device(try Fixture.app())
        device.launch(Fixture.bundleID)
        device.deliver(try Fixture.push(Self.alert, id: "p1"))
        let o = Fixture.observe(device, lastSend: Fixture.send(apnsID: "p1"))
        let subset = try Fixture.evaluate("{ at_least: { user_info: { order_id: A1001 } } }", o)
        #expect(subset.verdict.failures.isEmpty)
        #expect(subset.transcript == ["  expect at_least.user_info: ok"])

        let exact = try Fixture.evaluate("{ exactly: { user_info: { orderId: A1001 } } }", o)
        let failure = try #require(exact.verdict.failures.first)
        #expect(failure.message == "expect exactly.user_info")
        #expect(failure.actual.contains("- user_info.orderId: \"A1001\""))
        #expect(failure.actual.contains("+ user_info.order_id: \"A1001\""))
        #expect(failure.actual.contains("+ user_info.aps"))
        // The failure lists the window's device events.
        #expect(failure.events.contains("device #"))
        #expect(failure.events.contains("callback willPresent"))
    }

    /// Every subject the table decodes to is observed: on a device with nothing installed and nothing sent,
    /// the subjects that always have a value have it, and the rest are absent (not a crash, not a guess).
    @Test func everySubjectOfTheTableIsObservable() throws {
        let device = SimulatedDevice(name: "iPhone", udid: "00008110-000000000000001E", seed: 1, clock: SystemClock())
        let o = Observation(snapshot: device.snapshot, bundleID: "com.example.app", window: [])
        var subjects: [Subject] = [
            .status, .reason, .header("apns-id"), .timestamp, .delivered, .dropped, .stored, .callbacks,
            .callback(.willPresent, .userInfo, path: ""), .userInfo("a"), .openedURLs, .install, .registration,
            .findings, .symptoms, .token, .state, .badge, .exitCode, .stdout, .stderr, .fcmErrorCode, .fcmName,
        ]
        subjects += NotificationField.allCases.map(Subject.notification)
        subjects += NavigationField.allCases.map(Subject.navigation)
        subjects += PageField.allCases.map(Subject.page)
        subjects += ExtensionField.allCases.map(Subject.extensions)
        let present: [(Subject, JSONValue)] = [
            (.callbacks, .array([])), (.openedURLs, .array([])), (.install, .string("not-installed")),
            (.registration, .string("not-registered")), (.findings, .array([])), (.symptoms, .string("")),
            (.notification(.presented), .bool(false)), (.notification(.count), .number(0)),
            (.extensions(.service), .string("not-run")),
        ]
        for subject in subjects {
            #expect(o.value(subject) == present.first { $0.0 == subject }?.1, "\(subject)")
        }
    }
}
