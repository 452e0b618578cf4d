import Foundation
import Provisioning
import PushModel

/// One check doctor ran: passed when it has no findings. Every check is reported (JUnit lists passed
/// ones too), so a CI run shows what was verified, not only what failed.
package struct DoctorCheck: Sendable, Equatable {
    /// Stable id, `<area>.<what>` (`profile.expiry`, `apns-key.type`, …).
    package var id: String
    /// What the check verifies, as a sentence fragment.
    package var title: String
    /// The file checked (path as given) or `(command line)`.
    package var file: String
    package var findings: [DoctorFinding]

    package var passed: Bool { findings.isEmpty }
    /// The worst severity among the findings, nil when passed.
    package var worstSeverity: DoctorFinding.Severity? {
        findings.contains { $0.severity == .error } ? .error : findings.isEmpty ? nil : .warning
    }
}

/// `pushcheck doctor`'s findings engine: runs every check that the given files allow. Pure: the files
/// are already read (`DoctorInputLoader`), the time is passed in. The provisioning rules are the ones the
/// simulated device runs (`ProvisioningChecks`); doctor only adds the checks a device cannot make
/// (APNs credentials, Firebase files, expiry warnings, the backend's environment and topic).
package enum Doctor {
    /// How close to expiry a profile or certificate is reported as a warning.
    static let expiryWarningWindow: TimeInterval = 30 * 86_400

    /// A still-valid date that is inside the warning window: the one rule for every "expires soon" warning.
    static func expiresSoon(_ notAfter: Date, now: Date) -> Bool {
        notAfter.timeIntervalSince(now) < expiryWarningWindow
    }
    /// Where findings about command-line context (no file) are attributed.
    static let commandLine = "(command line)"

    package static func diagnose(_ inputs: DoctorInputs, context: DoctorContext, now: Date) -> [DoctorCheck] {
        var list = Checklist()
        for file in unreadableFiles(inputs) {
            list.record("file.readable", "the file can be read and parsed", file: file.file, [file])
        }
        let facts = AppFacts(inputs: inputs, context: context)
        if let profile = inputs.profile?.value, let path = inputs.profile?.path {
            profileChecks(profile, path: path, facts: facts, context: context, now: now, into: &list)
        }
        appChecks(inputs, facts: facts, context: context, into: &list)
        extensionChecks(inputs, facts: facts, context: context, now: now, into: &list)
        if let key = inputs.apnsKey, let value = key.value {
            apnsKeyChecks(value, path: key.path, facts: facts, context: context, now: now, into: &list)
        }
        if let cert = inputs.apnsCertificate, let value = cert.value {
            apnsCertificateChecks(value, path: cert.path, facts: facts, context: context, now: now, into: &list)
        }
        firebaseChecks(inputs, facts: facts, context: context, into: &list)
        androidChecks(inputs, context: context, into: &list)
        return list.checks
    }

    static func unreadableFiles(_ inputs: DoctorInputs) -> [DoctorFinding] {
        var failures: [DoctorFinding?] = [
            inputs.profile?.failure, inputs.entitlements?.failure, inputs.infoPlist?.failure,
            inputs.apnsKey?.failure, inputs.apnsCertificate?.failure, inputs.googleServiceInfo?.failure,
            inputs.serviceAccount?.failure, inputs.googleServices?.failure, inputs.androidManifest?.failure,
        ]
        failures += inputs.extensions.map(\.failure)
        failures += inputs.extensions.map { $0.value?.profile?.failure }
        return failures.compactMap { $0 }
    }

    /// Accumulates checks in the order they ran.
    struct Checklist {
        var checks: [DoctorCheck] = []
        mutating func record(_ id: String, _ title: String, file: String, _ findings: [DoctorFinding]) {
            checks.append(DoctorCheck(id: id, title: title, file: file, findings: findings))
        }
    }
}

extension DoctorFile {
    var failure: DoctorFinding? { if case .failure(let f) = content { return f } else { return nil } }
}

