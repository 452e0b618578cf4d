import Foundation
import Synchronization

/// A lifeline of the report's sequence diagram: a place a push passes through on its way from the sender to the
/// page the tap opens. Ordered as the diagram draws them, left to right.
package enum TraceHop: String, Sendable, CaseIterable, Comparable {
    /// pushcheck's own `send` step.
    case runner
    /// The team's backend started by a `run:` step (or any client of `serve`).
    case backend
    /// The mock FCM HTTP v1 service (sends via FCM).
    case fcm
    /// The mock APNs gateway.
    case apns
    /// The simulated iPhone (delivery rules, presentation, Notification Center).
    case device
    /// The app's delegate callbacks (`didReceiveRemoteNotification`, `willPresent`, `didReceive`).
    case app
    /// The Notification Service Extension (`didReceive(_:withContentHandler:)`).
    case serviceExtension = "service-extension"
    /// The Notification Content Extension (the expanded notification and its actions).
    case contentExtension = "content-extension"
    /// The app's router: tabs, navigation stack, alerts.
    case router
    /// The app's web view.
    case webView = "web-view"
    /// The fixture web server (or any page server the web view fetched from).
    case fixture

    /// The lifeline's caption.
    package var title: String {
        switch self {
        case .runner: "runner"
        case .backend: "backend (run:)"
        case .fcm: "FCM"
        case .apns: "APNs gateway"
        case .device: "device"
        case .app: "app callback"
        case .serviceExtension: "service extension"
        case .contentExtension: "content extension"
        case .router: "router"
        case .webView: "web view"
        case .fixture: "fixture server"
        }
    }

    package static func < (a: TraceHop, b: TraceHop) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One header as sent or answered, in order (names as written; duplicates kept).
package struct TraceHeader: Sendable, Equatable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// One arrow of the sequence diagram: a request, an answer, a delivery, a callback, a navigation or a page load,
/// with what its detail panel shows. Emitted by the scenario runner from the same events the transcript prints;
/// every string in it is untrusted (payloads, headers and pages come from the suite, the backend or a server) and
/// the viewer renders it as text.
package struct TraceEvent: Sendable, Equatable {
    /// What the arrow is.
    package enum Kind: String, Sendable, CaseIterable {
        /// An HTTP request (send step, backend, FCM → APNs, web view → server).
        case request
        /// Its answer (status, reason, headers).
        case response
        /// The gateway handed a push to the device (or stored it for an offline one).
        case delivery
        /// The push stopped here (`dropped` says why).
        case dropped
        /// An app delegate callback ran.
        case callback
        /// A notification extension ran (service or content).
        case extensionRun = "extension"
        /// The device presented a notification (banner, list, lock screen).
        case presented
        /// A user action on the device (tap, action button, dismiss, expand, back).
        case action
        /// The router changed tabs, the stack or showed an alert.
        case navigation
        /// A page finished loading in the web view.
        case page
        /// Anything else worth a line (a wait, a clock change).
        case note
    }

    package var kind: Kind
    package var from: TraceHop
    package var to: TraceHop
    /// The arrow's one-line caption, e.g. `POST /3/device/7c1f… → 200`.
    package var label: String
    /// The device the event happened on, when there is more than one.
    package var device: String?
    /// Milliseconds since the scenario started (monotonic), and how long the hop took.
    package var atMilliseconds: Double?
    package var durationMilliseconds: Double?
    /// HTTP status and the service's reason (`BadDeviceToken`), for requests' answers.
    package var status: Int?
    package var reason: String?
    /// Request or response headers, in order. An `authorization` value must be passed through
    /// `TraceEvent.redactedAuthorization` before it is stored (the signature never reaches a report).
    package var headers: [TraceHeader]
    /// The body as sent (a payload is JSON text; the viewer pretty-prints what parses).
    package var body: String?
    /// The provider token's decoded header and claims (`TraceJWT(authorization:)`); never the signature.
    package var jwt: TraceJWT?
    /// Why the push went no further (`dropped:` in the transcript), e.g. "app is force-quit".
    package var dropped: String?
    /// The notification as the device showed it.
    package var notification: NotificationPicture? {
        get { notificationBox?.value }
        set { notificationBox = newValue.map(Boxed.init) }
    }
    /// The app's screens after the event.
    package var navigation: NavigationPicture? {
        get { navigationBox?.value }
        set { navigationBox = newValue.map(Boxed.init) }
    }
    /// The page the web view loaded.
    package var page: PagePicture? {
        get { pageBox?.value }
        set { pageBox = newValue.map(Boxed.init) }
    }
    // The pictures, which few events carry, behind a reference each: 576 -> 224 bytes an event.
    private var notificationBox: Boxed<NotificationPicture>?
    private var navigationBox: Boxed<NavigationPicture>?
    private var pageBox: Boxed<PagePicture>?
    /// The suite line of the step that caused the event (joins the event to failed checks of that step).
    package var stepLine: Int?
    /// Extra lines for the detail panel (`key: value` facts that have no field).
    package var notes: [String]

    package init(
        _ kind: Kind, from: TraceHop, to: TraceHop, label: String, device: String? = nil,
        atMilliseconds: Double? = nil, durationMilliseconds: Double? = nil, status: Int? = nil, reason: String? = nil,
        headers: [TraceHeader] = [], body: String? = nil, jwt: TraceJWT? = nil, dropped: String? = nil,
        notification: NotificationPicture? = nil, navigation: NavigationPicture? = nil, page: PagePicture? = nil,
        stepLine: Int? = nil, notes: [String] = []
    ) {
        self.kind = kind
        self.from = from
        self.to = to
        self.label = label
        self.device = device
        self.atMilliseconds = atMilliseconds
        self.durationMilliseconds = durationMilliseconds
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.jwt = jwt
        self.dropped = dropped
        notificationBox = notification.map(Boxed.init)
        navigationBox = navigation.map(Boxed.init)
        pageBox = page.map(Boxed.init)
        self.stepLine = stepLine
        self.notes = notes
    }

    /// `bearer <header>.<claims>.<signature>` with the signature replaced by `…`: what a report may show of an
    /// `authorization` header. Other values (no JWT) come back unchanged.
    package static func redactedAuthorization(_ value: String) -> String {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return value }
        return parts[0] + "." + parts[1] + ".…"
    }
}

