import YAMLSource

/// The keys of an app's `navigation:` section and of each mapping inside it: what `NavigationDeclaration.decode`
/// checks a file against and what `pushcheck schema` describes.
extension NavigationDeclaration {
    static let triggers = ValueShape.oneOf(RouteTrigger.allCases.map(\.rawValue))

    package static let keyTable = KeyTable(
        "navigation", "The app's tabs, screens and the router that turns pushes, launches and shortcuts into screens.",
        [
            .init("tabs", .list(.text), "The tab titles, in order."),
            .init("initial_tab", .integer, "The 0-based tab selected at launch (default 0)."),
            .init("logged_in", .boolean, "Whether the user starts logged in (default true)."),
            .init("login_screen", .text, "The screen shown when a route requires login."),
            .init("quick_actions", .list(.text), "The home-screen quick action types."),
            .init("screens", .list(.object(screenTable)), "Screens with a title or a Back confirmation."),
            .init("routes", .list(.object(routeTable)), "The router's routes, tried in order."),
        ])

    static let screenTable = KeyTable(
        "screen", "A screen.",
        [
            .init("id", .text, "The screen id (navigation.top, navigation.stack).", required: true),
            .init("title", .text, "Its title."),
            .init("confirm_back", .object(alertTable), "An alert Back shows before leaving."),
            .init("swipe_back", .boolean, "The edge-swipe back gesture works (default true)."),
        ])

    static let alertTable = KeyTable(
        "alert", "An alert.",
        [
            .init("title", .text, "Its title.", required: true),
            .init("message", .text, "Its message."),
            .init("buttons", .list(.text), "Its buttons (default OK, Cancel)."),
            .init("confirm", .text, "The button that goes ahead (default: the first)."),
        ])

    static let routeTable = KeyTable(
        "route", "A route: when it applies (trigger and conditions) and what it shows.",
        [
            .init("name", .text, "The route's name (navigation.routed).", required: true),
            .init("on", .either([triggers, .list(triggers)]), "What triggers it (default tap)."),
            .init("category", .text, "Only pushes of this category."),
            .init("action", .text, "Only this notification action."),
            .init("quick_action", .text, "Only this home-screen quick action type."),
            .init("when_key", .text, "Only when the userInfo has this key path."),
            .init("when_screen", .text, "Only when this screen is on top."),
            .init("when_logged_in", .boolean, "Only when logged in (true) or out (false)."),
            .init(
                "require", .dictionary(keys: "userInfo key path", .oneOf(RouteValueType.allCases.map(\.rawValue))),
                "Keys the payload must carry, with their type (else routing fails, naming the key)."),
            .init("requires_login", .boolean, "Show login_screen first when logged out (default false)."),
            .init("tab", .integer, "Select this 0-based tab."),
            .init("reset_stack", .boolean, "Pop to the tab's root first (default true)."),
            .init("push", .list(.either([.text, .object(pushTable)])), "Screens pushed, in order."),
            .init("alert", .object(alertTable), "An alert shown."),
            .init("open_url_from", .text, "Open the URL at this userInfo key path."),
        ])

    static let pushTable = KeyTable(
        "screenPush", "A screen pushed by a route.",
        [
            .init("screen", .text, "The screen id.", required: true),
            .init("title", .text, "A fixed title."),
            .init("title_from", .text, "The title from this userInfo key path."),
        ])
}
