import Foundation
import Provisioning
import PushCrypto
import PushModel

/// Checks of a `.mobileprovision`: signature, expiry, device, push capability, environment.
extension Doctor {
    static func profileChecks(
        _ file: ProfileFile, path: String, facts: AppFacts, context: DoctorContext, now: Date,
        into list: inout Checklist
    ) {
        let profile = file.profile
        list.record(
            "profile.signature",
            "the CMS signature over the profile verifies"
                + (file.signers.first.map { " (signer \($0); Apple's chain not required)" }
                    ?? " (Apple's chain not required)"),
            file: path,
            file.signatureVerifies
                ? []
                : [
                    // A bare plist (`security cms -D` output) only lacks the signature; a CMS signature that is
                    // there and fails is what the device refuses (device.md §3.1, [A-TN3125]).
                    DoctorFinding(
                        id: "profile-signature-invalid", severity: file.isCMS ? .error : .warning, file: path,
                        cause: file.isCMS
                            ? "the profile's CMS signature does not verify with its signer (the profile was edited or damaged)"
                            : "the file is a bare plist, not the signed profile: its signature cannot be checked",
                        breaks: "a device refuses a profile whose signature does not verify",
                        symptom:
                            "install refused; Xcode: \"A valid provisioning profile for this executable was not found.\"",
                        fix:
                            "use the .mobileprovision exactly as downloaded (do not edit or re-sign it); re-download it"
                    )
                ])

        // The device's install rule decides "expired"; doctor adds the 30-day warning before it.
        let signing = facts.signing ?? AppSigningConfiguration(bundleID: facts.bundleID ?? "", teamID: "")
        let install = ProvisioningChecks.installFindings(
            profile: profile, app: signing, udid: context.udid ?? "", now: now)
        var expiry = install.filter { if case .profileExpired = $0 { return true } else { return false } }
            .map { DoctorFinding($0, file: path) }
        if expiry.isEmpty, expiresSoon(profile.expirationDate, now: now) {
            let days = Int(profile.expirationDate.timeIntervalSince(now) / 86_400)
            expiry.append(
                DoctorFinding(
                    id: "profile-expiring", severity: .warning, file: path,
                    cause: "profile '\(profile.name)' expires on \(day(profile.expirationDate)) (in \(days) days)",
                    breaks: "after that date the build cannot be installed and ad hoc/enterprise builds stop launching",
                    symptom: "nothing yet; then \"A valid provisioning profile for this executable was not found.\"",
                    fix: "renew the profile in the developer portal (or let Xcode renew it) and ship a re-signed build")
            )
        }
        list.record("profile.expiry", "the profile is valid for at least 30 more days", file: path, expiry)
        if !file.developerCertificates.isEmpty {
            list.record(
                "profile.certificates", "a signing certificate in the profile (DeveloperCertificates) is valid",
                file: path,
                signingCertificateFindings(file.developerCertificates, profileName: profile.name, path: path, now: now))
        }

        // The rest of the install rule, one check per cause; the udid finding needs --udid.
        if let udid = context.udid, profile.type == .appStore {
            // App Store/TestFlight profiles list no devices: the build reaches a device through TestFlight or the
            // App Store, re-signed by Apple (device.md §3.1, §3.2), so there is no device list to check.
            list.record(
                "profile.device",
                "the profile is an App Store/TestFlight profile: device \(udid) installs the build from TestFlight or "
                    + "the App Store (the profile lists no devices)", file: path, [])
        } else if let udid = context.udid {
            let missing = install.filter { if case .udidNotProvisioned = $0 { return true } else { return false } }
            list.record(
                "profile.device", "the profile provisions device \(udid)", file: path,
                missing.map { DoctorFinding($0, file: path) })
        }
        if facts.bundleID != nil {
            let mismatch = install.filter { if case .appIDMismatch = $0 { return true } else { return false } }
            list.record(
                "profile.app-id", "the profile's App ID covers the app's bundle id", file: path,
                mismatch.map { DoctorFinding($0, file: path) })
        }
        if facts.signing != nil, facts.hasEntitlements {
            let team = install.filter { if case .teamMismatch = $0 { return true } else { return false } }
            list.record(
                "profile.team", "the profile belongs to the app's team", file: path,
                team.map { DoctorFinding($0, file: path) })
        }

        // The device's registration rule, profile side (the app side is checked with the entitlements).
        let registration = ProvisioningChecks.registration(profile: profile, app: signing)
        var push: [DoctorFinding] = []
        if case .denied(let denied) = registration {
            for finding in denied {
                switch finding {
                case .wildcardAppID, .profileLacksPush: push.append(DoctorFinding(finding, file: path))
                default: break
                }
            }
        }
        list.record(
            "profile.push", "the profile's App ID is explicit and push-enabled (aps-environment)", file: path, push)

        var type: [DoctorFinding] = []
        if let env = profile.apsEnvironment, env != profile.type.expectedAPSEnvironment {
            type.append(
                DoctorFinding(
                    id: "profile-type-environment", severity: .warning, file: path,
                    cause:
                        "profile '\(profile.name)' is a \(profile.type.rawValue) profile but grants aps-environment=\(env.rawValue)"
                        + " (a \(profile.type.rawValue) profile normally grants \(profile.type.expectedAPSEnvironment.rawValue))",
                    breaks: "the app's tokens belong to the gateway its profile type does not suggest",
                    symptom: "pushes sent to the usual gateway for this build type fail with 400 BadDeviceToken",
                    fix:
                        "regenerate the profile with the right type, and send its tokens to the gateway aps-environment names"
                ))
        }
        list.record("profile.type", "the profile type matches its aps-environment", file: path, type)
    }

