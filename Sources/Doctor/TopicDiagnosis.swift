import Foundation
import Provisioning
import PushModel

/// The backend's `apns-topic` against the app's bundle id. A device token belongs to one app: APNs refuses a push
/// whose topic names another with 400 DeviceTokenNotForTopic (Apple, "Handling notification responses from APNs";
/// reference/apns.md). The finding says which side is wrong, from what else names the app.
extension Doctor {
    static func topicChecks(_ inputs: DoctorInputs, facts: AppFacts, context: DoctorContext, into list: inout Checklist)
    {
        guard let app = facts.bundleID, let source = facts.bundleIDSource else { return }
        if let topic = context.topic {
            let file = source == .infoPlist ? facts.infoPath ?? commandLine : commandLine
            let findings =
                APNsPushType.bundleID(ofTopic: topic) == app
                ? [] : [topicFinding(topic: topic, app: app, source: source, inputs: inputs, file: file)]
            list.record(
                "bundle-id.topic", "the APNs topic the backend uses is the app's bundle id", file: file, findings)
        } else if let topic = context.bundleID, source == .infoPlist, let path = facts.infoPath, topic != app {
            // No --topic: --bundle-id is taken as the backend's topic and checked against the Info.plist.
            list.record(
                "bundle-id.topic", "the APNs topic the backend uses is the app's bundle id", file: path,
                [topicMismatch(file: path, what: "the backend's APNs topic (--bundle-id)", value: topic, bundleID: app)]
            )
        }
    }

    /// `--topic` names another app than the bundle id: which of the two is wrong, when the other inputs tell.
    static func topicFinding(
        topic: String, app: String, source: BundleIDSource, inputs: DoctorInputs, file: String
    ) -> DoctorFinding {
        let topicApp = APNsPushType.bundleID(ofTopic: topic)
        // Other inputs that name the app: the profile's explicit App ID, the push certificate's UID, the Firebase
        // app's BUNDLE_ID.
        var witnesses: [(what: String, bundleID: String)] = []
        if let appID = inputs.profile?.value?.profile.appID, !appID.isWildcard {
            witnesses.append(("the profile's App ID", appID.bundlePattern))
        }
        if let uid = inputs.apnsCertificate?.value?.subject.userID {
            witnesses.append(("the APNs certificate's UID", uid))
        }
        if let firebase = inputs.googleServiceInfo?.value?["BUNDLE_ID"]?.stringValue {
            witnesses.append(("GoogleService-Info.plist's BUNDLE_ID", firebase))
        }
        let forApp = witnesses.filter { $0.bundleID == app }.map(\.what)
        let forTopic = witnesses.filter { $0.bundleID == topicApp }.map(\.what)
        let appSaid =
            switch source {
            case .infoPlist: "the app's bundle id (CFBundleIdentifier)"
            case .option: "the app's bundle id (--bundle-id)"
            case .profile: "the app's bundle id (the profile's App ID)"
            }
        let base = "the backend's apns-topic (--topic) is \(topic) but \(appSaid) is \(app)"
        let cause: String, fix: String
        if source == .infoPlist || source == .profile || (!forApp.isEmpty && forTopic.isEmpty) {
            let why =
                source == .option
                ? "\(forApp.joined(separator: " and ")) agree\(forApp.count == 1 ? "s" : "") with the bundle id"
                : "that is the app as built"
            cause = "\(base): the topic is wrong (\(why))"
            fix = "send with apns-topic \(app) (or \(app) plus the push type's suffix, e.g. \(app).voip)"
        } else if !forTopic.isEmpty && forApp.isEmpty {
            cause =
                "\(base): the app's bundle id is wrong (\(forTopic.joined(separator: " and ")) "
                + "name\(forTopic.count == 1 ? "s" : "") \(topicApp))"
            fix = "pass the app's real bundle id (\(topicApp)) with --bundle-id, or build the app with it"
        } else {
            cause = "\(base): one of them is wrong, and nothing else given says which"
            fix =
                "make the backend's apns-topic the app's bundle id (pass --info-plist or --profile to let doctor "
                + "tell which one is wrong)"
        }
        return DoctorFinding(
            id: "bundle-id-mismatch", severity: .error, file: file, cause: cause,
            breaks: "pushes are addressed to another app than the one that owns the device token",
            symptom: "APNs answers 400 DeviceTokenNotForTopic", fix: fix)
    }
}
