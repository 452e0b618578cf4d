import Foundation
import PushModel

/// One diagnosed misconfiguration: the cause, what a developer would see on a real device, and the fix
/// (device.md §3.4). The same values are produced by the simulated device and by `doctor`.
package enum ProvisioningFinding: Sendable, Equatable, CustomStringConvertible {
    /// The profile neither lists the device's UDID nor provisions all devices.
    case udidNotProvisioned(udid: String, profileName: String, profileType: ProfileType)
    /// The profile's `ExpirationDate` has passed.
    case profileExpired(profileName: String, expiredAt: Date)
    /// The profile's App ID does not cover the bundle id.
    case appIDMismatch(appID: AppID, bundleID: String)
    /// The profile belongs to another team than the app's signing team.
    case teamMismatch(profileTeam: String, appTeam: String)
    /// The app signs with an `aps-environment` the profile does not allow (different value).
    case entitlementNotAllowed(key: String, appValue: String, profileValue: String)
    /// The app signs with an entitlement (`aps-environment`) the profile does not have at all (the App ID
    /// never had Push Notifications): the build is refused at signing/install, not at registration.
    case entitlementMissingFromProfile(key: String, appValue: String, profileName: String)
    /// The app's signed entitlements have no `aps-environment` (Push Notifications capability missing).
    case missingAPSEntitlement(bundleID: String)
    /// The profile has no `aps-environment` (App ID not push-enabled, or profile made before enabling it).
    case profileLacksPush(profileName: String)
    /// The App ID is a wildcard; wildcard App IDs cannot use APNs.
    case wildcardAppID(appID: AppID)
    /// The app implements the fetch handler but `UIBackgroundModes` lacks `remote-notification`.
    case remoteNotificationBackgroundModeMissing(bundleID: String)
    /// Swizzling is off and the app does not hand the APNs token to Firebase.
    case apnsTokenNotForwardedToFirebase(senderID: String)
    /// A content extension's Info.plist has no `UNNotificationExtensionCategory` (required): iOS never uses it.
    case contentExtensionCategoryMissing(extensionName: String, infoPlist: String)
    /// The app has Live Activities but its Info.plist lacks `NSSupportsLiveActivities = YES`
    /// (Tests/reference/live-activities.md §1.1).
    case liveActivitiesNotSupported(bundleID: String)

    /// How bad the finding is: errors block install or registration, warnings only lose some pushes.
    package enum Severity: String, Sendable { case error, warning }

    /// The exact message iOS reports when registration fails for lack of the entitlement.
    static let apsEntitlementErrorMessage =
        "no valid \u{201C}aps-environment\u{201D} entitlement string found for application"

    /// The whole `NSError` description `didFailToRegisterForRemoteNotificationsWithError` prints for it:
    /// `Error Domain=… Code=… "…" UserInfo={NSLocalizedDescription=…}` (device.md §3.4, [A-FAIL][ISS-APS]).
    package static let apsEntitlementNSErrorDescription =
        "Error Domain=NSCocoaErrorDomain Code=3000 \"\(apsEntitlementErrorMessage)\" "
        + "UserInfo={NSLocalizedDescription=\(apsEntitlementErrorMessage)}"

    /// Xcode's alert when installing an app whose entitlements the profile does not allow (0xe8008016).
    static let invalidEntitlementsInstallError =
        "The executable was signed with invalid entitlements. The entitlements specified in your application\u{2019}s "
        + "Code Signing Entitlements file are invalid, not permitted, or do not match those specified in your "
        + "provisioning profile. (0xE8008016)."

    /// A stable identifier for reports and assertions (`udid-not-provisioned`, …).
    package var code: String {
        switch self {
        case .udidNotProvisioned: return "udid-not-provisioned"
        case .profileExpired: return "profile-expired"
        case .appIDMismatch: return "app-id-mismatch"
        case .teamMismatch: return "team-mismatch"
        case .entitlementNotAllowed: return "entitlement-not-allowed"
        case .entitlementMissingFromProfile: return "entitlement-not-in-profile"
        case .missingAPSEntitlement: return "missing-aps-entitlement"
        case .profileLacksPush: return "profile-lacks-push"
        case .wildcardAppID: return "wildcard-app-id"
        case .remoteNotificationBackgroundModeMissing: return "background-mode-missing"
        case .apnsTokenNotForwardedToFirebase: return "apns-token-not-forwarded"
        case .contentExtensionCategoryMissing: return "content-extension-category-missing"
        case .liveActivitiesNotSupported: return "live-activities-not-supported"
        }
    }

    package var severity: Severity {
        switch self {
        case .remoteNotificationBackgroundModeMissing, .apnsTokenNotForwardedToFirebase,
            .contentExtensionCategoryMissing:
            return .warning
        default: return .error
        }
    }

    /// What is wrong, in terms of the files.
    package var cause: String {
        switch self {
        case .udidNotProvisioned(let udid, let name, let type):
            return type == .appStore
                ? "profile '\(name)' is an App Store profile: it provisions no devices, so device \(udid) cannot install this build"
                : "profile '\(name)' (\(type.rawValue)) does not list device \(udid) in ProvisionedDevices"
        case .profileExpired(let name, let at):
            return "profile '\(name)' expired on \(ISO8601.string(at))"
        case .appIDMismatch(let appID, let bundleID):
            return "the profile's App ID \(appID) does not match bundle id \(bundleID)"
        case .teamMismatch(let profileTeam, let appTeam):
            return "the profile belongs to team \(profileTeam) but the app is signed by team \(appTeam)"
        case .entitlementNotAllowed(let key, let appValue, let profileValue):
            return "the app signs \(key)=\(appValue) but the profile only allows \(key)=\(profileValue)"
        case .entitlementMissingFromProfile(let key, let appValue, let name):
            return "the app signs \(key)=\(appValue) but profile '\(name)' has no \(key) "
                + "(its App ID is not push-enabled)"
        case .missingAPSEntitlement(let bundleID):
            return
                "the app \(bundleID) is signed without the aps-environment entitlement (Push Notifications capability missing)"
        case .profileLacksPush(let name):
            return "profile '\(name)' has no aps-environment entitlement (its App ID is not push-enabled)"
        case .wildcardAppID(let appID):
            return "the App ID \(appID) is a wildcard; wildcard App IDs cannot use APNs"
        case .remoteNotificationBackgroundModeMissing:
            return "UIBackgroundModes does not contain remote-notification, so background pushes never wake the app"
        case .apnsTokenNotForwardedToFirebase:
            return "FirebaseAppDelegateProxyEnabled is NO and the app does not set Messaging.messaging().apnsToken"
        case .contentExtensionCategoryMissing(let name, let path):
            return "content extension \(name): \(path) has no "
                + "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory"
        case .liveActivitiesNotSupported(let bundleID):
            return "\(bundleID) has Live Activities but its Info.plist has no NSSupportsLiveActivities = YES"
        }
    }

    /// What a developer would see on a real device or in Xcode.
    package var symptom: String {
        switch self {
        case .udidNotProvisioned:
            return "install/launch refused; Xcode: \"A valid provisioning profile for this executable was not found.\""
        case .profileExpired:
            return "cannot install; an already-installed ad hoc/enterprise build stops launching"
        case .appIDMismatch, .teamMismatch:
            return "install refused; Xcode: \"A valid provisioning profile for this executable was not found.\""
        case .entitlementNotAllowed:
            return "install refused; Xcode: \"" + Self.invalidEntitlementsInstallError + "\""
        case .entitlementMissingFromProfile(let key, _, let name):
            return "build/install refused; Xcode: \"Provisioning profile \u{201C}\(name)\u{201D} doesn't include the "
                + "\(key) entitlement.\"; installing anyway: \"" + Self.invalidEntitlementsInstallError + "\""
        case .missingAPSEntitlement, .profileLacksPush, .wildcardAppID:
            return "didFailToRegisterForRemoteNotificationsWithError: " + Self.apsEntitlementNSErrorDescription
                + "; no device token"
        case .remoteNotificationBackgroundModeMissing:
            return "console: You've implemented -[<UIApplicationDelegate> application:didReceiveRemoteNotification:"
                + "fetchCompletionHandler:], but you still need to add \"remote-notification\" to the list of your "
                + "supported UIBackgroundModes in your Info.plist.; the handler never runs in the background "
                + "(APNs still answers 200)"
        case .apnsTokenNotForwardedToFirebase(let senderID):
            return "[I-FCM002022] APNS device token not set before retrieving FCM Token for Sender ID '\(senderID)'. "
                + "Notifications to this FCM Token will not be delivered over APNS."
        case .contentExtensionCategoryMissing:
            return "the extension is never loaded: long-pressing a notification shows the default UI, its actions "
                + "go to the app"
        case .liveActivitiesNotSupported:
            return
                "Activity.request throws and no push-to-start token is issued; liveactivity pushes get 200 from APNs "
                + "and show nothing"
        }
    }

    /// What to change.
    package var fix: String {
        switch self {
        case .udidNotProvisioned(let udid, _, _):
            return "register \(udid) in the developer portal, regenerate the development/ad hoc profile and re-sign"
        case .profileExpired:
            return "renew the profile (and signing certificate if it expired too) and rebuild"
        case .appIDMismatch(_, let bundleID):
            return "use a profile whose App ID is <team>.\(bundleID), or change the bundle id to match"
        case .teamMismatch:
            return "sign with a profile of the app's team (or change the team in the signing settings)"
        case .entitlementMissingFromProfile:
            return
                "enable Push Notifications for the App ID in the developer portal, regenerate the profile and re-sign"
        case .entitlementNotAllowed:
            return
                "regenerate the profile after enabling the capability, or let Xcode write the entitlement from the profile"
        case .missingAPSEntitlement:
            return "add the Push Notifications capability in Xcode (writes aps-environment to the .entitlements)"
        case .profileLacksPush:
            return "enable Push Notifications for the App ID in the developer portal and regenerate the profile"
        case .wildcardAppID:
            return "create an explicit App ID matching the bundle id, enable Push Notifications, and use its profile"
        case .remoteNotificationBackgroundModeMissing:
            return "enable Background Modes ▸ Remote notifications (adds remote-notification to UIBackgroundModes)"
        case .contentExtensionCategoryMissing:
            return "add UNNotificationExtensionCategory (a string or an array) equal to the payload's aps.category, "
                + "case-sensitively"
        case .apnsTokenNotForwardedToFirebase:
            return
                "set Messaging.messaging().apnsToken in didRegisterForRemoteNotificationsWithDeviceToken, or enable swizzling"
        case .liveActivitiesNotSupported:
            return "add NSSupportsLiveActivities (Boolean, YES) to the app's Info.plist (Supports Live Activities)"
        }
    }

    package var description: String { "\(severity.rawValue) \(code): \(cause) — symptom: \(symptom) — fix: \(fix)" }
}