/// A JWT's header and claims, decoded from base64url (structure only: nothing is verified); the signature is
/// dropped on purpose.
package struct TraceJWT: Sendable, Equatable {
    /// The header as JSON text, e.g. `{"alg":"ES256","kid":"KEY1234567"}`.
    package var header: String
    /// The claims as JSON text, e.g. `{"iss":"TEAM123456","iat":1767225600}`.
    package var claims: String

    package init(header: String, claims: String) {
        self.header = header
        self.claims = claims
    }

    /// Decodes `bearer <jwt>` (or a bare JWT); nil when it is not three dot-separated segments whose first two
    /// are base64url JSON.
    package init?(authorization: String) {
        // Scenarios of a run send the same provider token (the runner signs one per key and time): decode once.
        if let (seen, decoded) = Self.lastDecoded.withLock({ $0 }), seen == authorization {
            guard let decoded else { return nil }
            self = decoded
            return
        }
        guard let decoded = Self.decode(authorization: authorization) else {
            Self.lastDecoded.withLock { $0 = (authorization, nil) }
            return nil
        }
        Self.lastDecoded.withLock { $0 = (authorization, decoded) }
        self = decoded
    }

    /// The last `authorization` decoded and what it gave.
    private static let lastDecoded = Mutex<(String, TraceJWT?)?>(nil)

    private static func decode(authorization: String) -> TraceJWT? {
        var token = Substring(authorization.trimmingWhitespace())
        if token.lowercased().hasPrefix("bearer ") { token = token.dropFirst(7).drop { $0 == " " } }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.decode(parts[0]), let claims = Self.decode(parts[1]) else {
            return nil
        }
        return TraceJWT(header: header, claims: claims)
    }

    /// One base64url segment as text, when it is JSON.
    private static func decode(_ segment: Substring) -> String? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text), (try? JSONValue.parse([UInt8](data))) != nil else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What a failed check is about on the sequence diagram: a lifeline, and the kind of arrow there it looked at
/// (`status` → the gateway's answer, `navigation` → the router's last change). Written by the suite language's
/// table of check subjects (`Subject.traceFocus`) and used to find the arrow to mark.
package struct TraceFocus: Sendable, Equatable {
    package var hop: TraceHop
    /// nil: any arrow touching `hop`.
    package var kind: TraceEvent.Kind?

    package init(_ hop: TraceHop, _ kind: TraceEvent.Kind? = nil) {
        self.hop = hop
        self.kind = kind
    }

    /// The index of the last event in `trace[from...]` that touches `hop` (as sender or receiver) and is of `kind`;
    /// failing that, the last one that touches `hop` at all; nil when none does.
    package func index(in trace: [TraceEvent], from start: Int = 0) -> Int? {
        let range = min(max(start, 0), trace.count)..<trace.count
        let touching = { (e: TraceEvent) in e.from == hop || e.to == hop }
        if let kind, let i = range.last(where: { touching(trace[$0]) && trace[$0].kind == kind }) { return i }
        return range.last { touching(trace[$0]) }
    }
}
