import FCMGateway
import Foundation
import PushModel

/// What the console's send form posts when it sends through FCM (`"via": "fcm"`): the project, the v1 `Message`
/// as typed (text, so a wrong one reaches FCM's own rules and gets their answer), `validate_only`, and how the send
/// proves who it is.
struct ConsoleFCMForm: Equatable {
    var project = ""
    var message = ""
    var validateOnly = false
    var auth = ConsoleAuth.console

    static let keys = ["via", "project", "message", "validate_only", "auth", "bearer"]

    /// Reads the form's object (already known to say `"via": "fcm"`); unknown keys are refused.
    static func decode(_ o: [String: JSONValue]) -> Result<ConsoleFCMForm, QueryError> {
        for key in o.keys.sorted() where !keys.contains(key) {
            return .failure(
                QueryError("unknown field '\(key)' for an FCM send (known: \(keys.joined(separator: ", ")))"))
        }
        func text(_ key: String) -> String { o[key]?.stringValue?.trimmingCharacters(in: .whitespaces) ?? "" }
        var form = ConsoleFCMForm()
        form.project = text("project")
        guard !form.project.isEmpty else { return .failure(QueryError("an FCM send needs 'project' (id or number)")) }
        guard form.project.utf8.allSatisfy({ $0 > 0x20 && $0 != UInt8(ascii: "/") && $0 < 0x7F }) else {
            return .failure(QueryError("'project' must be a project id or number, not '\(form.project)'"))
        }
        form.message = o["message"]?.stringValue ?? ""
        switch o["validate_only"] {
        case nil, .null, .bool(false): form.validateOnly = false
        case .bool(true): form.validateOnly = true
        case let other?: return .failure(QueryError("validate_only must be true or false, not \(other.serialized())"))
        }
        switch ConsoleAuth.decode(auth: text("auth"), bearer: text("bearer")) {
        case .success(let auth): form.auth = auth
        case .failure(let e): return .failure(e)
        }
        return .success(form)
    }

    /// The request body: `{"message": <as typed>}` (plus `"validate_only": true`), the typed text spliced in as is,
    /// so text that is not JSON gets FCM's own "Invalid JSON payload received" answer. An empty message is `{}`.
    var body: [UInt8] {
        let typed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        return Array(
            ("{\"message\":" + (typed.isEmpty ? "{}" : typed) + (validateOnly ? ",\"validate_only\":true}" : "}")).utf8)
    }

    /// The path the form posts to.
    var path: String { "/v1/projects/\(project)/messages:send" }

    /// FCM's body rules on the form (`FCMMessageRules`, as the send path runs them), then whether the project is
    /// configured and the target holds now (`FCMGateway.checkTarget`). Each problem is `{reason, status, message}`; nothing
    /// is sent or logged (a send with `validate_only` runs every rule, and FCM logs it).
    func check(_ fcm: FCMGateway) -> JSONValue {
        var problems: [JSONValue] = []
        func problem(_ status: Int, _ reason: String, _ message: String) {
            problems.append(["reason": .string(reason), "status": .number(Double(status)), "message": .string(message)])
        }
        let project = fcm.project(self.project)
        if project == nil {
            problem(403, "PERMISSION_DENIED", "no project '\(self.project)' is configured under fcm.projects")
        }
        do {
            let send = try FCMMessageRules.parseSendBody(body)
            try FCMMessageRules.refuseUnmodelled(send.message)
            // The send path's own target rule: a malformed or unknown token, another project's, an unregistered one.
            if let project { try fcm.checkTarget(send.message.target, project: project) }
        } catch {
            problem(error.status, error.errorCode?.rawValue ?? error.canonical, error.message)
        }
        return [
            "ok": .bool(problems.isEmpty), "problems": .array(problems),
            "body_bytes": .number(Double(body.count)),
        ]
    }
}
