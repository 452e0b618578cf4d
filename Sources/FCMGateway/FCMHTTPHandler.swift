import HTTPServer

/// Mounts an `FCMGateway` on an `HTTPServer` listener (HTTP/2 via ALPN, HTTP/1.1, or cleartext).
package struct FCMHTTPHandler: HTTPHandler {
    package let fcm: FCMGateway
    package init(fcm: FCMGateway) { self.fcm = fcm }

    package func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        responder.respond(fcm.evaluate(request))
    }
}
