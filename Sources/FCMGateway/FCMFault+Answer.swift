/// What an injected fault answers: the same error the mock gives when the condition is real
/// (reference/fcm.md §1.5, `Tests/reference/fcm.md` §9).
extension FCMFault {
    /// The error codes Google answers with `Retry-After` (429 QUOTA_EXCEEDED, 503 UNAVAILABLE: reference/fcm.md §1.5,
    /// §6); `retry_after` is refused for the others.
    package static let retryAfterCodes: [FCMErrorCode] = [.quotaExceeded, .unavailable]

    /// The answer to a send to `target` of project `projectID`: QUOTA_EXCEEDED with its `google.rpc.QuotaFailure`
    /// (the token for a token send, else the project, as `checkQuota` names them), `Retry-After` (default 60) on 429
    /// and 503, every other code with its FcmError alone and Google's default message.
    func answer(to target: FCMTarget, projectID: String) -> FCMErrorResponse {
        var e = FCMErrorResponse(errorCode)
        if errorCode == .quotaExceeded {
            let subject: String
            if case .token(let token) = target { subject = token } else { subject = "projects/\(projectID)" }
            e.quotaViolations = [.init(field: subject, description: FCMErrorResponse.quotaDescription)]
        }
        if Self.retryAfterCodes.contains(errorCode) { e.retryAfter = retryAfter ?? 60 }
        return e
    }
}
