import PushModel

/// The type a route expects a payload key to have.
package enum RouteValueType: String, Sendable, Equatable, CaseIterable {
    case string, number, integer, boolean, url, object, array

    /// Whether `value` has this type.
    package func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.number, .number), (.number, .integer), (.integer, .integer), (.boolean, .bool),
            (.object, .object), (.array, .array):
            return true
        case (.integer, .number): return value.intValue != nil
        case (.url, .string(let s)):
            guard let colon = s.firstIndex(of: ":"), colon != s.startIndex else { return false }
            return s[..<colon].allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
        default: return false
        }
    }
}

/// A payload key a route needs, by dotted path (`aps.alert.title`, `url`, `item.id`).
package struct RouteKey: Sendable, Equatable {
    package var path: String
    package var type: RouteValueType
    package init(_ path: String, _ type: RouteValueType) {
        self.path = path
        self.type = type
    }
}

/// Where a pushed screen's title comes from.
package enum TitleSource: Sendable, Equatable {
    case fixed(String)
    /// A string at a payload path (the route fails if it is missing or not a string).
    case fromKey(String)
}

/// A screen a route pushes.
package struct ScreenPush: Sendable, Equatable {
    package var screen: String
    package var title: TitleSource?
    package init(_ screen: String, title: TitleSource? = nil) {
        self.screen = screen
        self.title = title
    }
}

/// An alert (`UIAlertController`) with its buttons.
package struct AlertDeclaration: Sendable, Equatable {
    package var title: String
    package var message: String
    package var buttons: [String]
    /// The button that goes ahead (pops the screen for a back confirmation).
    var confirmButton: String
    package init(title: String, message: String, buttons: [String] = ["OK", "Cancel"], confirmButton: String = "OK") {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.confirmButton = confirmButton
    }
}

/// How a payload reached the app's routing code.
package enum RouteTrigger: String, Sendable, Equatable, CaseIterable {
    /// `didReceive response` with the default action (includes the tap that cold-launched the app).
    case tap
    /// `willPresent` while in the foreground.
    case foreground
    /// `didReceive response` with a custom action.
    case action
    /// A home-screen quick action (3D Touch shortcut).
    case quickAction = "quick-action"
    /// App launch (splash decides the first screen).
    case launch
    /// Android: an activity started by a VIEW intent (a deep link from outside, or a notification's link); the
    /// payload is the intent's extras plus `link`, its data URI (`intent.getData()`).
    case link
    /// A successful login on the login screen with no route waiting for it: where the login screen goes on
    /// success (seed 003's `LoginViewController` → `.main`). A route that required login runs instead when
    /// one is waiting.
    case login
}

/// One route: when it applies, what it needs from the payload, and where it takes the user.
package struct RouteDeclaration: Sendable, Equatable {
    package var name: String
    package var triggers: [RouteTrigger]
    /// Applies only when `aps.category` equals this.
    package var category: String?
    /// Applies only for this action identifier (trigger `.action`).
    var actionID: String?
    /// Applies only for this quick action type (trigger `.quickAction`).
    var quickActionType: String?
    /// Applies only when this payload key is present.
    var whenKeyPresent: String?
    /// Applies only when this screen is on top (the "before" code of seed 003).
    var whenCurrentScreen: String?
    /// Applies only in this login state (nil = either).
    var whenLoggedIn: Bool?
    /// Keys that must be present with the given types, else a routing failure names the key.
    var requiredKeys: [RouteKey]
    /// Logged-out users are sent to the login screen first; the route runs after login.
    var requiresLogin: Bool
    /// Tab to select (index).
    package var tab: Int?
    /// Pop to the root before pushing.
    var resetStack: Bool
    package var push: [ScreenPush]
    package var alert: AlertDeclaration?
    /// A payload key with a URL the top screen's web view loads.
    var openURLFromKey: String?

    package init(
        name: String, triggers: [RouteTrigger] = [.tap], category: String? = nil, actionID: String? = nil,
        quickActionType: String? = nil, whenKeyPresent: String? = nil, whenCurrentScreen: String? = nil,
        whenLoggedIn: Bool? = nil, requiredKeys: [RouteKey] = [], requiresLogin: Bool = false, tab: Int? = nil,
        resetStack: Bool = true, push: [ScreenPush] = [], alert: AlertDeclaration? = nil,
        openURLFromKey: String? = nil
    ) {
        self.name = name
        self.triggers = triggers
        self.category = category
        self.actionID = actionID
        self.quickActionType = quickActionType
        self.whenKeyPresent = whenKeyPresent
        self.whenCurrentScreen = whenCurrentScreen
        self.whenLoggedIn = whenLoggedIn
        self.requiredKeys = requiredKeys
        self.requiresLogin = requiresLogin
        self.tab = tab
        self.resetStack = resetStack
        self.push = push
        self.alert = alert
        self.openURLFromKey = openURLFromKey
    }

    /// Declared keys plus those used for titles and URLs.
    package var allRequiredKeys: [RouteKey] {
        var keys = requiredKeys
        for p in push {
            if case .fromKey(let path) = p.title, !keys.contains(where: { $0.path == path }) {
                keys.append(RouteKey(path, .string))
            }
        }
        if let u = openURLFromKey, !keys.contains(where: { $0.path == u }) { keys.append(RouteKey(u, .url)) }
        return keys
    }
}

/// A screen the app can show.
package struct ScreenDeclaration: Sendable, Equatable {
    package var id: String
    package var title: String?
    /// If set, Back shows this alert first (seed 002).
    var confirmBack: AlertDeclaration?
    /// Whether the edge-swipe (interactive pop) gesture is enabled. It bypasses a custom Back button
    /// action, so a confirming screen pops without its alert unless the app disables the gesture
    /// (`interactivePopGestureRecognizer.isEnabled = false`).
    var swipeBackEnabled: Bool
    package init(id: String, title: String? = nil, confirmBack: AlertDeclaration? = nil, swipeBackEnabled: Bool = true)
    {
        self.id = id
        self.title = title
        self.confirmBack = confirmBack
        self.swipeBackEnabled = swipeBackEnabled
    }
}

/// The app's navigation: tabs, screens, routes, quick actions, login.
package struct NavigationDeclaration: Sendable, Equatable {
    package var tabs: [String]
    var initialTab: Int
    var screens: [ScreenDeclaration]
    package var routes: [RouteDeclaration]
    /// Quick action types the app declares (each routed with trigger `.quickAction`).
    var quickActions: [String]
    /// The screen shown when a route requires login and the user is logged out.
    var loginScreen: String?
    var startsLoggedIn: Bool

    package init(
        tabs: [String] = [], initialTab: Int = 0, screens: [ScreenDeclaration] = [], routes: [RouteDeclaration] = [],
        quickActions: [String] = [], loginScreen: String? = nil, startsLoggedIn: Bool = true
    ) {
        self.tabs = tabs
        self.initialTab = initialTab
        self.screens = screens
        self.routes = routes
        self.quickActions = quickActions
        self.loginScreen = loginScreen
        self.startsLoggedIn = startsLoggedIn
    }

    package func screen(_ id: String) -> ScreenDeclaration? { screens.first { $0.id == id } }
}
