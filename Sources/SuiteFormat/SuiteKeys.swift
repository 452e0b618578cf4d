import DeviceBridge
import DeviceSimulator
import PushModel
import YAMLSource

/// The keys of a suite file's mappings (the file, a scenario, the world, a step and what its keywords take): what
/// `SuiteLoader` and `StepDecoder` check a file against and what `pushcheck schema` describes. The checks under
/// `expect:` are the tables in `CheckSubject.swift` (`SuiteTables.swift` gives their summaries); the world's apps,
/// devices and gateways are the tables of `AppDeclaration`, `DeviceDeclaration`, `APNsGatewayConfiguration` and
/// `FCMGatewayConfiguration`, which `serve`'s config reads too.
enum SuiteKeys {
    /// `$schema:` — where a JSON suite names its schema for editors (a YAML file says it in a comment).
    static let schemaKey = TableKey(
        "$schema", .text, "The JSON Schema editors check this file with (suite.schema.json); the runner ignores it.")

    static let suite = KeyTable(
        "suite", "A suite: a world and the scenarios run in a fresh copy of it.",
        [
            .init("name", .text, "The suite's name in reports (default: the file name)."),
            .init("world", .object(world), "What every scenario starts from: gateways, apps, devices, clock."),
            .init(
                "variables", .dictionary(keys: "variable name", .text),
                "Values every scenario may use as ${name}."),
            .init("scenarios", .list(.object(scenario)), "The scenarios, each run in a fresh world.", required: true),
            schemaKey,
        ])

    static let scenario = KeyTable(
        "scenario", "A scenario: steps run in order in a fresh world.",
        [
            .init("name", .text, "Its name, unique in the suite (reports and --filter use it).", required: true),
            .init("tags", .list(.text), "Tags for --tags / --exclude-tags."),
            .init(
                "parameters",
                .either([
                    .dictionary(keys: "parameter", .list(.text)), .list(.dictionary(keys: "parameter", .text)),
                ]),
                "One scenario per value (a mapping of lists: every combination; a list: these sets); ${scenario.<key>}."
            ),
            .init("steps", .list(.named(SuiteSchema.stepName)), "The steps, in order.", required: true),
            .init(
                "skip", .named(SuiteSchema.skipName),
                "true: report the scenario as skipped; a text: skipped, with this reason; false: run it."),
            .init("requires", .object(requires), "A file the scenario needs (else it is skipped, saying why)."),
            .init("description", .ignored, "What the scenario shows, for people (the runner does not read it)."),
            .init(
                "snapshot", snapshotShape,
                "Snapshot everything since the world was set up, after the last step (true, a name, or a mapping)."),
        ])

    static let requires = KeyTable(
        "requires", "A file outside pushcheck a scenario needs (a client library's venv).",
        [
            .init("file", .file, "The file, relative to the suite.", required: true),
            .init("install", .text, "The command that makes it, shown in the skip reason."),
        ])

    static let world = KeyTable(
        "world", "A world: the mock gateways, the apps, the devices and the simulated clock.",
        [
            .init(
                "include", .either([.file, .list(.file)]),
                "World files (apps:, devices:, gateway:) to read first, relative to this file."),
            .init("gateway", .object(WorldDeclaration.gatewayTable), "The mock APNs and FCM services."),
            .init(
                "apps", .list(.either([.object(AppDeclaration.keyTable), .object(AndroidAppDeclaration.keyTable)])),
                "The apps: iOS apps (bundle_id) and Android apps (package_name)."),
            .init(
                "devices", .list(.object(DeviceDeclaration.keyTable)),
                "The simulated phones (default: one iPhone named iphone with every iOS app)."),
            .init(
                "clock", .text,
                "Where the simulated clock starts: now (the default) or an ISO 8601 time such as 2026-01-01T00:00:00Z."),
            .init("provider", .object(provider), "The provider key sends sign with."),
        ])

    /// What an included world file may hold (`include:` of a world, or of another included file).
    static let includedWorld = KeyTable(
        "includedWorld", "A world file a suite includes: apps, devices and gateways shared by several suites.",
        world.keys.filter { ["include", "gateway", "apps", "devices"].contains($0.name) } + [schemaKey])

    static let provider = KeyTable(
        "provider", "The provider key (team and key id) of the world's sends.",
        [
            .init("team_id", .text, "The team (default: the first app's)."),
            .init("key_id", .text, "The key id."),
        ])

    static let snapshot = KeyTable(
        "snapshot", "A named snapshot, with paths masked besides the volatile ones.",
        [
            .init("name", .text, "The entry's name under the scenario (default: the step's name, else 1, 2, …)."),
            .init("ignore", .list(.text), "Paths to mask (user_info.sent_at, pushes[*].payload.aps.badge)."),
        ])

    /// `snapshot: true`, `snapshot: after tap` or `snapshot: { name:, ignore: }`.
    static let snapshotShape = ValueShape.either([.boolean, .text, .object(snapshot)])

    // MARK: steps

    /// The value of an app lifecycle step: the bundle id, or `true`/nothing for the step's `app:`.
    static let appValue = ValueShape.text

