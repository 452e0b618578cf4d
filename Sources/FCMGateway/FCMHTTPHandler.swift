import HTTPServer

/// Mounts an `FCMGateway` on an `HTTPServer` listener (HTTP/2 via ALPN, HTTP/1.1, or cleartext).
package struct FCMHTTPHandler: HTTPHandler {
    package let fcm: FCMGateway
    package init(fcm: FCMGateway) { self.fcm = fcm }

    /// Bodies past the listener's limit come to `handle` and get Google's JSON error, logged (not a bare 413).
    package var answersOversizedRequests: Bool { true }

    package func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        if let received = request.bodyOverLimit {
            responder.respond(fcm.payloadTooLarge(request, received: received))
            return
        }
        responder.respond(fcm.evaluate(request))
    }
}
