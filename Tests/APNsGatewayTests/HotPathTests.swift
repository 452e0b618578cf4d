import Foundation
@testable import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import Testing

@testable import APNsGateway

/// What the per-request shortcuts must not change: packed log/history round trips (and a history event sharing its
/// log entry's buffer), generated ids, the per-connection token cache (key replacement, expiry, header variations)
/// and the per-connection device-token reuse.
struct HotPathTests {
    let f = Fixture()

    @Test func packedLogEntryRoundTripsEveryField() {
        let entries = [
            APNsLogEntry(
                sequence: 0, endpoint: .production, connectionID: 0xABC, method: "POST", path: "/3/device/ab?x=1",
                headers: [
                    HTTPField("apns-topic", "com.example.app"), HTTPField("x-note", "héllo 😀"), HTTPField("e", ""),
                ],
                payload: Array(#"{"aps":{}}"#.utf8), token: Fixture.sandboxToken, topic: "com.example.app",
                pushType: .voip, status: 410, reason: "Unregistered", apnsID: APNsRequestValidation.newLowercaseUUID(),
                apnsUniqueID: "u", auth: .token(teamID: "T", keyID: "K"), receivedAt: Date(timeIntervalSince1970: 1.5),
                answeredAt: Date(timeIntervalSince1970: 2.25), faultApplied: true),
            APNsLogEntry(
                sequence: 0, endpoint: .sandbox, connectionID: 1, method: "GET", path: "", headers: [], payload: [],
                token: nil, topic: nil, pushType: nil, status: 405, reason: nil, apnsID: "", apnsUniqueID: nil,
                auth: .none, receivedAt: Date(timeIntervalSince1970: 0), answeredAt: Date(timeIntervalSince1970: 0),
                faultApplied: false),
            APNsLogEntry(
                sequence: 0, endpoint: .sandbox, connectionID: 2, method: "POST", path: "/3/device/cd",
                headers: [HTTPField("authorization", String(repeating: "z", count: 5000))],
                payload: Array(repeating: 0x7B, count: 4096), token: Fixture.productionToken, topic: "t",
                pushType: .alert, status: 200, reason: nil, apnsID: "id", apnsUniqueID: nil,
                auth: .certificate(uid: "com.example.app"), receivedAt: Date(), answeredAt: Date(), faultApplied: false),
        ]
        var log = APNsDeliveryLog(capacity: 2)
        var stored: [APNsLogEntry] = []
        for e in entries { stored.append(log.append(e)) }
        #expect(stored.map(\.sequence) == [1, 2, 3])
        #expect(log.entries == Array(stored.suffix(2)))  // unpacked equal to what went in, oldest dropped
        #expect(log.evicted == 1)
        #expect(PackedLogEntry(stored[0]).entry == stored[0])
    }

    @Test func historyRoundTripsPushes() {
        f.gateway.setDeviceOnline(Fixture.sandboxToken, false)
        let o = f.send(
            f.request(headers: [("apns-collapse-id", "c-1"), ("apns-expiration", "1767229200"), ("apns-priority", "5")])
        )
        #expect(o.status == 200)
        f.gateway.setDeviceOnline(Fixture.sandboxToken, true)
        let history = f.gateway.deliveryHistory
        #expect(history.map(\.disposition) == [.stored, .delivered])
        let push = history[1].push
        #expect(push == o.push)
        #expect(push.collapseID == "c-1" && push.priority == .conserve && push.apnsUniqueID == o.apnsUniqueID)
        #expect(push.expiration == Date(timeIntervalSince1970: 1_767_229_200))
        #expect(push.json[path: "aps.alert"] == "hi")
        #expect(f.consumer.pushes.last == push)
    }

    @Test func historyEventSharesTheLogEntryOnlyWhenItReadsTheSame() {
        func lastEvent() -> PackedDeliveryEvent { f.gateway.state.withLock { $0.store.events.elements.last! } }
        func lastEntryBytes(_ maxStoredPayload: Int = 8 << 10) -> [UInt8] {
            PackedLogEntry(f.gateway.log().last!, maxStoredPayload: maxStoredPayload).bytes
        }
        // A plain push: the event's buffer is the log entry's, and reads back as the push.
        let plain = f.send(f.request())
        #expect(plain.status == 200)
        #expect(lastEvent().bytes == lastEntryBytes())
        #expect(lastEvent().event.push == plain.push)
        // A collapse id (kept by an entry only among its headers), large headers: buffers of their own.
        let collapsing = f.send(f.request(headers: [("apns-collapse-id", "c-1")]))
        #expect(lastEvent().bytes != lastEntryBytes() && lastEvent().event.push == collapsing.push)
        #expect(collapsing.push?.collapseID == "c-1")
        let padded = f.send(f.request(headers: [("x-pad", String(repeating: "p", count: 3000))]))
        #expect(padded.status == 200)
        #expect(lastEvent().bytes != lastEntryBytes() && lastEvent().event.push == padded.push)
        // A log that keeps only the head of a payload.
        let cut = Fixture { $0.logMaxStoredPayload = 8 }
        let whole = cut.send(cut.request())
        #expect(whole.status == 200)
        let event = cut.gateway.state.withLock { $0.store.events.elements.last! }
        #expect(event.event.push == whole.push && event.event.push.payload == Array(#"{"aps":{"alert":"hi"}}"#.utf8))
    }

    @Test func aConnectionReusesItsLastTokenOnlyForTheSamePath() {
        var recent = RecentToken()
        let paths = [
            "", "/3/device/ABcd", "/3/device/ABcd", "/3/device/ab/c", "/3/device/abcd?x=1", "/3/device/zz",
            "/3/device/", "/3/device/ABcd",
        ]
        for path in paths {
            let (segment, token) = recent.segmentAndToken(ofPath: path)
            let expected = APNsRequestValidation.tokenSegment(ofPath: path)
            #expect(segment == expected && token == expected.flatMap { DeviceToken(hex: $0) }, "\(path)")
        }
        // Through the gateway: each push on one connection gets the answer and log entry it gets on a fresh one.
        let ab = Fixture.sandboxToken.hex
        let tokens = [ab, ab, Fixture.productionToken.hex, ab.uppercased(), "xyz", ab]
        let shared = Fixture.connection()
        for token in tokens {
            let reused = f.send(f.request(token: token), on: shared)
            let reusedEntry = f.gateway.log().last!
            let fresh = f.send(f.request(token: token))
            let freshEntry = f.gateway.log().last!
            #expect(reused.status == fresh.status && reused.reason == fresh.reason, "\(token)")
            #expect(reusedEntry.token == freshEntry.token && reusedEntry.path == "/3/device/\(token)", "\(token)")
        }
        #expect(
            f.gateway.log().suffix(12).map(\.status) == [200, 200, 200, 200, 400, 400, 200, 200, 400, 400, 200, 200])
    }

