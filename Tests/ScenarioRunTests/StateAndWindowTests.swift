import Foundation
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing

/// Checks of state read the app as it is when the block runs, checks of events read the window since the
/// previous `expect`: the same for an `expect:` attached to any step kind and for a standalone one, so two blocks
/// in a row agree (issue 23, "Two `expect:` blocks in a row disagree").
@Suite struct StateAndWindowTests {
    /// A backend (curl) pushing order A1001 to the device; the app is not running, so iOS shows the notification
    /// and no app code runs.
    static let backendPush = """
        - run: |
            curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -H "authorization: bearer $PUSHCHECK_APNS_PROVIDER_TOKEN" \\
              -H "apns-topic: $PUSHCHECK_APNS_TOPIC" -H "apns-push-type: alert" \\
              -d '{"aps":{"alert":{"title":"Order shipped"}},"order_id":"A1001"}' \\
              "$PUSHCHECK_APNS_SANDBOX_URL/3/device/$PUSHCHECK_DEVICE_TOKEN_IPHONE"
          expect: { exit: 0 }
        """

    @Test func aStandaloneExpectAfterARunStepSeesThePresentedNotificationAndItsUserInfo() async throws {
        let (_, r) = try await Support.runSteps(
            Self.backendPush + """

                - expect: { delivered: true, user_info: { order_id: A1001 }, notification: { title: Order shipped } }
                - expect: { user_info: { order_id: A1001 }, at_least: { notification: { title: Order shipped } } }
                """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func stateChecksAgreeAfterEveryStepKindAndEventChecksSeeOnlyTheirWindow() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: Order shipped }, badge: 3 }, order_id: A1001 } }
              expect: { status: 200, notification: { presented: true, title: Order shipped }, badge: 3 }
            - wait: 1s
              expect: { notification: { title: Order shipped, presented: false }, user_info: { order_id: A1001 }, badge: 3 }
            - expect: { notification: { title: Order shipped, count: 1 }, callbacks: [], delivered: true }
            - launch:
              expect: { user_info: { order_id: A1001 }, callbacks: [didFinishLaunching], state: foreground }
            - expect: { callbacks: [], state: foreground }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func theLatestNotificationIsTheLastPresentedWhereverItWentSince() async throws {
        // A tapped or dismissed notification leaves Notification Center (`count`), but stays the app's latest
        // until another is presented; what the tap gave the app is its userInfo.
        let (_, r) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: Order shipped } }, order_id: A1001 } }
            - tap:
              expect: { callbacks: [didFinishLaunching, didReceiveResponse], user_info: { order_id: A1001 }, notification: { count: 0, title: Order shipped } }
            - background
            - send: { payload: { aps: { alert: { title: Second } }, n: 2 } }
            - send: { payload: { aps: { alert: { title: Third } }, n: 3 } }
            - expect: { notification: { title: Third, count: 2 }, user_info: { n: 3 } }
            - dismiss
            - expect: { notification: { title: Third, count: 1 }, user_info: { n: 3 } }
            - tap:
              expect: { notification: { count: 0 }, user_info: { n: 2 }, callbacks: [didReceiveResponse] }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func aFailureSaysWhatItLookedAt() async throws {
        let (_, state) = try await Support.runSteps(
            Self.backendPush + """

                - expect: { notification: { title: Delivered } }
                """)
        let s = try #require(Support.onlyFailure(state))
        #expect(
            s.actual.hasPrefix("\"Order shipped\" [read: the current state: notification n1, presented at #"),
            "\(s.actual)")

        let (_, none) = try await Support.runSteps("- expect: { notification: { title: Delivered } }")
        let n = try #require(Support.onlyFailure(none))
        #expect(
            n.actual == "absent [read: the current state: no notification of com.example.pushdemo was presented]",
            "\(n.actual)")

        let (_, window) = try await Support.runSteps(
            Self.backendPush + """

                - expect: { callbacks: [willPresent] }
                """)
        let w = try #require(Support.onlyFailure(window))
        #expect(w.actual == "[] [read: the events since the previous expect: none]", "\(w.actual)")

        let (_, some) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: Order shipped } } } }
              expect: { callbacks: [willPresent] }
            """)
        let e = try #require(Support.onlyFailure(some))
        #expect(
            e.actual.range(
                of: #"^\[\] \[read: the events since the previous expect: #[0-9]+–#[0-9]+\]$"#,
                options: .regularExpression)
                != nil, "\(e.actual)")
    }

    /// `notification: { actions }` after `expand` and in a later block: the buttons of the notification on the
    /// device (issue 23, "`notification: { actions }` reads only a notification presented in that step").
    @Test func actionsAreThoseOfThePresentedNotificationInEveryBlock() async throws {
        let world = """
            world:
              apps:
                - bundle_id: com.example.fidelity
                  team_id: ABCDE12345
                  aps_environment: development
                  profile: { all_devices: true }
                  categories:
                    - id: Kanmoba
                      actions: [{ id: open, title: Open }, { id: later, title: Later }]
                  content_extensions:
                    - { name: KanmobaContent, info_plist_file: \(Support.suites)/apps/Kanmoba/ContentExtension-Info.plist }
              devices:
                - { name: iphone, udid: 00008110-000A1C2E0E12801E, apps: [com.example.fidelity] }
            """
        let (_, r) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: 関モバ, category: Kanmoba } } }
              expect: { status: 200 }
            - expect: { notification: { actions: [open, later], action_titles: [Open, Later] } }
            - expand:
              expect: { extensions: { content: KanmobaContent }, notification: { actions: [open, later] } }
            - expect: { notification: { category: Kanmoba, actions: [open, later] } }
            """, world: world)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }
}
