import Foundation
import HTTPServer
import HTTPTypes
import PushModel

/// One APNs request a send became, and APNs' answer.
package struct FCMAPNsHop: Sendable, Equatable {
    package var fcmToken = ""
    package var apnsToken = ""
    package var environment = APNsEnvironment.sandbox
    /// The request's headers (without `authorization`), by name.
    package var headers: [String: String] {
        var out: [String: String] = [:]
        for f in headerFields { out[f.name] = f.value }
        return out
    }
    /// The payload sent, parsed from `payloadBytes`.
    package var payload: JSONValue { (try? JSONValue.parse(payloadBytes)) ?? .null }
    package var status = 0
    package var reason: String? = nil
    package var apnsID = ""
    /// The request's header fields, without the `authorization` the gateway signed it with.
    var headerFields: [HTTPField] { signedWithLast ? Array(sentFields.dropLast()) : sentFields }
    /// Kept as sent: the log holds every hop, and parsed copies cost the send path (and their release the trim).
    /// `sentFields` is the APNs request's own array, shared: when the gateway adds its provider token, the hop
    /// takes the array after that append (`signedWithLast`: its last field is that `authorization`). Taken before,
    /// the append found the array shared and copied it, retaining every name and value, once per send.
    var sentFields: [HTTPField] = []
    var signedWithLast = false
    var payloadBytes: [UInt8] = []

    /// An empty hop, filled field by field (`FCMGateway.deliver`) and moved into the log
    /// (`FCMLogEntry.appendHop(moving:)`). Both count: an initializer that assigned every field (this struct's
    /// memberwise one, which it had) built the hop in a temporary and copied it out, and a `consuming` append copied
    /// it into its slot; either alone left six retains and six releases per send.
    init() {}

    /// Equal when what the log shows is: the provider token (rotated every 30 minutes) is not part of the hop.
    package static func == (a: FCMAPNsHop, b: FCMAPNsHop) -> Bool {
        a.fcmToken == b.fcmToken && a.apnsToken == b.apnsToken && a.environment == b.environment
            && a.status == b.status && a.reason == b.reason && a.apnsID == b.apnsID
            && a.payloadBytes == b.payloadBytes && a.headerFields == b.headerFields
    }
}

