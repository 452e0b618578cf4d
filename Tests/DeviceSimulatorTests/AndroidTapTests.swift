import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Tests/reference/android.md §6: which activity a tap starts, with which callbacks, the back stack, and routing on the
/// extras with the shared navigation model.
@Suite struct AndroidTapTests {
    static let openArticle = "com.example.news.OPEN_ARTICLE"

    /// One notification message put in the tray while the app is in the background, the app then put in `state`,
    /// and the notification tapped.
    func tapped(
        _ app: AndroidAppDeclaration = AndroidFixture.app(), state: AndroidAppState = .background,
        notification: AndroidNotificationPayload = AndroidNotificationPayload(title: "Breaking"),
        data: [String: String] = ["article_id": "42", "headline": "Swift 7", "url": "https://news.example.com/42"]
    ) -> (AndroidDevice, [AndroidDeviceEvent]) {
        let (d, _) = AndroidFixture.ready(app, state: .background)
        d.deliver(AndroidFixture.message(d, kind: .notificationAndData, notification: notification, data: data))
        AndroidFixture.put(d, in: state)
        let id = d.snapshot.tray.last!.id
        return (d, try! d.tap(id))
    }

    struct Row: Sendable, CustomStringConvertible {
        var clickAction: String?
        var link: String?
        var state: AndroidAppState
        var callbacks: [String]
        var task: [String]
        var dropped: [String] = []
        var source: String
        var description: String { "click_action=\(clickAction ?? "nil") link=\(link ?? "nil") @ \(state.rawValue)" }
    }

    static let rows: [Row] = [
        Row(
            clickAction: nil, state: .background, callbacks: ["onCreate"], task: [".MainActivity"],
            source:
                "R-SDK launch intent; FLAG_ACTIVITY_CLEAR_TOP re-creates the standard MainActivity Home left in the task"
        ),
        Row(
            clickAction: nil, state: .killed, callbacks: ["applicationOnCreate", "onCreate"], task: [".MainActivity"],
            source: "R-SDK getLaunchIntentForPackage"),
        Row(
            clickAction: openArticle, state: .background, callbacks: ["onCreate"],
            task: [".MainActivity", ".ArticleActivity"], source: "R-SDK: new Intent(click_action).setPackage(pkg)"),
        Row(
            clickAction: openArticle, state: .killed, callbacks: ["applicationOnCreate", "onCreate"],
            task: [".ArticleActivity"], source: "R-SDK + FLAG_ACTIVITY_NEW_TASK: the activity roots a new task"),
        Row(
            clickAction: "com.example.news.NOPE", state: .background, callbacks: [], task: [".MainActivity"],
            dropped: ["tap-no-activity-for-action(com.example.news.NOPE)"],
            source: "R-SDK: no launcher fallback for click_action (reference corrects the issue)"),
        Row(
            link: "https://news.example.com/articles/42", state: .killed,
            callbacks: ["applicationOnCreate", "onCreate"], task: [".ArticleActivity"],
            source: "R-SDK: link_android → ACTION_VIEW"),
        Row(
            link: "https://other.example.com/x", state: .killed, callbacks: [], task: [],
            dropped: ["tap-no-activity-for-link(https://other.example.com/x)"],
            source: "R-SDK: package-restricted VIEW intent"),
    ]

    @Test(arguments: rows)
    func tapStartsTheActivity(row: Row) {
        let (d, events) = tapped(
            state: row.state,
            notification: AndroidNotificationPayload(title: "t", clickAction: row.clickAction, link: row.link))
        #expect(AndroidFixture.callbacks(events) == row.callbacks)
        #expect(d.snapshot.apps[AndroidFixture.pkg]?.task.map(\.name) == row.task)
        #expect(AndroidFixture.drops(events) == row.dropped)
        // Auto-cancel: the tapped notification is gone whether or not an activity opened.
        #expect(d.snapshot.tray.isEmpty)
        for e in events {
            if case .callback(.onCreate(_, _, let extras)) = e.kind {
                #expect(extras["article_id"] == "42")
                #expect(extras["google.message_id"] != nil)
            }
        }
        if row.callbacks.isEmpty && row.state == .killed { #expect(AndroidFixture.state(d) == .killed) }
        if !row.callbacks.isEmpty { #expect(AndroidFixture.state(d) == .foreground) }
    }

    /// The shared navigation model routes the extras: the article route pushes its screen and asks for the URL.
    @Test func routingOnTheExtras() {
        let (d, events) = tapped(
            state: .killed, notification: AndroidNotificationPayload(title: "t", clickAction: Self.openArticle))
        let nav = events.compactMap { if case .navigation(let n) = $0.kind { n } else { nil } }
        #expect(
            nav == [
                .routed(route: "open-article", trigger: .tap), .pushed(screen: "article", title: "Swift 7"),
                .webViewRequested(url: "https://news.example.com/42"),
            ])
        #expect(d.snapshot.currentScreen(AndroidFixture.pkg) == "article")
        // Extras are strings on Android: a route wanting an integer fails where the iPhone's JSON number passes.
        var app = AndroidFixture.app()
        app.navigation.routes[0].requiredKeys = [RouteKey("article_id", .integer)]
        let (_, failed) = tapped(
            app, state: .killed, notification: AndroidNotificationPayload(title: "t", clickAction: Self.openArticle))
        #expect(
            failed.contains {
                $0.kind
                    == .navigation(
                        .routingFailed(
                            route: "open-article", key: "article_id", expected: .integer, found: "string \"42\""))
            })
    }

