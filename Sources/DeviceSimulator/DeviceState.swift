import Foundation
import Provisioning
import PushModel

/// A notification in Notification Center.
package struct PresentedNotification: Sendable, Equatable {
    /// `n1`, `n2`, … in delivery order.
    package var id: String
    package var bundleID: String
    package var content: NotificationContent
    package var collapseID: String?
    package var deliveredAt: Date
    package var presentation: Presentation
}

/// One installed app on the device.
package struct InstalledApp: Sendable, Equatable {
    /// What the suite declared, kept behind one reference (`Boxed`): copying an app copies it with one retain.
    @inlinable package var declaration: AppDeclaration {
        get { declarationBox.value }
        set { declarationBox = Boxed(newValue) }
    }
    @usableFromInline var declarationBox: Boxed<AppDeclaration>
    package var state: AppState = .notRunning
    package var settings: NotificationSettings = .notDetermined
    package var token: DeviceToken?
    package var environment: APSEnvironment?
    package var fcmToken: String?
    package var fcmMappedToAPNs = false
    package var badge: Int?
    package var router: Router
    /// The page the top screen's web view shows, once loaded.
    package var webPage: WebPage?
    /// Its tokens of other kinds than the APNs device token (`AppDeclaration.pushTypes`).
    package var pushTokens: [PushTokenKind: DeviceToken] = [:]
    /// VoIP pushes in a row it did not report to CallKit (`DeviceRules.voipUnreportedLimit` stops delivery).
    var voipUnreported = 0
    var heldPush: IncomingPush?
    var wakes: [Date] = []
    var generation: Int

    /// The kind of `token` for this app: its APNs token or one of `pushTokens` (nil: not one of its tokens). Tokens
    /// an app holds several of (a Live Activity's, one per activity) answer here too, from their own table.
    package func kind(of token: DeviceToken) -> PushTokenKind? {
        if token == self.token { return .apns }
        return pushTokens.first { $0.value == token }?.key
    }

    /// Every token it holds now, the APNs one first.
    var allTokens: [DeviceToken] {
        (token.map { [$0] } ?? []) + PushTokenKind.allCases.compactMap { pushTokens[$0] }
    }

    init(declaration: AppDeclaration, generation: Int) {
        declarationBox = Boxed(declaration)
        self.router = Router(declaration.navigation)
        self.generation = generation
    }
}

