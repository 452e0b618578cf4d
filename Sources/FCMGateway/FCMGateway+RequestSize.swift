import HTTPServer
import PushModel

extension FCMGateway {
    /// The largest request body the FCM listeners take: `ListenerConfiguration.maxBodySize`'s default, which
    /// `serve` and the runner keep.
    static let maxRequestBodyBytes = 1 << 20

    /// A request whose body passed the listener's limit (`received` bytes by then; the body was not kept). Google's
    /// API front end answers an over-limit body with `400 INVALID_ARGUMENT` "Request payload size exceeds the
    /// limit: N bytes." and no FcmError detail, before authentication or routing (reference/fcm.md "Request body
    /// size": seen with a 10 MiB limit in googleworkspace/dotnet-samples#23 and starlake-ai/starflow#1321; FCM's own
    /// front-end limit is unpublished, and a message that large is over FCM's 4096-byte message limit anyway).
    /// Logged like any other FCM request, with the size received.
    func payloadTooLarge(_ request: HTTPRequest, received: Int) -> HTTPResponse {
        let error = FCMErrorResponse(
            status: 400, canonical: "INVALID_ARGUMENT",
            message: "Request payload size exceeds the limit: \(Self.maxRequestBodyBytes) bytes.")
        let projectPath = Self.sendProject(Self.splitQuery(request.path).0)
        appendLog(
            FCMLogEntry(
                sequence: 0, receivedAt: clock.now(), method: request.method, path: request.path,
                project: projectPath.map { project($0)?.id ?? $0 }, request: nil, validateOnly: false,
                status: error.status, errorCode: error.canonical,
                errorMessage: error.message + " (\(received) bytes received)", name: nil, apns: []))
        return error.response
    }
}
