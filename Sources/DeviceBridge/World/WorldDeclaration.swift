import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation

/// What a world is made of, decoded: the gateways' configuration (`apns`, optional `fcm`), the simulated apps
/// and devices, and the clock's start. `serve` decodes it from its config's top level, a suite from `world:`
/// (both through `WorldDeclaration.decodeGateways` and `DeviceWorld.decode`); `WorldHost` is built from it.
package struct WorldDeclaration: Sendable {
    /// The APNs gateway's behaviour (serve's `apns:`, a suite's `gateway: { apns: … }`).
    package var apns: APNsGatewayConfiguration
    /// PEMs of `client_certificate_cas` (the listeners request client certificates from them).
    package var clientCertificateCAs: [String]
    /// The mock FCM service (serve's `fcm:`, a suite's `gateway: { fcm: … }`); nil: no FCM.
    package var fcm: FCMGatewayConfiguration?
    package var apps: [AppDeclaration]
    /// The Android apps (`apps:` entries with `package_name`).
    package var androidApps: [AndroidAppDeclaration] = []
    /// Declared devices (a suite that declares none gets one named `iphone` with every app, see `SuiteLoader`).
    package var devices: [DeviceDeclaration]
    /// Where the simulated clock starts; `nil` (the default, `clock: now`) starts it at the wall clock when
    /// the scenario's world is built, so a backend that signs with the real time is believed.
    package var clockStart: Date?
    /// The team and key id of the provider key every scenario world gets (signed with a key generated per process).
    package var defaultTeamID: String
    package var defaultKeyID: String

    package init(
        apns: APNsGatewayConfiguration = APNsGatewayConfiguration(), clientCertificateCAs: [String] = [],
        fcm: FCMGatewayConfiguration? = nil, apps: [AppDeclaration] = [], devices: [DeviceDeclaration] = [],
        clockStart: Date? = nil, defaultTeamID: String = "PCTEAM0001", defaultKeyID: String = "PCKEY00001"
    ) {
        self.apns = apns
        self.clientCertificateCAs = clientCertificateCAs
        self.fcm = fcm
        self.apps = apps
        self.devices = devices
        self.clockStart = clockStart
        self.defaultTeamID = defaultTeamID
        self.defaultKeyID = defaultKeyID
    }
}
