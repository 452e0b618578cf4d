/// A notification as iOS showed it, for the report's drawing (banner, Notification Center, lock screen).
package struct NotificationPicture: Sendable, Equatable {
    /// The device's id for it (`n1`, `n2`, …).
    package var id: String?
    /// The app's display name (the bundle id when the app declares none) and bundle id.
    package var appName: String
    package var bundleID: String
    package var title: String?
    package var subtitle: String?
    package var body: String?
    /// `thread-id`: notifications of one thread are stacked in Notification Center.
    package var threadID: String?
    /// The badge the payload set (the app icon's number).
    package var badge: Int?
    package var sound: String?
    /// `category`: which actions and content extension apply.
    package var categoryID: String?
    /// Where it showed: as a banner, in the list (Notification Center / lock screen), quietly (provisional).
    package var banner: Bool
    package var list: Bool
    package var quiet: Bool
    /// The effective `interruption-level`.
    package var interruptionLevel: String?
    /// The category's action buttons, in order (shown under the expanded notification).
    package var actions: [String]
    /// The content extension's view when the notification was expanded (long press).
    package var expanded: ExpandedContent?

    package init(
        id: String? = nil, appName: String, bundleID: String, title: String? = nil, subtitle: String? = nil,
        body: String? = nil, threadID: String? = nil, badge: Int? = nil, sound: String? = nil,
        categoryID: String? = nil, banner: Bool = true, list: Bool = true, quiet: Bool = false,
        interruptionLevel: String? = nil, actions: [String] = [], expanded: ExpandedContent? = nil
    ) {
        self.id = id
        self.appName = appName
        self.bundleID = bundleID
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.threadID = threadID
        self.badge = badge
        self.sound = sound
        self.categoryID = categoryID
        self.banner = banner
        self.list = list
        self.quiet = quiet
        self.interruptionLevel = interruptionLevel
        self.actions = actions
        self.expanded = expanded
    }
}

/// What a Notification Content Extension drew when the notification was expanded.
package struct ExpandedContent: Sendable, Equatable {
    /// The extension's own lines (labels it set from the payload), in order.
    package var lines: [String]
    /// Its action buttons (the category's, possibly changed by the extension).
    package var actions: [String]

    package init(lines: [String] = [], actions: [String] = []) {
        self.lines = lines
        self.actions = actions
    }
}

/// The app's screens: the tab bar, the navigation stack (root first) and an alert over it.
package struct NavigationPicture: Sendable, Equatable {
    package struct Screen: Sendable, Equatable {
        package var id: String
        package var title: String
        /// The URL a web screen shows.
        package var url: String?

        package init(id: String, title: String, url: String? = nil) {
            self.id = id
            self.title = title
            self.url = url
        }
    }

    package struct Alert: Sendable, Equatable {
        package var title: String
        package var message: String
        /// Button titles in order, e.g. `["キャンセル", "確認"]`.
        package var buttons: [String]

        package init(title: String, message: String, buttons: [String]) {
            self.title = title
            self.message = message
            self.buttons = buttons
        }
    }

    package var tabs: [String]
    package var selectedTab: Int?
    package var stack: [Screen]
    package var alert: Alert?

    package init(tabs: [String] = [], selectedTab: Int? = nil, stack: [Screen] = [], alert: Alert? = nil) {
        self.tabs = tabs
        self.selectedTab = selectedTab
        self.stack = stack
        self.alert = alert
    }
}

/// A page the web view loaded: where it ended up, how, and what it held.
package struct PagePicture: Sendable, Equatable {
    package struct Redirect: Sendable, Equatable {
        package var status: Int
        package var from: String
        package var to: String

        package init(status: Int, from: String, to: String) {
            self.status = status
            self.from = from
            self.to = to
        }
    }

    package var requestedURL: String
    package var finalURL: String
    package var status: Int
    package var title: String?
    package var redirects: [Redirect]
    /// The document as served (shown in a sandboxed `<iframe srcdoc>` with scripts off); nil when not kept.
    package var html: String?
    /// The page's text, for when `html` is not kept.
    package var text: String?
    /// The document's size in bytes when `html` holds only its start (nil: `html` is all of it).
    package var servedBytes: Int?

    package init(
        requestedURL: String, finalURL: String, status: Int, title: String? = nil, redirects: [Redirect] = [],
        html: String? = nil, text: String? = nil, servedBytes: Int? = nil
    ) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.status = status
        self.title = title
        self.redirects = redirects
        self.html = html
        self.text = text
        self.servedBytes = servedBytes
    }
}
