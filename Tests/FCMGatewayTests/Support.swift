import APNsGateway
import Foundation
import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport

@testable import FCMGateway

/// Keys made at test time, an APNs gateway that knows the app's device tokens, and an FCM gateway with two
/// projects (one with APNs credentials, one without).
enum Fixture {
    static let saKey = try! RSAPrivateKey.generate()
    static let otherSAKey = try! RSAPrivateKey.generate()
    static let apnsKey = try! P256PrivateKey.generate()
    static let email = "sa@demo-project.iam.gserviceaccount.com"
    static let otherEmail = "sa@other-project.iam.gserviceaccount.com"
    static let team = "TEAM123456"
    static let kid = "KEY1234567"
    static let bundle = "com.example.app"
    static let sandboxAPNs = DeviceToken(hex: "aa" + String(repeating: "01", count: 31))!
    static let sandboxAPNs2 = DeviceToken(hex: "bb" + String(repeating: "02", count: 31))!
    static let productionAPNs = DeviceToken(hex: "cc" + String(repeating: "03", count: 31))!
    static let otherAPNs = DeviceToken(hex: "dd" + String(repeating: "04", count: 31))!

    static let tokenA = "fcmInstanceA1:APA91bHaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    static let tokenB = "fcmInstanceB2:APA91bHbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
    static let tokenGone = "fcmInstanceGone:APA91bHgggggggggggggggggggggggggg"
    static let tokenProd = "fcmInstanceProd:APA91bHppppppppppppppppppppppppp"
    static let tokenAndroid = "fcmInstanceDroid:APA91bHdddddddddddddddddddddddd"
    static let tokenOther = "fcmInstanceOther:APA91bHoooooooooooooooooooooooo"
    static let staleToken =
        "fGw0qy4TGgk:APA91bGtWGjuhp4WRhHXgbabIYp1jxEKI08ofj_v1bKhWAGJQ4e3arRCWzeTfHaLz83mBnDh0aPWB1AykXAVUUGl2h1wT4XI6XazWpvY7RBUSYfoxtqSWGIm2nvWh2BOP1YG501SsRoE"
    static let fidA = "cXh0aW5zdGFsbGF0aW9uQQ"

    static func apnsConfiguration() -> APNsGatewayConfiguration {
        var c = APNsGatewayConfiguration()
        c.providerKeys = [APNsProviderKey(keyID: kid, teamID: team, publicKey: apnsKey.publicKey)]
        c.deviceTokens = [
            RegisteredDeviceToken(token: sandboxAPNs, topic: bundle, environment: .sandbox),
            RegisteredDeviceToken(token: sandboxAPNs2, topic: bundle, environment: .sandbox),
            RegisteredDeviceToken(token: productionAPNs, topic: bundle, environment: .production),
            RegisteredDeviceToken(token: otherAPNs, topic: bundle, environment: .sandbox),
        ]
        return c
    }

    static func configuration(quota: FCMQuota = FCMQuota()) -> FCMGatewayConfiguration {
        var c = FCMGatewayConfiguration()
        c.serviceAccounts = [
            FCMServiceAccount(
                clientEmail: email, publicKey: saKey.publicKey, privateKey: saKey, projects: ["demo-project"]),
            FCMServiceAccount(clientEmail: otherEmail, publicKey: otherSAKey.publicKey, projects: ["other-project"]),
        ]
        c.projects = [
            FCMProject(
                id: "demo-project", number: "123456789012",
                apns: FCMAPNsCredentials(teamID: team, keyID: kid, privateKey: apnsKey, environment: .sandbox),
                tokens: [
                    FCMRegisteredToken(token: tokenA, apnsToken: sandboxAPNs, bundleID: bundle, fid: fidA),
                    FCMRegisteredToken(token: tokenB, apnsToken: sandboxAPNs2, bundleID: bundle),
                    FCMRegisteredToken(token: tokenGone, apnsToken: sandboxAPNs, bundleID: bundle, unregistered: true),
                    FCMRegisteredToken(token: tokenProd, apnsToken: productionAPNs, bundleID: bundle),
                    FCMRegisteredToken(token: tokenAndroid),
                ], quota: quota),
            FCMProject(
                id: "other-project", number: "999999999999",
                tokens: [FCMRegisteredToken(token: tokenOther, apnsToken: otherAPNs, bundleID: bundle)]),
        ]
        return c
    }

    static func assertion(
        email: String = email, key: RSAPrivateKey = saKey, scopes: [String] = [FCMOAuth.messagingScope],
        issuedAt: Int = Int(Date().timeIntervalSince1970), audience: String = FCMOAuth.googleAudience
    ) -> String {
        try! JWT.googleServiceAccountAssertion(
            clientEmail: email, scopes: scopes, issuedAt: issuedAt, key: key, audience: audience)
    }
}

/// An FCM gateway with its APNs gateway, in-process.
struct World {
    let apns: APNsGateway
    let fcm: FCMGateway
    init(
        quota: FCMQuota = FCMQuota(), clock: any PushClock = SystemClock(),
        _ configure: (inout FCMGatewayConfiguration) -> Void = { _ in }
    ) {
        apns = try! APNsGateway(configuration: Fixture.apnsConfiguration())
        var c = Fixture.configuration(quota: quota)
        configure(&c)
        fcm = FCMGateway(configuration: c, apns: apns, clock: clock)
    }

    func bearer(_ email: String = Fixture.email, scopes: Set<String> = [FCMOAuth.messagingScope]) -> String {
        fcm.issueAccessToken(clientEmail: email, scopes: scopes).token
    }

    func request(_ method: String, _ path: String, json: String? = nil, bearer: String?, headers: [HTTPField] = [])
        -> HTTPRequest
    {
        var h = headers
        if let bearer { h.append(HTTPField("authorization", "Bearer \(bearer)")) }
        return HTTPRequest(version: .http2, method: method, path: path, headers: h, body: Array((json ?? "").utf8))
    }

    /// `messages:send` in-process; the status and parsed body.
    func send(_ message: String, project: String = "demo-project", validateOnly: Bool = false, bearer: String? = nil)
        -> (Int, JSONValue)
    {
        let body = validateOnly ? #"{"validate_only":true,"message":\#(message)}"# : #"{"message":\#(message)}"#
        let r = fcm.evaluate(
            request("POST", "/v1/projects/\(project)/messages:send", json: body, bearer: bearer ?? self.bearer()))
        return (r.status, (try? JSONValue.parse(r.body)) ?? .null)
    }
}

extension JSONValue {
    /// `error.details[@type=FcmError].errorCode`.
    var fcmErrorCode: String? {
        self[path: "error.details"]?.arrayValue?.first { $0["@type"]?.stringValue?.hasSuffix("FcmError") == true }?[
            "errorCode"]?.stringValue
    }
    /// The first BadRequest field violation's field.
    var violationField: String? {
        self[path: "error.details"]?.arrayValue?.first { $0["@type"]?.stringValue?.hasSuffix("BadRequest") == true }?[
            path: "fieldViolations.0.field"]?.stringValue
    }
}
