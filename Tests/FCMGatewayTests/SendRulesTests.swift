@testable import APNsGateway
import Foundation
@testable import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import Testing

@testable import FCMGateway

/// `messages:send` rules in-process (the same evaluate the sockets use; HTTPTests run them over the wire).
@Suite struct SendRulesTests {
    let w = World()

    @Test func tokenSendDeliversThroughAPNs() {
        let (status, body) = w.send(
            #"{"token":"\#(Fixture.tokenA)","notification":{"title":"Hi","body":"there"},"data":{"k":"v"}}"#)
        #expect(status == 200)
        let name = body["name"]?.stringValue ?? ""
        #expect(name.hasPrefix("projects/demo-project/messages/0:"))
        let log = w.apns.log()
        #expect(log.count == 1)
        #expect(log.first?.status == 200)
        #expect(log.first?.token == Fixture.sandboxAPNs)
        let payload = (try? JSONValue.parse(log.first?.payload ?? [])) ?? .null
        #expect(payload[path: "aps.alert.title"] == "Hi")
        #expect(payload["k"] == "v")
        #expect(payload["google.c.sender.id"] == "123456789012")
        #expect(payload["google.c.fid"]?.stringValue == Fixture.fidA)
        // One FCM log entry with the APNs hop inside.
        let entry = w.fcm.log().last!
        #expect(entry.name == name)
        #expect(
            entry.apns.count == 1 && entry.apns[0].status == 200
                && entry.apns[0].headers["apns-topic"] == Fixture.bundle)
    }

