import Foundation
import Provisioning
import PushCrypto
import PushModel

/// Checks of the backend's APNs credentials: the `.p8` token key and the push certificate
/// (apns.md §1.5, device.md §3.4). The gateway enforces the same facts when a push arrives.
extension Doctor {
    /// Apple's Key IDs and Team IDs: 10 upper-case letters or digits.
    static func isAppleIdentifier(_ s: String) -> Bool {
        s.count == 10 && s.allSatisfy { ($0.isASCII && $0.isUppercase) || $0.isNumber }
    }

    /// The Key ID Apple writes into the downloaded file name (`AuthKey_ABCDE12345.p8`).
    static func keyIDFromFileName(_ path: String) -> String? {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard name.hasPrefix("AuthKey_") else { return nil }
        let id = String(name.dropFirst("AuthKey_".count))
        return isAppleIdentifier(id) ? id : nil
    }

    static func invalidProviderToken(
        _ id: String, file: String, cause: String, fix: String
    ) -> DoctorFinding {
        DoctorFinding(
            id: id, severity: .error, file: file, cause: cause,
            breaks: "APNs cannot verify the provider token (JWT) signed with this key, so no push is accepted",
            symptom: "APNs answers 403 InvalidProviderToken to every request", fix: fix)
    }

    static func apnsKeyChecks(
        _ key: APNsKeyFile, path: String, facts: AppFacts, context: DoctorContext, now: Date, into list: inout Checklist
    ) {
        var type: [DoctorFinding] = []
        if let wrong = key.wrongType {
            type.append(
                invalidProviderToken(
                    "apns-key-not-p256", file: path,
                    cause: "the key is \(wrong), not an EC P-256 key (APNs supports only ES256)",
                    fix: "use the AuthKey_<KEYID>.p8 downloaded from Certificates, Identifiers & Profiles ▸ Keys"))
        } else if let p256 = key.key {
            // Prove the key signs a token its own public half verifies (what APNs does with the registered key).
            let token = try? JWT.apnsProviderToken(
                teamID: context.teamID ?? "TEAMID0000", keyID: context.keyID ?? "KEYID00000",
                issuedAt: Int(now.timeIntervalSince1970), key: p256)
            let verifies =
                token.flatMap { try? JWT(compact: $0) }.map { jwt in
                    (try? jwt.verifyES256(using: p256.publicKey)) != nil
                } ?? false
            if !verifies {
                type.append(
                    invalidProviderToken(
                        "apns-key-unusable", file: path, cause: "an ES256 token signed with this key does not verify",
                        fix: "download a new key; this one is damaged"))
            }
        }
        list.record("apns-key.type", "the key is an EC P-256 key that signs ES256 tokens", file: path, type)

        var keyID: [DoctorFinding] = []
        let fromName = keyIDFromFileName(path)
        if let kid = context.keyID {
            if !isAppleIdentifier(kid) {
                keyID.append(
                    invalidProviderToken(
                        "apns-key-id-invalid", file: path, cause: "--key-id \(kid) is not a 10-character Key ID",
                        fix:
                            "use the Key ID shown beside the key in the developer portal (also in the file name AuthKey_<KEYID>.p8)"
                    ))
            } else if let fromName, fromName != kid {
                keyID.append(
                    invalidProviderToken(
                        "apns-key-id-mismatch", file: path,
                        cause:
                            "the backend's key id (kid) is \(kid) but this file is the key \(fromName) (AuthKey_\(fromName).p8)",
                        fix: "send kid=\(fromName) with this key, or sign with AuthKey_\(kid).p8"))
            }
        }
        if context.keyID != nil || fromName != nil {
            list.record("apns-key.key-id", "the key id (kid) names this key", file: path, keyID)
        }

        if let team = context.teamID {
            var teamFindings: [DoctorFinding] = []
            if !isAppleIdentifier(team) {
                teamFindings.append(
                    invalidProviderToken(
                        "apns-key-team-invalid", file: path, cause: "--team-id \(team) is not a 10-character Team ID",
                        fix: "use the Team ID from the developer portal's Membership page"))
            } else if let appTeam = facts.teamID, appTeam != team {
                teamFindings.append(
                    invalidProviderToken(
                        "apns-key-team-mismatch", file: path,
                        cause: "the backend's team id (iss) is \(team) but the app belongs to team \(appTeam)",
                        fix: "sign tokens with iss=\(appTeam) and a key of that team"))
            }
            list.record("apns-key.team", "the team id (iss) is the app's team", file: path, teamFindings)
        }
    }

