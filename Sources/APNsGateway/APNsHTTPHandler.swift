import Dispatch
import HTTPServer
import PushModel

/// Mounts an `APNsGateway` endpoint on an `HTTPServer` listener.
public struct APNsHTTPHandler: HTTPHandler {
    public let gateway: APNsGateway
    public let endpoint: APNsEnvironment

    public init(gateway: APNsGateway, endpoint: APNsEnvironment) {
        self.gateway = gateway
        self.endpoint = endpoint
    }

    /// 1 stream for connections without a client certificate until a valid provider token arrives.
    public func connectionOpened(_ context: ConnectionContext) -> UInt32? {
        gateway.initialMaxConcurrentStreams(for: context)
    }

    /// Evaluates and answers; injected latency is served from a timer, never by blocking the loop.
    public func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        let outcome = gateway.evaluate(request, connection: context, endpoint: endpoint)
        let response = outcome.response
        if outcome.delay > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + outcome.delay) { responder.respond(response) }
        } else {
            responder.respond(response)
        }
    }
}
