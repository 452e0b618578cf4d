import HTTPServer

/// Mounts an `FCMGateway` on an `HTTPServer` listener (HTTP/2 via ALPN, HTTP/1.1, or cleartext).
package struct FCMHTTPHandler: HTTPHandler {
    package let gateway: FCMGateway
    package init(gateway: FCMGateway) { self.gateway = gateway }

    package func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        responder.respond(gateway.evaluate(request))
    }
}
