@testable import FCMGateway
import Foundation
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing

/// A `run:` step's backend in the loop: what it sent is in the transcript and every send check works after it.
@Suite struct BackendRequestTests {
    /// Two pushes from curl: one to the device, one to a token nobody holds.
    static let twoPushes = """
        - run: |
            for t in "$PUSHCHECK_DEVICE_TOKEN_IPHONE" 0000000000000000000000000000000000000000000000000000000000000000; do
              curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -H "authorization: bearer $PUSHCHECK_APNS_PROVIDER_TOKEN" \\
                -H "apns-topic: $PUSHCHECK_APNS_TOPIC" -H "apns-push-type: alert" \\
                -d '{"aps":{"alert":"From the backend"},"order_id":"42"}' "$PUSHCHECK_APNS_SANDBOX_URL/3/device/$t"
            done
        """

    /// A backend's FCM send is rebuilt from the FCM log as Google answered it: an FcmError detail only when the answer
    /// had one (a proto3 JSON decoding error's 400 has a BadRequest alone, Tests/reference/fcm.md §12), so
    /// `error_code` after a `run:` step agrees with `send: { via: fcm }`.
    @Test func rebuiltFCMAnswerHasTheFcmErrorOnlyWhenGoogleSentOne() {
        var entry = FCMLogEntry(receivedAt: Date(), method: "POST", path: "/v1/projects/p/messages:send")
        entry.status = 400
        entry.errorCode = "INVALID_ARGUMENT"
        entry.errorMessage = "Invalid value at 'message.data[0].value' (TYPE_STRING), 12"
        #expect(BackendRequests.body(of: entry)[path: "error.details"] == nil)
        #expect(BackendRequests.body(of: entry)[path: "error.status"] == "INVALID_ARGUMENT")
        entry.fcmErrorDetail = true
        #expect(BackendRequests.body(of: entry)[path: "error.details.0.errorCode"] == "INVALID_ARGUMENT")
    }

    @Test func everySendCheckWorksAfterARunStep() async throws {
        let (_, r) = try await Support.runSteps(
            Self.twoPushes + """

                  expect: { exit: 0, request: 1, status: 200, delivered: true, user_info: { order_id: "42" } }
                - expect: { request: 2, status: 400, reason: BadDeviceToken, delivered: false }
                - expect: { request: "${device.iphone.token}", status: 200, stored: false }
                """)
        #expect(Support.passed(r), "\(Support.describe(r))")
        #expect(r.transcript.contains("→ backend request 1 of 2: POST /3/device/"), "\(r.transcript)")
        #expect(r.transcript.contains("    apns-topic: com.example.pushdemo"), "\(r.transcript)")
        #expect(r.transcript.contains(#"payload: {"aps":{"alert":"From the backend"},"order_id":"42"}"#))
        #expect(r.transcript.contains("← 400 BadDeviceToken"), "\(r.transcript)")
    }

    @Test func eachPushOfAStepCanBeCheckedWithItsOwnEvents() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - foreground
            - run: |
                for n in 1 2; do
                  curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -H "authorization: bearer $PUSHCHECK_APNS_PROVIDER_TOKEN" \\
                    -H "apns-topic: $PUSHCHECK_APNS_TOPIC" -d "{\\"aps\\":{\\"alert\\":{\\"title\\":\\"Order $n\\"}},\\"n\\":$n}" \\
                    "$PUSHCHECK_APNS_SANDBOX_URL/3/device/$PUSHCHECK_DEVICE_TOKEN_IPHONE"
                done
              expect: { request: 1, delivered: true, user_info: { n: 1 }, notification: { title: Order 1 }, callbacks: [willPresent] }
            - expect: { request: 2, delivered: true, user_info: { n: 2 }, notification: { title: Order 2 } }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func withoutARequestTheLastOneIsChecked() async throws {
        let (_, r) = try await Support.runSteps(
            Self.twoPushes + """

                  expect: { status: 200 }
                """)
        let f = try #require(Support.onlyFailure(r))
        #expect(f.actual == "400")
        // The console failure shows what the backend sent, as for a send.
        #expect(f.events.contains("apns-push-type: alert"), "\(f.events)")
        #expect(f.events.contains(#"payload: {"aps":{"alert":"From the backend"},"order_id":"42"}"#), "\(f.events)")
    }

