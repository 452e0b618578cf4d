import Foundation
import PushModel

/// What `google-services.json` says (Tests/reference/android.md §8 "google-services.json").
struct GoogleServicesFacts {
    var projectNumber: String?
    var projectID: String?
    /// Each `client[]`: its package and app id.
    var clients: [(package: String?, appID: String?, apiKey: String?)]

    init(_ json: JSONValue) {
        projectNumber = json[path: "project_info.project_number"]?.stringValue
        projectID = json[path: "project_info.project_id"]?.stringValue
        clients = (json["client"]?.arrayValue ?? []).map { c in
            (
                c[path: "client_info.android_client_info.package_name"]?.stringValue,
                c[path: "client_info.mobilesdk_app_id"]?.stringValue,
                c["api_key"]?.arrayValue?.first?["current_key"]?.stringValue
            )
        }
    }

    var packages: [String] { clients.compactMap(\.package) }
}

/// Checks of an Android app's `google-services.json`, alone and against the manifest, the backend's service
/// account and the context. The same finding ids as the iOS plist's where the meaning is the same.
extension Doctor {
    static func googleServicesChecks(
        _ inputs: DoctorInputs, context: DoctorContext, into list: inout Checklist
    ) {
        guard let file = inputs.googleServices, let json = file.value else { return }
        let path = file.path
        let facts = GoogleServicesFacts(json)
        var missing: [String] = []
        if facts.projectNumber == nil { missing.append("project_info.project_number") }
        if facts.projectID == nil { missing.append("project_info.project_id") }
        if facts.clients.isEmpty { missing.append("client[]") }
        for (i, c) in facts.clients.enumerated() {
            if c.appID == nil { missing.append("client[\(i)].client_info.mobilesdk_app_id") }
            if c.package == nil { missing.append("client[\(i)].client_info.android_client_info.package_name") }
            if c.apiKey == nil { missing.append("client[\(i)].api_key[0].current_key") }
        }
        list.record(
            "google-services.keys",
            "google-services.json has project_info (number, id) and clients with an app id, a package and an API key",
            file: path,
            missing.isEmpty
                ? []
                : [
                    DoctorFinding(
                        id: "google-services-incomplete", severity: .error, file: path,
                        cause: "google-services.json lacks \(missing.joined(separator: ", "))",
                        breaks:
                            "the google-services Gradle plugin cannot generate the Firebase resources: no FirebaseApp, no token",
                        symptom:
                            "the build fails in processDebugGoogleServices (\"Missing project_info object\"), or at run time "
                            + "\"Default FirebaseApp is not initialized in this process\"",
                        fix:
                            "download google-services.json again from the Firebase console (Project settings ▸ Your apps ▸ Android)"
                    )
                ])

        var senders: [DoctorFinding] = []
        if let number = facts.projectNumber {
            for appID in facts.clients.compactMap(\.appID) {
                if let f = appIDSenderMismatch(
                    "mobilesdk_app_id", appID, "project_number", number, in: "google-services.json", file: path)
                {
                    senders.append(f)
                }
            }
            if let expected = context.firebaseSenderID, expected != number {
                senders.append(
                    senderMismatch(
                        "firebase-sender-id-mismatch", file: path,
                        cause: "the app's sender (project_number) is \(number) but the backend uses sender \(expected)",
                        fix: "send with the credentials of the Firebase project whose number is \(number)"))
            }
            list.record("google-services.sender-id", "the sender id is consistent", file: path, senders)
        }

        if let app = context.packageName ?? inputs.androidManifest?.value?.package, !facts.clients.isEmpty {
            list.record(
                "google-services.package", "google-services.json has a client for the app's package", file: path,
                facts.packages.contains(app)
                    ? []
                    : [
                        DoctorFinding(
                            id: "google-services-package-missing", severity: .error, file: path,
                            cause:
                                "no client of google-services.json has package_name \(app) (it lists "
                                + "\(facts.packages.isEmpty ? "none" : facts.packages.joined(separator: ", ")))",
                            breaks:
                                "the google-services Gradle plugin refuses the build: the app gets no Firebase config",
                            symptom: "Gradle: \"No matching client found for package name '\(app)'\"",
                            fix:
                                "add an Android app with package \(app) to the Firebase project and download its google-services.json"
                        )
                    ])
        }

        guard let sa = inputs.serviceAccount?.value, let saPath = inputs.serviceAccount?.path,
            let saProject = sa["project_id"]?.stringValue, let project = facts.projectID
        else { return }
        list.record(
            "google-services.project", "the service account belongs to the Android app's Firebase project",
            file: saPath,
            saProject == project
                ? []
                : [
                    senderMismatch(
                        "firebase-project-mismatch", file: saPath,
                        cause:
                            "the service account is for project \(saProject) but google-services.json is for project "
                            + "\(project) (sender \(facts.projectNumber ?? "?"))",
                        fix: "use a service account of project \(project), or the google-services.json of \(saProject)")
                ])
    }
}
