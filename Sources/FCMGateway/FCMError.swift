import HTTPServer
import HTTPTypes
import PushModel

/// The `errorCode` of FCM's `google.firebase.fcm.v1.FcmError` detail (reference/fcm.md §1.5).
package enum FCMErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    case invalidArgument = "INVALID_ARGUMENT"
    case unregistered = "UNREGISTERED"
    case senderIDMismatch = "SENDER_ID_MISMATCH"
    case quotaExceeded = "QUOTA_EXCEEDED"
    case unavailable = "UNAVAILABLE"
    case internalError = "INTERNAL"
    case thirdPartyAuthError = "THIRD_PARTY_AUTH_ERROR"

    /// The HTTP status and google.rpc canonical status FCM answers with.
    package var http: (status: Int, canonical: String) {
        switch self {
        case .invalidArgument: return (400, "INVALID_ARGUMENT")
        case .unregistered: return (404, "NOT_FOUND")
        case .senderIDMismatch: return (403, "PERMISSION_DENIED")
        case .quotaExceeded: return (429, "RESOURCE_EXHAUSTED")
        case .unavailable: return (503, "UNAVAILABLE")
        case .internalError: return (500, "INTERNAL")
        case .thirdPartyAuthError: return (401, "UNAUTHENTICATED")
        }
    }

    /// The message Google sends with the code when nothing more specific applies.
    var defaultMessage: String {
        switch self {
        case .invalidArgument: return "Request contains an invalid argument."
        case .unregistered: return "Requested entity was not found."
        case .senderIDMismatch: return "SenderId mismatch"
        case .quotaExceeded: return "Message rate exceeded for the target device."
        case .unavailable: return "The service is currently unavailable."
        case .internalError: return "Internal error encountered."
        case .thirdPartyAuthError: return "Auth error from APNS or Web Push Service"
        }
    }
}

/// One Google API error (`{"error":{"code","message","status","details":[…]}}`), before it is written.
/// FCM errors carry an FcmError detail; OAuth/IAM errors on the send path carry a `google.rpc.ErrorInfo` instead.
package struct FCMErrorResponse: Sendable, Equatable, Error {
    package var status: Int
    package var canonical: String
    package var message: String
    /// The FcmError `errorCode`, when FCM itself rejected the message.
    package var errorCode: FCMErrorCode?
    /// `google.rpc.BadRequest` field violations (field, description).
    var fieldViolations: [FieldViolation] = []
    /// `google.rpc.QuotaFailure` violations (subject, description).
    var quotaViolations: [FieldViolation] = []
    /// `google.rpc.ErrorInfo` reason (auth errors).
    var errorInfoReason: String?
    /// `Retry-After` seconds (429, 503).
    package var retryAfter: Int?
    /// Extra response headers (e.g. `www-authenticate`).
    var extraHeaders: [HTTPField] = []

    package struct FieldViolation: Sendable, Equatable {
        package var field: String
        package var description: String
    }

    /// An FCM error with its canonical status and Google's default message.
    package init(_ code: FCMErrorCode, message: String? = nil) {
        status = code.http.status
        canonical = code.http.canonical
        self.message = message ?? code.defaultMessage
        errorCode = code
    }

    /// INVALID_ARGUMENT from FCM's own checks of a well-formed message: the FcmError and a BadRequest naming the
    /// offending field ("An extension of type google.rpc.BadRequest is returned to specify which field was
    /// invalid", the ErrorCode page; Tests/reference/fcm.md §12).
    package static func invalid(_ field: String, _ description: String, message: String? = nil) -> FCMErrorResponse {
        var e = FCMErrorResponse(.invalidArgument, message: message ?? description)
        e.fieldViolations = [FieldViolation(field: field, description: description)]
        return e
    }

    /// 400 INVALID_ARGUMENT for a body Google's proto3 JSON parser refuses before FCM sees the message (unknown or
    /// repeated name, wrong type, bad enum or Duration, a second oneof member, not JSON): the BadRequest alone, no
    /// FcmError, as the error-codes page's example 1 (Tests/reference/fcm.md §12).
    package static func decoding(_ field: String, _ message: String) -> FCMErrorResponse {
        var e = FCMErrorResponse(status: 400, canonical: "INVALID_ARGUMENT", message: message)
        e.fieldViolations = [FieldViolation(field: field, description: message)]
        return e
    }

    /// An error without an FcmError detail (auth, IAM, unknown routes).
    package init(status: Int, canonical: String, message: String, errorInfoReason: String? = nil) {
        self.status = status
        self.canonical = canonical
        self.message = message
        self.errorInfoReason = errorInfoReason
    }

    /// The JSON body Google writes.
    package var json: JSONValue {
        var details: [JSONValue] = []
        if let errorCode {
            details.append([
                "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                "errorCode": .string(errorCode.rawValue),
            ])
        }
        if !fieldViolations.isEmpty {
            details.append([
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": .array(
                    fieldViolations.map { ["field": .string($0.field), "description": .string($0.description)] }),
            ])
        }
        if !quotaViolations.isEmpty {
            details.append([
                "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                "violations": .array(
                    quotaViolations.map { ["subject": .string($0.field), "description": .string($0.description)] }),
            ])
        }
        if let errorInfoReason {
            details.append([
                "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": .string(errorInfoReason),
                "domain": "googleapis.com",
                "metadata": [
                    "service": "fcm.googleapis.com", "method": "google.firebase.fcm.v1.FcmService.SendMessage",
                ],
            ])
        }
        var error: [String: JSONValue] = [
            "code": .number(Double(status)), "message": .string(message), "status": .string(canonical),
        ]
        if !details.isEmpty { error["details"] = .array(details) }
        return ["error": .object(error)]
    }

    /// The HTTP response (JSON, `Retry-After` when set).
    package var response: HTTPResponse {
        var headers = [HTTPField("content-type", "application/json; charset=UTF-8")]
        if let retryAfter { headers.append(HTTPField("retry-after", String(retryAfter))) }
        headers += extraHeaders
        return HTTPResponse(status: status, headers: headers, body: json.serializedBytes())
    }
}