    /// The step keywords only a suite has (every other device step is a `DeviceAction` key).
    static let suiteOnlySteps = [
        TableKey("install", appValue, "Install and set up one of the world's apps."),
        TableKey("wait", .duration, "Move the simulated clock (no real sleeping).", acceptsNull: false),
        TableKey("advance_clock", .duration, "Move the simulated clock (wait).", acceptsNull: false),
        TableKey("load_page", appValue, "Load the URL the top screen was routed to, for real."),
        TableKey("follow_link", .text, "Tap a link (by text or href) on the loaded page.", acceptsNull: false),
    ]

    /// What a step does: exactly one of these keys (or only `expect:`).
    static let stepKeywords = KeyTable(
        "stepKeyword", "What a step does.",
        [
            .init(
                "send", .named(SuiteSchema.sendName), "Send a push through the world's APNs (or FCM: via: fcm).",
                acceptsNull: false),
            .init(
                "run", .either([.text, .object(run)]), "Run a command (your backend) with the gateways' URLs.",
                acceptsNull: false),
            .init("expect", .named(SuiteSchema.expectName), "Checks only.", acceptsNull: false),
        ] + DeviceAction.keyTable.keys + suiteOnlySteps)

    /// The keys a step may carry beside its keyword.
    static let stepModifiers = KeyTable(
        "stepModifier", "What a step applies to, and what is done with its result.",
        [
            .init("name", .text, "The step's name (a snapshot without its own name is stored under it)."),
            .init("device", .text, "The device (default: the world's first)."),
            .init("app", .text, "The app (default: the device's first)."),
            .init(
                "capture", .dictionary(keys: "variable name", .named(SuiteSchema.captureName)),
                "Values taken from the step's result into ${variables}."),
            .init("expect", .named(SuiteSchema.expectName), "Checked after the step.", acceptsNull: false),
            .init("on", DeviceAction.notificationShape, "The notification an action: step applies to."),
        ])

    static let send = KeyTable(
        "send", "A push to the world's APNs gateway, over HTTP/2 and TLS.",
        [
            .init("via", .oneOf(["apns", "fcm"]), "apns (the default) or fcm."),
            .init("to", .text, "The device whose app's token is the target (default: the step's device)."),
            .init("app", .text, "The app on that device (default: the step's app, else the device's first)."),
            .init("token", .text, "An explicit device token (hex), instead of to:."),
            .init("topic", .text, "apns-topic (default: the app's bundle id)."),
            .init(
                "environment", .oneOf(APNsEnvironment.allCases.map(\.rawValue)),
                "sandbox or production (default: the environment of the app's token)."),
            .init(
                "headers", .dictionary(keys: "header name", .text),
                "Headers to send (apns-push-type, apns-priority, apns-expiration, apns-collapse-id, …)."),
            .init(
                "payload", .either([.text, .dictionary(keys: "payload key", .json)]),
                "The payload: YAML, or JSON text.", required: true),
            .init(
                "auth", .either([.oneOf(["token", "certificate", "none"]), .object(auth)]),
                "token (default: the world's key), certificate, none, or a mapping."),
        ])

    static let auth = KeyTable(
        "auth", "How a send authenticates.",
        [
            .init("key_id", .text, "The provider token's key id."),
            .init("team_id", .text, "The provider token's team (iss)."),
            .init("key_file", .file, "Sign with this .p8 instead of the world's key."),
            .init("age", .duration, "Back-date the token's iat by this much (expired tokens)."),
            .init("bearer", .text, "Send this authorization header verbatim."),
        ])

    static let fcmSend = KeyTable(
        "fcmSend", "An FCM HTTP v1 send to the world's mock FCM.",
        [
            .init("via", .oneOf(["apns", "fcm"]), "fcm.", required: true),
            .init("to", .text, "The device whose app's FCM token is the target (default: the step's device)."),
            .init("app", .text, "The app on that device."),
            .init(
                "message", .either([.text, .object(fcmMessage)]),
                "The v1 Message: YAML, or JSON text sent as written (token defaults to the device's FCM token).",
                required: true),
            .init("validate_only", .boolean, "A dry run: everything checked, nothing delivered."),
            .init("project", .text, "The project id or number in the send path (default: the world's first)."),
        ])

    /// The v1 `Message` fields (proto3 JSON: snake_case or lowerCamelCase). Their values are sent as written, so
    /// the mock FCM answers what the real service answers about them.
    static let fcmMessage = KeyTable(
        "fcmMessage", "An FCM v1 Message (values are sent as written: the mock FCM checks them).",
        [
            .init("token", .json, "A registration token target."),
            .init("topic", .json, "A topic target."),
            .init("condition", .json, "A topic condition target."),
            .init("fid", .json, "A Firebase installation id target."),
            .init("name", .json, "The message's name (the service sets it)."),
            .init("data", .json, "Custom key-value pairs (strings)."),
            .init("notification", .json, "title, body, image."),
            .init("android", .json, "Android-specific options."),
            .init("webpush", .json, "Web push options."),
            .init("apns", .json, "APNs options: headers, payload, fcm_options."),
            .init("fcm_options", .json, "analytics_label."),
            .init("fcmOptions", .json, "fcm_options, in lowerCamelCase."),
        ])

    static let run = KeyTable(
        "run", "A command run through /bin/sh -c in the suite's directory.",
        [
            .init("command", .text, "The command.", required: true),
            .init("timeout", .duration, "Stop it after this long (default: the step timeout)."),
            .init("env", .dictionary(keys: "environment variable", .text), "More environment variables."),
            .init("directory", .file, "Working directory (default: the suite's)."),
        ])
}
