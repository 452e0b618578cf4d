import DeviceSimulator
import Foundation
import PushModel
import YAMLSource

/// One assertion: a subject observed after the step, and what it must look like.
package struct Check: Sendable {
    /// `navigation.tab`, `user_info.test`, `status`, … as written.
    package var label: String
    package var subject: Subject
    package var matcher: Matcher
    package var range: SourceRange
}

/// What a check looks at, decoded from a key of the table in `CheckSubject.swift`.
package enum Subject: Sendable, Equatable {
    // the last send's response
    case status, reason
    case header(String)
    case timestamp
    /// The last FCM send's `FcmError` errorCode and message `name`.
    case fcmErrorCode, fcmName
    // the last sent push on the device
    case delivered, dropped, stored, reached
    /// `reported` / `not-reported`: the last VoIP push in the window and CallKit.
    case callkit
    /// Callback names fired since the previous `expect`.
    case callbacks
    /// A detail of the last call of one callback since the previous `expect` (`action`, `error`, a key path in
    /// `user_info` or `launch_options`, …; `path` is empty for the fields that take none; see `CallbackField`).
    case callback(AppCallback.Kind, CallbackField, path: String)
    /// A key path in the `userInfo` the app last received.
    case userInfo(String)
    /// A field of the last presented notification (`title`, `body`, `banner`, …), `presented`, `count`.
    case notification(NotificationField)
    /// `service` (ran / modified / timed-out / not-run), `content` (extension name) or `response`
    /// (how the content extension answered an action: dismiss / do-not-dismiss / dismiss-and-forward).
    case extensions(ExtensionField)
    /// `tab`, `tab_title`, `stack`, `top`, `title`, `alert`, `alert_message`, `routed`, `routing_failed`, `logged_in`, `url`.
    case navigation(NavigationField)
    /// `status`, `url`, `title`, `text`, `http_version`, `redirects`, `opened_externally`, `failed`, `cancelled`.
    case page(PageField)
    /// A field of the app's latest Live Activity (`path`: a key path in its content state, for `content_state`).
    case activity(LiveActivityField, path: String)
    /// URLs opened (by the web view policy or an extension) since the previous `expect`.
    case openedURLs
    /// `installed`/`failed`; `registered`/`failed`; finding codes; their symptoms (one text, a line each);
    /// the app's token; its state; its badge.
    case install, registration, findings, symptoms, token, state, badge
    /// Android: a key of the top activity's intent extras; the latest notification's channel; the titles of the
    /// app's notifications in the tray; a runtime permission's state.
    case extras(String)
    case channel, tray
    case permission(String)
    // the last run
    case exitCode, stdout, stderr
}

/// A value written in a check; templates resolve when the check runs.
package struct ExpectedValue: Sendable {
    /// JSON text, possibly with `${…}` inside strings.
    package var json: Template
    /// The string scalars it was written with, for checking references at load time.
    var scalars: [Template] = []
}

/// How the observed value is compared.
package indirect enum Matcher: Sendable {
    case equals(ExpectedValue)
    case exists
    case absent
    /// A regular expression that must match somewhere in the value's text.
    case matches(String)
    /// A substring of a string, or an element of an array.
    case contains(ExpectedValue)
    case not(Matcher)
}

/// Looks up `path` in `value`, preferring whole keys that contain dots (`gcm.message_id`) over nesting.
package func lookup(_ path: String, in value: JSONValue) -> JSONValue? {
    if path.isEmpty { return value }
    if case .object(let o) = value {
        if let v = o[path] { return v }
        var index = path.startIndex
        while let dot = path[index...].firstIndex(of: ".") {
            let head = String(path[..<dot])
            if let v = o[head], let found = lookup(String(path[path.index(after: dot)...]), in: v) { return found }
            index = path.index(after: dot)
        }
        return nil
    }
    if case .array(let a) = value {
        let head = path.split(separator: ".", maxSplits: 1).first.map(String.init) ?? path
        guard let i = Int(head), a.indices.contains(i) else { return nil }
        let rest = path.count > head.count ? String(path.dropFirst(head.count + 1)) : ""
        return lookup(rest, in: a[i])
    }
    return nil
}
