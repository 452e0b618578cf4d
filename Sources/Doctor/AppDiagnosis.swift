import Foundation
import Provisioning

/// Checks of the app's own files: entitlements, Info.plist capabilities, bundle ids, extensions.
extension Doctor {
    static func appChecks(_ inputs: DoctorInputs, facts: AppFacts, context: DoctorContext, into list: inout Checklist) {
        let profile = inputs.profile?.value?.profile
        if let path = facts.entitlementsPath, facts.hasEntitlements, let signing = facts.signing {
            // The device's registration rule, app side: no aps-environment, no token.
            var aps: [DoctorFinding] = []
            if let profile {
                if case .denied(let denied) = ProvisioningChecks.registration(profile: profile, app: signing) {
                    aps = denied.filter { if case .missingAPSEntitlement = $0 { return true } else { return false } }
                        .map { DoctorFinding($0, file: path) }
                }
            } else if signing.apsEnvironment == nil {
                aps = [DoctorFinding(.missingAPSEntitlement(bundleID: signing.bundleID), file: path)]
            }
            list.record("entitlements.aps-environment", "the app is signed with aps-environment", file: path, aps)
            if let profile {
                // aps-environment is the device's install rule; every other key is the allowlist rule.
                let install = ProvisioningChecks.installFindings(
                    profile: profile, app: signing, udid: "", now: .distantPast)
                var allowed = install.filter {
                    // A source .entitlements' aps-environment value is replaced by the profile's at signing
                    // (device.md §3.2): only a signed one can disagree with the profile. A profile without any
                    // aps-environment still fails the build ("doesn't include the aps-environment entitlement").
                    switch $0 {
                    case .entitlementNotAllowed: return facts.entitlementsAreSigned
                    case .entitlementMissingFromProfile: return true
                    default: return false
                    }
                }
                allowed += EntitlementAllowlist.violations(
                    app: signing.entitlements, profile: profile.entitlements, skipping: ["aps-environment"])
                list.record(
                    "entitlements.allowed", "the profile allows every entitlement the app signs with", file: path,
                    allowed.map { DoctorFinding($0, file: path) })
            }
        }
        if context.environment != nil, facts.tokenEnvironment != nil {
            let fromProfile = !facts.entitlementsAreSigned && inputs.profile?.value != nil
            let file = facts.hasEntitlements ? facts.entitlementsPath : inputs.profile?.path
            list.record(
                "environment.gateway", "the app's tokens belong to the gateway the backend sends to",
                file: file ?? commandLine,
                environmentFinding(
                    facts: facts, context: context, file: file ?? commandLine,
                    fromProfile: fromProfile && facts.hasEntitlements))
        }
        if let path = facts.infoPath, let signing = facts.signing, inputs.infoPlist?.value != nil {
            if context.expectsSilentPush {
                let findings = ProvisioningChecks.capabilityFindings(
                    app: signing, implementsFetchHandler: true, firebaseSenderID: nil, forwardsAPNsTokenToFirebase: true
                )
                list.record(
                    "info-plist.background-mode",
                    "UIBackgroundModes contains remote-notification (silent pushes expected)",
                    file: path, findings.map { DoctorFinding($0, file: path) })
            }
            if context.expectsLiveActivities {
                let findings = ProvisioningChecks.liveActivityFindings(
                    bundleID: signing.bundleID, hasLiveActivities: true,
                    supportsLiveActivities: inputs.infoPlist?.value?["NSSupportsLiveActivities"]?.boolValue ?? false)
                list.record(
                    "info-plist.live-activities", "NSSupportsLiveActivities is YES (the app has Live Activities)",
                    file: path, findings.map { DoctorFinding($0, file: path) })
            }
            let usesFirebase = inputs.googleServiceInfo != nil || !signing.firebaseAppDelegateProxyEnabled
            if usesFirebase {
                let sender =
                    inputs.googleServiceInfo?.value?["GCM_SENDER_ID"]?.stringValue ?? context.firebaseSenderID
                    ?? "(sender id)"
                let findings = ProvisioningChecks.capabilityFindings(
                    app: signing, implementsFetchHandler: false, firebaseSenderID: sender,
                    forwardsAPNsTokenToFirebase: context.forwardsAPNsTokenToFirebase)
                list.record(
                    "info-plist.firebase-proxy", "the Firebase SDK receives the APNs token (swizzling or forwarding)",
                    file: path, findings.map { DoctorFinding($0, file: path) })
            }
        }
        topicChecks(inputs, facts: facts, context: context, into: &list)
        bundleIDKnownCheck(inputs, facts: facts, context: context, into: &list)
    }

