import Foundation
import PushModel

/// Why a user interaction with a notification could not happen.
package enum InteractionError: Error, Equatable, CustomStringConvertible {
    case noSuchNotification(id: String)
    case noSuchAction(notificationID: String, actionID: String, category: String?, available: [String])

    package var description: String {
        switch self {
        case .noSuchNotification(let id):
            return "no notification '\(id)' in Notification Center; check the delivery events (was it shown at all?)"
        case .noSuchAction(let n, let a, let c, let available):
            let cat = c.map { "category '\($0)'" } ?? "no category"
            return
                "notification \(n) (\(cat)) has no action '\(a)'; available: \(available.isEmpty ? "none — register the category in the app" : available.joined(separator: ", "))"
        }
    }
}

extension DeviceState {
    /// Action buttons shown for a notification: the app's registered category with that exact id.
    package func actions(forNotification id: String) -> [NotificationAction] {
        guard let n = notificationCenter.first(where: { $0.id == id }), let app = apps[n.bundleID] else { return [] }
        return app.declaration.categories.first { $0.id == n.content.categoryID }?.actions ?? []
    }

    /// The user long-presses a notification: the content extension with the exact category renders it.
    package mutating func expand(_ id: String, now: Date) throws(InteractionError) {
        guard let n = notificationCenter.first(where: { $0.id == id }) else { throw .noSuchNotification(id: id) }
        if let ext = apps[n.bundleID]?.declaration.contentExtension(for: n.content.categoryID) {
            log(.contentExtensionShown(extensionName: ext.name, category: n.content.categoryID ?? ""), n.bundleID, now)
        }
    }

    /// The user taps a notification: it is removed, the app comes to the foreground (cold launch with
    /// `launchOptions[.remoteNotification]` if needed), then `didReceive response` and routing.
    package mutating func tap(_ id: String, now: Date) throws(InteractionError) {
        guard let i = notificationCenter.firstIndex(where: { $0.id == id }) else { throw .noSuchNotification(id: id) }
        let n = notificationCenter.remove(at: i)
        log(.notificationRemoved(id: id, reason: "tapped"), n.bundleID, now)
        respond(n, actionID: AppCallback.defaultActionID, foreground: true, now: now)
    }

    /// The user chooses an action button. A content extension for the category that implements
    /// `didReceive(_:completionHandler:)` gets it first; otherwise (or when it forwards) the app does.
    package mutating func chooseAction(_ actionID: String, on id: String, now: Date) throws(InteractionError) {
        guard let i = notificationCenter.firstIndex(where: { $0.id == id }) else { throw .noSuchNotification(id: id) }
        let n = notificationCenter[i]
        let available = actions(forNotification: id)
        guard let action = available.first(where: { $0.id == actionID }) else {
            throw .noSuchAction(
                notificationID: id, actionID: actionID, category: n.content.categoryID, available: available.map(\.id))
        }
        let bundleID = n.bundleID
        if let ext = apps[bundleID]?.declaration.contentExtension(for: n.content.categoryID),
            ext.implementsDidReceiveResponse
        {
            log(.contentExtensionShown(extensionName: ext.name, category: n.content.categoryID ?? ""), bundleID, now)
            let handling = ext.actions[actionID] ?? ContentExtensionActionHandling(response: .dismissAndForwardAction)
            log(
                .contentExtensionHandledAction(
                    extensionName: ext.name, actionID: actionID, response: handling.response),
                bundleID, now)
            if let key = handling.openURLFromKey, let url = n.content.userInfo[path: key]?.stringValue {
                log(.urlOpened(url: url, by: "content extension \(ext.name)"), bundleID, now)
            }
            switch handling.response {
            case .doNotDismiss:
                return
            case .dismiss:
                notificationCenter.remove(at: i)
                log(.notificationRemoved(id: id, reason: "dismissed by content extension"), bundleID, now)
                return
            case .dismissAndForwardAction:
                notificationCenter.remove(at: i)
                log(.notificationRemoved(id: id, reason: "action \(actionID) forwarded to app"), bundleID, now)
            }
        } else {
            notificationCenter.remove(at: i)
            log(.notificationRemoved(id: id, reason: "action \(actionID)"), bundleID, now)
        }
        respond(n, actionID: actionID, foreground: action.foreground, now: now)
    }

    /// The user swipes the notification away.
    package mutating func dismiss(_ id: String, now: Date) throws(InteractionError) {
        guard let i = notificationCenter.firstIndex(where: { $0.id == id }) else { throw .noSuchNotification(id: id) }
        let n = notificationCenter.remove(at: i)
        log(.notificationRemoved(id: id, reason: "dismissed by user"), n.bundleID, now)
    }

    /// Delivers a notification response to the app, launching or waking it as needed.
    private mutating func respond(_ n: PresentedNotification, actionID: String, foreground: Bool, now: Date) {
        let bundleID = n.bundleID
        guard let app = apps[bundleID] else { return }
        let userInfo = n.content.userInfo
        let cold = !app.state.isRunning
        if foreground {
            let reason: AppTransitionReason =
                actionID == AppCallback.defaultActionID ? .notificationTap : .foregroundAction
            guard userLaunch(bundleID, reason: reason, launchPayload: userInfo, now: now) else { return }
        } else if cold {
            // Custom background action: "the system launches your app in the background".
            setState(bundleID, .background, .backgroundAction, now)
            log(.callback(.didFinishLaunching(remoteNotification: nil)), bundleID, now)
        } else if app.state == .suspended {
            setState(bundleID, .background, .backgroundAction, now)
        }
        let delegate = app.declaration.delegate
        guard delegate.implementsDidReceiveResponse else { return }
        if cold, !delegate.delegateSetBeforeLaunchFinishes {
            log(.pushDropped(apnsID: n.id, reason: .responseMissedDelegateSetLate), bundleID, now)
            return
        }
        log(.callback(.didReceiveResponse(actionID: actionID, userInfo: userInfo)), bundleID, now)
        if actionID == AppCallback.defaultActionID {
            route(bundleID, userInfo, trigger: .tap, now: now)
        } else {
            route(bundleID, userInfo, trigger: .action, actionID: actionID, now: now)
        }
    }
}
