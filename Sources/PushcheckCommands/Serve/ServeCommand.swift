import APNsGateway
import DeviceBridge
import FCMGateway
import Foundation
import HTTPServer
import PushCrypto
import PushModel
import YAMLSource

/// `pushcheck serve`: the mock APNs gateway on real sockets, for a team's own backend to push to.
enum ServeCommand: PushcheckCommand {
    static let name = "serve"
    static let abstract =
        "Run the mock APNs gateway (sandbox + production, TLS HTTP/2, broadcast channels), the FCM gateway (with fcm:) and the control endpoint."
    static let synopsis = "pushcheck serve [--config FILE] [--ca-out PATH] [--h2c] [--host ADDR] [port options]"
    static let options: [OptionSpec] = [
        .value(
            "config", "FILE",
            "YAML config: keys, tokens, faults, ports, TLS, simulated apps/devices, include: of world files (see README)."
        ),
        .value(
            "ca-out", "PATH", "Write the local CA certificate here (default: a temp file, named in the ready line)."),
        .flag("h2c", "Also listen with cleartext HTTP/2 (prior knowledge) for both environments."),
        .value("host", "ADDR", "Address to listen on (default 127.0.0.1)."),
        .value("sandbox-port", "N", "Sandbox TLS port (default: ephemeral)."),
        .value("production-port", "N", "Production TLS port (default: ephemeral)."),
        .value("control-port", "N", "Control endpoint port (default: ephemeral)."),
        .value("broadcast-sandbox-port", "N", "Sandbox channel-management TLS port (default: ephemeral)."),
        .value("broadcast-production-port", "N", "Production channel-management TLS port (default: ephemeral)."),
        .value("log-file", "PATH", "Append every request to this JSON-lines file."),
        .value("loops", "N", "Event-loop threads (default: one per core)."),
        .value("grace", "SECONDS", "On SIGINT/SIGTERM, let in-flight streams finish for this long (default 5)."),
        .value(
            "ready-file", "PATH",
            "Also write the ready line to PATH (atomically: complete or not at all; removed on exit)."),
        .value(
            "proxy-port", "N",
            "Also run an HTTP CONNECT proxy tunnelling api.*.push.apple.com to the mock (0 = ephemeral)."),
        .flag(
            "strict", "Exit 3 when a declared app fails to install or register at start (default: a warning on stderr)."
        ),
        .value(
            "record", "DIR",
            "Write every push handed on to a device to DIR (0001.json, …) for `pushcheck record-suite`."),
        .flag(
            "check",
            "Read the config and every file it names, print what it declares, and exit (0; 2 at its first error): starts nothing."
        ),
    ]
    static let discussion = """
        When ready, prints exactly one JSON line on stdout, e.g.
          {"apns":{"production":"https://127.0.0.1:40001","sandbox":"https://127.0.0.1:40000"},"broadcast":{"production":"https://127.0.0.1:40004","sandbox":"https://127.0.0.1:40003"},"ca":"/tmp/…/ca.pem","control":"http://127.0.0.1:40002","devices":{}}
        "broadcast" are the channel-management listeners (POST|GET|DELETE /1/apps/<bundle id>/channels with
        apns-channel-id, GET /1/apps/<bundle id>/all-channels); broadcasts are sent to the apns listeners,
        POST /4/broadcasts/apps/<bundle id> with apns-channel-id.
        With apps:/devices: in the config, "devices" maps each device name to {"udid":…,"tokens":{"<bundle id>":"<hex>"}}.
        Diagnostics go to stderr. SIGINT/SIGTERM: GOAWAY to every connection, drain, exit 0.

        Control endpoint (JSON): GET /health, POST /reset, GET|DELETE /apns/log
        (?token= &topic= &apns_id= &apns_unique_id= &endpoint= &status= &limit=), GET|POST /apns/tokens,
        DELETE /apns/tokens/{token}, POST /apns/tokens/{token}/unregister|online|offline,
        GET /apns/tokens/{token}/stored, GET /apns/deliveries, GET|POST|DELETE /apns/faults, DELETE /apns/faults/{id},
        GET|POST /apns/channels (broadcast channels; body {"bundle_id":…,"message_storage_policy":0|1,…}),
        GET|POST|DELETE /apns/recording (body {"directory": DIR}: record every push handed to a device),
        GET /devices, GET /devices/{name}, GET /devices/{name}/events?since=SEQ&wait=5s&type=a,b (long poll;
        unknown parameters are a 400), POST /devices/{name}/actions (body: a suite device action, e.g.
        {"tap":"latest"}, {"load_page":true}), POST /devices/{name}/reset (back to the launch state; POST /reset
        also resets every device). With --proxy-port, "proxy" in the ready line is an HTTP CONNECT proxy
        (HTTPS_PROXY) for api.sandbox/development.push.apple.com → sandbox, api.push.apple.com → production,
        api-manage-broadcast.sandbox.push.apple.com:2195 and api-manage-broadcast.push.apple.com:2196 → broadcast.
        A generated CA file (no --ca-out) is removed on exit.
        Web console: "console" in the ready line (<control>/ui, loopback clients only): the live delivery log (APNs
        and FCM), each device (apps, tokens, Notification Center, screens, page, action buttons) and a send form
        checked by the gateway's own rules (POST /ui/api/check) and sent over TLS/HTTP2 (POST /ui/api/send).
        With fcm: in the config, the ready line adds "fcm" (OAuth /token, v1 send, IID, registrations) and
        "fcm_credentials" (project → service-account JSON whose token_uri is the mock); control routes
        GET|DELETE /fcm/log, GET|POST /fcm/tokens, POST /fcm/tokens/{token}/unregister, GET /fcm/topics,
        GET|POST|DELETE /fcm/faults.
        Exit codes: 0 stopped by a signal (with --check: the config loads), 2 usage or config error, 3 could not start.
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        var config = ServeConfiguration()
        if let path = arguments.value("config") {
            do {
                config = try ServeConfiguration.load(path: path)
            } catch {
                console.err(error.rendered(color: false))
                return ExitCode.usage
            }
        }
        if let host = arguments.value("host") { config.host = host }
        if let p = try arguments.int("sandbox-port", in: 0...65535) { config.sandboxPort = p }
        if let p = try arguments.int("production-port", in: 0...65535) { config.productionPort = p }
        if let p = try arguments.int("control-port", in: 0...65535) { config.controlPort = p }
        if let p = try arguments.int("broadcast-sandbox-port", in: 0...65535) { config.broadcastSandboxPort = p }
        if let p = try arguments.int("broadcast-production-port", in: 0...65535) {
            config.broadcastProductionPort = p
        }
        if arguments.has("h2c") { config.h2c = true }
        if let path = arguments.value("log-file") { config.world.apns.logFilePath = path }
        let loops = try arguments.int("loops", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        let grace = try arguments.int("grace", in: 0...3600) ?? 5
        if let p = try arguments.int("proxy-port", in: 0...65535) { config.proxyPort = p }
        // The listeners bind numeric addresses only: a malformed one is the caller's mistake (exit 2), said before
        // anything starts.
        guard isNumericIPAddress(config.host) else {
            let source =
                arguments.value("host") != nil
                ? "option '--host'" : "listen: host in \(arguments.value("config") ?? "")"
            throw UsageError("\(source) expects a numeric IP address such as 127.0.0.1 or ::1, got '\(config.host)'")
        }
        if arguments.has("check") {
            console.out(config.checkSummary(path: arguments.value("config")))
            for warning in config.checkWarnings() { console.err(warning) }
            return ExitCode.success
        }

        // A ready file left by an earlier run must not look like this run is ready; it goes on exit too.
        let readyFile = arguments.value("ready-file")
        if let readyFile { try? FileManager.default.removeItem(atPath: readyFile) }
        defer { if let readyFile { try? FileManager.default.removeItem(atPath: readyFile) } }
        let running: RunningGateway
        do {
            // The ready line names the CA file absolutely: a script reading it may run elsewhere.
            let caOut = arguments.value("ca-out").map { path in
                path.hasPrefix("/")
                    ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
            }
            running = try RunningGateway.start(config, loops: loops, caOut: caOut)
        } catch {
            console.err("pushcheck serve: cannot start: \(error)")
            return ExitCode.harness
        }
        // A removable CA file goes when serve does, whichever way it ends from here.
        defer {
            if arguments.value("ca-out") == nil, let ca = running.caPath {
                try? FileManager.default.removeItem(atPath: ca)
            }
        }
        if let dir = arguments.value("record") {
            do {
                try running.recording.start(dir)
            } catch {
                console.err("pushcheck serve: cannot record to \(dir): \(error)")
                running.stop(grace: 0)
                return ExitCode.usage
            }
        }
        let setupProblems = running.setupProblems
        let strict = arguments.has("strict")
        for p in setupProblems {
            console.err("pushcheck serve: error: \(p)" + (strict ? "" : " (serving anyway; --strict exits 3)"))
        }
        if strict, !setupProblems.isEmpty {
            running.stop(grace: 0)
            return ExitCode.harness
        }
        // Armed before anything says "ready": a signal right after the ready line still shuts down cleanly.
        let nextSignal = Signals.armNext()
        if let path = readyFile {
            do { try ReadyFile.write(running.readyLine, to: path) } catch {
                console.err("pushcheck serve: cannot write the ready file: \(error)")
                running.stop(grace: 0)
                return ExitCode.harness
            }
        }
        console.out(running.readyLine)
        let signal = await nextSignal()
        console.err("pushcheck serve: signal \(signal), shutting down (grace \(grace)s)")
        for failure in running.recording.failures { console.err("pushcheck serve: recording failed: \(failure)") }
        running.stop(grace: grace)
        return ExitCode.success
    }
}

/// `serve`'s world on its own listeners (`WorldHost.start`), the file holding its CA and the optional proxy:
/// what the ready line prints and what a signal stops.
struct RunningGateway {
    /// The world: gateways, devices, control routes (all of it built from the config's declaration).
    let host: WorldHost
    let listeners: WorldListeners
    let caPath: String?
    /// The CONNECT proxy's URL (`--proxy-port` / `listen.proxy`), if asked for.
    var proxyURL: String? = nil

    /// The mock APNs gateway.
    var apns: APNsGateway { host.apns }
    /// The simulated devices from `devices:` (empty fleet when none are declared).
    var fleet: DeviceFleet { host.fleet }
    /// The devices' web engine (started on the first `load_page` / `follow_link`).
    var web: DeviceWebView { host.web }
    /// `--record DIR` and the control endpoint's `/apns/recording`.
    var recording: RecordingSwitch { host.recording }
    /// The mock FCM service (config `fcm:`).
    var fcm: FCMGateway? { host.fcm }
    var bound: [BoundListener] { listeners.bound }

    /// Starts every listener the configuration asks for. Shared by `serve` and the tests.
    static func start(_ config: ServeConfiguration, loops: Int, caOut: String?) throws -> RunningGateway {
        let chainPEM: String, keyPEM: String
        var caPath: String?
        if let cert = config.tlsCertificatePEM, let key = config.tlsPrivateKeyPEM {
            chainPEM = cert
            keyPEM = key
        } else {
            let ca = try CertificateAuthority.generate(commonName: "pushcheck local CA")
            let leaf = try ca.issueServerCertificate()
            chainPEM = leaf.pem
            keyPEM = leaf.privateKeyPEM
            let path = caOut ?? NSTemporaryDirectory() + "pushcheck-\(getpid())-ca.pem"
            try PEMFiles.write(ca.certificatePEM, to: path)
            caPath = path
        }
        // A generated CA file goes if serve cannot start after all (a busy port): "removed on exit" holds then too.
        var started = false
        defer { if !started, caOut == nil, let caPath { try? FileManager.default.removeItem(atPath: caPath) } }
        // Devices are set up as the world is built, so their tokens are registered before a provider connects.
        let host = try WorldHost(
            config.world, webTrust: caPath, serviceAccounts: try WorldHost.consoleServiceAccounts(for: config.world))
        var plan = WorldListenPlan(
            tls: TLSConfiguration(
                certificateChainPEM: chainPEM, privateKeyPEM: keyPEM,
                clientCertificates: .request(trustedCAPEMs: config.world.clientCertificateCAs)))
        plan.host = config.host
        plan.sandboxPort = config.sandboxPort
        plan.productionPort = config.productionPort
        plan.controlPort = config.controlPort
        if config.h2c {
            plan.h2cSandboxPort = config.h2cSandboxPort
            plan.h2cProductionPort = config.h2cProductionPort
            plan.fcmH2CPort = config.h2cFCMPort
        }
        plan.fcmPort = config.fcmPort
        plan.broadcastSandboxPort = config.broadcastSandboxPort
        plan.broadcastProductionPort = config.broadcastProductionPort
        plan.idleTimeout = config.idleTimeout
        plan.handshakeTimeout = config.handshakeTimeout
        plan.loops = loops
        let listeners = try host.start(plan)
        var running = RunningGateway(host: host, listeners: listeners, caPath: caPath)
        if let proxyPort = config.proxyPort {
            do { running.proxyURL = try host.startProxy(host: config.host, port: proxyPort).url } catch {
                host.shutdown()
                throw error
            }
        }
        started = true
        return running
    }

    /// Stops the proxy, the listeners and the web engine.
    func stop(grace: Int) {
        host.shutdown(grace: .seconds(grace))
    }

    /// Apps that failed to install or register when the devices were set up, one line each.
    var setupProblems: [String] { host.setupProblems }

    func url(_ name: String) -> String? { listeners.url(name) }

    /// The one JSON line `serve` prints when ready.
    var readyLine: String {
        var apns: [String: JSONValue] = [:]
        var broadcast: [String: JSONValue] = [:]
        for b in bound where b.name != "control" && !b.name.hasPrefix("fcm") {
            if b.name.hasPrefix("broadcast_") {
                broadcast[String(b.name.dropFirst("broadcast_".count))] = .string(b.url)
            } else {
                apns[b.name] = .string(b.url)
            }
        }
        var object: [String: JSONValue] = [
            "apns": .object(apns), "broadcast": .object(broadcast), "control": .string(url("control") ?? ""),
        ]
        // The web console lives on the control endpoint (loopback clients only).
        if let control = url("control") { object["console"] = .string(control + "/ui") }
        object["ca"] = caPath.map(JSONValue.string) ?? .null
        object["devices"] = fleet.addressesJSON
        if let proxyURL { object["proxy"] = .string(proxyURL) }
        if fcm != nil {
            object["fcm"] = .string(url("fcm") ?? "")
            if let h2c = url("fcm_h2c") { object["fcm_h2c"] = .string(h2c) }
            object["fcm_credentials"] = .object(listeners.fcmCredentials.mapValues(JSONValue.string))
        }
        return JSONValue.object(object).serialized()
    }
}
