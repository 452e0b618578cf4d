/// What a check reads, the same for an `expect:` attached to any step and for a standalone one (Suites/README.md
/// "What a check reads"): checks of **state** read the app as it is when the block runs, so two blocks in a row
/// agree; checks of **events** read what happened since the previous `expect` (the window).
package enum CheckScope: String, Sendable, CaseIterable {
    /// The last send's answer, and what became of its push (found by its apns-id wherever its events fall).
    case lastSend = "the last send"
    /// The app now: its latest notification (the last presented), the userInfo it last got, its screens, page,
    /// badge, state and token.
    case state = "the current state"
    /// What happened since the previous `expect`: callbacks, notifications presented, routes taken, extensions run,
    /// URLs opened, gateway requests (with `request:`, what the picked push caused).
    case window = "the events since the previous expect"
    /// The last `run:` step's command.
    case lastRun = "the last run"
    /// Everything the device logged since it was set up (install and registration findings).
    case deviceLog = "the device's log since it was set up"
}

extension Subject {
    /// What the check reads.
    package var scope: CheckScope {
        switch self {
        case .status, .reason, .header, .timestamp, .fcmErrorCode, .fcmName, .delivered, .dropped, .stored,
            .reached:
            return .lastSend
        case .callbacks, .callback, .openedURLs, .callkit: return .window
        case .userInfo, .install, .registration, .token, .state, .badge, .extras, .channel, .tray, .permission:
            return .state
        case .notification(let field): return field == .presented ? .window : .state
        case .extensions(let field):
            switch field {
            case .service, .content, .response: return .window
            case .contentSizeRatio, .defaultContentHidden, .userInteraction, .overridesTitle: return .state
            }
        case .navigation(let field):
            switch field {
            case .routed, .routingFailed: return .window
            case .tab, .tabTitle, .stack, .top, .title, .url, .alert, .alertMessage, .loggedIn, .activity, .activities:
                return .state
            }
        case .page(let field):
            switch field {
            case .openedExternally, .failed, .cancelled: return .window
            case .status, .url, .title, .text, .httpVersion, .redirects: return .state
            }
        case .activity: return .state
        case .findings, .symptoms: return .deviceLog
        case .exitCode, .stdout, .stderr: return .lastRun
        }
    }
}

extension WholeObject {
    /// What the comparison reads: the userInfo and the notification are state; the payload is the last push the
    /// gateway accepted in the window (else the last send's).
    package var scope: CheckScope {
        switch self {
        case .userInfo, .notification: return .state
        case .payload: return .window
        }
    }
}