/// One request to the FCM mock: what came in, what went to APNs or to Android instances, what was answered.
package struct FCMLogEntry: Sendable, Equatable {
    package var sequence: UInt64 = 0
    package var receivedAt: Date
    package var method: String
    package var path: String
    package var project: String? = nil
    /// The `messages:send` body (or topic-management body) as JSON, when it parsed.
    package var request: JSONValue? {
        get { requestStorage.value }
        set { requestStorage = .value(newValue) }
    }
    var requestStorage: LoggedRequest = .value(nil)
    package var validateOnly = false
    package var status = 200
    /// `errorCode`: the FcmError code, else (no FcmError in the answer) the canonical status.
    package var errorCode: String? = nil
    /// The answer carried an FcmError detail (a proto3 JSON decoding error, an auth error or an over-limit body
    /// does not), so that an answer rebuilt from the entry has the details the sender saw.
    package var fcmErrorDetail = false
    package var errorMessage: String? = nil
    /// `name` of an accepted message.
    package var name: String? {
        get { nameStorage.text }
        set { nameStorage = .text(newValue) }
    }
    var nameStorage: LoggedName = .text(nil)
    /// The APNs requests the send became, oldest first.
    package var apns: [FCMAPNsHop] {
        get { firstHop.map { [$0] + moreHops } ?? [] }
        set {
            firstHop = newValue.first
            moreHops = Array(newValue.dropFirst())
        }
    }
    /// `apns`, its first hop inline: a token send has one, and an array for it was one more allocation per send
    /// (and one more object to free when the ring drops the entry).
    var firstHop: FCMAPNsHop? = nil
    var moreHops: [FCMAPNsHop] = []
    /// The Android instances the send was handed to.
    package var android: [FCMAndroidHop] = []

    /// A request's entry as it starts: what came in, answered 200 until told otherwise (the other fields'
    /// defaults). Only these three are assigned: with every field assigned here, the optimizer built the entry in a
    /// temporary, copied it out and destroyed the temporary (a retain and a release per reference, every send).
    init(receivedAt: Date, method: String, path: String) {
        self.receivedAt = receivedAt
        self.method = method
        self.path = path
    }

    init(
        sequence: UInt64, receivedAt: Date, method: String, path: String, project: String?, request: JSONValue?,
        validateOnly: Bool, status: Int, errorCode: String?, errorMessage: String?, name: String?, apns: [FCMAPNsHop]
    ) {
        self.init(receivedAt: receivedAt, method: method, path: path)
        self.sequence = sequence
        self.project = project
        self.requestStorage = .value(request)
        self.validateOnly = validateOnly
        self.status = status
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.nameStorage = .text(name)
        self.firstHop = apns.first
        self.moreHops = Array(apns.dropFirst())
    }

    /// Appends `hop` to `apns`, moved out (`hop` is left empty): swapped into an empty first slot. Passed
    /// `consuming`, the hop was copied into the slot all the same (six retains and releases per send). The slot is
    /// tested with `if case .none`: `firstHop == nil` went through `Optional`'s `==`, which copied the optional hop
    /// to compare it.
    mutating func appendHop(moving hop: inout FCMAPNsHop) {
        guard case .none = firstHop else {
            var taken = FCMAPNsHop()
            swap(&taken, &hop)
            return moreHops.append(taken)
        }
        firstHop = FCMAPNsHop()
        swap(&firstHop!, &hop)
    }

    /// The control endpoint's JSON form.
    package var json: JSONValue {
        var o: [String: JSONValue] = [
            "sequence": .number(Double(sequence)),
            "received_at": .string(ISO8601.string(receivedAt)),
            "method": .string(method), "path": .string(path), "status": .number(Double(status)),
            "validate_only": .bool(validateOnly),
            "apns": .array(
                apns.map { hop in
                    var h: [String: JSONValue] = [
                        "fcm_token": .string(hop.fcmToken), "token": .string(hop.apnsToken),
                        "endpoint": .string(hop.environment.rawValue),
                        "headers": .object(hop.headers.mapValues(JSONValue.string)),
                        "payload": hop.payload, "status": .number(Double(hop.status)), "apns_id": .string(hop.apnsID),
                    ]
                    if let r = hop.reason { h["reason"] = .string(r) }
                    return .object(h)
                }),
        ]
        if !android.isEmpty { o["android"] = .array(android.map(\.json)) }
        if let project { o["project"] = .string(project) }
        if let request { o["request"] = request }
        if let errorCode { o["error_code"] = .string(errorCode) }
        if let errorMessage { o["error_message"] = .string(errorMessage) }
        if let name { o["name"] = .string(name) }
        return .object(o)
    }
}

/// `FCMLogEntry.request`: a value, or a send's message kept as body bytes (built into JSON when the log is read).
enum LoggedRequest: Sendable, Equatable {
    case value(JSONValue?)
    case send(RawMessage, validateOnly: Bool)

    var value: JSONValue? {
        switch self {
        case .value(let v): return v
        case .send(let m, let validateOnly): return ["message": m.value, "validate_only": .bool(validateOnly)]
        }
    }

    static func == (a: LoggedRequest, b: LoggedRequest) -> Bool { a.value == b.value }
}

/// `FCMLogEntry.name`: text, or a send's issued name (its text made when the log is read).
enum LoggedName: Sendable, Equatable {
    case text(String?)
    case issued(FCMMessageName)

    var text: String? {
        switch self {
        case .text(let t): return t
        case .issued(let n): return n.text
        }
    }

    static func == (a: LoggedName, b: LoggedName) -> Bool { a.text == b.text }
}
