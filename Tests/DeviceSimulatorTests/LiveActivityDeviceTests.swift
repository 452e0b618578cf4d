import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Tests/reference/live-activities.md §1–§3 and §5 on a whole device: which tokens iOS issues, when
/// `Activity.request` fails, push-to-start through the token, channels, uninstall.
@Suite struct LiveActivityDeviceTests {
    static let ride = LiveActivityEngineTests.ride

    static func app(supports: Bool = true) -> AppDeclaration {
        var a = Fixture.app()
        a.liveActivities = [ride, LiveActivityDeclaration(attributesType: "CourierAttributes", contentState: [])]
        a.supportsLiveActivities = supports
        return a
    }

    static func device(ios: String = "18.2", seed: UInt64 = 42) -> (SimulatedDevice, ManualClock) {
        let clock = ManualClock(start: LiveActivityEngineTests.t0)
        return (SimulatedDevice(name: "iPhone", udid: Fixture.udid, iosVersion: ios, seed: seed, clock: clock), clock)
    }

    static func request(_ push: ActivityRequest.PushType? = .token) -> ActivityRequest {
        ActivityRequest(
            attributesType: "RideAttributes", attributes: .object(["ride_id": "R1"]),
            contentState: .object(["eta": 7, "driver": "Ann"]), pushType: push)
    }