    /// A reused activity (singleTop, on top) gets onNewIntent; if its code ignores the new intent the route does not
    /// run ("getIntent() still returns the original Intent"); a standard one is finished and re-created
    /// (`Intent.FLAG_ACTIVITY_CLEAR_TOP`).
    @Test(arguments: [
        (AndroidLaunchMode.singleTop, true, ["onNewIntent"], [String]()),
        (.singleTop, false, ["onNewIntent"], ["new-intent-not-handled(.ArticleActivity)"]),
        (.standard, true, ["onCreate"], []),
    ])
    func secondTapOnAnOpenActivity(mode: AndroidLaunchMode, handles: Bool, callbacks: [String], dropped: [String]) {
        let app = AndroidFixture.app(articleLaunchMode: mode, articleHandlesNewIntent: handles)
        let (d, _) = tapped(app, notification: AndroidNotificationPayload(title: "1", clickAction: Self.openArticle))
        d.deliver(
            AndroidFixture.message(
                d, kind: .notificationAndData,
                notification: AndroidNotificationPayload(title: "2", clickAction: Self.openArticle),
                data: ["article_id": "43", "headline": "Second"]))
        // In the foreground a notification message goes to onMessageReceived: go Home to get it in the tray.
        d.goHome(AndroidFixture.pkg)
        d.deliver(
            AndroidFixture.message(
                d, kind: .notificationAndData,
                notification: AndroidNotificationPayload(title: "3", clickAction: Self.openArticle),
                data: ["article_id": "44", "headline": "Third"]))
        let events = try! d.tap(d.snapshot.tray.last!.id)
        #expect(AndroidFixture.callbacks(events) == callbacks)
        #expect(AndroidFixture.drops(events) == dropped)
        let top = d.snapshot.apps[AndroidFixture.pkg]!.task.last!
        #expect(top.extras["article_id"] == (handles ? "44" : "42"))
        #expect(d.snapshot.apps[AndroidFixture.pkg]!.task.map(\.name) == [".MainActivity", ".ArticleActivity"])
    }

    /// Back pops the fragment stack, then the activity; on the root launcher activity Android 12+ moves the task to
    /// the back, older versions finish it (Android 12 behavior changes; AOSP 50b3cc03e62b).
    @Test(arguments: [(34, AndroidTransitionReason.backMovedTaskToBack, 1), (30, .backFinishedTask, 0)])
    func backStack(apiLevel: Int, reason: AndroidTransitionReason, taskLeft: Int) {
        let (d, _) = AndroidFixture.ready(apiLevel: apiLevel)
        d.deliver(
            AndroidFixture.message(
                d, kind: .notificationAndData,
                notification: AndroidNotificationPayload(title: "t", clickAction: Self.openArticle),
                data: ["article_id": "42", "headline": "Swift 7", "url": "https://news.example.com/42"]))
        _ = try! d.tap(d.snapshot.tray.last!.id)
        #expect(d.snapshot.currentScreen(AndroidFixture.pkg) == "article")
        let pop = d.pressBack(AndroidFixture.pkg)
        #expect(pop.map(\.kind) == [.navigation(.popped(screen: "article"))])
        let finish = d.pressBack(AndroidFixture.pkg)
        #expect(finish.map(\.kind) == [.activityStarted(activity: ".ArticleActivity", how: "finished (Back)")])
        let root = d.pressBack(AndroidFixture.pkg)
        #expect(root.contains { $0.kind == .stateChanged(from: .foreground, to: .background, reason: reason) })
        #expect(d.snapshot.apps[AndroidFixture.pkg]!.task.count == taskLeft)
    }

    /// Sticky notifications stay after a tap; a dismissal removes without opening anything.
    @Test func stickyAndDismiss() {
        let (d, events) = tapped(notification: AndroidNotificationPayload(title: "pinned", sticky: true))
        #expect(AndroidFixture.callbacks(events) == ["onCreate"])
        #expect(d.snapshot.tray.count == 1)
        let dismissed = try! d.dismiss(d.snapshot.tray[0].id)
        #expect(AndroidFixture.callbacks(dismissed).isEmpty && d.snapshot.tray.isEmpty)
        #expect(throws: AndroidInteractionError.self) { try d.tap("a99") }
    }

    /// A deep link from outside opens the matching activity.
    @Test func externalDeepLink() {
        let (d, _) = AndroidFixture.ready(state: .killed)
        let events = d.openDeepLink("https://news.example.com/articles/7")
        #expect(AndroidFixture.callbacks(events) == ["applicationOnCreate", "onCreate"])
        #expect(d.snapshot.currentScreen(AndroidFixture.pkg) == "article")
        #expect(d.openDeepLink("https://news.example.com/about").isEmpty)
    }
}
