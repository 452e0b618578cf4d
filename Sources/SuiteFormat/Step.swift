import DeviceSimulator
import Foundation
import PushModel
import YAMLSource

/// One step of a scenario, as decoded from the suite file.
package struct Step: Sendable {
    /// What the step does. Indirect: a `SendStep` is 448 bytes, and every step of a suite is kept for the whole run.
    package indirect enum Action: Sendable {
        case send(SendStep)
        case run(RunStep)
        case device(DeviceStep)
        /// A step that only checks (`- expect: {…}`).
        case expect
    }

    package var action: Action
    /// The key that named the step (`send`, `tap`, `expect`, …), for the transcript and errors.
    package var keyword: String
    /// `device:` — which device (default: the world's first).
    package var device: String?
    /// `app:` — which app (default: the device's first).
    package var app: String?
    /// `capture:` — values taken from the step's result into variables.
    package var captures: [Capture]
    /// `expect:` — checked after the step.
    package var expectation: Expectation? {
        get { expectationBox?.value }
        set { expectationBox = newValue.map(Boxed.init) }
    }
    /// Where the step is written.
    package var range: SourceRange
    /// `name:` — the step's name (a `snapshot` without its own name is stored under it).
    package var name: String? = nil
    /// The expectation, behind a reference: 232 bytes inline, and not every step has one.
    private var expectationBox: Boxed<Expectation>?

    package init(
        action: Action, keyword: String, device: String? = nil, app: String? = nil, captures: [Capture],
        expectation: Expectation? = nil, range: SourceRange, name: String? = nil
    ) {
        self.action = action
        self.keyword = keyword
        self.device = device
        self.app = app
        self.captures = captures
        expectationBox = expectation.map(Boxed.init)
        self.range = range
        self.name = name
    }

    /// True for a standalone `- expect:` step.
    package var isCheckOnly: Bool {
        if case .expect = action { return true }
        return false
    }
}

/// `capture: { name: source }`.
package struct Capture: Sendable {
    package var name: String
    /// A `SendCapture` or `header.<name>` after a send; a `RunCapture` or `json.<path>` (stdout as JSON) after a
    /// run; a `DeviceVariable` after a device step.
    package var source: String
    package var range: SourceRange
}

/// What `capture:` may read after a `send` besides `header.<name>`: checked by `StepDecoder`, read by `StepRunner`.
package enum SendCapture: String, CaseIterable, Sendable {
    case status, reason
    case apnsID = "apns-id"
    case apnsUniqueID = "apns-unique-id"
    case timestamp

    package static let headerPrefix = "header."
}

/// What `capture:` may read after a `send` with `via: fcm`: checked by `StepDecoder`, read by `FCMSendRunner`.
package enum FCMSendCapture: String, CaseIterable, Sendable {
    case status
    case errorCode = "error_code"
    /// The message name (`projects/…/messages/…`).
    case name
    /// The APNs id of the hop FCM made to APNs.
    case apnsID = "apns-id"
}

/// What `capture:` may read after a `run` besides `json.<path>`: checked by `StepDecoder`, read by `StepRunner`.
package enum RunCapture: String, CaseIterable, Sendable {
    case stdout, stderr, exit

    package static let jsonPrefix = "json."
}

/// How a `send` authenticates.
package enum SendAuth: Sendable {
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
package struct HeaderTemplate: Sendable {
    package var name: String
    package var value: Template
}

/// `send:` through a gateway: `via: apns` (the default) sends `payload` to the device token; `via: fcm` sends
/// `message` (an FCM v1 message; `token` defaults to the device's FCM token) to the world's FCM service.
package struct SendStep: Sendable {
    package var via: String
    /// The device whose app's token is the target (default: the step's device).
    package var to: String?
    /// The app on that device (default: the step's `app:`, else the device's first app).
    package var app: String?
    /// An explicit device token (hex), overriding `to:`.
    package var token: Template?
    /// `apns-topic` (default: the app's bundle id).
    package var topic: Template?
    /// sandbox or production (default: the environment the app's token belongs to).
    package var environment: APNsEnvironment?
    package var headers: [HeaderTemplate]
    /// The payload as JSON text (`via: fcm`: the `message`).
    package var payload: Template
    package var auth: SendAuth
    /// `via: fcm`: `validate_only` (a dry run: everything checked, nothing delivered).
    package var validateOnly = false
    /// `via: fcm`: the Firebase project id or number in the send path (default: the world's first project).
    package var project: Template? = nil
    /// `via: fcm` with a mapping `message`: whether it names a target (`token`, `topic`, `condition`, `fid`);
    /// when not, the runner adds the device's FCM token.
    var messageHasTarget = false
    /// The payload's string scalars, for checking references at load time.
    var payloadScalars: [Template] = []
}

/// `run:` an external command through `/bin/sh -c`, with the gateways' URLs in its environment.
package struct RunStep: Sendable {
    package var command: Template
    package var timeout: Duration?
    package var environment: [(String, Template)]
    /// Working directory (default: the suite file's directory).
    package var directory: String
}

/// Something the user or the system does to the simulated iPhone in a suite step.
package enum DeviceStep: Sendable {
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
    /// Android: a deep link from outside (`DeviceAction.openLink`, after rendering).
    case openLink(Template)
}

/// An `expect:` block: every check is evaluated, and all failures are reported together.
package struct Expectation: Sendable {
    package var checks: [Check]
    package var range: SourceRange
    /// `exactly:` / `at_least:` whole-object comparisons.
    package var objects: [ObjectCheck] = []
    /// `snapshot:`.
    package var snapshot: SnapshotCheck?
    /// `request:` — which of the pushes a `run:` step's backend sent the send checks look at (default: the last).
    package var request: RequestSelector? = nil
}

/// Picks one request a backend made during a `run:` step: `request: 2` (1-based, in arrival order) or
/// `request: <device token hex or ${device.<name>.token}>` (the last request to that token).
package enum RequestSelector: Sendable {
    case index(Int)
    case token(Template)
}