    static func push(_ token: DeviceToken?, _ aps: String, id: String = "p1") -> IncomingPush {
        IncomingPush(
            bundleID: Fixture.bundleID, token: token, payload: Fixture.json(#"{"aps":\#(aps)}"#),
            pushType: .liveactivity, priority: .immediate, apnsID: id)
    }

    /// §2.2: a push-to-start token per declared type on iOS 17.2+, seeded, distinct from each other and the APNs token.
    @Test func pushToStartTokensPerTypeFrom17_2() {
        let (d, _) = Self.device()
        d.setUp(Self.app())
        let s = d.snapshot
        let tokens = s.liveActivities.pushToStartTokens[Fixture.bundleID] ?? [:]
        #expect(Set(tokens.keys) == ["RideAttributes", "CourierAttributes"])
        #expect(Set(tokens.values.map(\.hex)).count == 2)
        #expect(!tokens.values.contains(s.apps[Fixture.bundleID]!.token!))
        let (again, _) = Self.device()
        again.setUp(Self.app())
        #expect(again.snapshot.liveActivities.pushToStartTokens == s.liveActivities.pushToStartTokens)
        let (other, _) = Self.device(seed: 43)
        other.setUp(Self.app())
        #expect(other.snapshot.liveActivities.pushToStartTokens != s.liveActivities.pushToStartTokens)
        let (old, _) = Self.device(ios: "17.1")
        old.setUp(Self.app())
        #expect(old.snapshot.liveActivities.pushToStartTokens.isEmpty)
        // §1: before iOS 16.1 there is no ActivityKit at all; 17.1 starts activities, without push-to-start.
        old.launch(Fixture.bundleID)
        old.startActivity(Fixture.bundleID, Self.request())
        #expect(old.snapshot.liveActivities.activities.count == 1)
        let (older, _) = Self.device(ios: "16.0")
        older.setUp(Self.app())
        older.launch(Fixture.bundleID)
        older.startActivity(Fixture.bundleID, Self.request())
        #expect(older.snapshot.liveActivities.activities.isEmpty)
    }

    /// §1.1: without NSSupportsLiveActivities: an install warning, no token, Activity.request fails.
    @Test func withoutNSSupportsLiveActivities() {
        let (d, _) = Self.device()
        d.setUp(Self.app(supports: false))
        d.launch(Fixture.bundleID)
        let warned = d.events.contains {
            if case .capabilityWarning(.liveActivitiesNotSupported) = $0.kind { true } else { false }
        }
        #expect(warned)
        #expect(d.snapshot.liveActivities.pushToStartTokens.isEmpty)
        let e = d.startActivity(Fixture.bundleID, Self.request())
        #expect(e.map(\.kind).contains { if case .activity(.requestFailed) = $0 { true } else { false } })
        #expect(d.snapshot.liveActivities.activities.isEmpty)
    }

    /// §3.2: Activity.request only in the foreground; a token per activity, distinct.
    @Test func requestNeedsTheForegroundAndGivesATokenPerActivity() throws {
        let (d, _) = Self.device()
        d.setUp(Self.app())
        d.startActivity(Fixture.bundleID, Self.request())
        #expect(d.snapshot.liveActivities.activities.isEmpty)
        d.launch(Fixture.bundleID)
        d.startActivity(Fixture.bundleID, Self.request())
        d.startActivity(Fixture.bundleID, Self.request())
        d.startActivity(Fixture.bundleID, Self.request(nil))
        let all = d.snapshot.liveActivities.activities
        #expect(all.map(\.id) == ["a1", "a2", "a3"])
        #expect(all[0].pushToken != nil && all[0].pushToken != all[1].pushToken && all[2].pushToken == nil)
        // A mistyped initial content state is the app's encoding error: nothing starts.
        var bad = Self.request()
        bad.contentState = .object(["eta": "7", "driver": "Ann"])
        d.startActivity(Fixture.bundleID, bad)
        #expect(d.snapshot.liveActivities.activities.count == 3)
    }

    /// §2.2: a push-to-start push starts an activity that reports its own token (input-push-token) or listens to
    /// a channel (input-push-channel, §5); start to an activity's token and update to a push-to-start token are dropped.
    @Test func pushToStartThroughTheToken() throws {
        let (d, _) = Self.device()
        d.setUp(Self.app())
        let start = try #require(d.snapshot.liveActivities.pushToStartTokens[Fixture.bundleID]?["RideAttributes"])
        let payload =
            #"{"event":"start","timestamp":1780272000,"attributes-type":"RideAttributes","attributes":{"ride_id":"R1"},"content-state":{"eta":7,"driver":"Ann"},"input-push-token":1}"#
        #expect(d.deliverLiveActivity(Self.push(start, payload)).disposition == .accepted)
        let a = try #require(d.snapshot.liveActivities.activities.first)
        #expect(a.origin == .pushToStart && a.pushToken != nil && a.state(at: LiveActivityEngineTests.t0) == .active)
        let e = d.deliverLiveActivity(Self.push(a.pushToken, payload, id: "p2")).events
        #expect(Fixture.drops(e) == [.activityEventInvalid])
        let update = #"{"event":"update","timestamp":1780272010,"content-state":{"eta":5,"driver":"Ann"}}"#
        #expect(
            Fixture.drops(d.deliverLiveActivity(Self.push(start, update, id: "p3")).events) == [.activityEventInvalid])
        let channel =
            #"{"event":"start","timestamp":1780272000,"attributes-type":"RideAttributes","attributes":{"ride_id":"R2"},"content-state":{"eta":7,"driver":"Bo"},"input-push-channel":"Y2hhbm5lbA=="}"#
        d.deliverLiveActivity(Self.push(start, channel, id: "p4"))
        #expect(d.snapshot.liveActivities.activities.last?.channelID == "Y2hhbm5lbA==")
        #expect(d.channelSubscribers("Y2hhbm5lbA==", environment: .sandbox) == [Fixture.bundleID])
        #expect(d.channelSubscribers("Y2hhbm5lbA==", environment: .production).isEmpty)
        // A broadcast on the channel updates that activity only.
        d.deliverLiveActivity(Self.push(nil, update, id: "p5"), channelID: "Y2hhbm5lbA==")
        let after = d.snapshot.liveActivities.activities
        #expect(after[0].contentState["eta"] == 7 && after[1].contentState["eta"] == 5)
    }

