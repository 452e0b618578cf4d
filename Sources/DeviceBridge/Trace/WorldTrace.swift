import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import HTTPServer
import PushModel
import Synchronization

/// The HTML report's hops (`TraceEvent`) from what a world records — the gateway's log entries, the FCM log and
/// each device event — i.e. from the same elements the runner's transcript prints, one by one, so the diagram can
/// never say something the transcript does not. Pure: the caller reads the world and says who sent a request.
package enum WorldTrace {
    /// Who sent a gateway log entry: the FCM gateway (the entry's `apns-id` is one an FCM log entry lists, even
    /// when the runner's FCM send caused it), the runner's own send (`sentByRunner` holds those sequences), else a
    /// backend.
    package static func sender(of entry: APNsLogEntry, sentByRunner: Set<UInt64>, fcmAPNsIDs: Set<String>) -> TraceHop {
        if fcmAPNsIDs.contains(entry.apnsID) { return .fcm }
        return sentByRunner.contains(entry.sequence) ? .runner : .backend
    }

    /// A gateway log entry as its request arrow and the answer (status, reason, the gateway's explanation).
    /// `start` is the scenario's start on the world's clock (event times are milliseconds after it).
    package static func events(for entry: APNsLogEntry, from sender: TraceHop, start: Date, stepLine: Int? = nil)
        -> [TraceEvent]
    {
        let authorization = entry.headers.first { $0.name == "authorization" }?.value
        let headers = entry.headers.map { h in
            TraceHeader(h.name, h.name == "authorization" ? redacted(h.value) : h.value)
        }
        let token = entry.token.map { String($0.hex.prefix(8)) + "…" } ?? "?"
        var notes: [String] = []
        if let s = entry.payloadSize { notes.append("payload cut in the log: \(s) bytes received") }
        if entry.faultApplied { notes.append("a fault changed this answer") }
        let request = TraceEvent(
            .request, from: sender, to: .apns,
            label:
                "\(entry.method) /3/device/\(token) (\(entry.pushType?.rawValue ?? "?"), \(entry.endpoint.rawValue))",
            atMilliseconds: milliseconds(entry.receivedAt, since: start), headers: headers,
            body: String(decoding: entry.payload, as: UTF8.self), jwt: authorization.flatMap(TraceJWT.init),
            stepLine: stepLine, notes: notes)
        var answer = [TraceHeader("apns-id", entry.apnsID)]
        if let id = entry.apnsUniqueID { answer.append(TraceHeader("apns-unique-id", id)) }
        let response = TraceEvent(
            .response, from: .apns, to: sender, label: "\(entry.status)" + (entry.reason.map { " " + $0 } ?? ""),
            atMilliseconds: milliseconds(entry.answeredAt, since: start),
            durationMilliseconds: entry.answeredAt.timeIntervalSince(entry.receivedAt) * 1000, status: entry.status,
            reason: entry.reason, headers: answer, stepLine: stepLine, notes: entry.detail.map { [$0] } ?? [])
        return [request, response]
    }

    /// `TraceEvent.redactedAuthorization(value)`, remembered for the last value: a run's scenarios send the same
    /// provider token (the split and concatenation per send showed in the runner's profile).
    static func redacted(_ value: String) -> String {
        if let (seen, redacted) = lastRedacted.withLock({ $0 }), seen == value { return redacted }
        let redacted = TraceEvent.redactedAuthorization(value)
        lastRedacted.withLock { $0 = (value, redacted) }
        return redacted
    }

    private static let lastRedacted = Mutex<(String, String)?>(nil)

    /// An FCM log entry (a v1 send) as the sender's request to FCM and FCM's answer.
    package static func events(for entry: FCMLogEntry, from sender: TraceHop, start: Date, stepLine: Int? = nil)
        -> [TraceEvent]
    {
        let at = milliseconds(entry.receivedAt, since: start)
        var notes = entry.apns.map { "became APNs \($0.environment.rawValue) → \($0.status)" }
        if let name = entry.name { notes.append("message \(name)") }
        return [
            TraceEvent(
                .request, from: sender, to: .fcm, label: "\(entry.method) \(entry.path)", atMilliseconds: at,
                body: entry.request.map { $0.serialized() }, stepLine: stepLine),
            TraceEvent(
                .response, from: .fcm, to: sender,
                label: "\(entry.status)" + (entry.errorCode.map { " " + $0 } ?? ""), atMilliseconds: at,
                status: entry.status, reason: entry.errorCode, stepLine: stepLine,
                notes: notes + (entry.errorMessage.map { [$0] } ?? [])),
        ]
    }

    /// One device event as its arrows: none for events that are no hop (installs, authorization, state changes),
    /// two for a page load (the web view's request and the page that came back). `state` is the device now, read
    /// only for the events that need it: it draws the notification, the screens after a navigation and the
    /// notification an extension expanded. `device` names the device (nil when the world has one).
    package static func events(
        for e: DeviceEvent, device: String?, state: @autoclosure () -> DeviceState, start: Date, stepLine: Int? = nil
    ) -> [TraceEvent] {
        let at = milliseconds(e.at, since: start)
        func app() -> InstalledApp? { e.bundleID.flatMap { state().apps[$0] } }
        func arrow(_ kind: TraceEvent.Kind, _ from: TraceHop, _ to: TraceHop, _ label: String) -> TraceEvent {
            TraceEvent(kind, from: from, to: to, label: label, device: device, atMilliseconds: at, stepLine: stepLine)
        }
        switch e.kind {
        case .pushReceived(let id, let kind):
            return [arrow(.delivery, .apns, .device, "\(kind.rawValue) push \(id.prefix(8))… delivered")]
        case .pushDropped(let id, let reason):
            var dropped = arrow(.dropped, .device, .app, "push \(id.prefix(8))… dropped")
            dropped.dropped = reason.text
            return [dropped]
        case .backgroundPushHeld(let id):
            return [arrow(.note, .device, .device, "background push \(id.prefix(8))… held")]
        case .callback(let callback):
            var call = arrow(.callback, .device, .app, callback.name)
            call.notes = [callback.description]
            return [call]
        case .serviceExtensionRan(let modified, let duration):
            var ran = arrow(.extensionRun, .device, .serviceExtension, modified ? "modified the content" : "ran")
            ran.durationMilliseconds = duration * 1000
            return [ran]
        case .serviceExtensionTimedOut(let duration):
            var late = arrow(.extensionRun, .device, .serviceExtension, "timed out: original content shown")
            late.durationMilliseconds = duration * 1000
            return [late]
        case .notificationPresented(let id, let content, let presentation):
            var shown = arrow(.presented, .device, .device, presentedLabel(presentation))
            shown.notification = picture(id: id, content: content, presentation: presentation, app: app()?.declaration)
            return [shown]
        case .contentExtensionShown(let name, let category):
            var expanded = arrow(.extensionRun, .device, .contentExtension, "\(name) for \(category)")
            // The notification it drew: the app's latest of that category still in Notification Center.
            if let n = state().notificationCenter.last(where: {
                $0.bundleID == e.bundleID && $0.content.categoryID == category
            }) {
                var drawn = picture(id: n.id, content: n.content, presentation: n.presentation, app: app()?.declaration)
                drawn.expanded = ExpandedContent(lines: [name], actions: drawn.actions)
                expanded.notification = drawn
            }
            return [expanded]
        case .contentExtensionHandledAction(let name, let action, let response):
            return [arrow(.callback, .contentExtension, .app, "\(name): \(action) → \(response)")]
        case .navigation(let navigation):
            var moved = arrow(.navigation, .app, .router, "\(navigation)")
            moved.navigation = app().map { picture(of: $0.router) }
            return [moved]
        case .urlOpened(let url, let by):
            return [arrow(.navigation, .router, .router, "opened \(url) (\(by))")]
        case .webView(let outcome):
            return webViewEvents(outcome, arrow: arrow)
        case .pushHandled(let receiver):
            return [arrow(.note, .device, .device, "\(receiver.rawValue): \(receiver.summary)")]
        case .incomingCallReported:
            return [arrow(.callback, .app, .device, "reportNewIncomingCall (CallKit)")]
        case .activity(let activity):
            // ActivityKit's doings are the device's own (the Lock Screen), drawn on its lifeline with the detail.
            var note = arrow(.note, .device, .device, "Live Activity: \(activity)")
            note.notes = [activity.description]
            return [note]
        default:
            return []
        }
    }

    /// A navigation's outcome: a load is the web view's request to the server and the page (or failure) back.
    static func webViewEvents(
        _ outcome: WebNavigationOutcome, arrow: (TraceEvent.Kind, TraceHop, TraceHop, String) -> TraceEvent
    ) -> [TraceEvent] {
        switch outcome {
        case .loaded(let page):
            var request = arrow(.request, .webView, .fixture, "GET \(page.requestedURL)")
            request.notes = page.redirectChain.map { "\($0.status) \($0.from) → \($0.to)" }
            var loaded = arrow(.page, .fixture, .webView, "\(page.status) \(page.title ?? page.finalURL)")
            loaded.status = page.status
            loaded.notes = ["\(page.httpVersion), \(page.contentType ?? "no content-type")"]
            if page.sourceTruncated {
                loaded.notes.append("page cut at \(WebPage.sourceLimit >> 10) KiB in the report")
            }
            loaded.page = PagePicture(
                requestedURL: page.requestedURL, finalURL: page.finalURL, status: page.status, title: page.title,
                redirects: page.redirectChain.map { .init(status: $0.status, from: $0.from, to: $0.to) },
                html: page.source, text: page.text, servedBytes: page.sourceTruncated ? page.servedBytes : nil)
            return [request, loaded]
        case .failed(let failure):
            var failed = arrow(.page, .webView, .webView, "failed: \(failure)")
            failed.notes = ["\(failure)"]
            return [failed]
        case .openedExternally, .cancelled:
            return [arrow(.page, .webView, .webView, "\(outcome)")]
        }
    }

    static func presentedLabel(_ p: Presentation) -> String {
        let places = [p.banner ? "banner" : nil, p.list ? "Notification Center" : nil].compactMap { $0 }
        return places.isEmpty ? "not shown" : places.joined(separator: " + ") + (p.quiet ? " (quietly)" : "")
    }

    static func picture(id: String, content c: NotificationContent, presentation p: Presentation, app: AppDeclaration?)
        -> NotificationPicture
    {
        let actions = app?.categories.first { $0.id == c.categoryID }?.actions.map(\.title) ?? []
        return NotificationPicture(
            id: id, appName: app?.bundleID ?? "app", bundleID: app?.bundleID ?? "", title: c.title,
            subtitle: c.subtitle, body: c.body, threadID: c.threadID, badge: c.badge, sound: c.sound,
            categoryID: c.categoryID, banner: p.banner, list: p.list, quiet: p.quiet,
            interruptionLevel: p.interruptionLevel, actions: actions)
    }

    static func picture(of r: Router) -> NavigationPicture {
        NavigationPicture(
            tabs: r.declaration.tabs, selectedTab: r.selectedTab,
            stack: r.stack.map { .init(id: $0.id, title: $0.title, url: $0.url) },
            alert: r.alert.map { .init(title: $0.alert.title, message: $0.alert.message, buttons: $0.alert.buttons) })
    }

    static func milliseconds(_ date: Date, since start: Date) -> Double {
        (date.timeIntervalSince(start) * 1000 * 10).rounded() / 10
    }
}
