import Foundation
import PushModel

/// What a `send` did (pushcheck's own, or a `run:` step's backend read back from the gateway's log), as the
/// checks and captures see it: plain values, so checks never hold a connection or a live response.
package struct SendRecord: Sendable {
    /// The device and app the push was meant for (by the token it went to, when known).
    package var device: String
    package var bundleID: String
    package var environment: APNsEnvironment
    /// The APNs device token, hex.
    package var token: String
    package var apnsID: String
    package var response: SendResponse
    /// `send: { via: fcm }` (or a backend's FCM send): FCM's answer. `response` then holds the same HTTP answer;
    /// `token` and `apnsID` are the APNs hop's, so the delivery checks follow the push FCM made.
    package var fcm: FCMAnswer? = nil

    package init(
        device: String, bundleID: String, environment: APNsEnvironment, token: String, apnsID: String,
        response: SendResponse, fcm: FCMAnswer? = nil
    ) {
        self.device = device
        self.bundleID = bundleID
        self.environment = environment
        self.token = token
        self.apnsID = apnsID
        self.response = response
        self.fcm = fcm
    }
}

/// The HTTP answer to a send: status, the APNs `reason` and 410 `timestamp` from its JSON body, its headers.
package struct SendResponse: Sendable {
    package var status: Int
    /// `reason` from the JSON body, as sent.
    package var reasonText: String?
    /// For 410: milliseconds since the epoch when the token stopped being valid.
    package var timestamp: Int64?
    /// The response headers, names lowercase, in the order received.
    package var headers: [(name: String, value: String)]

    package init(status: Int, reasonText: String?, timestamp: Int64?, headers: [(name: String, value: String)]) {
        self.status = status
        self.reasonText = reasonText
        self.timestamp = timestamp
        self.headers = headers
    }

    /// The first value of a header (case-insensitive name).
    func value(_ name: String) -> String? {
        let n = name.lowercased()
        return headers.first { $0.name == n }?.value
    }
}

/// FCM's answer to a `messages:send`: the accepted message's `name`, or the error's canonical `status`, `message`
/// and `FcmError` `errorCode`.
package struct FCMAnswer: Sendable {
    package var status: Int
    package var name: String?
    package var errorStatus: String?
    package var errorMessage: String?
    package var errorCode: String?
    /// The response body as text.
    package var body: String

    package init(
        status: Int, name: String?, errorStatus: String?, errorMessage: String?, errorCode: String?, body: String
    ) {
        self.status = status
        self.name = name
        self.errorStatus = errorStatus
        self.errorMessage = errorMessage
        self.errorCode = errorCode
        self.body = body
    }
}

/// What a `run:` step's command did.
package struct RunRecord: Sendable {
    package var exitCode: Int32
    package var stdout: String
    package var stderr: String

    package init(exitCode: Int32, stdout: String, stderr: String) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.stderr = stderr
    }
}
