import DeviceSimulator
import Foundation
import PushModel
import YAMLSource

/// One step of a scenario, as decoded from the suite file.
public struct Step: Sendable {
    /// What the step does.
    public enum Action: Sendable {
        case send(SendStep)
        case run(RunStep)
        case device(DeviceStep)
        /// A step that only checks (`- expect: {…}`).
        case expect
    }

    public var action: Action
    /// The key that named the step (`send`, `tap`, `expect`, …), for the transcript and errors.
    public var keyword: String
    /// `device:` — which device (default: the world's first).
    public var device: String?
    /// `app:` — which app (default: the device's first).
    public var app: String?
    /// `capture:` — values taken from the step's result into variables.
    public var captures: [Capture]
    /// `expect:` — checked after the step.
    public var expectation: Expectation?
    /// Where the step is written.
    public var range: SourceRange
    /// `name:` — the step's name (a `snapshot` without its own name is stored under it).
    public var name: String? = nil

    /// True for a standalone `- expect:` step.
    public var isCheckOnly: Bool {
        if case .expect = action { return true }
        return false
    }
}

/// `capture: { name: source }`.
public struct Capture: Sendable {
    public var name: String
    /// A `SendCapture` or `header.<name>` after a send; a `RunCapture` or `json.<path>` (stdout as JSON) after a
    /// run; a `DeviceVariable` after a device step.
    public var source: String
    public var range: SourceRange
}

/// What `capture:` may read after a `send` besides `header.<name>`: checked by `StepDecoder`, read by `StepRunner`.
enum SendCapture: String, CaseIterable {
    case status, reason
    case apnsID = "apns-id"
    case apnsUniqueID = "apns-unique-id"
    case timestamp

    static let headerPrefix = "header."
}

/// What `capture:` may read after a `send` with `via: fcm`: checked by `StepDecoder`, read by `FCMSendRunner`.
enum FCMSendCapture: String, CaseIterable {
    case status
    case errorCode = "error_code"
    /// The message name (`projects/…/messages/…`).
    case name
    /// The APNs id of the hop FCM made to APNs.
    case apnsID = "apns-id"
}

/// What `capture:` may read after a `run` besides `json.<path>`: checked by `StepDecoder`, read by `StepRunner`.
enum RunCapture: String, CaseIterable {
    case stdout, stderr, exit

    static let jsonPrefix = "json."
}

/// How a `send` authenticates.
public enum SendAuth: Sendable {
    /// A provider token (JWT) signed with the world's key, or with `keyFile` (a .p8) when given;
    /// `age` back-dates `iat` (to test expired tokens).
    case token(keyID: String?, teamID: String?, keyFile: String?, age: Duration?)
    /// Mutual TLS with an Apple-shaped provider certificate for the topic, issued by pushcheck's CA.
    case certificate
    /// `authorization: <value>` sent verbatim.
    case bearer(Template)
    /// No credentials.
    case none
}

/// A header to send, `apns-*` or any other.
public struct HeaderTemplate: Sendable {
    public var name: String
    public var value: Template
}

/// `send:` through a gateway: `via: apns` (the default) sends `payload` to the device token; `via: fcm` sends
/// `message` (an FCM v1 message; `token` defaults to the device's FCM token) to the world's FCM service.
public struct SendStep: Sendable {
    public var via: String
    /// The device whose app's token is the target (default: the step's device).
    public var to: String?
    /// The app on that device (default: the step's `app:`, else the device's first app).
    public var app: String?
    /// An explicit device token (hex), overriding `to:`.
    public var token: Template?
    /// `apns-topic` (default: the app's bundle id).
    public var topic: Template?
    /// sandbox or production (default: the environment the app's token belongs to).
    public var environment: APNsEnvironment?
    public var headers: [HeaderTemplate]
    /// The payload as JSON text (`via: fcm`: the `message`).
    public var payload: Template
    public var auth: SendAuth
    /// `via: fcm`: `validate_only` (a dry run: everything checked, nothing delivered).
    public var validateOnly = false
    /// `via: fcm`: the Firebase project id or number in the send path (default: the world's first project).
    public var project: Template? = nil
    /// `via: fcm` with a mapping `message`: whether it names a target (`token`, `topic`, `condition`, `fid`);
    /// when not, the runner adds the device's FCM token.
    public var messageHasTarget = false
    /// The payload's string scalars, for checking references at load time.
    var payloadScalars: [Template] = []
}

/// `run:` an external command through `/bin/sh -c`, with the gateways' URLs in its environment.
public struct RunStep: Sendable {
    public var command: Template
    public var timeout: Duration?
    public var environment: [(String, Template)]
    /// Working directory (default: the suite file's directory).
    public var directory: String
}

/// Something the user or the system does to the simulated iPhone in a suite step.
public enum DeviceStep: Sendable {
    /// An operation `serve`'s control endpoint has too (`POST /devices/{name}/actions`): decoded and
    /// applied by `DeviceSimulator.DeviceAction`.
    case action(DeviceSimulator.DeviceAction)
    /// Installs (and sets up) one of the world's apps.
    case install
    /// Moves the simulated clock (no real sleeping).
    case wait(Duration)
    /// Loads the URL the top screen was routed to, for real (`WebAction.loadPage`).
    case loadPage
    /// Taps a link (by href or text) on the loaded page (`WebAction.followLink`, after rendering).
    case followLink(Template)
}

/// An `expect:` block: every check is evaluated, and all failures are reported together.
public struct Expectation: Sendable {
    public var checks: [Check]
    public var range: SourceRange
    /// `exactly:` / `at_least:` whole-object comparisons.
    public var objects: [ObjectCheck] = []
    /// `snapshot:`.
    public var snapshot: SnapshotCheck?
    /// `request:` — which of the pushes a `run:` step's backend sent the send checks look at (default: the last).
    public var request: RequestSelector? = nil
}

/// Picks one request a backend made during a `run:` step: `request: 2` (1-based, in arrival order) or
/// `request: <device token hex or ${device.<name>.token}>` (the last request to that token).
public enum RequestSelector: Sendable {
    case index(Int)
    case token(Template)
}
