import Foundation
import PushModel

/// The push types other than alert and background on the device: which token kind a push reached
/// (`PushTokenKind.outcome(of:at:)`), and what each type reaches — PushKit and CallKit for VoIP, the Push to Talk
/// channel manager, the extensions and system parts of the rest (Tests/reference/ios-push-types.md §1–§5).
extension DeviceState {
    /// The first iOS version whose API hands out a token of `kind` (reference §1.1): Push to Talk 16, location
    /// pushes 15, controls 18, widgets 26; PushKit's VoIP and File Provider types are far older.
    static func minimumIOS(for kind: PushTokenKind) -> Int? {
        switch kind {
        case .pushToTalk: 16
        case .location: 15
        case .controls: 18
        case .widgets: 26
        case .apns, .voip, .fileProvider, .activity, .pushToStart, .fcm: nil
        }
    }

    /// The device's iOS major version (`17` for "17.5").
    var iosMajor: Int { Int(iosVersion.prefix { $0.isNumber }) ?? 0 }

    /// The kind of token `push` was sent to: the token's kind for the app, or, for a push handed over without a
    /// token (a test's direct delivery), the kind its type is meant for if the app holds one, else the APNs token.
    /// Nil: the token is none of the app's.
    func tokenKind(of push: IncomingPush, app: InstalledApp) -> PushTokenKind? {
        if let token = push.token { return app.kind(of: token) }
        let meant = push.pushType.map(PushTokenKind.kinds(for:)) ?? [.apns]
        return meant.first { $0 == .apns ? app.token != nil : app.pushTokens[$0] != nil } ?? .apns
    }

    /// The token-kind rule on the device: nil when the push goes on to its type's receiver, else the drop it
    /// logged (no `pushReceived`: the app never got it, so `delivered:` is false).
    mutating func tokenKindDrop(_ push: IncomingPush, kind: PushTokenKind, now: Date) -> DeviceDeliveryResult? {
        guard let type = push.pushType else { return nil }
        let reason: DropReason
        switch PushTokenKind.outcome(of: type, at: kind) {
        case .deliver: return nil
        // The gateway refuses these for tokens it knows the kind of; a push that got here anyway (a gateway
        // configured with the token, or a direct delivery) reaches nothing either.
        case .refuse, .mismatch: reason = .tokenKindMismatch(type, kind)
        case .notModelled: reason = .notModelled(type)
        }
        log(.pushDropped(apnsID: push.apnsID, reason: reason), push.bundleID, now)
        return .rejected(reason)
    }

    /// Hands a push whose type is not alert or background to what handles it; nil for alert and background
    /// pushes (the notification path).
    mutating func deliverByType(_ push: IncomingPush, now: Date) -> DeviceDeliveryResult? {
        switch push.pushType {
        case nil, .alert?, .background?, .complication?, .mdm?: return nil
        case .voip?:
            if let dropped = backgroundModeDrop(push, "voip", now: now) { return dropped }
            return deliverVoIP(push, now: now)
        case .pushtotalk?:
            if let dropped = backgroundModeDrop(push, "push-to-talk", now: now) { return dropped }
            log(.pushReceived(apnsID: push.apnsID, kind: push.kind), push.bundleID, now)
            wakeForSystemPush(push.bundleID, now: now)
            log(.callback(.incomingPushResult(payload: push.payload)), push.bundleID, now)
            return .accepted
        case .location?: return deliverToSystem(push, .locationPushServiceExtension, now: now)
        case .widgets?: return deliverToSystem(push, .widgetReload, now: now)
        case .controls?: return deliverToSystem(push, .controlsReload, now: now)
        case .fileprovider?: return deliverFileProvider(push, now: now)
        case .liveactivity?:
            // The Live Activity engine (activity and push-to-start tokens) takes these; without it, nothing does.
            log(.pushDropped(apnsID: push.apnsID, reason: .liveActivityNotHandled), push.bundleID, now)
            return .rejected(.liveActivityNotHandled)
        }
    }