    static func apnsCertificateChecks(
        _ cert: CertificateInfo, path: String, facts: AppFacts, context: DoctorContext, now: Date,
        into list: inout Checklist
    ) {
        var expiry: [DoctorFinding] = []
        if now > cert.notAfter || now < cert.notBefore {
            let when =
                now > cert.notAfter ? "expired on \(day(cert.notAfter))" : "is not valid before \(day(cert.notBefore))"
            expiry.append(
                DoctorFinding(
                    id: "apns-cert-expired", severity: .error, file: path, cause: "the push certificate \(when)",
                    breaks: "APNs refuses the TLS client certificate, so nothing can be sent with it",
                    symptom: "the TLS handshake fails or APNs answers 403 BadCertificate",
                    fix: "create a new push certificate (or switch to a .p8 token key, which does not expire)"))
        } else if expiresSoon(cert.notAfter, now: now) {
            expiry.append(
                DoctorFinding(
                    id: "apns-cert-expiring", severity: .warning, file: path,
                    cause: "the push certificate expires on \(day(cert.notAfter))",
                    breaks: "after that date the backend cannot connect to APNs with it",
                    symptom: "nothing yet; then 403 BadCertificate / TLS handshake failures",
                    fix: "create a new push certificate now and deploy it before the old one expires"))
        }
        list.record("apns-cert.expiry", "the certificate is valid for at least 30 more days", file: path, expiry)

        let target = context.environment ?? facts.tokenEnvironment?.apnsEnvironment
        var environment: [DoctorFinding] = []
        if cert.apnsEnvironments.isEmpty {
            environment.append(
                DoctorFinding(
                    id: "apns-cert-not-push", severity: .error, file: path,
                    cause:
                        "the certificate has neither of Apple's push OIDs (1.2.840.113635.100.6.3.1 development, .2 production)",
                    breaks: "it is not an Apple Push Services certificate; APNs accepts it for no gateway",
                    symptom: "APNs answers 403 BadCertificateEnvironment (or BadCertificate)",
                    fix: "create an \"Apple Push Notification service SSL\" certificate for the App ID"))
        } else if let target {
            let has =
                target == .sandbox
                ? cert.apnsEnvironments.contains(.sandbox) : cert.apnsEnvironments.contains(.production)
            if !has {
                environment.append(
                    DoctorFinding(
                        id: "apns-cert-environment", severity: .error, file: path,
                        cause:
                            "the certificate is for \(cert.apnsEnvironments) only but the backend sends to \(target.rawValue) (\(target.appleHost))",
                        breaks: "APNs refuses the certificate on that gateway",
                        symptom: "APNs answers 403 BadCertificateEnvironment",
                        fix:
                            "use a \(target == .sandbox ? "Development (sandbox)" : "Production (Sandbox & Production)") push certificate, or send to \(target.other.appleHost)"
                    ))
            }
        }
        list.record(
            "apns-cert.environment", "the certificate is valid for the gateway the backend sends to", file: path,
            environment)

        if let bundle = context.topic ?? context.bundleID ?? facts.bundleID {
            let topics = cert.apnsTopics
            list.record(
                "apns-cert.topic", "the certificate covers topic \(bundle)", file: path,
                topics.contains(bundle)
                    ? []
                    : [
                        DoctorFinding(
                            id: "apns-cert-topic", severity: .error, file: path,
                            cause:
                                "the certificate is for \(topics.isEmpty ? "no topic" : topics.joined(separator: ", ")), not \(bundle)",
                            breaks: "pushes sent with it are for another app than the one that owns the device token",
                            symptom:
                                "APNs answers 400 DeviceTokenNotForTopic (no apns-topic: the certificate's UID is used) "
                                + "or 400 BadTopic (apns-topic: \(bundle))",
                            fix: "create the push certificate for the App ID \(bundle)")
                    ])
        }
    }
}