/// The whole device as a value: every operation is a mutating function taking the time, appending to
/// the event log. `SimulatedDevice` wraps it behind a `Mutex`.
package struct DeviceState: Sendable, Equatable {
    package let name: String
    package let udid: String
    package let iosVersion: String
    package var rules: DeviceRules
    package internal(set) var online = true
    package internal(set) var apps: [String: InstalledApp] = [:]
    package internal(set) var notificationCenter: [PresentedNotification] = []
    package internal(set) var events: [DeviceEvent] = []
    /// Notifications dropped from the front of `notificationCenter` (`DeviceRules.notificationCenterLimit`).
    package internal(set) var notificationsDropped = 0
    /// ActivityKit's activities and push-to-start tokens (LiveActivity/).
    package internal(set) var liveActivities = LiveActivityStore()
    let tokens: TokenGenerator
    /// True when a Firebase service is attached (`SimulatedDevice.useFirebaseService`): FCM tokens come from it;
    /// false: the device issues them itself, as an offline stand-in for Firebase.
    var tokenServiceAttached = false
    /// Apps whose Firebase registration waits for the service.
    var pendingFirebase: [String] = []
    var installs = 0
    var notificationCounter = 0

    package init(name: String, udid: String, iosVersion: String, seed: UInt64, rules: DeviceRules = DeviceRules()) {
        self.name = name
        self.udid = udid
        self.iosVersion = iosVersion
        self.rules = rules
        self.tokens = TokenGenerator(seed: seed)
    }

    mutating func log(_ kind: DeviceEventKind, _ bundleID: String?, _ now: Date) {
        events.log(kind, bundleID, now)
    }

    /// Entries dropped from the front of `events` (`DeviceRules.eventLogLimit`): numbers start at 1 and only the
    /// oldest are ever dropped, so the first kept entry's number says how many went.
    package var eventsDropped: Int { (events.first?.sequence ?? 1) - 1 }

    mutating func trimLogs() {
        rules.eventLogLimit.trim(&events)
        notificationsDropped += rules.notificationCenterLimit.trim(&notificationCenter)
    }

    mutating func setState(_ bundleID: String, _ to: AppState, _ reason: AppTransitionReason, _ now: Date) {
        guard let from = apps[bundleID]?.state, from != to else { return }
        apps[bundleID]!.state = to
        if !from.isRunning, to.isRunning {
            // A new process: the view hierarchy (and any web view) is rebuilt from nothing; the login persists.
            apps[bundleID]!.router.coldStart()
            apps[bundleID]!.webPage = nil
        }
        log(.stateChanged(from: from, to: to, reason: reason), bundleID, now)
    }

    // MARK: install and registration

    /// Installs `app`, running the provisioning install checks. Returns the findings (empty = installed).
    @discardableResult
    package mutating func install(_ app: AppDeclaration, now: Date) -> [ProvisioningFinding] {
        let findings = ProvisioningChecks.installFindings(profile: app.profile, app: app.signing, udid: udid, now: now)
        guard findings.isEmpty else {
            log(.installFailed(findings), app.bundleID, now)
            return findings
        }
        installs += 1
        apps[app.bundleID] = InstalledApp(declaration: app, generation: installs)
        log(.installed, app.bundleID, now)
        issuePushToStartTokens(app.bundleID, now: now)
        for f in ProvisioningChecks.capabilityFindings(
            app: app.signing, implementsFetchHandler: app.delegate.implementsFetchHandler, firebaseSenderID: nil,
            forwardsAPNsTokenToFirebase: false)
        {
            log(.capabilityWarning(f), app.bundleID, now)
        }
        for f in ProvisioningChecks.liveActivityFindings(
            bundleID: app.bundleID, hasLiveActivities: !app.liveActivities.isEmpty,
            supportsLiveActivities: app.supportsLiveActivities)
        {
            log(.capabilityWarning(f), app.bundleID, now)
        }
        for ext in app.contentExtensions {
            if let path = ext.infoPlistMissingCategory {
                log(
                    .capabilityWarning(.contentExtensionCategoryMissing(extensionName: ext.name, infoPlist: path)),
                    app.bundleID, now)
            }
        }
        return []
    }

    /// Removes an app; its token stops working.
    package mutating func uninstall(_ bundleID: String, now: Date) {
        guard let app = apps.removeValue(forKey: bundleID) else { return }
        notificationCenter.removeAll { $0.bundleID == bundleID }
        for kind in PushTokenKind.allCases {
            if let t = app.pushTokens[kind] { log(.pushTokenInvalidated(kind: kind, token: t), bundleID, now) }
        }
        removeLiveActivities(of: bundleID, now: now)
        log(.uninstalled(token: app.token), bundleID, now)
    }

    /// The user answers the permission prompt (or changes Settings).
    mutating func setNotificationSettings(_ settings: NotificationSettings, for bundleID: String, now: Date) {
        guard apps[bundleID] != nil else { return }
        apps[bundleID]!.settings = settings
        log(.authorizationChanged(settings), bundleID, now)
    }

    /// `registerForRemoteNotifications()`: a token bound to the bundle id and the signed environment,
    /// or the Code=3000 failure. Also issues the FCM token when the app uses Firebase.
    @discardableResult
    mutating func registerForRemoteNotifications(_ bundleID: String, now: Date) -> RegistrationCheck? {
        guard let app = apps[bundleID] else { return nil }
        let check = ProvisioningChecks.registration(profile: app.declaration.profile, app: app.declaration.signing)
        switch check {
        case .denied(let findings):
            log(.registrationFailed(findings), bundleID, now)
            let error = ProvisioningFinding.apsEntitlementNSErrorDescription
            log(.callback(.didFailToRegisterForRemoteNotifications(error: error)), bundleID, now)
        case .allowed(let env):
            let token = tokens.apnsToken(
                udid: udid, bundleID: bundleID, environment: env.rawValue, generation: app.generation)
            apps[bundleID]!.token = token
            apps[bundleID]!.environment = env
            log(.registered(token: token, environment: env), bundleID, now)
            log(.callback(.didRegisterForRemoteNotifications(token: token)), bundleID, now)
            issuePushTokens(bundleID, environment: env, now: now)
            if let fb = app.declaration.firebase {
                let mapped = ProvisioningChecks.firebaseReceivesAPNsToken(
                    app: app.declaration.signing, forwards: fb.forwardsAPNsToken)
                apps[bundleID]!.fcmMappedToAPNs = mapped
                if tokenServiceAttached {
                    // The SDK asks Firebase once the APNs token is there; the answer arrives as its own step.
                    if !pendingFirebase.contains(bundleID) { pendingFirebase.append(bundleID) }
                } else {
                    let fcm = tokens.fcmToken(
                        udid: udid, bundleID: bundleID, senderID: fb.senderID, generation: app.generation)
                    apps[bundleID]!.fcmToken = fcm
                    log(.fcmTokenIssued(fcmToken: fcm, mappedToAPNs: mapped), bundleID, now)
                }
                for f in ProvisioningChecks.capabilityFindings(
                    app: app.declaration.signing, implementsFetchHandler: false, firebaseSenderID: fb.senderID,
                    forwardsAPNsTokenToFirebase: fb.forwardsAPNsToken)
                {
                    log(.capabilityWarning(f), bundleID, now)
                }
            }
        }
        return check
    }

    /// Issues the tokens the app declared beyond the APNs one (`push_types:`), in the registration's environment:
    /// the same seed, app and install give the same tokens. iOS hands each out through its own API; the simulated
    /// app asks for them all when it registers (Tests/reference/ios-push-types.md §1).
    mutating func issuePushTokens(_ bundleID: String, environment env: APSEnvironment, now: Date) {
        guard let app = apps[bundleID] else { return }
        for kind in app.declaration.pushTypes {
            if let needed = Self.minimumIOS(for: kind), iosMajor < needed {
                log(
                    .pushTokenNotIssued(kind: kind, reason: "needs iOS \(needed), the device runs \(iosVersion)"),
                    bundleID, now)
                continue
            }
            let token = tokens.pushToken(
                kind: kind, udid: udid, bundleID: bundleID, environment: env.rawValue, generation: app.generation)
            apps[bundleID]!.pushTokens[kind] = token
            log(.pushTokenIssued(kind: kind, token: token, environment: env), bundleID, now)
            if kind == .voip { log(.callback(.pushRegistryDidUpdate(token: token)), bundleID, now) }
        }
    }

    // MARK: device

    /// Network on/off. While offline, `deliver` refuses pushes (the gateway stores them).
    package mutating func setOnline(_ online: Bool, now: Date) {
        guard self.online != online else { return }
        self.online = online
        log(.offlineChanged(online: online), nil, now)
    }

    /// Reboot: every app stops (force-quit ones become launchable again); held pushes are discarded.
    package mutating func reboot(now: Date) {
        log(.rebooted, nil, now)
        for id in apps.keys.sorted() {
            discardHeldPush(id, now)
            setState(id, .notRunning, .reboot, now)
        }
    }

    mutating func discardHeldPush(_ bundleID: String, _ now: Date) {
        if let held = apps[bundleID]?.heldPush {
            apps[bundleID]!.heldPush = nil
            log(.pushDropped(apnsID: held.apnsID, reason: .heldPushDiscarded), bundleID, now)
        }
    }

    mutating func nextNotificationID() -> String {
        notificationCounter += 1
        return "n\(notificationCounter)"
    }
}
