import APNsGateway
import HTTPServer
import PushModel
import YAMLSource

/// `GET|POST /apns/channels`: the broadcast channels of both environments, and creating one as the config's
/// `broadcast.channels` entries do (the same decoder). Channels are also made and deleted through the
/// channel-management API itself, on the `broadcast_*` listeners.
extension ControlAPI {
    func channelsRoute(_ request: HTTPRequest) -> HTTPResponse {
        switch request.method {
        case "GET":
            return Self.json(200, ["channels": .array(host.broadcastChannels.map { .object(channelJSON($0)) })])
        case "POST":
            return decodeBody(request) { node throws(SourceError) in
                let declaration = try APNsBroadcastConfiguration.decodeChannel(node)
                switch apns.createChannel(declaration) {
                case .success(let c): return Self.json(201, channelJSON(c))
                case .failure(let r):
                    return Self.problem(
                        r == .featureNotEnabled ? 403 : 409, "cannot create the channel: \(r.rawValue)",
                        extra: ["reason": .string(r.rawValue), "help": .string(r.description)])
                }
            }
        default:
            return Self.problem(405, "\(request.method) is not allowed on /apns/channels")
        }
    }

    func channelJSON(_ c: BroadcastChannel) -> [String: JSONValue] {
        var json: [String: JSONValue] = [
            "channel_id": .string(c.id), "bundle_id": .string(c.bundleID),
            "environment": .string(c.environment.rawValue),
            "message_storage_policy": .number(Double(c.storagePolicy.rawValue)), "created_at": Self.time(c.createdAt),
        ]
        if let stored = host.storedBroadcast(channelID: c.id, environment: c.environment) {
            json["stored_message"] = .object(Self.pushJSON(stored))
        }
        return json
    }
}
