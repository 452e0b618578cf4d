import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import HTTPServer
import HTTPTypes
import PushModel
import Synchronization

/// Where a request enters a world: an APNs environment (device-token and broadcast sends), the channel-management
/// API of an environment (Apple's `api-manage-broadcast.*`), the FCM service or the control endpoint. A listener
/// (the world's own or a shared `WorldServer`) serves exactly one endpoint; its name in the ready line and in
/// `BoundListener.name` is the raw value (`_h2c` appended for cleartext twins).
package enum WorldEndpoint: String, Sendable, CaseIterable {
    case sandbox, production, fcm, control
    /// The channel-management API (`/1/apps/<bundle id>/channels`, `…/all-channels`) of one environment.
    case broadcastSandbox = "broadcast_sandbox"
    case broadcastProduction = "broadcast_production"

    /// The endpoint of an APNs environment.
    package init(_ environment: APNsEnvironment) {
        self = environment == .sandbox ? .sandbox : .production
    }

    /// The channel-management endpoint of an APNs environment.
    package static func broadcast(_ environment: APNsEnvironment) -> WorldEndpoint {
        environment == .sandbox ? .broadcastSandbox : .broadcastProduction
    }

    /// The APNs environment this endpoint serves pushes for, if it is an APNs one.
    package var apnsEnvironment: APNsEnvironment? {
        switch self {
        case .sandbox: .sandbox
        case .production: .production
        case .fcm, .control, .broadcastSandbox, .broadcastProduction: nil
        }
    }

    /// The environment whose channels this endpoint manages, if it is a channel-management one.
    var channelEnvironment: APNsEnvironment? {
        switch self {
        case .broadcastSandbox: .sandbox
        case .broadcastProduction: .production
        case .sandbox, .production, .fcm, .control: nil
        }
    }
}

/// One world: the gateways (APNs, and FCM when declared), the simulated devices behind them, a handler per
/// endpoint, the listeners (its own, or mounted on a shared `WorldServer` under `/w/<id>`), the control routes
/// and one read API for what happened (`WorldHost+Reads.swift`). `pushcheck serve` is one world on its own
/// listeners; every scenario of `pushcheck run` is one world mounted on the runner's shared server.
///
/// Thread-safety: everything is an immutable reference to a `Sendable` part (the gateways and devices guard
/// their own state); the started servers sit behind a `Mutex`.
package final class WorldHost: Sendable {
    /// What the world was built from.
    package let declaration: WorldDeclaration
    /// The clock the gateways and devices share (`ManualClock` for scenarios and in-memory tests).
    package let clock: any PushClock
    /// The mock APNs gateway.
    package let apns: APNsGateway
    /// The mock FCM service, pushing through `apns` (declaration `fcm:`).
    package let fcm: FCMGateway?
    /// The declared devices, registered with `apns`; the gateway's one consumer (by its token index).
    package let fleet: DeviceFleet
    /// Switchable push recording (`serve --record`, control `/apns/recording`), fed by the fleet.
    package let recording: RecordingSwitch
    /// The devices' web engine for control actions (`load_page`, `follow_link`), started on first use.
    package let web: DeviceWebView
    /// When the world was built (the control endpoint's `uptime_seconds`).
    package let startedAt = Date()
    /// Numbers the worlds of this process (files a world writes are named after it, so two never collide).
    package let serial = WorldHost.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<Int>(0)
    /// Provider keys added besides the configuration's (the runner's default key); `reset()` keeps them.
    private let extraProviderKeys: [APNsProviderKey]
    /// Servers and proxies started by `start(_:)` and `startProxy`, stopped by `stop(grace:)`.
    let running = Mutex(RunningListeners())
    /// `stop(grace:)` began: the console's long polls answer at once instead of holding the grace period open
    /// (the console then sees serve refuse its next poll).
    let stopping = Atomic<Bool>(false)

    /// Builds the world: the gateways from the declaration, then every device set up (install → permission →
    /// registration → tokens registered with the gateway), so its tokens exist before a provider connects.
    /// - Parameters:
    ///   - clock: shared by the gateways and the devices.
    ///   - seedSalt: XORed into every device's declared seed (the runner's per-run seed); 0 keeps them.
    ///   - providerKeys: keys added to the gateway beyond `declaration.apns.providerKeys` (kept across `reset()`).
    ///   - webTrust: a CA file the devices' web engine trusts besides the system roots (serve's own CA).
    ///   - serviceAccounts: Google service accounts added to the FCM service beyond the declaration's (the
    ///     runner's own sender); ignored when the world declares no `fcm:`.
    package init(
        _ declaration: WorldDeclaration, clock: any PushClock = SystemClock(), seedSalt: UInt64 = 0,
        providerKeys: [APNsProviderKey] = [], webTrust: String? = nil, serviceAccounts: [FCMServiceAccount] = []
    ) throws {
        self.declaration = declaration
        self.clock = clock
        let apns = try APNsGateway(configuration: declaration.apns, clock: clock)
        for key in providerKeys { apns.addProviderKey(key) }
        self.apns = apns
        extraProviderKeys = providerKeys
        // FCM first, so the devices' Firebase instances are registered with it as they are set up.
        let fcm = declaration.fcm.map { c in
            var configuration = c
            configuration.serviceAccounts += serviceAccounts
            return FCMGateway(configuration: configuration, apns: apns, clock: clock)
        }
        self.fcm = fcm
        fleet = try DeviceFleet(
            apps: declaration.apps, androidApps: declaration.androidApps, devices: declaration.devices, apns: apns,
            fcm: fcm, clock: clock, seedSalt: seedSalt)
        web = DeviceWebView(caPath: webTrust)
        recording = fleet.recording
    }

    /// The handler for requests arriving at `endpoint` (paths as the real service has them, no world prefix).
    package func handler(for endpoint: WorldEndpoint) -> any HTTPHandler {
        switch endpoint {
        case .sandbox: return apns.handler(for: .sandbox)
        case .production: return apns.handler(for: .production)
        case .fcm:
            guard let fcm else {
                return NoEndpointHandler(message: "pushcheck: this world has no FCM gateway (declare fcm:)")
            }
            return fcm.handler
        case .control: return ControlAPI(host: self)
        case .broadcastSandbox: return apns.channelHandler(for: .sandbox)
        case .broadcastProduction: return apns.channelHandler(for: .production)
        }
    }

    /// The device declared as `name`.
    package func device(named name: String) -> HostedDevice? { fleet.device(named: name) }

    /// Everything back to launch, as `POST /reset` does: the gateways' state (log, tokens, faults, store) to
    /// the configuration's, and every device to its launch state with its launch tokens registered again.
    package func reset() {
        apns.reset()
        for key in extraProviderKeys { apns.addProviderKey(key) }
        fcm?.reset()
        fleet.resetToLaunchState()
    }

    /// Stops the listeners and proxies (in-flight streams get `grace`), the web engine, and detaches the devices.
    package func shutdown(grace: Duration = .zero) {
        stop(grace: grace)
        web.shutdown()
        fleet.detach()
    }
}

/// Answers every request with 404 and a JSON reason (an endpoint the world does not have).
struct NoEndpointHandler: HTTPHandler {
    let message: String

    func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        responder.respond(
            HTTPResponse(
                status: 404, headers: [HTTPField("content-type", "application/json")],
                body: JSONValue.object(["reason": .string(message)]).serializedBytes()))
    }
}