extension FCMErrorResponse {
    /// The QuotaFailure violation's description (per device and per project).
    static let quotaDescription = "Message rate exceeded for the target."

    static let credentialsHelp =
        "Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."

    /// No `Authorization: Bearer` header.
    static var missingCredentials: FCMErrorResponse {
        var e = FCMErrorResponse(
            status: 401, canonical: "UNAUTHENTICATED",
            message: "Request is missing required authentication credential. " + credentialsHelp,
            errorInfoReason: "CREDENTIALS_MISSING")
        e.extraHeaders = [HTTPField("www-authenticate", #"Bearer realm="https://accounts.google.com/""#)]
        return e
    }

    /// A bearer the token endpoint never issued (or one that expired).
    static func invalidCredentials(expired: Bool) -> FCMErrorResponse {
        var e = FCMErrorResponse(
            status: 401, canonical: "UNAUTHENTICATED",
            message: "Request had invalid authentication credentials. " + credentialsHelp,
            errorInfoReason: expired ? "ACCESS_TOKEN_EXPIRED" : "ACCESS_TOKEN_TYPE_UNSUPPORTED")
        e.extraHeaders = [
            HTTPField("www-authenticate", #"Bearer realm="https://accounts.google.com/", error="invalid_token""#)
        ]
        return e
    }

    /// A token whose scopes include neither firebase.messaging nor cloud-platform.
    static var insufficientScopes: FCMErrorResponse {
        var e = FCMErrorResponse(
            status: 403, canonical: "PERMISSION_DENIED", message: "Request had insufficient authentication scopes.",
            errorInfoReason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT")
        e.extraHeaders = [
            HTTPField("www-authenticate", #"Bearer realm="https://accounts.google.com/", error="insufficient_scope""#)
        ]
        return e
    }

    /// The service account may not use the project (or the project does not exist).
    static func permissionDenied(project: String, permission: String = "cloudmessaging.messages.create")
        -> FCMErrorResponse
    {
        FCMErrorResponse(
            status: 403, canonical: "PERMISSION_DENIED",
            message:
                "Permission '\(permission)' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(project)' (or it may not exist).",
            errorInfoReason: "IAM_PERMISSION_DENIED")
    }

    /// Unknown method/path on the API host.
    static func notFound(_ path: String) -> FCMErrorResponse {
        FCMErrorResponse(status: 404, canonical: "NOT_FOUND", message: "Method not found.")
    }
}
