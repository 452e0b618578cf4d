import PushModel

/// A screen on the navigation stack.
package struct ScreenInstance: Sendable, Equatable {
    package var id: String
    package var title: String
    /// The URL its web view shows, if a route opened one.
    package var url: String?
}

/// An alert on screen.
package struct PresentedAlert: Sendable, Equatable {
    package var alert: AlertDeclaration
    /// True when it was shown by Back on a confirming screen.
    package var confirmsBack: Bool
}

/// Navigation as a user sees it.
package enum NavigationEvent: Sendable, Equatable, CustomStringConvertible {
    case routed(route: String, trigger: RouteTrigger)
    case noRoute(trigger: RouteTrigger)
    case routingFailed(route: String, key: String, expected: RouteValueType, found: String)
    case loginRequired(route: String)
    case loggedIn
    case tabSelected(index: Int, title: String)
    case pushed(screen: String, title: String)
    case popped(screen: String)
    case alertShown(title: String, message: String)
    case alertAnswered(button: String)
    case backIgnored(reason: String)
    case webViewRequested(url: String)

    package var description: String {
        switch self {
        case .routed(let r, let t): return "routed \(r) (\(t.rawValue))"
        case .noRoute(let t): return "no route for \(t.rawValue)"
        case .routingFailed(let r, let k, let e, let f):
            return "route \(r) failed: key '\(k)' should be \(e.rawValue), found \(f)"
        case .loginRequired(let r): return "route \(r) requires login"
        case .loggedIn: return "logged in"
        case .tabSelected(let i, let t): return "tab \(i) '\(t)'"
        case .pushed(let s, let t): return "push \(s) '\(t)'"
        case .popped(let s): return "pop \(s)"
        case .alertShown(let t, let m): return "alert '\(t)': \(m)"
        case .alertAnswered(let b): return "alert answered \(b)"
        case .backIgnored(let r): return "back ignored: \(r)"
        case .webViewRequested(let u): return "web view loads \(u)"
        }
    }
}

