import Dispatch
import HTTPServer
import PushModel

/// Mounts an `APNsGateway` endpoint on an `HTTPServer` listener.
package struct APNsHTTPHandler: HTTPHandler {
    package let apns: APNsGateway
    package let endpoint: APNsEnvironment

    package init(apns: APNsGateway, endpoint: APNsEnvironment) {
        self.apns = apns
        self.endpoint = endpoint
    }

    /// 1 stream for connections without a client certificate until a valid provider token arrives.
    package func connectionOpened(_ context: ConnectionContext) -> UInt32? {
        apns.initialMaxConcurrentStreams(for: context)
    }

    /// Fires delayed answers. A serial queue of its own (overcommitting): the width-limited global queue starves
    /// when its few threads are blocked elsewhere, and a 0.2 s delay could then take seconds.
    static let delayQueue = DispatchQueue(label: "pushcheck.apns.injected-latency")

    /// Bodies past the listener's limit come here too: they get APNs' 413 `PayloadTooLarge` and a log entry.
    package var answersOversizedRequests: Bool { true }

    /// Adapts the request to an `APNsPushRequest`, evaluates and answers; injected latency is served from a
    /// timer, never by blocking the loop.
    package func handle(_ request: consuming HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        let outcome = apns.evaluate(APNsPushRequest(request, connection: context, environment: endpoint))
        let response = outcome.response
        if outcome.delay > 0 {
            Self.delayQueue.asyncAfter(deadline: .now() + outcome.delay) { responder.respond(response) }
        } else {
            responder.respond(response)
        }
    }
}

/// Mounts the channel-management API of one environment (`api-manage-broadcast.*` in Apple's world) on an
/// `HTTPServer` listener: each request becomes an `APNsChannelRequest` for `APNsGateway.evaluateChannelRequest`.
package struct APNsChannelHTTPHandler: HTTPHandler {
    package let apns: APNsGateway
    package let environment: APNsEnvironment

    package init(apns: APNsGateway, environment: APNsEnvironment) {
        self.apns = apns
        self.environment = environment
    }

    /// Bodies past the listener's limit get 413 `PayloadTooLarge` and a log entry, as on the push listeners.
    package var answersOversizedRequests: Bool { true }

    package func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        let outcome = apns.evaluateChannelRequest(
            APNsChannelRequest(request, connection: context, environment: environment))
        let response = outcome.response
        if outcome.delay > 0 {
            APNsHTTPHandler.delayQueue.asyncAfter(deadline: .now() + outcome.delay) { responder.respond(response) }
        } else {
            responder.respond(response)
        }
    }
}
