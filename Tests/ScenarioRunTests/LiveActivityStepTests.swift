import Foundation
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing

/// `start_activity`, the `activity:` checks, `${device.<name>.activity_token}` and `capture:` of ActivityKit tokens,
/// in the rides world (Suites/apps/rides-app.yaml): a suite that expects a dropped update to apply fails, naming why.
@Suite struct LiveActivityStepTests {
    static let world = "world:\n  include: \(Support.suites)/apps/rides-app.yaml\n  clock: 2026-06-01T00:00:00Z"
    static let start = """
        - launch: com.example.rides
        - start_activity: { attributes: { ride_id: R1 }, content_state: { eta: 9, driver: Bo } }
          capture: { t: activity_token, id: activity_id, p: push_to_start_token }
        """

    static func update(_ state: String, timestamp: Int = 1_780_272_100) -> String {
        """
        - send:
            token: ${t}
            topic: com.example.rides.push-type.liveactivity
            headers: { apns-push-type: liveactivity }
            payload: { aps: { timestamp: \(timestamp), event: update, content-state: \(state) } }
        """
    }

    @Test func anAppliedUpdatePassesAndADroppedOneFailsWithItsReason() async throws {
        let (_, ok) = try await Support.runSteps(
            Self.start + "\n" + Self.update("{ eta: 3, driver: Bo }") + """

                  expect:
                    delivered: true
                    activity: { id: "${id}", token: "${device.iphone.activity_token.a1}", content_state: { eta: 3 } }
                """, world: Self.world)
        #expect(Support.passed(ok), "\(Support.describe(ok))")
        let (_, bad) = try await Support.runSteps(
            Self.start + "\n" + Self.update("{ eta: soon, driver: Bo }") + """

                  expect: { activity: { content_state: { eta: soon } } }
                """, world: Self.world)
        let f = try #require(Support.onlyFailure(bad))
        #expect(f.message == "expect activity.content_state.eta")
        #expect(Support.withoutReadNote(f.actual) == "9")
        #expect(f.events.contains("activity-content-state-invalid"))
        #expect(f.events.contains(#"content-state.eta: expected int, got string "soon""#))
    }

    /// `start_activity` with the app in the background: nothing starts, and the failed check says why.
    @Test func aFailedRequestIsNamedInTheFailure() async throws {
        let (_, bad) = try await Support.runSteps(
            """
            - start_activity: { attributes: { ride_id: R1 }, content_state: { eta: 9, driver: Bo } }
              expect: { activity: { state: active } }
            """, world: Self.world)
        let f = try #require(Support.onlyFailure(bad))
        #expect(
            f.actual.contains(
                "Activity.request failed: the app is not-running: Activity.request needs it in the foreground"))
    }

    @Test func anUnknownActivityFieldOrVariableIsALoadError() throws {
        let field = try Support.loadError(
            Self.world + "\nscenarios:\n  - name: t\n    steps:\n      - expect: { activity: { stat: active } }\n")
        #expect(field?.message.contains("stat") == true)
        let variable = try Support.loadError(
            Self.world
                + "\nscenarios:\n  - name: t\n    steps:\n      - run: echo ${device.iphone.activity_tokens}\n")
        #expect(variable?.message.contains("activity_tokens") == true)
    }
}
