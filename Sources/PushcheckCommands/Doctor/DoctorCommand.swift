import Doctor
import Foundation
import Provisioning
import PushModel
import Reports

/// `pushcheck doctor`: diagnose a team's real provisioning profile, entitlements, Info.plist, APNs key or
/// certificate and Firebase files with the rules the simulated device runs (the `Doctor` module over `Provisioning`'s checks).
enum DoctorCommand: PushcheckCommand {
    static let name = "doctor"
    static let abstract =
        "Diagnose profiles, entitlements, Info.plist, APNs keys/certificates, Firebase and Android files."
    static let synopsis =
        "pushcheck doctor [--profile X.mobileprovision] [--entitlements F] [--info-plist F] [--app App.app]\n"
        + "                        [--apns-key AuthKey.p8 --key-id KID --team-id TEAM] [--apns-cert cert.p12 [--password P]]\n"
        + "                        [--google-service-info F] [--service-account sa.json] [--udid UDID] [--bundle-id ID]\n"
        + "                        [--topic TOPIC] [--environment sandbox|production] [--expects-silent-push]\n"
        + "                        [--expects-live-activities]\n"
        + "                        [--google-services F] [--android-manifest F] [--package-name ID] [--target-sdk N]\n"
        + "                        [--channels A,B] [--click-action A,B]\n"
        + "                        [--config doctor.yaml] [--verbose | --json] [--junit FILE]"
    static let options: [OptionSpec] = [
        .value("profile", "FILE", "The .mobileprovision (CMS DER; a bare plist is accepted too)."),
        .value("entitlements", "FILE", "The app's .entitlements (XML or binary plist)."),
        .value("info-plist", "FILE", "The app's Info.plist (XML or binary)."),
        .value("app", "DIR", "A built Payload/App.app: embedded.mobileprovision, Info.plist, PlugIns/*.appex."),
        .value("apns-key", "FILE", "The APNs auth key AuthKey_<KEYID>.p8."),
        .value("key-id", "KID", "The Key ID the backend sends as the JWT kid."),
        .value("team-id", "TEAM", "The Team ID the backend sends as the JWT iss."),
        .value("apns-cert", "FILE", "The APNs certificate: .p12, PEM or DER .cer."),
        .value("password", "PASSWORD", "The .p12 password (default: none)."),
        .value("google-service-info", "FILE", "The app's GoogleService-Info.plist."),
        .value("service-account", "FILE", "The backend's Google service-account JSON."),
        .value("udid", "UDID", "The test device's UDID."),
        .value("bundle-id", "ID", "The app's bundle id (CFBundleIdentifier), when no Info.plist or --app is given."),
        .value(
            "topic", "TOPIC",
            "The apns-topic the backend sends with (default: --bundle-id, checked against the Info.plist)."),
        .value("environment", "ENV", "The gateway the backend sends to: sandbox or production."),
        .flag("expects-silent-push", "The backend sends silent (content-available) pushes."),
        .flag("expects-live-activities", "The app has Live Activities (NSSupportsLiveActivities is checked)."),
        .value("google-services", "FILE", "The Android app's google-services.json."),
        .value("android-manifest", "FILE", "The Android app's AndroidManifest.xml (plain XML: source or merged)."),
        .value("package-name", "ID", "The Android applicationId (default: the manifest's package)."),
        .value("target-sdk", "N", "The Android targetSdkVersion, when the manifest does not say it."),
        .value("channels", "IDS", "The notification channel ids the Android app creates, comma-separated."),
        .value("click-action", "ACTIONS", "The click_action values the backend sends, comma-separated."),
        .value("config", "FILE", "Read the above from a YAML file (keys of a suite's apps: entry; see README)."),
        .flag(
            "verbose",
            "List every passed check (e.g. whether the profile's signature verifies) instead of counting them."),
        .flag("json", "Print the checks and findings as JSON instead of the report."),
        .value("junit", "FILE", "Also write a JUnit XML report: one testcase per check, passed ones included."),
    ]
    static let discussion = """
        Every finding has an id, a severity, what breaks, the symptom you would see and the fix.
        Command-line options override the --config file. Colour only on a terminal; NO_COLOR turns it off.
        EXIT: 0 no error-level finding (warnings allowed), 1 an error-level finding, 2 usage or --config file
        error, 3 the --junit report could not be written (missing directories are made).
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        if let extra = arguments.positionals.first {
            throw UsageError("unexpected argument '\(extra)' (doctor takes only options)")
        }
        var request = DoctorRequest()
        if let config = arguments.value("config") {
            do { request = try DoctorRequest.load(path: config) } catch {
                console.err("pushcheck doctor: error: \(error)")
                return ExitCode.usage
            }
        }
        try request.apply(arguments)
        guard !request.paths.isEmpty else {
            throw UsageError(
                "nothing to check: give at least one file (--profile, --entitlements, --info-plist, --app, "
                    + "--apns-key, --apns-cert, --google-service-info, --service-account, --google-services, "
                    + "--android-manifest) or --config")
        }
        let now = Date()
        let inputs = DoctorInputLoader.load(request.paths)
        let checks = Doctor.diagnose(inputs, context: request.context, now: now)
        if arguments.has("json") {
            console.out(DoctorOutput.json(checks).serialized())
        } else {
            // The runner's rule: colour only on a terminal, not in CI, not with NO_COLOR or TERM=dumb.
            let colors = ConsoleReporter.detectStandardOutputMode().colors
            console.out(DoctorOutput.human(checks, colors: colors, verbose: arguments.has("verbose")))
        }
        if let junit = arguments.value("junit") {
            let url = URL(fileURLWithPath: junit)
            // Missing directories are made, as `run --junit` and `merge-reports` do (Reports/ on a fresh checkout).
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                try JUnitXMLWriter.write(DoctorOutput.junit(checks, timestamp: now), to: url)
            } catch {
                console.err("pushcheck doctor: error: \(error)")
                return ExitCode.harness
            }
        }
        return checks.contains { $0.worstSeverity == .error } ? ExitCode.failure : ExitCode.success
    }
}