    /// The gateway check: tokens of a development-signed app only work with the sandbox, and vice versa.
    /// - Parameter fromProfile: the environment is the profile's although a source `.entitlements` was given (Xcode
    ///   signs with the profile's value, device.md §3.2): the cause says so.
    static func environmentFinding(facts: AppFacts, context: DoctorContext, file: String, fromProfile: Bool = false)
        -> [DoctorFinding]
    {
        guard let target = context.environment, let env = facts.tokenEnvironment, env.apnsEnvironment != target else {
            return []
        }
        let signedWith =
            fromProfile
            ? "the profile grants aps-environment=\(env.rawValue) (Xcode signs the app with the profile's value, "
                + "whatever the source .entitlements says)"
            : "the app is signed with aps-environment=\(env.rawValue)"
        return [
            DoctorFinding(
                id: "environment-mismatch", severity: .error, file: file,
                cause: signedWith + ", so its device tokens are "
                    + "\(env.apnsEnvironment.rawValue) tokens, but the backend sends to \(target.rawValue) (\(target.appleHost))",
                breaks: "every push to this app's tokens is refused by the gateway",
                symptom: "APNs answers 400 BadDeviceToken",
                fix:
                    "send \(env.rawValue) builds to \(env.apnsEnvironment.appleHost) (--environment \(env.apnsEnvironment.rawValue)), "
                    + "or install a build signed with a \(target == .production ? "ad hoc/App Store" : "development") profile"
            )
        ]
    }

    /// A build must be signed with one of the profile's certificates; when all have expired, nothing
    /// signed under this profile installs (device.md §3.4, "expired profile / signing cert").
    static func signingCertificateFindings(
        _ certificates: [CertificateInfo], profileName: String, path: String, now: Date
    ) -> [DoctorFinding] {
        let valid = certificates.filter { $0.isValid(at: now) }
        let names = certificates.map { "\($0.subject.commonName ?? $0.subject.oneLine) (until \(day($0.notAfter)))" }
            .joined(separator: ", ")
        if valid.isEmpty {
            return [
                DoctorFinding(
                    id: "signing-certificate-expired", severity: .error, file: path,
                    cause: "no certificate in profile '\(profileName)' is valid now: \(names)",
                    breaks: "a build signed with an expired certificate cannot be installed or launched",
                    symptom:
                        "Xcode: \"No signing certificate found\" / install refused; already-installed ad hoc builds stop launching",
                    fix: "create a new signing certificate, regenerate the profile with it and re-sign")
            ]
        }
        if valid.allSatisfy({ expiresSoon($0.notAfter, now: now) }) {
            return [
                DoctorFinding(
                    id: "signing-certificate-expiring", severity: .warning, file: path,
                    cause: "every certificate in profile '\(profileName)' expires within 30 days: \(names)",
                    breaks: "after that date builds signed under this profile stop installing",
                    symptom: "nothing yet; then install refused",
                    fix: "create a new signing certificate now and regenerate the profile with it")
            ]
        }
        return []
    }

    static func day(_ date: Date) -> String {
        ISO8601.day(date)
    }
}
