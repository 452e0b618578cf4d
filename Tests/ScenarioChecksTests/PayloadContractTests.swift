import Foundation
@testable import PushModel
import Testing

@testable import ScenarioChecks
@testable import SuiteFormat

/// `PayloadContract` (what `pushcheck check-payload` prints) on the shop app of Suites/.
@Suite struct PayloadContractTests {
    static func contract() throws -> PayloadContract {
        let apps = try SuiteLoader.loadApps(path: Fixture.suites + "/apps/shop-app.yaml")
        return PayloadContract(app: try #require(apps.first))
    }

    func check(_ json: String, route: String? = nil, fcm: Bool = false) throws -> PayloadContract.Report {
        try Self.contract().check(Array(json.utf8), route: route, fcm: fcm)
    }

    @Test func aGoodPayloadTakesItsRouteToItsScreen() throws {
        let r = try check(#"{"aps":{"alert":{"title":"Order A1001 shipped"}},"order_id":"A1001"}"#, route: "order")
        #expect(r.ok, "\(r.problems)")
        let tap = try #require(r.outcomes.first { $0.trigger == .tap })
        #expect(tap.route == "order" && tap.failure == nil)
        #expect(tap.tabTitle == "Orders" && tap.stack == ["order"] && tap.title == "Order A1001 shipped")
        #expect(r.outcomes.first { $0.trigger == .foreground }?.route == nil)
        #expect(r.pushType == .alert && r.bytes == 68)
    }

    @Test func aRenamedKeyFailsTheRouteWithDidYouMean() throws {
        let r = try check(#"{"aps":{"alert":{"title":"Order"}},"orderId":"A1001"}"#)
        #expect(!r.ok)
        let tap = try #require(r.outcomes.first { $0.trigger == .tap })
        #expect(tap.failure?.key == "order_id" && tap.failure?.found == "missing")
        #expect(tap.failure?.didYouMean == "orderId")
        #expect(r.problems.first?.contains("did you mean 'orderId'?") == true)
        // A typo is caught by the spelling distance too.
        let typo = try check(#"{"aps":{"alert":{"title":"Order"}},"ordr_id":"A1001"}"#)
        #expect(typo.outcomes.first?.failure?.didYouMean == "ordr_id")
    }

    @Test func aMistypedKeyAndTheRouteItWasMeantFor() throws {
        let r = try check(#"{"aps":{"alert":"20% off"},"promo_code":"W20","discount":"20"}"#, route: "offer")
        #expect(r.problems.contains { $0.contains("key 'discount' should be integer, found string \"20\"") })
        #expect(!r.problems.contains { $0.hasPrefix("meant for route offer") }, "its failure is already listed")
        // Meant for offer, but another route takes it: say why offer did not.
        let other = try check(#"{"aps":{"alert":{"title":"x"}},"order_id":"1","promo":"W20"}"#, route: "offer")
        #expect(
            other.problems == [
                "meant for route offer, but tap → order, foreground → no route: key 'promo_code' is missing (did you mean 'promo'?); key 'discount' is missing"
            ])
        let unknown = try check(#"{"aps":{"alert":"x"},"order_id":"1"}"#, route: "ofer")
        #expect(unknown.problems.contains { $0.contains("no route 'ofer' (did you mean 'offer'?)") })
    }

    @Test func sizeLimitPerPushType() throws {
        let big = String(repeating: "x", count: 4100)
        let alert = try check(#"{"aps":{"alert":"hi"},"order_id":"1","pad":"\#(big)"}"#)
        #expect(alert.problems.contains { $0.contains("over the APNs limit of 4096 for alert pushes") })
        let voip = try Self.contract().check(
            Array(#"{"aps":{},"order_id":"1","pad":"\#(big)"}"#.utf8), pushType: .voip)
        #expect(!voip.problems.contains { $0.contains("over the APNs limit") }, "VoIP allows 5120 bytes")
        let silent = try check(#"{"aps":{"content-available":1},"x":"y"}"#)
        #expect(silent.pushType == .background)
        #expect(silent.outcomes.map(\.trigger) == [.foreground], "a silent push has nothing to tap")
    }

    @Test func fcmDataRules() throws {
        let message =
            #"{"message":{"token":"t","data":{"order_id":"A1","count":3,"from":"me"},"apns":{"payload":{"aps":{"alert":{"title":"T"}}}}}}"#
        let r = try check(message, fcm: true)
        #expect(r.problems.contains { $0.contains("'count' is a number, FCM takes only strings") })
        #expect(r.problems.contains { $0.contains("FCM data key 'from' is reserved") })
        #expect(r.outcomes.first { $0.trigger == .tap }?.route == "order", "data keys arrive beside aps")
        let received = try check(#"{"aps":{"alert":{"title":"x"}},"order_id":"A1","gcm.message_id":"17"}"#, fcm: true)
        #expect(received.ok, "gcm.message_id on a received push was added by FCM: \(received.problems)")
    }

    /// An FCM message is checked as the device receives it: FCM's translation (the FCM gateway's own), so
    /// `notification.title` is `aps.alert.title`, `apns.payload`'s keys arrive beside `aps` without any `data`, and the
    /// size is FCM's verdict on what it builds (its own keys included), not the request's.
    @Test func fcmMessageIsCheckedAsTranslated() throws {
        let notification = try check(
            #"{"message":{"token":"t","data":{"order_id":"A1"},"notification":{"title":"T"}}}"#, fcm: true)
        #expect(notification.ok, "\(notification.problems)")
        #expect(notification.outcomes.first { $0.trigger == .tap }?.title == "T")
        let noData = try check(
            #"{"message":{"token":"t","notification":{"title":"x"},"apns":{"payload":{"aps":{"sound":"default"},"order_id":"A1"}}}}"#,
            fcm: true)
        #expect(noData.ok, "\(noData.problems)")
        #expect(noData.outcomes.first { $0.trigger == .tap }?.route == "order")
        // A bare message (no "message" wrapper, no target) is one too.
        #expect(try check(#"{"notification":{"title":"x"},"data":{"order_id":"A1"}}"#, fcm: true).ok)
        let pad = String(repeating: "x", count: 3950)
        let big = try check(
            #"{"message":{"token":"t","data":{"order_id":"A1","pad":"\#(pad)"},"apns":{"payload":{"aps":{"alert":{"title":"Order"}}}}}}"#,
            fcm: true)
        #expect(big.problems == ["FCM refuses the message: 400 INVALID_ARGUMENT: Message is too big (message)"])
        #expect(big.bytes > 4096, "the size shown is the payload FCM builds")
        // What FCM refuses for its own rules, with its error.
        let badHeader = try check(
            #"{"message":{"token":"t","data":{"order_id":"A1"},"apns":{"headers":{"apns-priority":"7"},"payload":{"aps":{"alert":"x"}}}}}"#,
            fcm: true)
        #expect(badHeader.problems.first?.hasPrefix("FCM refuses the message: 400 INVALID_ARGUMENT") == true)
    }

    @Test func notJSON() throws {
        #expect(try check("[1]").problems == ["not a JSON object"])
        // Invalid JSON says where, as a suite's inline payload does (`JSONParseError`).
        let broken = try check(#"{"aps":{"alert":"a"},}"#).problems
        #expect(broken.count == 1 && broken[0].hasPrefix("invalid JSON at 1:22: "), "\(broken)")
    }
}
