import Foundation
@testable import PushModel
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing

/// The HTML report's hops (`ScenarioResult.trace`) of real scenario runs: each request, answer and device event the
/// transcript prints is an arrow, in causal order, and a failed check points at the arrow it is about.
@Suite struct TraceTests {
    static var traced: RunEnvironment {
        var environment = FixturePages.environment
        environment.recordsTrace = true
        return environment
    }

    /// `from → to kind` of every arrow, for comparing orders.
    static func hops(_ trace: [TraceEvent]) -> [String] {
        trace.map { "\($0.from.rawValue) → \($0.to.rawValue) \($0.kind.rawValue)" }
    }

    /// True when `wanted` occurs in `all` in this order (other arrows may come between).
    static func inOrder(_ wanted: [String], in all: [String]) -> Bool {
        var rest = all[...]
        for w in wanted {
            guard let i = rest.firstIndex(of: w) else { return false }
            rest = rest[(i + 1)...]
        }
        return true
    }

    static let tapToPage = """
        - state: background
        - send:
            payload:
              aps: { alert: { title: Swift Evolution } }
              url: "${fixture.https}/__redirect?to=/news/swift-evolution.html&n=2"
          expect: { status: 200 }
        - tap
        - load_page
        - expect: { page: { title: Not this title } }
        """

