import Foundation
import Provisioning

/// One problem `doctor` reports about one file: a stable id, how bad it is, what breaks, the symptom a
/// developer sees, and the fix. Findings the simulated device also produces are converted from
/// `ProvisioningFinding` (`init(_:file:)`), so both say the same thing.
package struct DoctorFinding: Error, Sendable, Equatable {
    package typealias Severity = ProvisioningFinding.Severity

    /// Stable identifier (`udid-not-provisioned`, `apns-key-not-p256`, …).
    package var id: String
    package var severity: Severity
    /// The file the finding is about (a path as given), or `(command line)` for context options.
    package var file: String
    /// What is wrong, in terms of the files.
    package var cause: String
    /// What stops working.
    package var breaks: String
    /// What a developer sees (log line, Xcode message, APNs/FCM reason).
    package var symptom: String
    /// What to change.
    package var fix: String

    package init(
        id: String, severity: Severity, file: String, cause: String, breaks: String, symptom: String, fix: String
    ) {
        self.id = id
        self.severity = severity
        self.file = file
        self.cause = cause
        self.breaks = breaks
        self.symptom = symptom
        self.fix = fix
    }

    /// The same finding the simulated device reports, attributed to `file`.
    package init(_ finding: ProvisioningFinding, file: String) {
        self.init(
            id: finding.code, severity: finding.severity, file: file, cause: finding.cause,
            breaks: finding.whatBreaks, symptom: finding.symptom, fix: finding.fix)
    }

    /// A file that could not be read or parsed: always an error naming the file and the reason.
    package static func unreadable(_ file: String, reason: String, expected: String) -> DoctorFinding {
        DoctorFinding(
            id: "file-unreadable", severity: .error, file: file,
            cause: reason.hasPrefix(file + ":") ? reason : "\(file): \(reason)",
            breaks: "doctor cannot check anything that depends on this file",
            symptom: "the tool that consumes the file (Xcode, your backend, the Firebase SDK) fails the same way",
            fix: "pass \(expected)")
    }
}

extension ProvisioningFinding {
    /// What stops working (device.md §3.4 "What breaks").
    var whatBreaks: String {
        switch self {
        case .udidNotProvisioned, .appIDMismatch, .teamMismatch, .entitlementNotAllowed, .entitlementMissingFromProfile:
            return "the device refuses the profile, so the build does not install"
        case .profileExpired:
            return "the profile is invalid: the build cannot be installed or launched"
        case .missingAPSEntitlement, .profileLacksPush, .wildcardAppID:
            return "no aps-environment in the signature: registerForRemoteNotifications yields no device token"
        case .remoteNotificationBackgroundModeMissing:
            return "silent (content-available) pushes never wake a backgrounded or terminated app"
        case .apnsTokenNotForwardedToFirebase:
            return "the FCM token is not mapped to an APNs token, so FCM cannot deliver over APNs"
        case .contentExtensionCategoryMissing:
            return "iOS never loads the content extension: it does not know which categories it handles"
        case .liveActivitiesNotSupported:
            return "ActivityKit starts no Live Activity for the app, locally or by push"
        }
    }
}
