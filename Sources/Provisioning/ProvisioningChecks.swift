import Foundation

/// The outcome of `registerForRemoteNotifications()` as far as signing decides it.
package enum RegistrationCheck: Sendable, Equatable {
    /// A token can be issued for this environment.
    case allowed(APSEnvironment)
    /// Registration fails with `ProvisioningFinding.apsEntitlementErrorMessage`; the findings say why.
    case denied([ProvisioningFinding])
}

/// The provisioning and capability rules, shared by the simulated device and `doctor`.
/// Pure functions: no I/O, time passed in.
package enum ProvisioningChecks {
    /// Why installing `app` signed with `profile` on device `udid` at `now` would fail (empty = installs).
    package static func installFindings(
        profile: ProvisioningProfile, app: AppSigningConfiguration, udid: String, now: Date
    ) -> [ProvisioningFinding] {
        var findings: [ProvisioningFinding] = []
        if !profile.provisions(udid: udid) {
            findings.append(.udidNotProvisioned(udid: udid, profileName: profile.name, profileType: profile.type))
        }
        if profile.expirationDate <= now {
            findings.append(.profileExpired(profileName: profile.name, expiredAt: profile.expirationDate))
        }
        if !profile.appID.matches(bundleID: app.bundleID) {
            findings.append(.appIDMismatch(appID: profile.appID, bundleID: app.bundleID))
        }
        if !profile.teamID.isEmpty, !app.teamID.isEmpty, profile.teamID != app.teamID {
            findings.append(.teamMismatch(profileTeam: profile.teamID, appTeam: app.teamID))
        }
        // The profile's entitlements are an allowlist (device.md §3.1, [A-TN3125]): signing with
        // aps-environment when the profile has none is refused too, not only a different value.
        if let appEnv = app.apsEnvironment, profile.apsEnvironment == nil {
            findings.append(
                .entitlementMissingFromProfile(
                    key: "aps-environment", appValue: appEnv.rawValue, profileName: profile.name))
        }
        if let appEnv = app.apsEnvironment, let profileEnv = profile.apsEnvironment, appEnv != profileEnv {
            findings.append(
                .entitlementNotAllowed(
                    key: "aps-environment", appValue: appEnv.rawValue, profileValue: profileEnv.rawValue))
        }
        return findings
    }

    /// Whether registering for remote notifications yields a token, and for which environment.
    package static func registration(profile: ProvisioningProfile, app: AppSigningConfiguration) -> RegistrationCheck {
        var findings: [ProvisioningFinding] = []
        if profile.appID.isWildcard { findings.append(.wildcardAppID(appID: profile.appID)) }
        if profile.apsEnvironment == nil { findings.append(.profileLacksPush(profileName: profile.name)) }
        if app.apsEnvironment == nil { findings.append(.missingAPSEntitlement(bundleID: app.bundleID)) }
        guard findings.isEmpty, let env = app.apsEnvironment else { return .denied(findings) }
        return .allowed(env)
    }

    /// Capability warnings that do not block registration but lose pushes.
    /// - Parameters:
    ///   - implementsFetchHandler: the app implements `didReceiveRemoteNotification:fetchCompletionHandler:`.
    ///   - firebaseSenderID: the FCM sender id when the app uses Firebase Messaging, else nil.
    ///   - forwardsAPNsTokenToFirebase: the app sets `Messaging.messaging().apnsToken` itself.
    package static func capabilityFindings(
        app: AppSigningConfiguration, implementsFetchHandler: Bool, firebaseSenderID: String?,
        forwardsAPNsTokenToFirebase: Bool
    ) -> [ProvisioningFinding] {
        var findings: [ProvisioningFinding] = []
        if implementsFetchHandler, !app.hasRemoteNotificationBackgroundMode {
            findings.append(.remoteNotificationBackgroundModeMissing(bundleID: app.bundleID))
        }
        if let sender = firebaseSenderID, !firebaseReceivesAPNsToken(app: app, forwards: forwardsAPNsTokenToFirebase) {
            findings.append(.apnsTokenNotForwardedToFirebase(senderID: sender))
        }
        return findings
    }

    /// The Live Activity rule the device and `doctor` share: an app that has Live Activities needs
    /// `NSSupportsLiveActivities = YES` (Tests/reference/live-activities.md §1.1).
    package static func liveActivityFindings(bundleID: String, hasLiveActivities: Bool, supportsLiveActivities: Bool)
        -> [ProvisioningFinding]
    {
        hasLiveActivities && !supportsLiveActivities ? [.liveActivitiesNotSupported(bundleID: bundleID)] : []
    }

    /// Whether the Firebase SDK learns the APNs token: by swizzling, or because the app forwards it.
    package static func firebaseReceivesAPNsToken(app: AppSigningConfiguration, forwards: Bool) -> Bool {
        app.firebaseAppDelegateProxyEnabled || forwards
    }
}

extension ProvisioningChecks {
    /// Every finding for one app on one device, in the order a developer meets them: install,
    /// registration, then capability warnings. What `doctor` prints.
    static func allFindings(
        profile: ProvisioningProfile, app: AppSigningConfiguration, udid: String?, now: Date,
        implementsFetchHandler: Bool, firebaseSenderID: String?, forwardsAPNsTokenToFirebase: Bool
    ) -> [ProvisioningFinding] {
        var findings: [ProvisioningFinding] = []
        if let udid {
            findings += installFindings(profile: profile, app: app, udid: udid, now: now)
        } else if profile.expirationDate <= now {
            findings.append(.profileExpired(profileName: profile.name, expiredAt: profile.expirationDate))
        }
        if case .denied(let denied) = registration(profile: profile, app: app) { findings += denied }
        findings += capabilityFindings(
            app: app, implementsFetchHandler: implementsFetchHandler,
            firebaseSenderID: firebaseSenderID, forwardsAPNsTokenToFirebase: forwardsAPNsTokenToFirebase)
        return findings
    }
}