/// The app's navigation state and the routing rules applied to it. Pure: returns what happened.
package struct Router: Sendable, Equatable {
    package let declaration: NavigationDeclaration
    package private(set) var selectedTab: Int
    package private(set) var stack: [ScreenInstance] = []
    package private(set) var alert: PresentedAlert?
    package private(set) var loggedIn: Bool
    private var pending: (route: String, payload: JSONValue, trigger: RouteTrigger)?

    package init(_ declaration: NavigationDeclaration) {
        self.declaration = declaration
        selectedTab = declaration.initialTab
        loggedIn = declaration.startsLoggedIn
    }

    package static func == (a: Router, b: Router) -> Bool {
        a.declaration == b.declaration && a.selectedTab == b.selectedTab && a.stack == b.stack && a.alert == b.alert
            && a.loggedIn == b.loggedIn && a.pending?.route == b.pending?.route
    }

    /// The id of the top screen (`nil` at a tab's root).
    package var currentScreen: String? { stack.last?.id }

    /// Routes `payload` that arrived through `trigger`.
    package mutating func route(
        _ payload: JSONValue, trigger: RouteTrigger, actionID: String? = nil,
        quickActionType: String? = nil
    ) -> [NavigationEvent] {
        let category = payload["aps"]?["category"]?.stringValue
        let candidates = declaration.routes.filter { r in
            r.triggers.contains(trigger)
                && (r.category == nil || r.category == category)
                && (r.actionID == nil || r.actionID == actionID)
                && (r.quickActionType == nil || r.quickActionType == quickActionType)
                && (r.whenKeyPresent.map { payload[path: $0] != nil } ?? true)
                && (r.whenCurrentScreen == nil || r.whenCurrentScreen == currentScreen)
                && (r.whenLoggedIn == nil || r.whenLoggedIn == loggedIn)
        }
        guard let r = candidates.first else { return [.noRoute(trigger: trigger)] }
        for key in r.allRequiredKeys {
            guard let value = payload[path: key.path] else {
                return [.routingFailed(route: r.name, key: key.path, expected: key.type, found: "missing")]
            }
            guard key.type.accepts(value) else {
                return [.routingFailed(route: r.name, key: key.path, expected: key.type, found: Self.describe(value))]
            }
        }
        if r.requiresLogin, !loggedIn {
            pending = (r.name, payload, trigger)
            var events: [NavigationEvent] = [.loginRequired(route: r.name)]
            if let login = declaration.loginScreen {
                stack = []
                events.append(push(ScreenPush(login), payload: payload))
            }
            return events
        }
        return apply(r, payload: payload, trigger: trigger)
    }

    /// The user logs in: the login screen goes away, then a route waiting for login runs; with none waiting, a
    /// login made on the login screen takes the `on: [login]` route (the screen's own success navigation). A
    /// login with no login screen showing (credentials already stored) changes only the login state.
    package mutating func logIn() -> [NavigationEvent] {
        loggedIn = true
        var events: [NavigationEvent] = [.loggedIn]
        var onLoginScreen = false
        if let login = declaration.loginScreen, let i = stack.lastIndex(where: { $0.id == login }) {
            onLoginScreen = true
            for s in stack[i...].reversed() { events.append(.popped(screen: s.id)) }
            stack.removeSubrange(i...)
        }
        if let p = pending, let r = declaration.routes.first(where: { $0.name == p.route }) {
            pending = nil
            events += apply(r, payload: p.payload, trigger: p.trigger)
        } else if onLoginScreen, declaration.routes.contains(where: { $0.triggers.contains(.login) }) {
            events += route(.object([:]), trigger: .login)
        }
        return events
    }

    /// The top screen's web view now shows `url`.
    mutating func setTopURL(_ url: String) {
        if !stack.isEmpty { stack[stack.count - 1].url = url }
    }

    /// The user logs out.
    package mutating func logOut() { loggedIn = false }

    /// A cold start: the process is new, so the view hierarchy is rebuilt from nothing (no state
    /// restoration is modelled); the login, kept on disk by a real app, persists.
    mutating func coldStart() {
        let wasLoggedIn = loggedIn
        self = Router(declaration)
        loggedIn = wasLoggedIn
    }

    /// Back button: pops, or shows the screen's confirmation alert.
    mutating func pressBack() -> [NavigationEvent] {
        if alert != nil { return [.backIgnored(reason: "an alert is showing")] }
        guard let top = stack.last else { return [.backIgnored(reason: "already at the root of the tab")] }
        if let confirm = declaration.screen(top.id)?.confirmBack {
            alert = PresentedAlert(alert: confirm, confirmsBack: true)
            return [.alertShown(title: confirm.title, message: confirm.message)]
        }
        stack.removeLast()
        return [.popped(screen: top.id)]
    }

    /// The edge-swipe (interactive pop) gesture: pops the top screen without running a custom Back
    /// button action, so no confirmation alert (seed 002); nothing when the screen disables the gesture.
    package mutating func swipeBack() -> [NavigationEvent] {
        if alert != nil { return [.backIgnored(reason: "an alert is showing")] }
        guard let top = stack.last else { return [.backIgnored(reason: "already at the root of the tab")] }
        if declaration.screen(top.id)?.swipeBackEnabled == false {
            return [.backIgnored(reason: "screen '\(top.id)' disables the swipe-back gesture")]
        }
        stack.removeLast()
        return [.popped(screen: top.id)]
    }

    /// Answers the alert on screen with `button`. Returns nil when no alert shows or the button does not exist.
    package mutating func answerAlert(_ button: String) -> [NavigationEvent]? {
        guard let a = alert, a.alert.buttons.contains(button) else { return nil }
        alert = nil
        var events: [NavigationEvent] = [.alertAnswered(button: button)]
        if a.confirmsBack, button == a.alert.confirmButton, let top = stack.popLast() {
            events.append(.popped(screen: top.id))
        }
        return events
    }

    private mutating func apply(_ r: RouteDeclaration, payload: JSONValue, trigger: RouteTrigger) -> [NavigationEvent] {
        var events: [NavigationEvent] = [.routed(route: r.name, trigger: trigger)]
        if let tab = r.tab {
            selectedTab = tab
            let title = declaration.tabs.indices.contains(tab) ? declaration.tabs[tab] : "tab \(tab)"
            events.append(.tabSelected(index: tab, title: title))
        }
        if r.resetStack || r.tab != nil {
            for s in stack.reversed() { events.append(.popped(screen: s.id)) }
            stack = []
        }
        for p in r.push { events.append(push(p, payload: payload)) }
        if let key = r.openURLFromKey, let url = payload[path: key]?.stringValue {
            if !stack.isEmpty { stack[stack.count - 1].url = url }
            events.append(.webViewRequested(url: url))
        }
        if let a = r.alert {
            alert = PresentedAlert(alert: a, confirmsBack: false)
            events.append(.alertShown(title: a.title, message: a.message))
        }
        return events
    }

    private mutating func push(_ p: ScreenPush, payload: JSONValue) -> NavigationEvent {
        let title: String
        switch p.title {
        case .fixed(let t): title = t
        case .fromKey(let path): title = payload[path: path]?.stringValue ?? ""
        case nil: title = declaration.screen(p.screen)?.title ?? p.screen
        }
        stack.append(ScreenInstance(id: p.screen, title: title, url: nil))
        return .pushed(screen: p.screen, title: title)
    }

    private static func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "boolean"
        case .number, .integer: return "number"
        case .string(let s): return "string \"\(s)\""
        case .array: return "array"
        case .object: return "object"
        }
    }
}
