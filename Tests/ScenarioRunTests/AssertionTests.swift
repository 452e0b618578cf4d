import Foundation
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing

/// Each assertion kind, passing and failing; failures say expected vs actual and show the events.
@Suite struct AssertionTests {
    static let push =
        "- send: { payload: { aps: { alert: { title: Hello, body: World } }, url: \"https://example.com/a\", n: 3 } }"

    @Test func responseChecks() async throws {
        let (_, ok) = try await Support.runSteps(
            """
            \(Self.push)
              expect:
                status: 200
                reason: none
                headers: { apns-id: { matches: "^[0-9a-f-]{36}$" }, apns-unique-id: { exists: true }, x-nope: { absent: true } }
            """)
        #expect(Support.passed(ok), "\(Support.describe(ok))")
        let (scenario, bad) = try await Support.runSteps(
            """
            \(Self.push)
              expect: { status: 400 }
            """)
        let f = try #require(Support.onlyFailure(bad))
        #expect(f.message == "expect status")
        #expect(f.expected == "400" && f.actual == "200")
        #expect(f.file == scenario.file && f.line == 7 && f.column == 27)
        #expect(f.events.contains("gateway sandbox POST /3/device/"))
        #expect(f.events.contains("received (alert)"))
        let (_, reason) = try await Support.runSteps(
            """
            - send: { token: "00ff", payload: { aps: { alert: x } } }
              expect: { reason: Unregistered }
            """)
        let r = try #require(Support.onlyFailure(reason))
        #expect(r.expected == "\"Unregistered\"" && r.actual == "\"BadDeviceToken\"")
    }

    @Test func deliveryChecksFollowStoreAndForward() async throws {
        let (_, ok) = try await Support.runSteps(
            """
            - offline
            \(Self.push)
              expect: { status: 200, delivered: false, stored: true, dropped: { contains: stored-by-gateway } }
            - online
            - expect: { delivered: true, notification: { presented: true, title: Hello } }
            """)
        #expect(Support.passed(ok), "\(Support.describe(ok))")
        let (_, bad) = try await Support.runSteps(
            """
            - authorization: denied
            \(Self.push)
              expect: { delivered: true, notification: { presented: true } }
            """)
        let failures = Support.failures(bad)
        #expect(failures.map(\.message) == ["expect notification.presented"], "\(Support.describe(bad))")
        #expect(failures.first?.expected == "true" && failures.first?.actual.hasPrefix("false") == true)
    }