/// Where doctor learnt the app's bundle id.
enum BundleIDSource {
    /// `CFBundleIdentifier` of the Info.plist: the app as built.
    case infoPlist
    /// `--bundle-id` (config `bundle_id`).
    case option
    /// The profile's explicit App ID.
    case profile
}

/// What the app's own files say, merged from every input that has a say.
struct AppFacts {
    /// The app's signing configuration, when entitlements or an Info.plist were given. Its bundle id is
    /// `bundleID` when that is known, else only a name for findings (checks that compare it use `bundleID`).
    var signing: AppSigningConfiguration?
    /// Entitlements were given (otherwise entitlement checks are skipped, not failed).
    var hasEntitlements: Bool
    var entitlementsPath: String?
    var infoPath: String?
    /// The bundle id from Info.plist (or `--bundle-id`, or the profile's explicit App ID).
    var bundleID: String?
    /// Which of those `bundleID` came from.
    var bundleIDSource: BundleIDSource?
    /// The team: entitlements, then profile, then `--team-id`.
    var teamID: String?
    /// The entitlements are a built app's signed ones, not the project's source `.entitlements`.
    var entitlementsAreSigned: Bool
    /// The environment the app's device tokens belong to: its signed aps-environment; with a source `.entitlements`
    /// the profile's, since "Xcode writes aps-environment from the current profile" (device.md §3.2); the source
    /// file's value only when no profile is given.
    var tokenEnvironment: APSEnvironment?

    /// How findings name the app when neither its files nor `--bundle-id` say its bundle id.
    static let unknownBundleID = "(bundle id unknown)"

    init(inputs: DoctorInputs, context: DoctorContext) {
        let profile = inputs.profile?.value?.profile
        let entitlements = inputs.entitlements?.value
        let info = inputs.infoPlist?.value
        entitlementsPath = inputs.entitlements?.path
        infoPath = inputs.infoPlist?.path
        hasEntitlements = entitlements != nil
        let infoBundle = info?["CFBundleIdentifier"]?.stringValue.flatMap { $0.contains("$(") ? nil : $0 }
        let profileBundle = profile.flatMap { $0.appID.isWildcard ? nil : $0.appID.bundlePattern }
        bundleID = infoBundle ?? context.bundleID ?? profileBundle
        bundleIDSource =
            infoBundle != nil ? .infoPlist : context.bundleID != nil ? .option : profileBundle != nil ? .profile : nil
        let entTeam =
            entitlements?["com.apple.developer.team-identifier"]?.stringValue
            ?? entitlements?["application-identifier"]?.stringValue.map { AppID(applicationIdentifier: $0).prefix }
        teamID = [entTeam, profile?.teamID, context.teamID].compactMap { $0 }.first {
            !$0.isEmpty && !$0.contains("$(")
        }
        // The entitlement and Info.plist rules need no bundle id: with none known (a source Info.plist says
        // `$(PRODUCT_BUNDLE_IDENTIFIER)`, or entitlements alone) they still run, naming the app by what its file says.
        if entitlements != nil || info != nil {
            let named = info?["CFBundleIdentifier"]?.stringValue ?? Self.unknownBundleID
            signing = AppSigningConfiguration(
                bundleID: bundleID ?? named, teamID: entTeam.flatMap { $0.contains("$(") ? nil : $0 } ?? "",
                entitlements: entitlements ?? [:],
                backgroundModes: info?["UIBackgroundModes"]?.stringArray ?? [],
                firebaseAppDelegateProxyEnabled: info?["FirebaseAppDelegateProxyEnabled"]?.boolValue ?? true)
        }
        entitlementsAreSigned = inputs.entitlementsAreSigned
        let appEnvironment = hasEntitlements ? signing?.apsEnvironment : nil
        tokenEnvironment =
            entitlementsAreSigned
            ? appEnvironment ?? profile?.apsEnvironment : profile?.apsEnvironment ?? appEnvironment
    }
}
