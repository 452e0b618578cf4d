import PushModel
import YAMLSource

/// The keys of the `fcm:` section and of each mapping inside it: what `decode` checks a file against and what
/// `pushcheck schema` describes (FCMGatewayConfiguration+YAML.swift shows them in use).
extension FCMGatewayConfiguration {
    package static let keyTable = KeyTable(
        "fcm", "The mock FCM v1 service: service accounts, projects and their APNs credentials, faults.",
        [
            .init(
                "service_accounts", .list(.object(serviceAccountTable)),
                "The service accounts whose OAuth tokens the service accepts."),
            .init("projects", .list(.object(projectTable)), "The Firebase projects messages are sent to."),
            .init("faults", .list(.object(faultTable)), "Injected FcmError answers."),
            .init("access_token_lifetime", .integer, "Seconds an OAuth access token lives (default 3599)."),
            .init("log", .object(logTable), "The request log."),
        ])

    static let serviceAccountTable = KeyTable(
        "fcmServiceAccount", "A service account: its email and public key, or Google's credentials JSON.",
        [
            .init("client_email", .text, "The account's email (with public_key)."),
            .init("public_key", .file, "Its RSA public key (PEM), or its private key."),
            .init("credentials_file", .file, "Google's service-account JSON (its private key then signs too)."),
            .init("projects", .list(.text), "The projects it may send to (default: the credentials file's)."),
        ])

    static let projectTable = KeyTable(
        "fcmProject", "A Firebase project.",
        [
            .init("id", .text, "The project id (projects/<id>/messages:send).", required: true),
            .init("number", .text, "The project number, digits (the sender id).", required: true),
            .init("apns", .object(projectAPNsTable), "The APNs credentials the project forwards with."),
            .init("tokens", .list(.object(tokenTable)), "Registration tokens the project knows."),
            .init("quota", .object(quotaTable), "Per-minute send quotas (past them, QUOTA_EXCEEDED)."),
        ])

    static let projectAPNsTable = KeyTable(
        "fcmProjectAPNs", "A project's APNs credentials: a .p8 key (key_id, team_id) or a push certificate.",
        [
            .init("team_id", .text, "The key's team."),
            .init("key_id", .text, "A key under apns.keys with private_key:, or this private_key's id."),
            .init(
                "environment", .oneOf(APNsEnvironment.allCases.map(\.rawValue)), "Where it sends (default production)."),
            .init("private_key", .file, "The .p8 file, when apns.keys does not hold it."),
            .init("certificate", .file, "The push certificate in PEM, instead of a key."),
        ])

    static let tokenTable = KeyTable(
        "fcmToken", "A registration token a project knows.",
        [
            .init("token", .text, "The FCM registration token.", required: true),
            .init("apns_token", .text, "The APNs device token (hex) it stands for."),
            .init("topic", .text, "The app's bundle id (required with apns_token)."),
            .init("fid", .text, "The Firebase installation id."),
            .init("package_name", .text, "An Android instance's package (sends go to the Android devices)."),
            .init("app_id", .text, "An Android instance's mobilesdk_app_id (with package_name)."),
            .init("unregistered", .boolean, "Answer UNREGISTERED for it."),
        ])

    static let faultTable = KeyTable(
        "fcmFault", "One injected FcmError answer.",
        [
            .init("error", .oneOf(FCMErrorCode.allCases.map(\.rawValue)), "The errorCode to answer.", required: true),
            .init("token", .text, "Only sends to this registration token."),
            .init("count", .integer, "Only this many times (at least 1)."),
            .init(
                "retry_after", .integer,
                "The Retry-After seconds to send with it (QUOTA_EXCEEDED and UNAVAILABLE only; default 60)."),
        ])

    static let quotaTable = KeyTable(
        "fcmQuota", "Per-minute send quotas.",
        [
            .init("per_device_per_minute", .integer, "Sends to one device per minute."),
            .init("per_project_per_minute", .integer, "Sends of the project per minute."),
        ])

    static let logTable = KeyTable(
        "fcmLog", "The request log.", [.init("capacity", .integer, "Entries kept (at least 1).", required: true)])
}
