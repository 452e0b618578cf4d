import Foundation
@testable import ScenarioRun
import Testing

/// An activity subscribes only to a channel APNs has: Apple, "If the channel ID isn't a valid channel, the Live
/// Activity fails to start" (Tests/reference/apns.md §8). `Activity.request` fails and a push-to-start with such an
/// `input-push-channel` starts nothing (both started and logged "subscribed to channel …").
@Suite struct BroadcastSubscriptionTests {
    static let world = """
        world:
          clock: 2026-06-01T00:00:00Z
          gateway:
            apns:
              broadcast:
                apps: [com.example.sports]
                channels:
                  - { bundle_id: com.example.sports, channel_id: c3BvcnRzLWZpbmFs, message_storage_policy: 1 }
          apps:
            - bundle_id: com.example.sports
              team_id: ABCDE12345
              aps_environment: development
              profile: { name: Sports Development, devices: [00008140-0001A1B2C3D4E5F6] }
              authorization: authorized
              supports_live_activities: true
              live_activities:
                - attributes: MatchAttributes
                  attributes_fields: { home: string }
                  content_state: { score: string }
          devices:
            - { name: ana, udid: 00008140-0001A1B2C3D4E5F6, ios: "18.2", seed: 11, apps: [com.example.sports] }
        """

    static func pushToStart(channel: String) -> String {
        """
        - send:
            token: ${device.ana.push_to_start_token.MatchAttributes}
            topic: com.example.sports.push-type.liveactivity
            headers: { apns-push-type: liveactivity }
            payload:
              aps:
                timestamp: 1780272000
                event: start
                attributes-type: MatchAttributes
                attributes: { home: Lyon }
                content-state: { score: 0-0 }
                alert: { title: Kick-off, body: Lyon }
                input-push-channel: \(channel)
        """
    }

    @Test func aRequestForAnUnknownChannelFails() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - launch: com.example.sports
            - start_activity: { attributes: { home: Lyon }, content_state: { score: 0-0 }, channel: bm8tc3VjaC1jaGFubmVs }
              expect: { activity: { count: 0, error: { contains: "bm8tc3VjaC1jaGFubmVs is not a valid channel" } } }
            - start_activity: { attributes: { home: Lyon }, content_state: { score: 0-0 }, channel: c3BvcnRzLWZpbmFs }
              expect: { activity: { state: active, channel: c3BvcnRzLWZpbmFs } }
            """, world: Self.world)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func aPushToStartWithAnUnknownChannelStartsNothing() async throws {
        let (_, r) = try await Support.runSteps(
            Self.pushToStart(channel: "bm8tc3VjaC1jaGFubmVs") + """

                  expect: { status: 200, dropped: activity-channel-not-found, activity: { count: 0 } }

                """ + Self.pushToStart(channel: "c3BvcnRzLWZpbmFs") + """

                      expect: { status: 200, activity: { state: active, channel: c3BvcnRzLWZpbmFs } }
                    """, world: Self.world)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }
}