    @Test func idFormatWritesEveryDigitInPlace() {
        #expect(
            APNsIDGenerator.format(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
                == "01234567-89ab-cdef-fedc-ba9876543210")
        #expect(APNsIDGenerator.format(high: 0, low: .max) == "00000000-0000-0000-ffff-ffffffffffff")
    }

    @Test func generatedIDsAreCanonicalVersion4AndUnique() {
        var seen = Set<String>()
        for _ in 0..<20_000 {
            let id = APNsRequestValidation.newLowercaseUUID()
            #expect(APNsRequestValidation.isCanonicalLowercaseUUID(id))
            let u = Array(id.utf8)
            #expect(
                u[14] == UInt8(ascii: "4")
                    && [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(u[19]))
            seen.insert(id)
        }
        #expect(seen.count == 20_000)
        #expect(UUID(uuidString: APNsRequestValidation.newLowercaseUUID()) != nil)
    }

    @Test func cachedTokenIsVerifiedAgainWhenItsKeyIsReplaced() {
        let c = Fixture.connection()
        let jwt = f.jwt()
        #expect(f.send(f.request(jwt: jwt), on: c).status == 200)
        #expect(f.send(f.request(jwt: jwt), on: c).status == 200)  // cached
        // The same kid now names another key: the cached signature check must not carry over.
        f.gateway.addProviderKey(
            APNsProviderKey(keyID: Fixture.kid, teamID: Fixture.team, publicKey: Fixture.otherKey.publicKey))
        #expect(f.send(f.request(jwt: jwt), on: c).reason == APNsReason.invalidProviderToken.rawValue)
        // And back: valid again.
        f.gateway.addProviderKey(
            APNsProviderKey(keyID: Fixture.kid, teamID: Fixture.team, publicKey: Fixture.key.publicKey))
        #expect(f.send(f.request(jwt: jwt), on: c).status == 200)
        // Same public key but moved to another team: iss no longer matches.
        f.gateway.addProviderKey(
            APNsProviderKey(keyID: Fixture.kid, teamID: "OTHERTEAM1", publicKey: Fixture.key.publicKey))
        #expect(f.send(f.request(jwt: jwt), on: c).reason == APNsReason.invalidProviderToken.rawValue)
    }

    @Test func cachedTokenStillExpiresAndAuthorizationVariantsAreTheSameToken() {
        let c = Fixture.connection()
        let jwt = f.jwt()
        for header in ["bearer \(jwt)", "Bearer \(jwt)", "  BEARER   \(jwt)\t", "bearer \(jwt)"] {
            let o = f.send(f.request(headers: [("authorization", header)]), on: c)
            #expect(o.status == 200, "\(header)")
        }
        #expect(f.gateway.log().compactMap { if case .token = $0.auth { 1 } else { nil } }.count == 4)
        f.clock.advance(by: 3601)
        #expect(f.send(f.request(jwt: jwt), on: c).reason == APNsReason.expiredProviderToken.rawValue)
        for header in ["bearer", "bearer ", "bearer\t", "bearerx \(jwt)", "basic \(jwt)", "bearer  "] {
            #expect(ProviderTokenRules.bearerToken(header) == nil, "\(header)")
        }
        #expect(ProviderTokenRules.bearerToken("bEaReR abc ") == "abc")
    }

    @Test func uppercaseHexTokensAndTopicSuffixes() {
        #expect(DeviceToken(hex: "ABcd")?.hex == "abcd")
        #expect(DeviceToken(hex: "abc") == nil && DeviceToken(hex: "zz") == nil && DeviceToken(hex: "") == nil)
        #expect(APNsPushType.impliedBy(topic: "com.x.voip") == .voip)
        #expect(APNsPushType.impliedBy(topic: "com.x.voip-ptt") == .pushtotalk)
        #expect(APNsPushType.impliedBy(topic: ".voip") == nil)
        #expect(APNsPushType.impliedBy(topic: "é.push-type.liveactivity") == .liveactivity)
        #expect(APNsPushType.bundleID(ofTopic: "com.x.complication") == "com.x")
        #expect(APNsRequestValidation.tokenSegment(ofPath: "/3/device/ab?x=/y") == "ab")
        #expect(APNsRequestValidation.tokenSegment(ofPath: "/3/device/ab/c") == nil)
        #expect(APNsRequestValidation.tokenSegment(ofPath: "/3/devic") == nil)
        #expect(APNsRequestValidation.tokenSegment(ofPath: "/3/device/") == "")
    }
}
