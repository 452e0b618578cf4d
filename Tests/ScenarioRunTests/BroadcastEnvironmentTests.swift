import Foundation
@testable import ScenarioRun
import Testing

/// A `run:` backend reaches the world's channel-management API at `PUSHCHECK_APNS_BROADCAST_SANDBOX_URL` (a root
/// URL, as Apple's `api-manage-broadcast.sandbox.push.apple.com:2195`) and broadcasts at
/// `PUSHCHECK_APNS_SANDBOX_URL/4/broadcasts/apps/<bundle id>`; both are backend requests a step can check.
@Suite struct BroadcastEnvironmentTests {
    @Test func aBackendCreatesAChannelAndBroadcasts() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - run: |
                test -n "$PUSHCHECK_APNS_BROADCAST_SANDBOX_URL" && test -n "$PUSHCHECK_APNS_BROADCAST_PRODUCTION_URL"
                id=$(curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -D - -o /dev/null \\
                  -H "authorization: bearer $PUSHCHECK_APNS_PROVIDER_TOKEN" \\
                  -d '{"message-storage-policy": 1, "push-type": "LiveActivity"}' \\
                  "$PUSHCHECK_APNS_BROADCAST_SANDBOX_URL/1/apps/$PUSHCHECK_APNS_TOPIC/channels" \\
                  | tr -d '\\r' | sed -n 's/^apns-channel-id: //p')
                test -n "$id"
                curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -H "authorization: bearer $PUSHCHECK_APNS_PROVIDER_TOKEN" \\
                  -H "apns-channel-id: $id" -H "apns-push-type: liveactivity" \\
                  -d '{"aps":{"event":"update","timestamp":1,"content-state":{"score":"1-0"}}}' \\
                  "$PUSHCHECK_APNS_SANDBOX_URL/4/broadcasts/apps/$PUSHCHECK_APNS_TOPIC"
              expect: { exit: 0, request: 1, status: 201 }
            - expect: { request: 2, status: 200 }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
        #expect(r.transcript.contains("→ backend request 1 of 2: POST /1/apps/"), "\(r.transcript)")
        #expect(r.transcript.contains("→ backend request 2 of 2: POST /4/broadcasts/apps/"), "\(r.transcript)")
        #expect(r.transcript.contains("reached 0 subscribed devices"), "\(r.transcript)")
    }

    /// A suite world declares channels in `gateway: { apns: { broadcast: } }`, the decoder serve's `apns:` uses.
    @Test func aSuiteWorldDeclaresChannels() async throws {
        let world = """
            world:
              include: \(Support.suites)/apps/news-app.yaml
              gateway:
                apns:
                  broadcast:
                    channels:
                      - { bundle_id: com.example.pushdemo, channel_id: c2NvcmUtdGlja2Vy, message_storage_policy: 0 }
            """
        let (_, r) = try await Support.runSteps(
            """
            - run: |
                for exp in 0 1900000000; do
                  curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -H "authorization: bearer $PUSHCHECK_APNS_PROVIDER_TOKEN" \
                    -H "apns-channel-id: c2NvcmUtdGlja2Vy" -H "apns-push-type: liveactivity" -H "apns-expiration: $exp" \
                    -d '{"aps":{"event":"update","timestamp":1}}' \
                    "$PUSHCHECK_APNS_SANDBOX_URL/4/broadcasts/apps/$PUSHCHECK_APNS_TOPIC"
                done
              expect: { request: 1, status: 200 }
            - expect: { request: 2, status: 400, reason: BadExpirationDate }
            """, world: world)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }
}
