import YAMLSource

/// The `navigation:` section of an app declaration.
///
/// ```yaml
/// navigation:
///   tabs: [Top, Home]
///   initial_tab: 0
///   logged_in: true                 # start state; routes may require login
///   login_screen: login
///   quick_actions: [main, camera, setting]
///   screens:
///     - { id: detail }
///     - id: edit
///       title: 編集
///       confirm_back: { title: 確認, message: 入力内容が保存されていません。, buttons: [OK, Cancel], confirm: OK }
///       swipe_back: false             # the app disables the edge-swipe (interactive pop) gesture
///   routes:
///     - name: detail
///       on: [tap]                   # tap, foreground, action, quick-action, launch, login (where the
///                                   #   login screen goes on success when no route waits for the login)
///       category: NEWS              # optional conditions: category, action, quick_action,
///       when_key: url               #   when_key, when_screen, when_logged_in
///       require: { url: url, item.id: integer }   # key path → string/number/integer/boolean/url/object/array
///       requires_login: false
///       tab: 1                      # a 0-based position in tabs: (1 = Home above)
///       reset_stack: true
///       push: [{ screen: detail, title_from: aps.alert.title }]   # or title: Fixed, or just `detail`
///       alert: { title: Done, message: Saved, buttons: [OK] }
///       open_url_from: url
/// ```
/// The keys of each mapping are the tables in NavigationDeclaration+Keys.swift.
extension NavigationDeclaration {
    /// Decodes a `navigation:` mapping.
    package static func decode(_ m: YAMLMapping) throws(SourceError) -> NavigationDeclaration {
        try m.checkKeys(keyTable)
        var screens: [ScreenDeclaration] = []
        for node in try m.optionalSequence("screens") ?? [] {
            let s = try YAMLMapping(node)
            try s.checkKeys(screenTable)
            screens.append(
                ScreenDeclaration(
                    id: try s.required("id"), title: try s.optional("title"),
                    confirmBack: try s.optionalMapping("confirm_back").map { (a: YAMLMapping) throws(SourceError) in
                        try decodeAlert(a)
                    }, swipeBackEnabled: try s.optional("swipe_back", default: true)))
        }
        var routes: [RouteDeclaration] = []
        for node in try m.optionalSequence("routes") ?? [] { routes.append(try decodeRoute(try YAMLMapping(node))) }
        let tabs = try m.optional("tabs", as: [String].self) ?? []
        let nav = NavigationDeclaration(
            tabs: tabs, initialTab: try m.optional("initial_tab", default: 0), screens: screens, routes: routes,
            quickActions: try m.optional("quick_actions", as: [String].self) ?? [],
            loginScreen: try m.optional("login_screen"), startsLoggedIn: try m.optional("logged_in", default: true))
        for (node, route) in zip(try m.optionalSequence("routes") ?? [], routes) {
            if let tab = route.tab, !tabs.isEmpty, !tabs.indices.contains(tab) {
                throw node.invalidValue(
                    expected: "route '\(route.name)': tab \(tab) is not one of the \(tabs.count) tabs (0-based)")
            }
        }
        return nav
    }

    static func decodeAlert(_ a: YAMLMapping) throws(SourceError) -> AlertDeclaration {
        try a.checkKeys(alertTable)
        let buttons = try a.optional("buttons", as: [String].self) ?? ["OK", "Cancel"]
        let confirm = try a.optional("confirm", default: buttons.first ?? "OK")
        if !buttons.contains(confirm), let node = a["confirm"] {
            throw node.invalidValue(expected: "one of the buttons: \(buttons.joined(separator: ", "))")
        }
        return AlertDeclaration(
            title: try a.required("title"), message: try a.optional("message", default: ""),
            buttons: buttons, confirmButton: confirm)
    }

    static func decodeRoute(_ r: YAMLMapping) throws(SourceError) -> RouteDeclaration {
        try r.checkKeys(routeTable)
        var triggers: [RouteTrigger] = [.tap]
        if let on = r["on"], !on.isNull {
            let nodes = on.items ?? [on]
            triggers = []
            for n in nodes {
                let text = try n.oneOf(RouteTrigger.allCases.map(\.rawValue))
                triggers.append(RouteTrigger(rawValue: text)!)
            }
        }
        var required: [RouteKey] = []
        if let req = try r.optionalMapping("require") {
            for pair in req.pairs {
                let t = try pair.value.oneOf(RouteValueType.allCases.map(\.rawValue))
                required.append(RouteKey(pair.keyString, RouteValueType(rawValue: t)!))
            }
        }
        var pushes: [ScreenPush] = []
        for node in try r.optionalSequence("push") ?? [] {
            if node.scalar != nil {
                pushes.append(ScreenPush(try String.decode(from: node)))
                continue
            }
            let p = try YAMLMapping(node)
            try p.checkKeys(pushTable)
            var title: TitleSource?
            if let fixed: String = try p.optional("title") { title = .fixed(fixed) }
            if let path: String = try p.optional("title_from") {
                if title != nil, let n = p["title_from"] {
                    throw n.invalidValue(expected: "either title or title_from, not both")
                }
                title = .fromKey(path)
            }
            pushes.append(ScreenPush(try p.required("screen"), title: title))
        }
        return RouteDeclaration(
            name: try r.required("name"), triggers: triggers, category: try r.optional("category"),
            actionID: try r.optional("action"), quickActionType: try r.optional("quick_action"),
            whenKeyPresent: try r.optional("when_key"), whenCurrentScreen: try r.optional("when_screen"),
            whenLoggedIn: try r.optional("when_logged_in"), requiredKeys: required,
            requiresLogin: try r.optional("requires_login", default: false), tab: try r.optional("tab"),
            resetStack: try r.optional("reset_stack", default: true), push: pushes,
            alert: try r.optionalMapping("alert").map { (a: YAMLMapping) throws(SourceError) in try decodeAlert(a) },
            openURLFromKey: try r.optional("open_url_from"))
    }
}