    /// PushKit VoIP needs the `voip` background mode, Push to Talk the `push-to-talk` one (reference §4.5): without
    /// it iOS does not launch or wake the app for the push. Nil when the app declares `mode`, else the drop it
    /// logged.
    mutating func backgroundModeDrop(_ push: IncomingPush, _ mode: String, now: Date) -> DeviceDeliveryResult? {
        guard let app = apps[push.bundleID], !app.declaration.signing.backgroundModes.contains(mode) else {
            return nil
        }
        let reason = DropReason.missingBackgroundMode(mode)
        log(.pushDropped(apnsID: push.apnsID, reason: reason), push.bundleID, now)
        return .rejected(reason)
    }

    /// A VoIP push at the PushKit token: PushKit launches or wakes the app in every state (a force-quit one
    /// too), calls `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)`, and the app reports the call to
    /// CallKit or is terminated. After `rules.voipUnreportedLimit` unreported pushes in a row iOS stops delivering
    /// VoIP pushes to the app until it is reinstalled (reference §4).
    mutating func deliverVoIP(_ push: IncomingPush, now: Date) -> DeviceDeliveryResult {
        let bundleID = push.bundleID
        let app = apps[bundleID]!
        if app.voipUnreported >= rules.voipUnreportedLimit {
            let reason = DropReason.voipNotReported(count: app.voipUnreported)
            log(.pushDropped(apnsID: push.apnsID, reason: reason), bundleID, now)
            return .rejected(reason)
        }
        log(.pushReceived(apnsID: push.apnsID, kind: .voip), bundleID, now)
        wakeForSystemPush(bundleID, now: now)
        log(
            .callback(.didReceiveIncomingPush(payload: push.payload, state: apps[bundleID]!.state)), bundleID, now)
        if app.declaration.voip.reportsCall {
            apps[bundleID]!.voipUnreported = 0
            log(.incomingCallReported, bundleID, now)
        } else {
            apps[bundleID]!.voipUnreported += 1
            let n = apps[bundleID]!.voipUnreported
            log(
                .appTerminated(
                    reason: "Killing app because it never posted an incoming call to the system after receiving a "
                        + "PushKit VoIP push (\(n) of \(rules.voipUnreportedLimit) before VoIP pushes stop)"),
                bundleID, now)
            discardHeldPush(bundleID, now)
            setState(bundleID, .notRunning, .voipCallNotReported, now)
        }
        return .accepted
    }

    /// A push for an extension or a system part (location, widgets, controls, File Provider): it runs that and
    /// not the app's delegate.
    mutating func deliverToSystem(_ push: IncomingPush, _ receiver: PushReceiver, now: Date) -> DeviceDeliveryResult {
        log(.pushReceived(apnsID: push.apnsID, kind: push.kind), push.bundleID, now)
        log(.pushHandled(receiver), push.bundleID, now)
        return .accepted
    }

    /// A File Provider push: the system signals the extension's enumerator, and "It also delivers the notification to
    /// any PKPushRegistryDelegate objects" (reference §5.7 [FP-PUSH]) — the app's `PKPushRegistry(.fileProvider)`
    /// delegate, which the token came from. Apple does not say the system launches or wakes the app for it, so the
    /// delegate is called only while the app runs (foreground or background).
    mutating func deliverFileProvider(_ push: IncomingPush, now: Date) -> DeviceDeliveryResult {
        let result = deliverToSystem(push, .fileProviderExtension, now: now)
        if let state = apps[push.bundleID]?.state, state == .foreground || state == .background {
            log(.callback(.didReceiveIncomingPush(payload: push.payload, state: state)), push.bundleID, now)
        }
        return result
    }

    /// PushKit and Push to Talk launch a stopped app (force-quit included) in the background, or wake a suspended
    /// one, before calling it.
    mutating func wakeForSystemPush(_ bundleID: String, now: Date) {
        switch apps[bundleID]!.state {
        case .notRunning, .forceQuit:
            setState(bundleID, .background, .backgroundLaunchForPush, now)
            log(.callback(.didFinishLaunching(remoteNotification: nil)), bundleID, now)
        case .suspended:
            setState(bundleID, .background, .wokenForPush, now)
        case .foreground, .background:
            break
        }
    }
}
