import YAMLSource

/// The keys of a device declaration (`devices:`): what `DeviceDeclaration.decode` checks a file against and what
/// `pushcheck schema` describes.
extension DeviceDeclaration {
    package static let keyTable = KeyTable(
        "device", "A simulated iPhone, or with platform: android an Android phone.",
        [
            .init("name", .text, "Its name (${device.<name>.token}, to:, device:), without dots.", required: true),
            .init("platform", .oneOf(DevicePlatform.allCases.map(\.rawValue)), "ios (default) or android."),
            .init("udid", .text, "Its UDID (provisioning profiles list it); required for an iPhone."),
            .init("api_level", .integer, "Android: the API level, 21–36 (default 34)."),
            .init("serial", .text, "Android: its serial (default derived from the name)."),
            .init("ios", .text, "The iOS version (default 17.5)."),
            .init("seed", .integer, "Tokens and ids are reproducible from it (default 0)."),
            .init("online", .boolean, "Whether it starts online (default true)."),
            .init(
                "background_wakes_per_day", .integer,
                "Background pushes that wake the app per day (absent: unlimited, as from Xcode)."),
            .init(
                "background_wakes_per_hour", .either([.integer, .oneOf(["unlimited"])]),
                "Background pushes that wake the app per 60 minutes (default 3; Apple: two or three); unlimited."),
            .init(
                "voip_unreported_limit", .integer,
                "VoIP pushes in a row an app may leave unreported to CallKit before iOS stops delivering them (3)."),
            .init(
                "event_log_limit", .integer,
                "Events the device keeps, newest first (default 10000; older ones are counted in events_dropped)."),
            .init(
                "notification_center_limit", .integer,
                "iPhone: notifications Notification Center keeps (default 1000; older ones: notifications_dropped)."),
            .init("fetch_budget", .duration, "How long a background fetch may run."),
            .init("service_extension_budget", .duration, "How long a service extension may run."),
            .init(
                "apps", .list(.text),
                "The bundle ids (Android: package names) of the apps: entries set up on it, in order."),
        ])
}