    /// Without a bundle id (a source Info.plist's `$(PRODUCT_BUNDLE_IDENTIFIER)`, or entitlements alone) the checks
    /// that compare it are not made: said as a finding, so a run never looks clean for checks it skipped.
    static func bundleIDKnownCheck(
        _ inputs: DoctorInputs, facts: AppFacts, context: DoctorContext, into list: inout Checklist
    ) {
        guard facts.bundleID == nil, let path = facts.infoPath ?? facts.entitlementsPath else { return }
        var skipped: [String] = []
        if inputs.profile?.value != nil { skipped.append("the profile's App ID") }
        if context.topic != nil { skipped.append("the backend's apns-topic (--topic)") }
        if inputs.googleServiceInfo?.value?["BUNDLE_ID"] != nil {
            skipped.append("GoogleService-Info.plist's BUNDLE_ID")
        }
        if inputs.apnsCertificate?.value != nil { skipped.append("the push certificate's topic") }
        if !inputs.extensions.isEmpty { skipped.append("the extensions' bundle id prefix") }
        let said = inputs.infoPlist?.value?["CFBundleIdentifier"]?.stringValue
        list.record(
            "app.bundle-id", "the app's bundle id is known (Info.plist, --bundle-id or the profile's App ID)",
            file: path,
            [
                DoctorFinding(
                    id: "bundle-id-unknown", severity: .warning, file: path,
                    cause: (said.map { "CFBundleIdentifier is \($0) (an Xcode build setting)" }
                        ?? "no Info.plist or --bundle-id says the app's bundle id")
                        + ", so the checks against it were not made"
                        + (skipped.isEmpty ? "" : ": " + skipped.joined(separator: ", ")),
                    breaks: "a bundle id mismatch (profile, topic, Firebase app, certificate) goes unreported",
                    symptom: "none from doctor; a mismatch shows as install refused or APNs 400 DeviceTokenNotForTopic",
                    fix: "pass --bundle-id with the app's PRODUCT_BUNDLE_IDENTIFIER (or --app with the built .app)")
            ])
    }

    /// A bundle id that differs from the app's: pushes addressed with it do not match the app's tokens.
    static func topicMismatch(file: String, what: String, value: String, bundleID: String) -> DoctorFinding {
        DoctorFinding(
            id: "bundle-id-mismatch", severity: .error, file: file,
            cause: "\(what) is \(value) but the app's bundle id (CFBundleIdentifier) is \(bundleID)",
            breaks: "pushes are addressed to another app than the one that owns the device token",
            symptom: "APNs answers 400 DeviceTokenNotForTopic",
            fix:
                "use \(bundleID) everywhere (apns-topic, profile App ID, GoogleService-Info.plist BUNDLE_ID, certificate)"
        )
    }

    /// App extensions: bundle ids nested under the app's, content extensions declaring their category.
    static func extensionChecks(
        _ inputs: DoctorInputs, facts: AppFacts, context: DoctorContext, now: Date, into list: inout Checklist
    ) {
        for file in inputs.extensions {
            guard let info = file.value?.info, let bytes = file.value?.bytes else { continue }
            let name = URL(fileURLWithPath: file.path).deletingLastPathComponent().lastPathComponent
            if let embedded = file.value?.profile, let profile = embedded.value?.profile,
                let bundle = info["CFBundleIdentifier"]?.stringValue, !bundle.contains("$(")
            {
                // The device's install rule, for the extension with its own profile.
                let findings = ProvisioningChecks.installFindings(
                    profile: profile, app: AppSigningConfiguration(bundleID: bundle, teamID: ""),
                    udid: context.udid ?? "", now: now
                ).filter { finding in
                    switch finding {
                    case .udidNotProvisioned: return context.udid != nil && profile.type != .appStore
                    case .profileExpired, .appIDMismatch: return true
                    default: return false
                    }
                }
                list.record(
                    "extension.profile", "\(name)'s embedded profile installs (device, expiry, App ID)",
                    file: embedded.path, findings.map { DoctorFinding($0, file: embedded.path) })
            }
            if let app = facts.bundleID, let bundle = info["CFBundleIdentifier"]?.stringValue, !bundle.contains("$(") {
                list.record(
                    "extension.bundle-id", "\(name)'s bundle id is prefixed by the app's", file: file.path,
                    bundle.hasPrefix(app + ".")
                        ? []
                        : [
                            DoctorFinding(
                                id: "extension-bundle-id-prefix", severity: .error, file: file.path,
                                cause: "the extension's bundle id \(bundle) is not prefixed by the app's (\(app).)",
                                breaks:
                                    "an app extension must be nested under its app's bundle id, so the app is not installable",
                                symptom:
                                    "install refused; Xcode: \"Embedded binary's bundle identifier is not prefixed with the parent app's bundle identifier.\"",
                                fix: "rename the extension's bundle id to \(app).<name> (and its App ID and profile)")
                        ])
            }
            let point = info["NSExtension"]?["NSExtensionPointIdentifier"]?.stringValue
            guard
                point == NotificationExtensionInfo.Kind.service.rawValue
                    || point == NotificationExtensionInfo.Kind.content.rawValue
            else { continue }
            // The same reader the simulated device loads extensions with: its errors are the findings.
            var findings: [DoctorFinding] = []
            do {
                _ = try NotificationExtensionInfo(infoPlist: bytes, source: file.path)
            } catch {
                findings.append(extensionFinding(error, name: name, file: file.path))
            }
            list.record("extension.info", "\(name)'s NSExtension attributes are complete", file: file.path, findings)
        }
    }

    /// The extension reader's error as a finding; a missing category is the device's own finding.
    static func extensionFinding(_ error: ProvisioningError, name: String, file: String) -> DoctorFinding {
        if case .missingKey(_, let key) = error, key.hasSuffix("UNNotificationExtensionCategory") {
            return DoctorFinding(.contentExtensionCategoryMissing(extensionName: name, infoPlist: file), file: file)
        }
        return DoctorFinding(
            id: "extension-info-invalid", severity: .error, file: file, cause: error.description,
            breaks: "iOS does not load the notification extension",
            symptom: "pushes are shown unmodified / with the default UI",
            fix: "complete the NSExtension dictionary as Xcode's notification extension template writes it")
    }
}
