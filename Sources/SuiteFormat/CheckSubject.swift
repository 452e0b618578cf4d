/// The table of what a suite may check: every key it may write under `expect:` and, for the keys that
/// take a mapping of named fields, every field.
///
/// This is the one list. `ExpectationDecoder` takes the allowed keys (and so the did-you-mean suggestions)
/// from `allCases` and switches exhaustively over the key; `Observation` switches exhaustively over the
/// typed fields. A new check is one case here, and the compiler then asks for its decoding and its
/// observation. Case order is the order the "expected one of: …" messages list the keys in.
enum ExpectKey: String, CaseIterable, Sendable {
    /// The last send's response (`status: 200`, `reason: BadDeviceToken`, `headers: {apns-id: …}`,
    /// `timestamp`): a value or a matcher; `headers` a mapping of header name to one.
    case status, reason, headers, timestamp
    /// The last `send: { via: fcm }`'s answer: the `FcmError` detail's `errorCode` (UNREGISTERED,
    /// INVALID_ARGUMENT, …; absent on success) and the accepted message's `name` (`projects/p/messages/0:…`).
    case errorCode = "error_code"
    case name
    /// The last sent push on the device: `delivered: true`, `dropped: <why>`, `stored: true`.
    case delivered, dropped, stored
    /// What the last sent push reached on the device: `app`, `pushkit`, `push-to-talk` or a `PushReceiver`
    /// (`location-push-service-extension`, `widget-reload`, `controls-reload`, `file-provider-extension`).
    case reached
    /// Whether the app reported the VoIP push's call to CallKit since the previous `expect`: `reported` or
    /// `not-reported` (absent without a VoIP push).
    case callkit
    /// Callback names fired since the previous `expect`, in order (a list or a matcher).
    case callbacks
    /// A mapping of key path → value or matcher in the `userInfo` the app last received.
    case userInfo = "user_info"
    /// A mapping of `NotificationField` → value or matcher.
    case notification
    /// A mapping of `ExtensionField` → value or matcher.
    case extensions
    /// A mapping of `NavigationField` → value or matcher.
    case navigation
    /// A mapping of `PageField` (or `contains`, a substring of the text) → value or matcher.
    case page
    /// A URL opened since the previous `expect` (a scalar means "contains").
    case openedURL = "opened_url"
    /// `installed`/`failed`; `registered`/`failed`; finding codes (a scalar means "contains"); their symptoms.
    case install, registration, findings, symptoms
    /// The app's token.
    case token
    /// The app's state; its badge.
    case state, badge
    /// The last run: exit code, standard output, standard error.
    case exit, stdout, stderr
    /// Android: a mapping of key → value or matcher in the extras of the intent the top activity holds.
    case extras
    /// Android: the channel of the app's latest notification; the app's notifications in the tray (titles);
    /// a mapping of permission → state (`POST_NOTIFICATIONS: granted`).
    case channel, tray, permission
    /// One callback's arguments (`CallbackDetail`).
    case callback
    /// Whole objects compared exactly / as a subset (`ObjectCheck`).
    case exactly
    case atLeast = "at_least"
    /// The whole observation against a stored snapshot (`SnapshotCheck`).
    case snapshot
    /// Which send the checks look at (`RequestSelector`); not a check of its own.
    case request
    /// A mapping of `LiveActivityField` → value or matcher: the app's latest Live Activity (ActivityCheck.swift).
    case activity

    /// Every key, in table order, for `checkKeys` and its did-you-mean.
    static let names = allCases.map(\.rawValue)
}

/// `expect: { notification: { <field>: … } }` — the last presented notification (or, for `presented` and
/// `count`, all of them).
package enum NotificationField: String, CaseIterable, Sendable {
    case presented, count, title, subtitle, body, badge, sound, category
    case threadID = "thread_id"
    case banner, list, quiet
    case interruptionLevel = "interruption_level"
    case id, actions
    case actionTitles = "action_titles"
    /// Android: the channel, the notify tag, the color, the small icon, `notification_count`.
    case channel, tag, color, icon, number
}

/// `expect: { navigation: { <field>: … } }` — the app's router after the step.
package enum NavigationField: String, CaseIterable, Sendable {
    case tab
    case tabTitle = "tab_title"
    case stack, top, title, alert
    case alertMessage = "alert_message"
    case routed
    case routingFailed = "routing_failed"
    case loggedIn = "logged_in"
    case url
    /// Android: the top activity of the app's task, and the task's activities (root first).
    case activity, activities
}

/// `expect: { page: { <field>: … } }` — the web view's page or its last outcome.
package enum PageField: String, CaseIterable, Sendable {
    case status, url, title, text
    case httpVersion = "http_version"
    case redirects
    case openedExternally = "opened_externally"
    case failed, cancelled

    /// `contains: x`: a substring of `text`, spelt as a key of its own.
    static let containsKey = "contains"
    /// The keys a suite may write: every field, with `contains` right after `text`.
    static let names = allCases.flatMap { $0 == .text ? [$0.rawValue, containsKey] : [$0.rawValue] }
}

/// `expect: { extensions: { <field>: … } }` — what the extensions did in the window, and the Info.plist
/// facts of the content extension that renders the last notification (`ContentExtensionFacts`).
package enum ExtensionField: String, CaseIterable, Sendable {
    /// `ran` / `modified` / `timed-out` / `not-run`.
    case service
    /// The name of the content extension last shown.
    case content
    /// How the content extension answered an action: `dismiss` / `do-not-dismiss` / `dismiss-and-forward`.
    case response
    case contentSizeRatio = "content_size_ratio"
    case defaultContentHidden = "default_content_hidden"
    case userInteraction = "user_interaction"
    case overridesTitle = "overrides_title"
}

/// `expect: { exactly: { <object>: {…} } }` / `at_least:` — the whole objects `ObjectCheck` compares.
package enum WholeObject: String, CaseIterable, Sendable {
    /// What the app's last callback got.
    case userInfo = "user_info"
    /// The last presented notification: title, subtitle, body, badge, sound, category, thread_id,
    /// interruption_level.
    case notification
    /// The last push the gateway accepted in the window, as JSON.
    case payload
}

/// A table of the named fields one `expect:` key takes (`notification: { title: … }`): the keys a suite may
/// write there, for `checkKeys` and its did-you-mean — every case, in case order, unless the table says otherwise.
protocol ExpectFieldTable: RawRepresentable<String>, CaseIterable {
    static var names: [String] { get }
}

extension ExpectFieldTable {
    static var names: [String] { allCases.map(\.rawValue) }
}

extension NotificationField: ExpectFieldTable {}
extension NavigationField: ExpectFieldTable {}
extension PageField: ExpectFieldTable {}
extension ExtensionField: ExpectFieldTable {}
extension WholeObject: ExpectFieldTable {}