    /// §2.3, §5.3: channels are iOS 18. On iOS 17.x a push-to-start with input-push-channel starts the activity
    /// without a channel (an `activity-channel-ignored` event says why), and broadcasts on that channel never
    /// reach it.
    @Test func pushToStartChannelBelowIOS18StartsWithoutAChannel() throws {
        let (d, _) = Self.device(ios: "17.5")
        d.setUp(Self.app())
        let start = try #require(d.snapshot.liveActivities.pushToStartTokens[Fixture.bundleID]?["RideAttributes"])
        let channel =
            #"{"event":"start","timestamp":1780272000,"attributes-type":"RideAttributes","attributes":{"ride_id":"R2"},"content-state":{"eta":7,"driver":"Bo"},"input-push-channel":"Y2hhbm5lbA=="}"#
        let e = d.deliverLiveActivity(Self.push(start, channel, id: "p1")).events
        let a = try #require(d.snapshot.liveActivities.activities.first)
        #expect(a.channelID == nil)
        #expect(
            e.contains {
                "\($0.kind)".hasSuffix(
                    "a1 not subscribed to channel Y2hhbm5lbA==: broadcast channels need iOS 18.0 (device: 17.5)")
            }, "\(e.map(\.kind))")
        #expect(d.channelSubscribers("Y2hhbm5lbA==", environment: .sandbox).isEmpty)
        let update = #"{"event":"update","timestamp":1780272010,"content-state":{"eta":5,"driver":"Bo"}}"#
        d.deliverLiveActivity(Self.push(nil, update, id: "p2"), channelID: "Y2hhbm5lbA==")
        #expect(d.snapshot.liveActivities.activities.first?.contentState["eta"] == 7)
    }

    /// A push that came by a broadcast channel with another event than update/end is dropped naming the channel (it
    /// said "an activity's token"); a start says a broadcast cannot start one (Tests/reference/apns.md §8).
    @Test func aBroadcastStartIsDroppedNamingTheChannel() throws {
        let (d, _) = Self.device()
        d.setUp(Self.app())
        d.launch(Fixture.bundleID)
        d.startActivity(Fixture.bundleID, Self.request(.channel("Y2hhbm5lbA==")))
        let start =
            #"{"event":"start","timestamp":1780272010,"attributes-type":"RideAttributes","attributes":{"ride_id":"R2"},"content-state":{"eta":5,"driver":"Bo"}}"#
        let e = d.deliverLiveActivity(Self.push(nil, start, id: "b1"), channelID: "Y2hhbm5lbA==").events
        #expect(
            e.contains {
                "\($0.kind)".hasSuffix(
                    "aps.event 'start': broadcast channel Y2hhbm5lbA== takes update or end (a broadcast push cannot "
                        + "start a Live Activity)")
            }, "\(e.map(\.kind))")
        #expect(d.snapshot.liveActivities.activities.first?.contentState["eta"] == 7)
    }

    /// An alert push that reaches an ActivityKit address is not shown as a notification: the one token-kind rule
    /// (`PushTokenKind.outcome(of:at:)`) drops it before ActivityKit sees it.
    @Test func otherPushTypesAreNotForActivityKit() throws {
        let (d, _) = Self.device()
        d.setUp(Self.app())
        let start = try #require(d.snapshot.liveActivities.pushToStartTokens[Fixture.bundleID]?["RideAttributes"])
        var p = Self.push(start, #"{"alert":"Hi"}"#)
        p.pushType = .alert
        #expect(Fixture.drops(d.deliverLiveActivity(p).events) == [.tokenKindMismatch(.alert, .pushToStart)])
        #expect(d.snapshot.notificationCenter.isEmpty)
    }

    /// Deleting the app removes its activities and their tokens (the sink unregisters them).
    @Test func uninstallRemovesActivities() {
        let (d, _) = Self.device()
        d.setUp(Self.app())
        d.launch(Fixture.bundleID)
        d.startActivity(Fixture.bundleID, Self.request())
        let e = d.uninstall(Fixture.bundleID)
        #expect(e.contains { if case .activity(.removed("a1", _?)) = $0.kind { true } else { false } })
        #expect(d.snapshot.liveActivities.activities.isEmpty)
        #expect(d.snapshot.liveActivities.pushToStartTokens.isEmpty)
    }
}