    @Test func aSendTapAndPageLoadAreTheHopsOfTheTranscript() async throws {
        let (_, r) = try await Support.runSteps(Self.tapToPage, environment: Self.traced)
        let f = try #require(Support.onlyFailure(r))
        let hops = Self.hops(r.trace)
        #expect(
            Self.inOrder(
                [
                    "runner → device action", "runner → apns request", "apns → runner response",
                    "apns → device delivery", "device → device presented", "runner → device action",
                    "device → app callback", "app → router navigation", "router → web-view navigation",
                    "web-view → fixture request", "fixture → web-view page",
                ], in: hops), "\(hops)")
        // The runner's send is drawn from the gateway's log: the answer is the one the transcript prints.
        let answer = try #require(r.trace.first { $0.from == .apns && $0.kind == .response })
        let apnsID = try #require(answer.headers.first { $0.name == "apns-id" }?.value)
        #expect(r.transcript.contains("← 200 apns-id: \(apnsID)"), "\(r.transcript)")
        #expect((answer.durationMilliseconds ?? 0) > 0, "the round trip the runner's client measured")
        let request = try #require(r.trace.first { $0.to == .apns && $0.kind == .request })
        #expect(request.from == .runner && request.body?.contains("Swift Evolution") == true)
        #expect(request.headers.first { $0.name == "authorization" }?.value.hasSuffix(".…") == true)
        #expect(request.jwt?.claims.contains("iss") == true)
        #expect(r.trace.contains { $0.kind == .action && $0.label == "tap n1" })
        #expect(r.transcript.contains(": tap n1"))
        let shown = try #require(r.trace.first { $0.kind == .presented }?.notification)
        #expect(shown.title == "Swift Evolution" && shown.list)
        #expect(
            r.trace.last { $0.kind == .navigation && $0.from == .app }?.navigation?.stack.last?.title
                == "Swift Evolution")
        // The page: two 302s with their statuses, and the document as served for the report's sandboxed frame.
        let pageIndex = try #require(r.trace.lastIndex { $0.kind == .page })
        let page = try #require(r.trace[pageIndex].page)
        #expect(page.status == 200 && page.title == "Swift Evolution")
        #expect(page.redirects.map(\.status) == [302, 302], "\(page.redirects)")
        #expect(page.finalURL.hasSuffix("/news/swift-evolution.html"))
        #expect(page.html?.contains("<h1>Swift Evolution</h1>") == true)
        #expect(r.trace.allSatisfy { $0.stepLine != nil || $0.kind == .callback })
        // The failed page check is on the web view, at the page that came back.
        #expect(f.focus == TraceFocus(.webView, .page))
        #expect(f.traceIndex == pageIndex)
    }

    @Test func withoutAnHTMLReportNothingIsRecordedAndTheTranscriptIsTheSame() async throws {
        let body = Self.tapToPage.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n")
        let suite = try Support.load(
            try Support.write(
                "world:\n  include: \(Support.suites)/apps/news-app.yaml\nscenarios:\n  - name: t\n    steps:\n\(body)\n"
            ))
        let scenario = try #require(suite.scenarios.first)
        let traced = await ScenarioExecutor.run(scenario, in: suite, environment: Self.traced)
        let plain = await ScenarioExecutor.run(scenario, in: suite, environment: FixturePages.environment)
        #expect(plain.trace.isEmpty && !traced.trace.isEmpty)
        // The same text, but for the shared gateway's mount of each world (`/w/<n>/`) and the gateway's random
        // `apns-unique-id`.
        let mount = { (text: String) in
            text.replacing(/\/w\/[0-9]+\//, with: "/w/N/").replacing(/apns-unique-id: [0-9a-f-]+/, with: "…")
        }
        #expect(mount(plain.transcript) == mount(traced.transcript))
        #expect(Support.failures(plain).first?.traceIndex == nil)
        #expect(Support.failures(plain).first?.focus == TraceFocus(.webView, .page))
    }

    @Test func anFCMSendIsRunnerToFCMToAPNsAndBack() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - send: { via: fcm, message: { notification: { title: Hi }, data: { k: v } } }
              expect: { status: 201 }
            """, world: FCMSendRunTests.world, environment: Self.traced)
        let f = try #require(Support.onlyFailure(r))
        let hops = Self.hops(r.trace)
        #expect(
            Self.inOrder(
                [
                    "runner → fcm request", "fcm → apns request", "apns → fcm response", "fcm → runner response",
                    "apns → device delivery",
                ], in: hops), "\(hops)")
        #expect(!hops.contains("runner → apns request"), "FCM sent the APNs request, not the runner: \(hops)")
        let fcmRequest = try #require(r.trace.first { $0.to == .fcm })
        #expect(fcmRequest.body?.contains(#""title":"Hi""#) == true)
        // `status` after an FCM send is FCM's answer, so the failure is on FCM's arrow back to the runner.
        #expect(f.focus == TraceFocus(.fcm, .response))
        let index = try #require(f.traceIndex)
        #expect(r.trace[index].from == .fcm && r.trace[index].to == .runner && r.trace[index].status == 200)
        #expect((r.trace[index].durationMilliseconds ?? 0) > 0)
    }

    @Test func aRunStepIsTheBackendsRequestsBetweenItsStartAndItsExit() async throws {
        let (_, r) = try await Support.runSteps(
            BackendRequestTests.twoPushes + """

                  expect: { exit: 3 }
                """, environment: Self.traced)
        let f = try #require(Support.onlyFailure(r))
        let hops = Self.hops(r.trace)
        #expect(
            hops.filter { $0.contains("backend") } == [
                "runner → backend request", "backend → apns request", "apns → backend response",
                "backend → apns request", "apns → backend response", "backend → runner response",
            ], "\(hops)")
        #expect(
            Self.inOrder(["apns → backend response", "apns → device delivery", "backend → apns request"], in: hops))
        let answers = r.trace.filter { $0.from == .apns && $0.to == .backend }
        #expect(answers.map(\.label) == ["200", "400 BadDeviceToken"])
        #expect(r.transcript.contains("← 400 BadDeviceToken"))
        let exit = try #require(r.trace.last)
        #expect(exit.label == "exit 0" && exit.from == .backend && exit.to == .runner)
        #expect(r.trace.first { $0.to == .backend }?.label.hasPrefix("run for t in") == true)
        #expect(f.focus == TraceFocus(.backend, .response) && f.traceIndex == r.trace.count - 1)
    }
}
