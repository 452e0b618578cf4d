import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushCrypto
import YAMLSource

/// The one decoder of a world's sections, shared by `serve`'s config (`apns:`, `fcm:`, `apps:`, `devices:` at
/// the top level) and a suite's `world:` (`gateway: { apns:, fcm: }`, `apps:`, `devices:`, maybe from includes).
/// Every mistake is a `SourceError` at its line and column, with the same text in both places.
extension WorldDeclaration {
    /// The keys a gateway section may hold (a suite's `gateway:`; serve has them at the top level).
    package static let gatewayTable = KeyTable(
        "gateway", "The world's mock services: serve's apns: and fcm: sections.",
        [
            .init("apns", .object(APNsGatewayConfiguration.keyTable), "The mock APNs gateway."),
            .init("fcm", .object(FCMGatewayConfiguration.keyTable), "The mock FCM v1 service."),
        ])

    /// Decodes `apns:` and `fcm:` of `m` (relative paths resolve against `file`). FCM projects may name the
    /// `.p8` keys of `apns.keys` for their APNs credentials, or a key of `extraAPNsKeys` (a suite world: the
    /// runner's own provider key, under the world's provider key id).
    package mutating func decodeGateways(
        _ m: YAMLMapping, file: String, extraAPNsKeys: [String: (teamID: String, key: P256PrivateKey)] = [:]
    ) throws(SourceError) {
        let apnsSection = try m.optionalMapping("apns")
        if let apnsSection {
            var cas: [String] = []
            apns = try APNsGatewayConfiguration.decode(apnsSection, file: file, clientCertificateCAs: &cas)
            clientCertificateCAs = cas
        }
        if let fcmSection = try m.optionalMapping("fcm") {
            let keys = try FCMGatewayConfiguration.apnsSigningKeys(apnsSection: apnsSection, file: file)
                .merging(extraAPNsKeys) { declared, _ in declared }
            fcm = try FCMGatewayConfiguration.decode(fcmSection, file: file, apnsKeys: keys)
        }
    }

    /// Decodes `apps:` (each with the file it came from, for relative paths) and `devices:` through
    /// `DeviceWorld.decode` (unique bundle ids, unique device names, known apps).
    package mutating func decodeDevices(apps appNodes: [(YAMLNode, String)], devices deviceNodes: [YAMLNode])
        throws(SourceError)
    {
        let world = try DeviceWorld.decode(apps: appNodes, devices: deviceNodes)
        apps = world.apps
        androidApps = world.androidApps
        devices = world.devices
    }

    /// `serve`'s layout without `include:`: `apns:`, `fcm:`, `apps:` and `devices:` at the top level of `m` (other keys
    /// are the caller's), for this module's tests. `serve` itself reads its config through `SuiteLoader.worldParts`,
    /// which adds `include:` and the default devices.
    package static func decodeTopLevel(_ m: YAMLMapping, file: String) throws(SourceError) -> WorldDeclaration {
        var world = WorldDeclaration()
        try world.decodeGateways(m, file: file)
        try world.decodeDevices(
            apps: (try m.optionalSequence("apps") ?? []).map { ($0, file) },
            devices: try m.optionalSequence("devices") ?? [])
        return world
    }
}