    @Test func aRequestTheBackendDidNotMakeIsAFailure() async throws {
        let (_, r) = try await Support.runSteps(
            Self.twoPushes + """

                  expect: { request: 3, status: 200 }
                """)
        let f = try #require(Support.onlyFailure(r))
        #expect(f.message == "expect request: the backend made no request 3")
        #expect(f.actual == "2 request(s) to the gateway during the run step")
    }

    /// A backend that sends nothing: the step's checks of the last send read no send (they read the previous
    /// step's push and passed), and say why.
    @Test func aRunStepWhoseBackendSentNothingHasNoLastSend() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: warm-up } } }
            - run: echo backend forgot to push
              expect: { exit: 0, status: 200, delivered: true }
            """,
            world: "world:\n  include: \(Support.suites)/apps/news-app.yaml")
        guard case .failed(let failures) = r.status else {
            Issue.record("passed: \(Support.describe(r))")
            return
        }
        #expect(failures.map(\.message) == ["expect status", "expect delivered"], "\(failures)")
        #expect(failures.allSatisfy { $0.actual.contains("(the run: step's backend made no request)") }, "\(failures)")
    }

    @Test func aRefusedTokenSaysWhichRuleAndByHowMuch() async throws {
        // A token signed 8 h 12 min in the world clock's future (pinned): refused, and the log says why.
        let (_, r) = try await Support.runSteps(
            """
            - run: |
                jwt=$(\(Support.suites)/scripts/provider-token.sh $(date -u -d 2026-01-01T08:12:00Z +%s))
                curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -H "authorization: bearer $jwt" \\
                  -H "apns-topic: $PUSHCHECK_APNS_TOPIC" -d '{"aps":{"alert":"x"}}' "$PUSHCHECK_APNS_SANDBOX_URL/3/device/$PUSHCHECK_DEVICE_TOKEN_IPHONE"
              expect: { status: 200 }
            """,
            world: "world:\n  include: \(Support.suites)/apps/news-app.yaml\n  clock: 2026-01-01T00:00:00Z")
        let f = try #require(Support.onlyFailure(r))
        #expect(f.actual == "403")
        #expect(f.events.contains("why: iat is 8 h 12 min ahead of the gateway's clock"), "\(f.events)")
        #expect(r.transcript.contains("(why): iat is 8 h 12 min ahead of the gateway's clock"), "\(r.transcript)")
    }

    @Test(arguments: [
        ("1767225600.75", "iat is a fractional number"),
        ("\"1767225600\"", "iat is a JSON string, not a number"),
    ])
    func anIatAppleAcceptsIsDeliveredWithAWarning(iat: String, warning: String) async throws {
        let (_, r) = try await Support.runSteps(
            """
            - run: |
                jwt=$(\(Support.suites)/scripts/provider-token.sh '\(iat)')
                curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -H "authorization: bearer $jwt" \\
                  -H "apns-topic: $PUSHCHECK_APNS_TOPIC" -d '{"aps":{"alert":"x"}}' "$PUSHCHECK_APNS_SANDBOX_URL/3/device/$PUSHCHECK_DEVICE_TOKEN_IPHONE"
              expect: { status: 200, delivered: true }
            """,
            world: "world:\n  include: \(Support.suites)/apps/news-app.yaml\n  clock: 2026-01-01T00:10:00Z")
        #expect(Support.passed(r), "\(Support.describe(r))")
        #expect(r.transcript.contains("(warning): \(warning)"), "\(r.transcript)")
    }

    @Test func envValuesExpandVariables() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - run:
                command: echo "$TOKEN $GREETING"
                env: { TOKEN: "${device.iphone.token}", GREETING: "hi ${scenario.name}" }
              expect: { stdout: { matches: "^[0-9a-f]{64} hi t" } }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }
}
