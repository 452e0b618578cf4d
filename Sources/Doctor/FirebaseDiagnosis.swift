import Foundation
import Provisioning
import PushCrypto
import PushModel

/// Checks of the Firebase files: `GoogleService-Info.plist` (the app's) and the service-account JSON
/// (the backend's). FCM answers SENDER_ID_MISMATCH when a token of one project is sent with another's
/// credentials (fcm.md).
extension Doctor {
    static func senderMismatch(_ id: String, file: String, cause: String, fix: String) -> DoctorFinding {
        DoctorFinding(
            id: id, severity: .error, file: file, cause: cause,
            breaks: "the backend sends with another Firebase project than the one the app's FCM tokens belong to",
            symptom:
                "FCM v1 answers 403 SENDER_ID_MISMATCH (\"The authenticated sender ID is different from the sender ID for the registration token\")",
            fix: fix)
    }

    /// A Firebase app id (`1:<sender>:<platform>:<hex>`) of another sender than the file's own: the file was edited.
    static func appIDSenderMismatch(
        _ appIDKey: String, _ appID: String, _ senderKey: String, _ sender: String, in fileKind: String, file: String
    ) -> DoctorFinding? {
        let parts = appID.split(separator: ":")
        guard parts.count >= 2, parts[1] != Substring(sender) else { return nil }
        return senderMismatch(
            "firebase-sender-id-mismatch", file: file,
            cause: "\(senderKey) is \(sender) but \(appIDKey) \(appID) belongs to sender \(parts[1])",
            fix: "download \(fileKind) again instead of editing it")
    }

    static func firebaseChecks(
        _ inputs: DoctorInputs, facts: AppFacts, context: DoctorContext, into list: inout Checklist
    ) {
        let plist = inputs.googleServiceInfo?.value
        let plistPath = inputs.googleServiceInfo?.path ?? commandLine
        let sender = plist?["GCM_SENDER_ID"]?.stringValue
        let project = plist?["PROJECT_ID"]?.stringValue
        if let plist {
            let missing = ["GCM_SENDER_ID", "PROJECT_ID", "BUNDLE_ID", "GOOGLE_APP_ID"].filter {
                plist[$0]?.stringValue == nil
            }
            list.record(
                "google-service-info.keys",
                "GoogleService-Info.plist has GCM_SENDER_ID, PROJECT_ID, BUNDLE_ID, GOOGLE_APP_ID",
                file: plistPath,
                missing.isEmpty
                    ? []
                    : [
                        DoctorFinding(
                            id: "google-service-info-incomplete", severity: .error, file: plistPath,
                            cause: "GoogleService-Info.plist lacks \(missing.joined(separator: ", "))",
                            breaks: "FirebaseApp.configure() cannot configure Messaging",
                            symptom:
                                "the app crashes or logs \"[FirebaseCore] … could not find a valid GoogleService-Info.plist\"; no FCM token",
                            fix:
                                "download GoogleService-Info.plist again from the Firebase console (Project settings ▸ Your apps)"
                        )
                    ])

            var senders: [DoctorFinding] = []
            if let sender, let appID = plist["GOOGLE_APP_ID"]?.stringValue,
                let f = appIDSenderMismatch(
                    "GOOGLE_APP_ID", appID, "GCM_SENDER_ID", sender, in: "GoogleService-Info.plist", file: plistPath)
            {
                senders.append(f)
            }
            if let sender, let expected = context.firebaseSenderID, expected != sender {
                senders.append(
                    senderMismatch(
                        "firebase-sender-id-mismatch", file: plistPath,
                        cause: "the app's GCM_SENDER_ID is \(sender) but the backend uses sender \(expected)",
                        fix: "send with the credentials of the Firebase project whose sender id is \(sender)"))
            }
            list.record("firebase.sender-id", "the sender id is consistent", file: plistPath, senders)

            if let bundle = plist["BUNDLE_ID"]?.stringValue, let app = facts.bundleID {
                list.record(
                    "bundle-id.firebase", "GoogleService-Info.plist BUNDLE_ID is the app's bundle id", file: plistPath,
                    bundle == app
                        ? []
                        : [
                            DoctorFinding(
                                id: "firebase-bundle-id-mismatch", severity: .error, file: plistPath,
                                cause: "BUNDLE_ID is \(bundle) but the app's bundle id is \(app)",
                                breaks: "FCM forwards pushes to APNs with the Firebase app's bundle id as the topic",
                                symptom:
                                    "APNs answers 400 DeviceTokenNotForTopic to FCM; the FCM send fails or nothing arrives; "
                                    + "the SDK logs that the bundle ID is inconsistent with GoogleService-Info.plist",
                                fix:
                                    "register \(app) as an iOS app in the Firebase project and use its GoogleService-Info.plist"
                            )
                        ])
            }
        }

        guard let sa = inputs.serviceAccount, let json = sa.value else { return }
        var valid: [String] = []
        if json["type"]?.stringValue != "service_account" { valid.append("\"type\" is not \"service_account\"") }
        for key in ["project_id", "client_email", "private_key"] where json[key]?.stringValue == nil {
            valid.append("\"\(key)\" is missing")
        }
        if let pem = json["private_key"]?.stringValue, (try? RSAPrivateKey(pem: pem)) == nil {
            valid.append("\"private_key\" is not an RSA private key")
        }
        list.record(
            "service-account.valid", "the service account has type, project_id, client_email and an RSA private_key",
            file: sa.path,
            valid.isEmpty
                ? []
                : [
                    DoctorFinding(
                        id: "service-account-invalid", severity: .error, file: sa.path,
                        cause: "the service-account file is not usable: " + valid.joined(separator: "; "),
                        breaks: "the backend cannot get an OAuth access token for FCM",
                        symptom:
                            "the OAuth token request fails (invalid_grant / invalid_client); FCM sends answer 401 UNAUTHENTICATED",
                        fix: "create a new key for the service account (IAM ▸ Service accounts ▸ Keys ▸ JSON)")
                ])
        let saProject = json["project_id"]?.stringValue
        if let saProject, let project {
            list.record(
                "firebase.project", "the service account belongs to the app's Firebase project", file: sa.path,
                saProject == project
                    ? []
                    : [
                        senderMismatch(
                            "firebase-project-mismatch", file: sa.path,
                            cause:
                                "the service account is for project \(saProject) but the app's GoogleService-Info.plist "
                                + "is for project \(project) (sender \(sender ?? "?"))",
                            fix:
                                "use a service account of project \(project), or the app's plist of project \(saProject)"
                        )
                    ])
        } else if let saProject, let expected = context.firebaseProjectID, saProject != expected {
            list.record(
                "firebase.project", "the service account belongs to the app's Firebase project", file: sa.path,
                [
                    senderMismatch(
                        "firebase-project-mismatch", file: sa.path,
                        cause: "the service account is for project \(saProject) but the app uses project \(expected)",
                        fix: "use a service account of project \(expected)")
                ])
        }
    }
}
