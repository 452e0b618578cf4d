import Foundation
import Testing

@testable import PushModel

@Suite struct APNsReasonTests {
    /// Apple's table, status → reasons (reference §1.4).
    static let table: [Int: [String]] = [
        400: [
            "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
            "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
            "MissingTopic", "PayloadEmpty", "TopicDisallowed",
        ],
        403: [
            "BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden", "InvalidProviderToken",
            "MissingProviderToken", "UnrelatedKeyIdInToken", "BadEnvironmentKeyIdInToken",
        ],
        404: ["BadPath"], 405: ["MethodNotAllowed"], 410: ["ExpiredToken", "Unregistered"], 413: ["PayloadTooLarge"],
        429: ["TooManyProviderTokenUpdates", "TooManyRequests"], 500: ["InternalServerError"],
        503: ["ServiceUnavailable", "Shutdown"],
    ]

    @Test func everyAppleReasonHasItsStatus() {
        var all: Set<String> = []
        for (status, reasons) in Self.table {
            for r in reasons {
                all.insert(r)
                #expect(APNsReason(rawValue: r)?.status == status, "\(r)")
            }
        }
        #expect(Set(APNsReason.allCases.map(\.rawValue)) == all)
    }

    @Test func retryRules() {
        #expect(!APNsReason.unregistered.isRetryable)
        #expect(!APNsReason.payloadTooLarge.isRetryable)
        #expect(APNsReason.tooManyRequests.isRetryable)
        #expect(APNsReason.shutdown.isRetryable)
        #expect(!APNsReason.badTopic.isRetryable)
    }
}

@Suite struct PushTypeTests {
    @Test(arguments: [
        (APNsPushType.alert, ""), (.background, ""), (.complication, ".complication"),
        (.controls, ".push-type.controls"), (.fileprovider, ".pushkit.fileprovider"),
        (.liveactivity, ".push-type.liveactivity"), (.location, ".location-query"), (.mdm, ""),
        (.pushtotalk, ".voip-ptt"), (.voip, ".voip"), (.widgets, ".push-type.widgets"),
    ])
    func suffixes(type: APNsPushType, suffix: String) {
        #expect(type.topicSuffix == suffix)
        if !suffix.isEmpty {
            #expect(APNsPushType.impliedBy(topic: "com.example.app" + suffix) == type)
            #expect(APNsPushType.bundleID(ofTopic: "com.example.app" + suffix) == "com.example.app")
        }
    }

    @Test func elevenTypesAndLimits() {
        #expect(APNsPushType.allCases.count == 11)
        #expect(APNsPushType.voip.maxPayloadBytes == 5120)
        #expect(APNsPushType.alert.maxPayloadBytes == 4096)
        #expect(APNsPushType.impliedBy(topic: "com.example.app") == nil)
        #expect(APNsPushType.impliedBy(topic: ".voip") == nil)
    }

