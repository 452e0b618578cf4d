import Foundation
import ScenarioRun
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
}
