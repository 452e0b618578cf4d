import PushModel

/// The one table from what a check looks at to the lifeline of the HTML report's sequence diagram it is about,
/// and the kind of arrow there it reads: a failed `status` is marked on the gateway's answer, a failed
/// `navigation.title` on the router's last change. The lifelines follow `Suites/README.md`'s check table.
extension Subject {
    package var traceFocus: TraceFocus {
        switch self {
        case .status, .reason, .header, .timestamp: TraceFocus(.apns, .response)
        case .fcmErrorCode, .fcmName: TraceFocus(.fcm, .response)
        case .delivered, .reached: TraceFocus(.device, .delivery)
        case .callkit: TraceFocus(.app, .callback)
        case .dropped: TraceFocus(.device, .dropped)
        // Stored for an offline device: the gateway kept it (its answer says so), nothing reached the device.
        case .stored: TraceFocus(.apns, .response)
        case .callbacks, .callback, .userInfo: TraceFocus(.app, .callback)
        case .notification, .channel, .tray: TraceFocus(.device, .presented)
        case .extras: TraceFocus(.app, .callback)
        case .permission: TraceFocus(.device)
        case .extensions(.service): TraceFocus(.serviceExtension, .extensionRun)
        case .extensions: TraceFocus(.contentExtension)
        case .navigation, .openedURLs: TraceFocus(.router, .navigation)
        case .page: TraceFocus(.webView, .page)
        case .activity: TraceFocus(.device)
        case .install, .registration, .findings, .symptoms, .token, .state, .badge: TraceFocus(.device)
        case .exitCode, .stdout, .stderr: TraceFocus(.backend, .response)
        }
    }
}

extension WholeObject {
    /// As `Subject.traceFocus`, for `exactly:` / `at_least:` objects.
    package var traceFocus: TraceFocus {
        switch self {
        case .userInfo: TraceFocus(.app, .callback)
        case .notification: TraceFocus(.device, .presented)
        case .payload: TraceFocus(.apns, .request)
        }
    }
}