    @Test func callbackAndUserInfoChecks() async throws {
        let (_, ok) = try await Support.runSteps(
            """
            - terminate
            \(Self.push)
            - tap
            - expect:
                callbacks: [didFinishLaunching, didReceiveResponse]
                user_info: { aps.alert.title: Hello, n: 3, url: { matches: "^https://" }, missing: { absent: true }, aps: { exists: true } }
            """)
        #expect(Support.passed(ok), "\(Support.describe(ok))")
        let (_, bad) = try await Support.runSteps(
            """
            - foreground
            \(Self.push)
              expect:
                callbacks: [didReceiveRemoteNotification]
                user_info: { n: 4, url: { matches: "^ftp:" }, missing: { exists: true }, aps.alert.body: { not: { equals: World } } }
            """)
        let f = Support.failures(bad)
        #expect(
            f.map(\.message) == [
                "expect callbacks", "expect user_info.n", "expect user_info.url", "expect user_info.missing",
                "expect user_info.aps.alert.body",
            ])
        #expect(
            f.map(\.expected) == [
                "[\"didReceiveRemoteNotification\"]", "4", "a value matching /^ftp:/", "present", "not \"World\"",
            ])
        #expect(
            f.map { Support.withoutReadNote($0.actual) } == [
                "[\"willPresent\"]", "3", "\"https://example.com/a\"",
                "absent — userInfo is {\"aps\":{\"alert\":{\"body\":\"World\",\"title\":\"Hello\"}},\"n\":3,\"url\":\"https://example.com/a\"}",
                "\"World\"",
            ])
    }

    @Test func notificationAndExtensionChecks() async throws {
        let (_, bad) = try await Support.runSteps(
            """
            \(Self.push)
              expect:
                notification: { title: Hello, body: Bye, banner: true, count: 1, category: none }
                extensions: { service: ran }
            """)
        let f = Support.failures(bad)
        #expect(
            f.map(\.message) == ["expect notification.body", "expect extensions.service"], "\(Support.describe(bad))")
        #expect(
            f.map(\.actual) == [
                "\"World\" [read: the current state: notification n1, presented at #6]",
                "\"not-run\" [read: the events since the previous expect: #5–#6]",
            ])
    }

    @Test func navigationChecks() async throws {
        let (_, bad) = try await Support.runSteps(
            """
            \(Self.push)
            - tap
            - expect:
                navigation: { tab: 0, tab_title: Home, stack: [detail], title: Hello, alert: none, routed: detail }
            """)
        let f = try #require(Support.onlyFailure(bad))
        #expect(f.message == "expect navigation.tab" && f.expected == "0" && f.actual == "1 [read: the current state]")
        #expect(f.events.contains("navigation tab 1 'Home'"))
        let (_, routing) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: x } } }
            - tap
            - expect: { navigation: { top: detail } }
            """)
        let r = try #require(Support.onlyFailure(routing))
        #expect(r.actual.contains("absent") && r.actual.contains("route detail failed: key 'url'"))
    }

    @Test func pageChecks() async throws {
        let (_, bad) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: News } }, url: "${fixture.https}/news/swift-evolution.html" } }
            - tap
            - load_page
            - expect:
                page: { status: 200, title: Swift News, contains: proposals accepted, http_version: HTTP/2 }
            """)
        let f = try #require(Support.onlyFailure(bad))
        #expect(
            f.message == "expect page.title" && f.expected == "\"Swift News\""
                && Support.withoutReadNote(f.actual) == "\"Swift Evolution\"")
        let (_, missing) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: News } }, url: "${fixture.https}/news/nope.html" } }
            - tap
            - load_page
            - expect: { page: { status: 404, title: 404 Not Found, contains: news/nope.html, failed: none } }
            """)
        #expect(Support.passed(missing), "\(Support.describe(missing))")
    }

    @Test func provisioningChecks() async throws {
        let (_, bad) = try await Support.runSteps(
            """
            - expect: { install: failed, registration: registered, findings: [] }
            """)
        let f = Support.failures(bad)
        #expect(f.map(\.message) == ["expect install"])
        #expect(f.first.map { Support.withoutReadNote($0.actual) } == "\"installed\"")
        let world = """
            world:
              apps:
                - { bundle_id: com.example.x, team_id: T1, profile: { devices: [OTHER] } }
            """
        let (_, diagnosed) = try await Support.runSteps(
            """
            - expect: { install: failed, findings: udid-not-provisioned, symptoms: A valid provisioning profile, token: none }
            """, world: world)
        #expect(Support.passed(diagnosed), "\(Support.describe(diagnosed))")
    }

    @Test func runChecks() async throws {
        let (_, bad) = try await Support.runSteps(
            """
            - run: echo hello; echo oops >&2; exit 3
              expect: { exit: 0, stdout: { contains: hello }, stderr: { contains: fine } }
            """)
        let f = Support.failures(bad)
        // A failed exit is reported alone, with the command's stderr: the other checks would fail in its wake.
        #expect(f.map(\.message) == ["expect exit"])
        #expect(f.map(\.actual) == ["3"])
        #expect(f.first?.events.hasPrefix("stderr (last lines):\noops\n") == true)
        let (_, exitOK) = try await Support.runSteps(
            """
            - run: echo hello; echo oops >&2
              expect: { exit: 0, stdout: { contains: hello }, stderr: { contains: fine } }
            """)
        let g = Support.failures(exitOK)
        #expect(g.map(\.message) == ["expect stderr"])
        #expect(g.map(\.actual) == ["\"oops\\n\""])
        #expect(g.first?.expected == "text containing \"fine\"")
    }

    @Test func missingUserInfoKeySuggestsTheCloseOne() async throws {
        let (_, bad) = try await Support.runSteps(
            """
            - foreground
            - send: { payload: { aps: { alert: Hi }, orderId: "42", nested: { itemCount: 1 } } }
              expect: { user_info: { order_id: "42", nested.item_count: 1 } }
            """)
        let f = Support.failures(bad)
        #expect(f.count == 2)
        #expect(f.first?.actual.contains("did you mean 'orderId'?") == true, "\(f)")
        #expect(f.first?.actual.contains("\"orderId\":\"42\"") == true, "\(f)")
        #expect(f.last?.actual.contains("did you mean 'itemCount'?") == true, "\(f)")
    }
}