    /// The push type a payload implies without `apns-push-type` (pushcheck's sends, FCM's translation,
    /// `check-payload`): background only for `content-available: 1` with none of alert, badge, sound.
    @Test(arguments: [
        (#"{"aps":{"content-available":1},"sync":"42"}"#, APNsPushType.background),
        (#"{"aps":{"content-available":1,"mutable-content":1,"category":"C","thread-id":"t"}}"#, .background),
        (#"{"aps":{"alert":{"title":"Hi"}}}"#, .alert),
        (#"{"aps":{"alert":{"title":"Hi"},"content-available":1}}"#, .alert),
        // Keys that make the user notice, whatever they hold: a localized alert with no text of its own, a badge
        // that clears, a sound in its dictionary form.
        (#"{"aps":{"alert":{"title-loc-key":"SHIPPED"},"content-available":1}}"#, .alert),
        (#"{"aps":{"badge":0,"content-available":1}}"#, .alert),
        (#"{"aps":{"sound":{"critical":1,"volume":0.5},"content-available":1}}"#, .alert),
        // Only the number 1 asks for a background update.
        (#"{"aps":{"content-available":0}}"#, .alert),
        (#"{"aps":{"content-available":"1"}}"#, .alert),
        (#"{"aps":"x"}"#, .alert),
        (#"{"data":1}"#, .alert),
    ])
    func impliedByPayload(json: String, type: APNsPushType) throws {
        #expect(APNsPushType.implied(byPayload: try JSONValue.parse(json)) == type, "\(json)")
    }

    @Test func impliedByKeys() {
        #expect(APNsPushType.implied(contentAvailable: true, apsHasKey: { $0 == "content-available" }) == .background)
        #expect(APNsPushType.implied(contentAvailable: true, apsHasKey: { $0 == "badge" }) == .alert)
        #expect(APNsPushType.implied(contentAvailable: false, apsHasKey: { _ in false }) == .alert)
    }

    @Test func priorities() {
        #expect(APNsPriority(headerValue: "10") == .immediate)
        #expect(APNsPriority(headerValue: "5") == .conserve)
        #expect(APNsPriority(headerValue: "1") == .powerConsiderations)
        for bad in ["0", "2", "010", " 5", "high", "", "+10", "10 ", "-1", "11", "1\u{0}", "５"] {
            #expect(APNsPriority(headerValue: bad) == nil, "\(bad)")
        }
    }
}

@Suite struct DeviceTokenTests {
    @Test func acceptsAnyEvenLengthHex() {
        #expect(DeviceToken(hex: "AB")?.hex == "ab")
        #expect(DeviceToken(hex: String(repeating: "0f", count: 32)) != nil)
        #expect(DeviceToken(hex: String(repeating: "ab", count: 100)) != nil)
        for bad in ["", "a", "abc", "zz", "ab cd", "0x12"] { #expect(DeviceToken(hex: bad) == nil, "\(bad)") }
    }

    @Test func bytesRoundTrip() {
        let t = DeviceToken(bytes: [0x00, 0xff, 0x10])!
        #expect(t.hex == "00ff10")
        #expect(t.bytes == [0x00, 0xff, 0x10])
        #expect(DeviceToken(bytes: []) == nil)
        #expect(DeviceToken(hex: "00FF10") == t)
    }

    /// The token hashes by a digest made once: equal tokens, however made, are one key; tokens that differ in any
    /// byte (inside an eight-byte word or in the tail) or only in length are different keys.
    @Test func equalTokensAreOneKeyAndAnyByteMakesAnother() throws {
        let hex = String(repeating: "0123456789abcdef", count: 4) + "42"
        let lower = try #require(DeviceToken(hex: hex))
        let upper = try #require(DeviceToken(hex: hex.uppercased()))
        let fromBytes = try #require(DeviceToken(bytes: lower.bytes))
        #expect(Set([lower, upper, fromBytes]).count == 1)
        #expect([lower: 1][fromBytes] == 1)
        #expect(lower.hashValue == upper.hashValue && lower.hashValue == fromBytes.hashValue)

        var differing: [DeviceToken] = [lower]
        let digits = Array(hex.utf8)
        for i in [0, 7, 8, 31, 63, 64, 65] {
            var changed = digits
            changed[i] = changed[i] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            differing.append(try #require(DeviceToken(hex: String(decoding: changed, as: UTF8.self))))
        }
        differing.append(try #require(DeviceToken(hex: String(hex.dropLast(2)))))
        differing.append(try #require(DeviceToken(hex: hex + "00")))
        #expect(Set(differing).count == differing.count)
        #expect(Set(differing.map(\.hashValue)).count == differing.count)
    }

    /// Coded as `{"hex": …}`, as the synthesized coding did before the token kept a digest; decoded, it is the
    /// same key as the token made from the hex.
    @Test func codesAsItsHexAlone() throws {
        let t = try #require(DeviceToken(hex: "00ff10"))
        let data = try JSONEncoder().encode(t)
        #expect(String(decoding: data, as: UTF8.self) == #"{"hex":"00ff10"}"#)
        let back = try JSONDecoder().decode(DeviceToken.self, from: data)
        #expect(back == t && back.hashValue == t.hashValue)
        // The placeholder (made without a pass over its bytes) is the same key as an empty hex decoded.
        let empty = try JSONDecoder().decode(DeviceToken.self, from: Data(#"{"hex":""}"#.utf8))
        #expect(empty == DeviceToken.placeholder && empty.hashValue == DeviceToken.placeholder.hashValue)
    }
}

@Suite struct ClockTests {
    @Test func manualClockMovesOnlyWhenTold() {
        let c = ManualClock()
        let t0 = c.now()
        #expect(c.now() == t0)
        c.advance(by: 3600)
        #expect(c.now().timeIntervalSince(t0) == 3600)
        c.set(Date(timeIntervalSince1970: 5))
        #expect(c.now() == Date(timeIntervalSince1970: 5))
    }
}