    /// The hop shows the APNs request's headers as the translation wrote them: the provider token the gateway
    /// signed the request with is on the APNs side (its log has it), not in the FCM log (the hop shares the
    /// request's header array and hides that last field).
    @Test func theHopShowsTheTranslatedHeadersWithoutTheProviderToken() throws {
        let (status, _) = w.send(#"{"token":"\#(Fixture.tokenA)","notification":{"title":"Hi"}}"#)
        #expect(status == 200)
        let hop = try #require(w.fcm.log().last?.apns.first)
        #expect(hop.headerFields.map(\.name) == ["apns-topic", "apns-push-type", "apns-priority"])
        #expect(hop.headers == ["apns-topic": Fixture.bundle, "apns-push-type": "alert", "apns-priority": "10"])
        #expect(hop.signedWithLast && hop.sentFields.last?.name == "authorization")
        let signed = try #require(w.apns.log().last?.headers.last)
        #expect(signed.name == "authorization" && signed.value.hasPrefix("bearer "))
        #expect(hop.sentFields.last == signed)
        // Equal to a hop with the same headers and no provider token: the token is not part of what the log shows.
        var unsigned = hop
        unsigned.sentFields.removeLast()
        unsigned.signedWithLast = false
        #expect(unsigned == hop)
    }

    /// `0:<µs on the world clock>%<16 hex>` as FCM names messages (`0:1500415314455276%31bd1c9631bd1c96`): it
    /// moves with the clock and stays unique while the clock stands still, goes back, or the gateway resets.
    @Test func messageNamesFollowTheWorldClockAndStayUnique() throws {
        // Near the real time: the in-process APNs gateway checks the provider token's iat on the system clock.
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 0.455276)
        let clock = ManualClock(start: start)
        let w = World(clock: clock)
        func name(_ target: String = #""token":"\#(Fixture.tokenA)""#, dryRun: Bool = false) throws -> String {
            let (status, body) = w.send("{\(target),\"data\":{\"k\":\"v\"}}", validateOnly: dryRun)
            #expect(status == 200, "\(target): \(body)")
            return try #require(body["name"]?.stringValue)
        }
        let first = try name()
        let pattern = try Regex(#"^projects/demo-project/messages/0:([0-9]{16})%([0-9a-f]{8})\2$"#)
        let match = try #require(first.wholeMatch(of: pattern), "\(first)")
        let micros = try #require(UInt64(match.output[1].substring ?? ""))
        let expected = UInt64(start.timeIntervalSince1970.rounded(.down)) * 1_000_000 + 455_276
        #expect((expected - 1...expected).contains(micros), "the clock's instant")
        let suffix = first.split(separator: "%").last
        #expect(try name().hasSuffix("0:\(micros + 1)%\(suffix ?? "")"), "the same instant: the next number")
        clock.advance(by: 60)
        #expect(try name().contains("0:\(micros + 60_000_000)%"))
        // The payload's gcm.message_id is the same number.
        let payload = try JSONValue.parse(try #require(w.apns.log().last?.payload))
        #expect(payload["gcm.message_id"]?.stringValue == String(micros + 60_000_000))
        clock.advance(by: -600)
        w.fcm.reset()
        // Dry runs from here: a reset re-signs the provider token, which APNs refuses within 20 minutes of the last.
        #expect(try name(dryRun: true).contains("0:\(micros + 60_000_001)%"), "never below one already issued")
        #expect(
            try name(#""topic":"news""#, dryRun: true) == "projects/demo-project/messages/\(micros + 60_000_002)")
    }

    /// The log keeps the last `capacity` entries, oldest first, numbered in order; reset starts it again.
    @Test func logKeepsTheLastCapacityEntries() {
        let w = World { $0.logCapacity = 3 }
        for _ in 0..<7 { _ = w.send(#"{"token":"\#(Fixture.tokenA)","data":{"k":"v"}}"#, validateOnly: true) }
        #expect(w.fcm.log().map(\.sequence) == [5, 6, 7])
        #expect(w.fcm.log(limit: 2).map(\.sequence) == [6, 7])
        w.fcm.clearLog()
        #expect(w.fcm.log().isEmpty)
        _ = w.send(#"{"token":"\#(Fixture.tokenA)"}"#, validateOnly: true)
        #expect(w.fcm.log().map(\.sequence) == [8])
        w.fcm.reset()
        _ = w.send(#"{"token":"\#(Fixture.tokenA)"}"#, validateOnly: true)
        #expect(w.fcm.log().map(\.sequence) == [1])
    }

    /// `apns.live_activity_token` is a field FCM has, which pushcheck does not model: refused with that reason,
    /// nothing sent to APNs (before, the push went to the app's device token as if the field were not there).
    @Test func liveActivityTokenIsRefusedNotDeliveredElsewhere() {
        for validateOnly in [false, true] {
            let (status, body) = w.send(
                #"{"token":"\#(Fixture.tokenA)","apns":{"live_activity_token":"\#(Fixture.sandboxAPNs)","payload":{"aps":{"event":"update","timestamp":1,"content-state":{}}}}}"#,
                validateOnly: validateOnly)
            #expect(status == 400 && body.fcmErrorCode == "INVALID_ARGUMENT")
            #expect(body.violationField == "message.apns.live_activity_token")
            #expect(body["error"]?["message"]?.stringValue?.contains("does not model") == true)
        }
        #expect(w.apns.log().isEmpty)
        #expect(w.fcm.log().allSatisfy { $0.status == 400 && $0.apns.isEmpty })
    }

    @Test func validateOnlyChecksTokenButDeliversNothing() {
        let (ok, body) = w.send(#"{"token":"\#(Fixture.tokenA)","data":{"k":"v"}}"#, validateOnly: true)
        #expect(ok == 200)
        #expect(body["name"]?.stringValue?.hasPrefix("projects/demo-project/messages/") == true)
        #expect(w.apns.log().isEmpty)
        // camelCase accepted too.
        let r = w.fcm.evaluate(
            w.request(
                "POST", "/v1/projects/demo-project/messages:send",
                json: #"{"validateOnly":true,"message":{"token":"\#(Fixture.staleToken)"}}"#, bearer: w.bearer()))
        #expect(r.status == 404)
        #expect(w.apns.log().isEmpty)
        let (bad, badBody) = w.send(#"{"token":"not-a-token"}"#, validateOnly: true)
        #expect(bad == 400 && badBody.fcmErrorCode == "INVALID_ARGUMENT" && badBody.violationField == nil)
    }

    @Test func projectNumberWorksInThePath() {
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#, project: "123456789012").0 == 200)
    }

    @Test func exactlyOneTarget() {
        let (none, noneBody) = w.send(#"{"data":{"a":"b"}}"#)
        #expect(none == 400)
        #expect(noneBody[path: "error.message"] == "Recipient of the message is not set.")
        let (two, twoBody) = w.send(#"{"token":"\#(Fixture.tokenA)","topic":"news"}"#)
        #expect(two == 400)
        #expect(twoBody[path: "error.message"]?.stringValue?.contains("Oneof field 'target' is already set") == true)
        #expect(twoBody[path: "error.status"] == "INVALID_ARGUMENT")
    }

    @Test func dataValuesMustBeStringsWithGooglesExactError() {
        let (status, body) = w.send(#"{"token":"\#(Fixture.tokenA)","data":{"a":"x","b":12}}"#)
        #expect(status == 400)
        #expect(body[path: "error.code"] == 400)
        #expect(body[path: "error.status"] == "INVALID_ARGUMENT")
        #expect(body[path: "error.message"] == "Invalid value at 'message.data[1].value' (TYPE_STRING), 12")
        #expect(body.violationField == "message.data[1].value")
        #expect(body.fcmErrorCode == nil)  // a decoding error: the BadRequest alone (Google's example 1)
        // The index is the entry's position as sent, not alphabetical.
        let (_, wire) = w.send(#"{"token":"\#(Fixture.tokenA)","data":{"z":true,"a":"x"}}"#)
        #expect(wire[path: "error.message"] == "Invalid value at 'message.data[0].value' (TYPE_STRING), true")
        let (_, apns) = w.send(#"{"token":"\#(Fixture.tokenA)","apns":{"headers":{"b":"1","a":2}}}"#)
        #expect(apns.violationField == "message.apns.headers[1].value")
    }

    @Test(arguments: ["from", "message_type", "google.x", "gcm.notification.x", "googleAnalytics"])
    func reservedDataKeys(key: String) {
        let (status, body) = w.send(#"{"token":"\#(Fixture.tokenA)","data":{"\#(key)":"v"}}"#)
        #expect(status == 400)
        #expect(body.violationField == "message.data")
    }

    @Test func collapseKeyIsNotReserved() {
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)","data":{"collapse_key":"v","fromage":"brie"}}"#).0 == 200)
    }

    @Test func unknownFieldsAreRefusedAsGoogleDoes() {
        let (status, body) = w.send(#"{"token":"\#(Fixture.tokenA)","notificaton":{"title":"x"}}"#)
        #expect(status == 400)
        #expect(
            body[path: "error.message"]
                == #"Invalid JSON payload received. Unknown name "notificaton" at 'message': Cannot find field."#)
    }

    @Test func topicPattern() {
        #expect(w.send(#"{"topic":"news-1_a.b~c%20"}"#).0 == 200)
        #expect(w.send(#"{"topic":"/topics/news"}"#).0 == 200)
        let (status, body) = w.send(#"{"topic":"bad topic!"}"#)
        #expect(status == 400 && body.violationField == "message.topic")
    }

    @Test func conditions() {
        #expect(w.send(#"{"condition":"'a' in topics && ('b' in topics || 'c' in topics)"}"#).0 == 200)
        #expect(w.send(#"{"condition":"!('a' in topics)"}"#).0 == 200)
        let six = (1...6).map { "'t\($0)' in topics" }.joined(separator: " || ")
        let (status, body) = w.send(#"{"condition":"\#(six)"}"#)
        #expect(status == 400 && body.violationField == "message.condition")
        for bad in [
            "'a' in topics &&", "('a' in topics", "'a' in topic", "a in topics", "'a' in topics & 'b' in topics",
            "'a b' in topics",
        ] {
            #expect(w.send(#"{"condition":"\#(bad)"}"#).0 == 400, "\(bad)")
        }
    }

    /// Nesting is bounded (the parser recurses per level): a deep condition is refused, not a stack overflow.
    @Test func deeplyNestedConditionIsRefused() {
        let ok =
            String(repeating: "(", count: FCMCondition.maxNesting) + "'a' in topics"
            + String(repeating: ")", count: FCMCondition.maxNesting)
        #expect(w.send(#"{"condition":"\#(ok)"}"#).0 == 200)
        for deep in [
            "(" + ok + ")", String(repeating: "(", count: 100_000),
            String(repeating: "!", count: 100_000) + "'a' in topics",
        ] {
            let (status, body) = w.send(#"{"condition":"\#(deep)"}"#)
            #expect(status == 400 && body.violationField == "message.condition")
            #expect(body[path: "error.message"] == "Invalid condition expression provided.")
        }
    }

    @Test func conditionSemanticsLeftToRight() throws {
        let c = try FCMCondition.parse("'a' in topics || 'b' in topics && 'c' in topics")
        #expect(c == .and(.or(.topic("a"), .topic("b")), .topic("c")))
        #expect(!c.matches(["a"]))
        #expect(c.matches(["a", "c"]))
        let n = try FCMCondition.parse("\"x\" in topics && !('y' in topics)")
        #expect(n.matches(["x"]) && !n.matches(["x", "y"]))
    }

    @Test func sizeLimits() {
        let big = String(repeating: "x", count: 4000)
        #expect(
            w.send(#"{"token":"\#(Fixture.tokenA)","data":{"k":"\#(String(repeating: "x", count: 1500))"}}"#).0 == 200)
        let (status, body) = w.send(
            #"{"token":"\#(Fixture.tokenA)","data":{"k":"\#(big)","k2":"\#(String(repeating: "y", count: 200))"}}"#)
        #expect(status == 400 && body[path: "error.message"] == "Message is too big")
        // Topics: 2048.
        #expect(w.send(#"{"topic":"news","data":{"k":"\#(String(repeating: "x", count: 2100))"}}"#).0 == 400)
        #expect(w.send(#"{"topic":"news","data":{"k":"\#(String(repeating: "x", count: 2000))"}}"#).0 == 200)
    }

    /// `check-payload --fcm`'s verdict (`FCMDeviceDelivery`) is the send path's: around the limit, where the count
    /// of the request passes and the translated payload (with FCM's own keys) is over APNs' 4096 bytes, both refuse
    /// the same messages; and the payload it routes is the one the device gets (`data` beside `aps`, the
    /// notification's title as `aps.alert.title`).
    @Test func deviceDeliveryVerdictIsTheSendPaths() throws {
        for pad in stride(from: 3880, through: 3990, by: 5) {
            let message =
                #"{"token":"\#(Fixture.tokenA)","data":{"order_id":"A1","pad":"\#(String(repeating: "x", count: pad))"},"apns":{"payload":{"aps":{"alert":{"title":"Order"}}}}}"#
            let delivery = FCMDeviceDelivery(
                message: try JSONValue.parse(Array(message.utf8)), bundleID: Fixture.bundle)
            let (status, body) = w.send(message)
            #expect((delivery.refusal == nil) == (status == 200), "pad \(pad): \(status) \(body)")
            if status != 200 { #expect(delivery.refusal?.message == body[path: "error.message"]?.stringValue) }
        }
        let withNotification = FCMDeviceDelivery(
            message: try JSONValue.parse(
                Array(#"{"token":"t","data":{"order_id":"A1"},"notification":{"title":"T"}}"#.utf8)),
            bundleID: Fixture.bundle)
        let payload = try JSONValue.parse(try #require(withNotification.payload))
        #expect(
            payload[path: "aps.alert.title"] == "T" && payload["order_id"] == "A1" && withNotification.refusal == nil)
        #expect(withNotification.pushType == .alert)
    }

    /// The size check is skipped for bodies of at most limit ÷ 8 (`maxSizeGrowth`): what it counts never
    /// exceeds 4 × the body, even for the text that grows most when written again (short exponent numbers, `\b`).
    @Test func countedSizeIsBoundedByTheBody() throws {
        let numbers = Array(repeating: "8e15", count: 50).joined(separator: ",")
        let escapes = String(repeating: #"\b"#, count: 50)
        for (message, grows) in [
            (
                #"{"token":"t","apns":{"payload":{"n":[\#(numbers)],"s":"\#(escapes)","-":-1e15,"\#(escapes)":1E9}}}"#,
                true
            ),
            (
                #"{"token":"t","data":{"\#(escapes)":"\#(escapes)"},"notification":{"title":"\u00e9\ud83c\udf89"}}"#,
                false
            ),
        ] {
            let body = Array(#"{"message":\#(message)}"#.utf8)
            let m = try FCMMessageRules.parseSendBody(body).message
            #expect(FCMGateway.payloadSize(m) <= 4 * body.count, "\(FCMGateway.payloadSize(m)) vs body \(body.count)")
            #expect((FCMGateway.payloadSize(m) > body.count) == grows)  // the payload's text did grow when written
        }
    }

    @Test func ttlRange() {
        for ok in ["0s", "3s", "3.5s", "3.000000001s", "2419200s"] {
            #expect(w.send(#"{"token":"\#(Fixture.tokenA)","android":{"ttl":"\#(ok)"}}"#).0 == 200, "\(ok)")
        }
        let (over, overBody) = w.send(#"{"token":"\#(Fixture.tokenA)","android":{"ttl":"2419201s"}}"#)
        #expect(over == 400 && overBody.violationField == "message.android.ttl")
        let (neg, _) = w.send(#"{"token":"\#(Fixture.tokenA)","android":{"ttl":"-1s"}}"#)
        #expect(neg == 400)
        let (bad, badBody) = w.send(#"{"token":"\#(Fixture.tokenA)","android":{"ttl":"3 seconds"}}"#)
        #expect(bad == 400)
        #expect(
            badBody[path: "error.message"]
                == #"Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), "3 seconds""#
        )
    }

    @Test func androidAndWebpushShape() {
        #expect(
            w.send(
                #"{"token":"\#(Fixture.tokenA)","android":{"priority":"HIGH","collapseKey":"c","notification":{"channel_id":"x"}},"webpush":{"headers":{"TTL":"60"},"fcm_options":{"link":"https://x.example"}}}"#
            ).0 == 200)
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)","android":{"priority":"URGENT"}}"#).0 == 400)
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)","android":{"notification":{"colour":"red"}}}"#).0 == 400)
        #expect(
            w.send(#"{"token":"\#(Fixture.tokenA)","webpush":{"fcm_options":{"link":"http://x.example"}}}"#).0 == 400)
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)","fcm_options":{"analytics_label":"bad label"}}"#).0 == 400)
    }

    @Test func apnsHeadersUseTheAPNsGatewaysRules() {
        let cases: [(String, String)] = [
            (#"{"apns-priority":"7"}"#, "BadPriority"), (#"{"apns-push-type":"shout"}"#, "InvalidPushType"),
            (#"{"apns-expiration":"soon"}"#, "BadExpirationDate"),
            (#"{"apns-collapse-id":"\#(String(repeating: "c", count: 65))"}"#, "BadCollapseId"),
            (#"{"apns-id":"not-a-uuid"}"#, "BadMessageId"),
            (#"{"apns-push-type":"voip"}"#, "BadTopic"),
        ]
        for (headers, reason) in cases {
            let (status, body) = w.send(#"{"token":"\#(Fixture.tokenA)","apns":{"headers":\#(headers)}}"#)
            #expect(status == 400, "\(headers)")
            #expect(body.violationField == "message.apns.headers")
            #expect(body[path: "error.message"]?.stringValue?.contains(reason) == true, "\(body)")
        }
        #expect(w.apns.log().isEmpty)
        let (ok, _) = w.send(
            #"{"token":"\#(Fixture.tokenA)","apns":{"headers":{"apns-priority":"5","apns-expiration":"0","apns-collapse-id":"c"}}}"#
        )
        #expect(ok == 200)
        #expect(w.apns.log().last?.status == 200)
    }

    @Test func unregisteredAndUnknownTokens() {
        let (gone, goneBody) = w.send(#"{"token":"\#(Fixture.tokenGone)"}"#)
        #expect(gone == 404)
        #expect(goneBody.fcmErrorCode == "UNREGISTERED")
        #expect(goneBody[path: "error.status"] == "NOT_FOUND")
        #expect(goneBody[path: "error.message"] == "Requested entity was not found.")
        #expect(w.send(#"{"token":"\#(Fixture.staleToken)"}"#).0 == 404)
        let (bad, badBody) = w.send(#"{"token":"not-a-token"}"#)
        #expect(
            bad == 400
                && badBody[path: "error.message"] == "The registration token is not a valid FCM registration token")
        w.fcm.unregisterToken(Fixture.tokenB)
        #expect(w.send(#"{"token":"\#(Fixture.tokenB)"}"#).1.fcmErrorCode == "UNREGISTERED")
    }

    @Test func senderIDMismatch() {
        let (status, body) = w.send(#"{"token":"\#(Fixture.tokenOther)"}"#)
        #expect(status == 403)
        #expect(body.fcmErrorCode == "SENDER_ID_MISMATCH")
        #expect(body[path: "error.status"] == "PERMISSION_DENIED")
    }

    @Test func thirdPartyAuthErrorWithoutAPNsCredentials() {
        let (status, body) = w.send(
            #"{"token":"\#(Fixture.tokenOther)"}"#, project: "other-project", bearer: w.bearer(Fixture.otherEmail))
        #expect(status == 401)
        #expect(body.fcmErrorCode == "THIRD_PARTY_AUTH_ERROR")
        #expect(body[path: "error.status"] == "UNAUTHENTICATED")
    }

    @Test func thirdPartyAuthErrorWhenAPNsRejectsTheKey() {
        // The APNs side no longer knows the key Firebase has: InvalidProviderToken → THIRD_PARTY_AUTH_ERROR.
        let apns = try! APNsGateway(
            configuration: {
                var c = Fixture.apnsConfiguration()
                c.providerKeys = []
                return c
            }())
        let fcm = FCMGateway(configuration: Fixture.configuration(), apns: apns)
        let token = fcm.issueAccessToken(clientEmail: Fixture.email).token
        let r = fcm.evaluate(
            HTTPRequest(
                version: .http2, method: "POST", path: "/v1/projects/demo-project/messages:send",
                headers: [HTTPField("authorization", "Bearer \(token)")],
                body: Array(#"{"message":{"token":"\#(Fixture.tokenA)"}}"#.utf8)))
        #expect(r.status == 401)
        #expect((try? JSONValue.parse(r.body))?.fcmErrorCode == "THIRD_PARTY_AUTH_ERROR")
        #expect(apns.log().last?.reason == "InvalidProviderToken")
        #expect(fcm.log().last?.apns.first?.reason == "InvalidProviderToken")
    }

    /// A project with a push certificate instead of a .p8: the in-process connection presents it to APNs.
    @Test func certificateCredentials() throws {
        let ca = try CertificateAuthority.generate(commonName: "Apple WWDR (test)")
        func world(_ environments: APNsCertificateEnvironments) throws -> World {
            let cert = try ca.issueAPNsClientCertificate(
                APNsClientCertificateRequest(bundleID: Fixture.bundle, teamID: Fixture.team, environments: environments)
            )
            return World { c in c.projects[0].apns = FCMAPNsCredentials(certificateDER: cert.der, environment: .sandbox)
            }
        }
        let good = try world(.sandbox)
        #expect(good.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 200)
        #expect(good.apns.log().last?.auth == .certificate(uid: Fixture.bundle))
        // A production-only certificate on a project that pushes to sandbox: APNs says BadCertificateEnvironment.
        let wrong = try world(.production)
        let (status, body) = wrong.send(#"{"token":"\#(Fixture.tokenA)"}"#)
        #expect(status == 401 && body.fcmErrorCode == "THIRD_PARTY_AUTH_ERROR")
        #expect(wrong.apns.log().last?.reason == "BadCertificateEnvironment")
    }

    @Test func productionTokenOnASandboxProjectIsUnregistered() {
        let (status, body) = w.send(#"{"token":"\#(Fixture.tokenProd)"}"#)
        #expect(status == 404)
        #expect(body.fcmErrorCode == "UNREGISTERED")
        #expect(w.apns.log().last?.reason == "BadDeviceToken")
    }

    @Test func androidInstanceAcceptedWithoutAPNs() {
        #expect(w.send(#"{"token":"\#(Fixture.tokenAndroid)","data":{"a":"b"}}"#).0 == 200)
        #expect(w.apns.log().isEmpty)
    }

    @Test func fidTarget() {
        #expect(w.send(#"{"fid":"\#(Fixture.fidA)"}"#).0 == 200)
        #expect(w.apns.log().last?.token == Fixture.sandboxAPNs)
        #expect(w.send(#"{"fid":"AAAAAAAAAAAAAAAAAAAAAA"}"#).0 == 404)
        #expect(w.send(#"{"fid":"nope"}"#).0 == 400)
    }

    @Test func perDeviceQuota() {
        let w = World(quota: FCMQuota(perDevicePerMinute: 2))
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 200)
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 200)
        let r = w.fcm.evaluate(
            w.request(
                "POST", "/v1/projects/demo-project/messages:send",
                json: #"{"message":{"token":"\#(Fixture.tokenA)"}}"#, bearer: w.bearer()))
        #expect(r.status == 429)
        let body = try! JSONValue.parse(r.body)
        #expect(body.fcmErrorCode == "QUOTA_EXCEEDED")
        #expect(body[path: "error.status"] == "RESOURCE_EXHAUSTED")
        #expect(
            body[path: "error.details"]?.arrayValue?.contains {
                $0["@type"] == "type.googleapis.com/google.rpc.QuotaFailure"
            } == true)
        let retry = Int(r.headers.first { $0.name == "retry-after" }?.value ?? "") ?? 0
        #expect((1...60).contains(retry))
        #expect(w.send(#"{"token":"\#(Fixture.tokenB)"}"#).0 == 200)  // another device is not limited
    }

    /// A send refused for one device's quota was not sent: it does not fill the project's window (it did, so the
    /// third device below got a project 429 after two messages sent).
    @Test func aSendRefusedForItsDeviceUsesNoProjectQuota() {
        let w = World(quota: FCMQuota(perDevicePerMinute: 1, perProjectPerMinute: 3))
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 200)
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 429)
        #expect(w.send(#"{"token":"\#(Fixture.tokenB)"}"#).0 == 200)
        #expect(w.send(#"{"token":"\#(Fixture.tokenAndroid)"}"#).0 == 200)
        let (full, body) = w.send(#"{"token":"\#(Fixture.tokenProd)"}"#)
        #expect(full == 429 && body[path: "error.details"]?.serialized().contains("projects/") == true, "\(body)")
    }

    /// A dry run sends no message, so it does not use quota (per device or per project, on both send paths); it still
    /// runs the check, so a dry run while the window is full answers 429 as the send would.
    @Test func validateOnlyDoesNotUseQuota() {
        for quota in [FCMQuota(perDevicePerMinute: 2), FCMQuota(perProjectPerMinute: 2)] {
            let w = World(quota: quota)
            for message in [
                #"{"token":"\#(Fixture.tokenA)"}"#, #"{"token":"\#(Fixture.tokenA)","android":{"ttl":"1s"}}"#,
            ] {
                for _ in 0..<5 { #expect(w.send(message, validateOnly: true).0 == 200, "\(quota) \(message)") }
            }
            #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 200)
            #expect(w.send(#"{"token":"\#(Fixture.tokenA)","android":{"ttl":"1s"}}"#).0 == 200)
            let (full, body) = w.send(#"{"token":"\#(Fixture.tokenA)"}"#, validateOnly: true)
            #expect(full == 429 && body.fcmErrorCode == "QUOTA_EXCEEDED", "\(quota)")
            #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 429)
        }
    }

    @Test func faults() {
        w.fcm.addFault(FCMFault(.unavailable, count: 1, retryAfter: 7))
        let r = w.fcm.evaluate(
            w.request(
                "POST", "/v1/projects/demo-project/messages:send",
                json: #"{"message":{"token":"\#(Fixture.tokenA)"}}"#, bearer: w.bearer()))
        #expect(r.status == 503)
        #expect(r.headers.contains(HTTPField("retry-after", "7")))
        #expect((try? JSONValue.parse(r.body))?.fcmErrorCode == "UNAVAILABLE")
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 200)
        w.fcm.addFault(FCMFault(.internalError, token: Fixture.tokenB))
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).0 == 200)
        let (s, b) = w.send(#"{"token":"\#(Fixture.tokenB)"}"#)
        #expect(s == 500 && b.fcmErrorCode == "INTERNAL" && b[path: "error.status"] == "INTERNAL")
    }

    /// An injected fault answers as the real error does: QUOTA_EXCEEDED with its `google.rpc.QuotaFailure` detail
    /// (reference/fcm.md §1.5) beside the FcmError, on both send paths; INVALID_ARGUMENT with the FcmError alone and
    /// Google's generic message (the shape of the error-codes page's example 2); `Retry-After` only on 429 and 503.
    @Test func faultsCarryTheRealErrorsDetails() throws {
        for message in [#"{"token":"\#(Fixture.tokenA)"}"#, #"{"token":"\#(Fixture.tokenA)","android":{"ttl":"1s"}}"#] {
            w.fcm.addFault(FCMFault(.quotaExceeded, count: 1))
            let r = w.fcm.evaluate(
                w.request(
                    "POST", "/v1/projects/demo-project/messages:send", json: #"{"message":\#(message)}"#,
                    bearer: w.bearer()))
            #expect(r.status == 429 && r.headers.contains(HTTPField("retry-after", "60")))
            let body = try JSONValue.parse(r.body)
            #expect(body.fcmErrorCode == "QUOTA_EXCEEDED")
            let quota = body[path: "error.details"]?.arrayValue?.first {
                $0["@type"] == "type.googleapis.com/google.rpc.QuotaFailure"
            }
            #expect(quota?[path: "violations.0.subject"] == .string(Fixture.tokenA), "\(body)")
            #expect(quota?[path: "violations.0.description"] == "Message rate exceeded for the target.")
        }
        w.fcm.addFault(FCMFault(.quotaExceeded, count: 1))
        let (_, topic) = w.send(#"{"topic":"news"}"#)
        #expect(topic[path: "error.details.1.violations.0.subject"] == "projects/demo-project", "\(topic)")
        w.fcm.addFault(FCMFault(.invalidArgument, count: 1))
        let (status, invalid) = w.send(#"{"token":"\#(Fixture.tokenA)"}"#)
        let expected = try JSONValue.parse(
            Array(
                #"{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#
                    .utf8))
        #expect(status == 400 && invalid == expected, "\(invalid)")
    }

    @Test func apnsFaultsBecomeFCMErrors() {
        w.apns.addFault(APNsFault(.reject(.serviceUnavailable), count: 1))
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).1.fcmErrorCode == "UNAVAILABLE")
        w.apns.addFault(APNsFault(.reject(.tooManyRequests), count: 1))
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).1.fcmErrorCode == "QUOTA_EXCEEDED")
        w.apns.unregisterToken(Fixture.sandboxAPNs)
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)"}"#).1.fcmErrorCode == "UNREGISTERED")
    }

    @Test func legacyAPIIsShutDown() {
        let r = w.fcm.evaluate(
            w.request(
                "POST", "/fcm/send", json: #"{"to":"x"}"#, bearer: nil,
                headers: [HTTPField("authorization", "key=AAAA")]))
        #expect(r.status == 404)
        #expect(r.headers.contains { $0.name == "content-type" && $0.value.hasPrefix("text/html") })
    }
}

/// The APNs rules run once per APNs push: on a token send's translation in the FCM gateway (before quota and
/// `validate_only`), on the other recipients' translations in the APNs gateway.
@Suite struct APNsRulesOnceTests {
    let w = World()

    @Test func anAuthorizationInApnsHeadersMeetsTheProviderTokenAsDuplicateHeaders() {
        let (status, body) = w.send(
            #"{"token":"\#(Fixture.tokenA)","apns":{"headers":{"authorization":"bearer someone-elses"}}}"#)
        #expect(status == 400 && body.fcmErrorCode == "INVALID_ARGUMENT")
        #expect(body[path: "error.message"]?.stringValue == "Invalid APNs request: DuplicateHeaders")
        let log = w.apns.log()
        #expect(log.count == 1 && log.first?.reason == "DuplicateHeaders")
        #expect(log.first?.headers.filter { $0.name == "authorization" }.count == 2)
    }

    @Test func aBadHeaderIsRefusedBeforeAPNsEvenWithValidateOnly() {
        let message = #"{"token":"\#(Fixture.tokenA)","apns":{"headers":{"apns-priority":"7"}}}"#
        for validateOnly in [false, true] {
            let (status, body) = w.send(message, validateOnly: validateOnly)
            #expect(status == 400 && body.violationField == "message.apns.headers")
        }
        #expect(w.apns.log().isEmpty, "the FCM gateway refused it; APNs saw nothing")
    }

    @Test func aFanOutsOtherRecipientsAreCheckedByTheAPNsGateway() {
        // The second subscriber's app id ends in .voip: its translation (topic = bundle id, push type alert) is
        // BadTopic, which only the APNs gateway's own run of the rules can find.
        let voip = "fcmInstanceZ9:APA91bHzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
        w.fcm.registerToken(
            FCMRegisteredToken(token: voip, apnsToken: Fixture.otherAPNs, bundleID: "com.example.app.voip"),
            project: "demo-project")
        w.fcm.state.withLock {
            $0.subscriptions[Fixture.tokenA] = ["news"]
            $0.subscriptions[voip] = ["news"]
        }
        #expect(w.send(#"{"topic":"news","notification":{"title":"Hi"}}"#).0 == 200)
        let hops = w.fcm.log().last?.apns ?? []
        #expect(hops.map(\.status) == [200, 400])
        #expect(hops.last?.reason == "BadTopic")
        #expect(w.apns.log().map(\.status) == [200, 400])
    }
}
