import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import Provisioning
import PushModel
import SuiteFormat

/// What a check sees, as plain values taken when an `expect:` block runs (ScenarioRun reads them from the world's
/// read API): the device as it is and the events since the previous `expect`, the slices of the APNs and FCM logs
/// since then, the pushes the gateway stores for the last send's token, and the last send and run. Checks are pure
/// functions of it, so each can be tested on an observation built by hand. Which part a check reads is its
/// `Subject.scope` (SuiteFormat): the state (`Observation+State.swift`), the window, the last send or run.
package struct Observation: Sendable {
    /// The device now: its apps (state, token, badge, router, page), Notification Center and its whole event log.
    package var snapshot: DeviceState
    /// The app the checks look at.
    package var bundleID: String
    /// Events since the previous `expect` for this app (and device-wide ones); with `request:`, the picked push's.
    package var window: [DeviceEvent]
    /// The window is what one push picked by `request:` caused: the checks of state read it too (that push's
    /// notification and userInfo), not the app's latest.
    package var pickedPush: Bool
    /// The APNs gateway's log entries since the previous `expect` (sends by the scenario and by its commands).
    package var gatewayRequests: [APNsLogEntry]
    /// The FCM log entries since the previous `expect` (each with the APNs requests it became).
    package var fcmRequests: [FCMLogEntry]
    /// The pushes the gateway keeps for the last send's token while its device is offline.
    package var storedPushes: [DeliveredPush]
    /// The gateway's log entry for the last send (by its apns-id), wherever it is in the log.
    package var lastSendEntry: APNsLogEntry?
    package var lastSend: SendRecord?
    package var lastRun: RunRecord?
    /// Why there is no last send (`the run: step's backend made no request`), said by a failed check of it.
    package var lastSendNote: String?
    /// Set when the device is an Android phone: the subjects about the device are answered from it (`snapshot` and
    /// `window` are then an empty iPhone's).
    package var android: AndroidObservation?
    /// The simulated clock when the block runs (Live Activities' stale and dismissed states depend on it); nil:
    /// the device's last event's time.
    package var now: Date?

    package init(
        snapshot: DeviceState, bundleID: String, window: [DeviceEvent], pickedPush: Bool = false,
        gatewayRequests: [APNsLogEntry] = [],
        fcmRequests: [FCMLogEntry] = [], storedPushes: [DeliveredPush] = [], lastSendEntry: APNsLogEntry? = nil,
        lastSend: SendRecord? = nil, lastRun: RunRecord? = nil
    ) {
        self.snapshot = snapshot
        self.bundleID = bundleID
        self.window = window
        self.pickedPush = pickedPush
        self.gatewayRequests = gatewayRequests
        self.fcmRequests = fcmRequests
        self.storedPushes = storedPushes
        self.lastSendEntry = lastSendEntry
        self.lastSend = lastSend
        self.lastRun = lastRun
    }

    /// The observed value of `subject` (nil = absent).
    func value(_ subject: Subject) -> JSONValue? {
        let app = snapshot.apps[bundleID]
        if let android {
            switch subject {
            case .status, .reason, .header, .timestamp, .fcmErrorCode, .fcmName, .exitCode, .stdout, .stderr: break
            default: return android.value(subject, lastSend: lastSend)
            }
        }
        switch subject {
        case .status: return lastSend.map { .number(Double($0.response.status)) }
        case .reason: return lastSend?.response.reasonText.map(JSONValue.string)
        case .header(let name): return lastSend?.response.value(name).map(JSONValue.string)
        case .timestamp: return lastSend?.response.timestamp.map { .number(Double($0)) }
        case .fcmErrorCode: return lastSend?.fcm?.errorCode.map(JSONValue.string)
        case .fcmName: return lastSend?.fcm?.name.map(JSONValue.string)
        case .delivered:
            guard let id = lastSend?.apnsID else { return nil }
            return .bool(appEvents.contains { if case .pushReceived(id, _) = $0.kind { true } else { false } })
        case .dropped: return droppedReason().map(JSONValue.string)
        case .reached: return reached().map(JSONValue.string)
        case .callkit:
            // Only a VoIP push's PushKit callback asks for a CallKit report (a File Provider push reaches the same
            // delegate, and no call is expected of it).
            var verdict: JSONValue?
            var voip = false
            for e in window {
                switch e.kind {
                case .pushReceived(_, let kind): voip = kind == .voip
                case .incomingCallReported: verdict = "reported"
                case .callback(.didReceiveIncomingPush) where voip: verdict = "not-reported"
                default: break
                }
            }
            return verdict
        case .stored:
            guard let s = lastSend, DeviceToken(hex: s.token) != nil else { return nil }
            return .bool(storedPushes.contains { $0.apnsID == s.apnsID })
        case .callbacks:
            return .array(window.compactMap { if case .callback(let c) = $0.kind { .string(c.name) } else { nil } })
        case .callback(let callback, let field, let path):
            return CallbackArguments.value(callback, field, path: path, in: window)
        case .userInfo(let path):
            return userInfo().flatMap { lookup(path, in: $0) }
        case .notification(let field): return notification(field)
        case .extensions(let field): return extensions(field)
        case .navigation(let field): return app == nil ? nil : screen(app).value(field)
        case .page(let field): return screen(app).value(field)
        case .activity(let field, let path): return activity(field, path: path)
        case .openedURLs:
            return .array(window.compactMap { if case .urlOpened(let u, _) = $0.kind { .string(u) } else { nil } })
        case .install:
            if app != nil { return .string("installed") }
            return .string(
                appEvents.contains { if case .installFailed = $0.kind { true } else { false } }
                    ? "failed" : "not-installed")
        case .registration:
            if app?.token != nil { return .string("registered") }
            return .string(
                appEvents.contains { if case .registrationFailed = $0.kind { true } else { false } }
                    ? "failed" : "not-registered")
        case .findings: return .array(findings().map { .string($0.code) })
        case .symptoms: return .string(findings().map { "\($0.code): \($0.symptom)" }.joined(separator: "\n"))
        case .token: return app?.token.map { .string($0.hex) }
        case .state: return app.map { .string($0.state.rawValue) }
        case .badge: return app?.badge.map { .number(Double($0)) }
        case .extras, .channel, .tray: return nil
        case .permission: return nil
        case .exitCode: return lastRun.map { .number(Double($0.exitCode)) }
        case .stdout: return lastRun.map { .string($0.stdout) }
        case .stderr: return lastRun.map { .string($0.stderr) }
        }
    }

    func findings() -> [ProvisioningFinding] {
        appEvents.flatMap { e -> [ProvisioningFinding] in
            switch e.kind {
            case .installFailed(let f), .registrationFailed(let f), .launchRefused(let f): return f
            case .capabilityWarning(let f): return [f]
            default: return []
            }
        }
    }

    /// What the last sent push reached on the device (nil when it reached nothing: a push the device dropped
    /// without receiving it, or one it never got).
    func reached() -> String? {
        guard let id = lastSend?.apnsID else { return nil }
        var received = false
        for e in appEvents {
            switch e.kind {
            case .pushReceived(id, _): received = true
            case .pushHandled(let r) where received: return r.rawValue
            case .callback(.didReceiveIncomingPush) where received: return "pushkit"
            case .callback(.incomingPushResult) where received: return "push-to-talk"
            case .pushReceived: if received { return "app" }
            default: continue
            }
        }
        return received ? "app" : nil
    }

    func droppedReason() -> String? {
        guard let s = lastSend else { return nil }
        let events = appEvents
        for e in events {
            if case .pushDropped(s.apnsID, let reason) = e.kind { return reason.text }
        }
        for e in events {
            if case .backgroundPushHeld(s.apnsID) = e.kind {
                return "throttled: background budget spent; held until the user launches the app"
            }
        }
        if let fcm = s.fcm, fcm.status != 200 {
            return "rejected-by-fcm: \(fcm.errorCode ?? fcm.errorStatus ?? String(fcm.status))"
        }
        if s.response.status != 200 {
            return "rejected-by-gateway: \(s.response.reasonText ?? String(s.response.status))"
        }
        if DeviceToken(hex: s.token) != nil, storedPushes.contains(where: { $0.apnsID == s.apnsID }) {
            return "stored-by-gateway (device offline)"
        }
        let received = events.contains { if case .pushReceived(s.apnsID, _) = $0.kind { true } else { false } }
        return received ? nil : "not-routed-to-a-device (unknown token)"
    }

    func extensions(_ field: ExtensionField) -> JSONValue? {
        switch field {
        case .response:
            return window.compactMap { e -> JSONValue? in
                guard case .contentExtensionHandledAction(_, _, let r) = e.kind else { return nil }
                switch r {
                case .doNotDismiss: return "do-not-dismiss"
                case .dismiss: return "dismiss"
                case .dismissAndForwardAction: return "dismiss-and-forward"
                }
            }.last
        case .content:
            return window.compactMap {
                if case .contentExtensionShown(let n, _) = $0.kind { JSONValue.string(n) } else { nil }
            }.last
        case .service:
            for e in window.reversed() {
                if case .serviceExtensionRan(let modified, _) = e.kind { return .string(modified ? "modified" : "ran") }
                if case .serviceExtensionTimedOut = e.kind { return .string("timed-out") }
            }
            return .string("not-run")
        case .contentSizeRatio:
            return ContentExtensionFacts.renderingExtension(self)?.initialContentSizeRatio.map(JSONValue.number)
        case .defaultContentHidden:
            return ContentExtensionFacts.renderingExtension(self).map { .bool($0.defaultContentHidden) }
        case .userInteraction:
            return ContentExtensionFacts.renderingExtension(self).map { .bool($0.userInteractionEnabled) }
        case .overridesTitle:
            return ContentExtensionFacts.renderingExtension(self).map { .bool($0.overridesDefaultTitle) }
        }
    }

    /// The app's router and page and the window's navigation and WebView events: what `navigation:` and `page:`
    /// read (`ScreenObservation`, shared with the Android phone).
    func screen(_ app: InstalledApp?) -> ScreenObservation {
        ScreenObservation(
            router: app?.router, loggedIn: app?.router.loggedIn,
            navigation: window.compactMap { if case .navigation(let n) = $0.kind { n } else { nil } },
            webOutcomes: window.compactMap { if case .webView(let o) = $0.kind { o } else { nil } },
            webPage: app?.webPage)
    }

    /// Events rendered one per line (`#5 com.example.app: callback willPresent(…)`).
    package static func render(_ events: [DeviceEvent]) -> String {
        events.map(\.description).joined(separator: "\n")
    }
}
