import Foundation
import Provisioning
import PushModel

/// One observable thing on the simulated device. The log is ordered by `sequence`; `at` is the
/// injected clock's time, so the same inputs give the same log.
package struct DeviceEvent: Sendable, Equatable, CustomStringConvertible {
    /// 1, 2, 3, … in the order things happened.
    package var sequence: Int
    /// The simulated clock when it happened.
    package var at: Date
    /// The app concerned, if any.
    package var bundleID: String?
    package var kind: DeviceEventKind
}

extension DeviceEvent: PhoneEvent {
    package init(sequence: Int, at: Date, app: String?, kind: DeviceEventKind) {
        self.init(sequence: sequence, at: at, bundleID: app, kind: kind)
    }
    package var app: String? { bundleID }
}

/// An app callback, with the arguments the app would get.
package enum AppCallback: Sendable, Equatable, CustomStringConvertible {
    /// `application(_:didFinishLaunchingWithOptions:)`; `remoteNotification` is `launchOptions[.remoteNotification]`.
    case didFinishLaunching(remoteNotification: JSONValue?)
    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`.
    case didRegisterForRemoteNotifications(token: DeviceToken)
    /// `application(_:didFailToRegisterForRemoteNotificationsWithError:)`.
    case didFailToRegisterForRemoteNotifications(error: String)
    /// `userNotificationCenter(_:willPresent:withCompletionHandler:)` and the options it answered.
    case willPresent(userInfo: JSONValue, options: PresentationOptions)
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` and the state it ran in.
    case didReceiveRemoteNotification(userInfo: JSONValue, state: AppState)
    /// Deprecated `application(_:didReceiveRemoteNotification:)`.
    case legacyDidReceiveRemoteNotification(userInfo: JSONValue)
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)`.
    case didReceiveResponse(actionID: String, userInfo: JSONValue)
    /// `scene(_:willConnectTo:options:)` with `connectionOptions.notificationResponse`'s `userInfo` (scene apps).
    case sceneWillConnect(notificationResponse: JSONValue?)
    /// `application(_:performActionFor:completionHandler:)` for a home-screen quick action.
    case performQuickAction(type: String)
    /// `pushRegistry(_:didUpdate:for:)`: PushKit hands the app its VoIP token.
    case pushRegistryDidUpdate(token: DeviceToken)
    /// `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)` for a VoIP push, and the state it ran in.
    case didReceiveIncomingPush(payload: JSONValue, state: AppState)
    /// `PTChannelManagerDelegate.incomingPushResult(channelManager:channelUUID:pushPayload:)` for a Push to Talk
    /// push.
    case incomingPushResult(payload: JSONValue)

    /// The default action identifier (a tap).
    static let defaultActionID = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The dismiss action identifier.
    static let dismissActionID = "com.apple.UNNotificationDismissActionIdentifier"

    /// An app-delegate callback without its arguments: the names suites write (`callbacks: [willPresent]`,
    /// `expect: callback: { willPresent: … }`) and events carry. The one list of them.
    package enum Kind: String, CaseIterable, Sendable {
        case didFinishLaunching, didRegisterForRemoteNotifications, didFailToRegisterForRemoteNotifications
        case willPresent, didReceiveRemoteNotification, legacyDidReceiveRemoteNotification, didReceiveResponse
        case performQuickAction, sceneWillConnect
        case pushRegistryDidUpdate, didReceiveIncomingPush, incomingPushResult
    }

    /// Which callback this is.
    package var kind: Kind {
        switch self {
        case .didFinishLaunching: .didFinishLaunching
        case .didRegisterForRemoteNotifications: .didRegisterForRemoteNotifications
        case .didFailToRegisterForRemoteNotifications: .didFailToRegisterForRemoteNotifications
        case .willPresent: .willPresent
        case .didReceiveRemoteNotification: .didReceiveRemoteNotification
        case .legacyDidReceiveRemoteNotification: .legacyDidReceiveRemoteNotification
        case .didReceiveResponse: .didReceiveResponse
        case .performQuickAction: .performQuickAction
        case .sceneWillConnect: .sceneWillConnect
        case .pushRegistryDidUpdate: .pushRegistryDidUpdate
        case .didReceiveIncomingPush: .didReceiveIncomingPush
        case .incomingPushResult: .incomingPushResult
        }
    }

    /// A short name for assertions: `willPresent`, `didReceiveRemoteNotification`, …
    package var name: String { kind.rawValue }

    package var description: String {
        switch self {
        case .didFinishLaunching(let n): return "didFinishLaunching(remoteNotification: \(n?.serialized() ?? "nil"))"
        case .didRegisterForRemoteNotifications(let t): return "didRegisterForRemoteNotifications(\(t.hex))"
        case .didFailToRegisterForRemoteNotifications(let e): return "didFailToRegisterForRemoteNotifications(\(e))"
        case .willPresent(let u, let o): return "willPresent(\(u.serialized())) -> \(o)"
        case .didReceiveRemoteNotification(let u, let s):
            return "didReceiveRemoteNotification[\(s.rawValue)](\(u.serialized()))"
        case .legacyDidReceiveRemoteNotification(let u): return "legacyDidReceiveRemoteNotification(\(u.serialized()))"
        case .didReceiveResponse(let a, let u): return "didReceiveResponse(\(a), \(u.serialized()))"
        case .performQuickAction(let t): return "performQuickAction(\(t))"
        case .sceneWillConnect(let r): return "sceneWillConnect(notificationResponse: \(r?.serialized() ?? "nil"))"
        case .pushRegistryDidUpdate(let t): return "pushRegistry(didUpdate: \(t.hex), for: voIP)"
        case .didReceiveIncomingPush(let p, let s):
            return "pushRegistry(didReceiveIncomingPushWith:)[\(s.rawValue)](\(p.serialized()))"
        case .incomingPushResult(let p): return "incomingPushResult(pushPayload: \(p.serialized()))"
        }
    }
}

/// Why a push (or part of it) had no effect: what `dropped:` reads (`text`).
package enum DropReason: Sendable, Equatable, CustomStringConvertible {
    case appNotInstalled
    case tokenNotRegistered
    case notAuthorized
    case noRemoteNotificationBackgroundMode
    /// A VoIP (`voip`) or Push to Talk (`push-to-talk`) push to an app whose UIBackgroundModes lack that mode
    /// (ios-push-types.md §4.5).
    case missingBackgroundMode(String)
    /// Part of a push: the alert, sound or badge of a push sent with `apns-push-type: background` is not shown
    /// (the type decides; ios-push-types.md §5.9).
    case userFacingInBackgroundPush
    case noFetchHandler
    case appForceQuit
    case noWillPresentDelegate
    case presentationSilenced
    case heldPushReplaced
    case heldPushDiscarded
    case fcmTokenNotMapped
    /// The tap response at a cold start was lost because the delegate was set after launch finished.
    case responseMissedDelegateSetLate
    /// A push of a type sent to a token issued for another purpose (`PushTokenKind.outcome(of:at:)`).
    case tokenKindMismatch(APNsPushType, PushTokenKind)
    /// A push type whose receiver the simulated iPhone does not have (`complication`, `mdm`).
    case notModelled(APNsPushType)
    /// iOS stopped delivering VoIP pushes to the app after `count` pushes it did not report to CallKit.
    case voipNotReported(count: Int)
    /// A Live Activity push the device does not handle (no Live Activity engine on this path).
    case liveActivityNotHandled

    // Live Activities (LiveActivityEngine; the detail is in the `.activity(.dropped)` event beside it).
    /// `aps.event` is not one the address takes (start to a push-to-start token; update/end to an activity).
    case activityEventInvalid
    case activityTimestampMissing
    /// Older than the last applied push's `timestamp`: ignored.
    case activityTimestampOutdated
    /// `content-state` does not decode as the declared `ContentState`.
    case activityContentStateInvalid
    /// `attributes-type` / `attributes` do not decode as the declared attributes.
    case activityAttributesInvalid
    /// The activity ended or was dismissed: no more updates.
    case activityEnded
    /// The priority-10 budget is spent (`LiveActivityRules.priority10Budget`).
    case activityBudgetExhausted
    /// No activity (or push-to-start type) on the device holds the address any more.
    case activityNotFound
    /// A push-to-start's `input-push-channel` is not a channel APNs has: the activity does not start
    /// (`BroadcastChannelLookup`).
    case activityChannelNotFound

    /// The text `dropped:` compares and the event log shows.
    package var text: String {
        switch self {
        case .appNotInstalled: "app-not-installed"
        case .tokenNotRegistered: "token-not-registered"
        case .notAuthorized: "not-authorized"
        case .noRemoteNotificationBackgroundMode: "no-remote-notification-background-mode"
        case .missingBackgroundMode(let mode): "no-\(mode)-background-mode"
        case .userFacingInBackgroundPush:
            "alert-not-shown: apns-push-type is background (the alert, sound and badge are not presented)"
        case .noFetchHandler: "no-fetch-handler"
        case .appForceQuit: "app-force-quit"
        case .noWillPresentDelegate: "no-willPresent-delegate"
        case .presentationSilenced: "willPresent-answered-no-display"
        case .heldPushReplaced: "held-push-replaced"
        case .heldPushDiscarded: "held-push-discarded"
        case .fcmTokenNotMapped: "fcm-token-not-mapped-to-apns"
        case .responseMissedDelegateSetLate: "response-missed-delegate-set-after-launch"
        case .tokenKindMismatch(let type, let kind):
            "token-kind-mismatch: \(type.rawValue) push to \(kind.rawValue) token"
        case .notModelled(.complication):
            "not-modelled: complication push (it reaches a paired Apple Watch's complication; no watch is modelled)"
        case .notModelled(.mdm):
            "not-modelled: mdm push (the device's MDM check-in is not modelled)"
        case .notModelled(let type): "not-modelled: \(type.rawValue) push"
        case .voipNotReported(let n):
            "voip-not-reported: iOS stopped delivering VoIP pushes after \(n) not reported to CallKit"
        case .liveActivityNotHandled: "live-activity-not-handled"
        case .activityEventInvalid: "activity-event-invalid"
        case .activityTimestampMissing: "activity-timestamp-missing"
        case .activityTimestampOutdated: "activity-timestamp-outdated"
        case .activityContentStateInvalid: "activity-content-state-invalid"
        case .activityAttributesInvalid: "activity-attributes-invalid"
        case .activityEnded: "activity-ended"
        case .activityBudgetExhausted: "activity-update-budget-exhausted"
        case .activityNotFound: "activity-not-found"
        case .activityChannelNotFound: "activity-channel-not-found"
        }
    }

    package var description: String { text }
}

/// How a notification was presented.
package struct Presentation: Sendable, Equatable, CustomStringConvertible {
    package var banner: Bool
    package var list: Bool
    package var sound: String?
    /// Provisional (quiet) delivery: list only.
    package var quiet: Bool
    /// The effective `interruption-level` (`time-sensitive`/`critical` fall back to `active` without
    /// their entitlement).
    package var interruptionLevel: String
    package init(banner: Bool, list: Bool, sound: String?, quiet: Bool, interruptionLevel: String = "active") {
        self.banner = banner
        self.list = list
        self.sound = sound
        self.quiet = quiet
        self.interruptionLevel = interruptionLevel
    }
    package var description: String {
        "banner=\(banner) list=\(list) sound=\(sound ?? "none")" + (quiet ? " quiet" : "")
            + (interruptionLevel == "active" ? "" : " \(interruptionLevel)")
    }
}

/// Everything that can be observed.
package enum DeviceEventKind: Sendable, Equatable, CustomStringConvertible {
    case installed
    /// The app was removed; its token (if any) is no longer valid (APNs answers 410 Unregistered).
    case uninstalled(token: DeviceToken?)
    case installFailed([ProvisioningFinding])
    case launchRefused([ProvisioningFinding])
    case capabilityWarning(ProvisioningFinding)
    case registered(token: DeviceToken, environment: APSEnvironment)
    /// The app got a token of another kind than the APNs device token (PushKit VoIP, Push to Talk, …).
    case pushTokenIssued(kind: PushTokenKind, token: DeviceToken, environment: APSEnvironment)
    /// The app declared a token kind this device cannot issue (its iOS predates the API).
    case pushTokenNotIssued(kind: PushTokenKind, reason: String)
    /// The app was uninstalled: its token of that kind is no longer valid.
    case pushTokenInvalidated(kind: PushTokenKind, token: DeviceToken)
    /// The app reported the VoIP push's call to CallKit (`reportNewIncomingCall`): the incoming call screen shows.
    case incomingCallReported
    /// A system part or extension handled a push that is not for the app itself.
    case pushHandled(PushReceiver)
    case registrationFailed([ProvisioningFinding])
    case fcmTokenIssued(fcmToken: String, mappedToAPNs: Bool)
    /// Firebase issued no FCM token (the world's FCM service refused the registration, e.g. an unknown sender ID).
    case fcmTokenFailed(reason: String)
    case authorizationChanged(NotificationSettings)
    case stateChanged(from: AppState, to: AppState, reason: AppTransitionReason)
    case pushReceived(apnsID: String, kind: PushKind)
    case pushDropped(apnsID: String, reason: DropReason)
    case backgroundPushHeld(apnsID: String)
    case callback(AppCallback)
    case fetchCompleted(result: FetchResult, duration: TimeInterval)
    case appTerminated(reason: String)
    case serviceExtensionRan(modified: Bool, duration: TimeInterval)
    case serviceExtensionTimedOut(duration: TimeInterval)
    case notificationPresented(id: String, content: NotificationContent, presentation: Presentation)
    case notificationReplaced(id: String, collapseID: String)
    case notificationRemoved(id: String, reason: String)
    case badgeChanged(Int?)
    /// A sound played without a notification to show (sound-only push).
    case soundPlayed(String)
    case contentExtensionShown(extensionName: String, category: String)
    case contentExtensionHandledAction(extensionName: String, actionID: String, response: ContentExtensionResponse)
    case urlOpened(url: String, by: String)
    case navigation(NavigationEvent)
    case webView(WebNavigationOutcome)
    case offlineChanged(online: Bool)
    case rebooted
    /// ActivityKit: tokens, starts, updates, ends (LiveActivity/ActivityEvent.swift).
    case activity(ActivityEvent)

    package var description: String {
        switch self {
        case .installed: return "installed"
        case .uninstalled(let t): return "uninstalled" + (t.map { " (token \($0.hex) invalidated)" } ?? "")
        case .installFailed(let f): return "install failed: " + f.map(\.code).joined(separator: ", ")
        case .launchRefused(let f): return "launch refused: " + f.map(\.code).joined(separator: ", ")
        case .capabilityWarning(let f): return "warning \(f.code): \(f.symptom)"
        case .registered(let t, let e): return "registered token \(t.hex) (\(e.rawValue))"
        case .pushTokenIssued(let k, let t, let e): return "\(k.rawValue) token \(t.hex) (\(e.rawValue))"
        case .pushTokenInvalidated(let k, let t): return "\(k.rawValue) token \(t.hex) invalidated"
        case .pushTokenNotIssued(let k, let r): return "no \(k.rawValue) token: \(r)"
        case .incomingCallReported: return "CallKit: incoming call reported (reportNewIncomingCall)"
        case .pushHandled(let r): return "push handled by \(r.rawValue): \(r.summary)"
        case .registrationFailed(let f): return "registration failed: " + f.map(\.code).joined(separator: ", ")
        case .fcmTokenIssued(let t, let m): return "FCM token \(t) mapped=\(m)"
        case .fcmTokenFailed(let r): return "FCM token not issued: \(r)"
        case .authorizationChanged(let s): return "authorization \(s.status.rawValue)"
        case .stateChanged(let a, let b, let r): return "state \(a.rawValue) -> \(b.rawValue) (\(r.rawValue))"
        case .pushReceived(let id, let k): return "push \(id) received (\(k.rawValue))"
        case .pushDropped(let id, let r): return "push \(id) dropped: \(r.text)"
        case .backgroundPushHeld(let id): return "background push \(id) held"
        case .callback(let c): return "callback \(c)"
        case .fetchCompleted(let r, let d): return "fetch completed \(r.rawValue) after \(d)s"
        case .appTerminated(let r): return "app terminated: \(r)"
        case .serviceExtensionRan(let m, let d): return "service extension ran (modified=\(m), \(d)s)"
        case .serviceExtensionTimedOut(let d): return "service extension overran (\(d)s): original content shown"
        case .notificationPresented(let id, let c, let p):
            return "notification \(id) presented '\(c.title ?? "")' / '\(c.body ?? "")' \(p)"
        case .notificationReplaced(let id, let cid): return "notification \(id) replaced (collapse-id \(cid))"
        case .notificationRemoved(let id, let r): return "notification \(id) removed (\(r))"
        case .badgeChanged(let b): return "badge \(b.map(String.init) ?? "cleared")"
        case .soundPlayed(let s): return "sound \(s) played"
        case .contentExtensionShown(let n, let c): return "content extension \(n) for category \(c)"
        case .contentExtensionHandledAction(let n, let a, let r): return "content extension \(n) handled \(a) -> \(r)"
        case .urlOpened(let u, let by): return "opened \(u) (\(by))"
        case .navigation(let n): return "navigation \(n)"
        case .webView(let o): return "web view \(o)"
        case .offlineChanged(let o): return o ? "online" : "offline"
        case .rebooted: return "rebooted"
        case .activity(let a): return "live activity: \(a)"
        }
    }
}

/// What on the device handles a push type that is not for the app's delegate (`DeviceEventKind.pushHandled`).
package enum PushReceiver: String, Sendable, Equatable, CaseIterable {
    /// The app's Location Push Service Extension (`CLLocationPushServiceExtension.didReceiveLocationPushPayload`).
    case locationPushServiceExtension = "location-push-service-extension"
    /// WidgetKit reloads the app's widget timelines.
    case widgetReload = "widget-reload"
    /// Control Center reloads the app's controls.
    case controlsReload = "controls-reload"
    /// The File Provider extension is signalled to enumerate its changes.
    case fileProviderExtension = "file-provider-extension"

    /// What happened, for the event log.
    package var summary: String {
        switch self {
        case .locationPushServiceExtension: "didReceiveLocationPushPayload ran; the extension answers with a location"
        case .widgetReload: "WidgetKit reloaded the app's widget timelines"
        case .controlsReload: "Control Center reloaded the app's controls"
        case .fileProviderExtension: "the File Provider extension was signalled to enumerate changes"
        }
    }
}
