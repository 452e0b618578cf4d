import HTTPServer

/// Mounts an `FCMGateway` on an `HTTPServer` listener (HTTP/2 via ALPN, HTTP/1.1, or cleartext).
public struct FCMHTTPHandler: HTTPHandler {
    public let gateway: FCMGateway
    public init(gateway: FCMGateway) { self.gateway = gateway }

    public func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        responder.respond(gateway.evaluate(request))
    }
}
