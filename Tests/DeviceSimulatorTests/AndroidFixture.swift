import Foundation
@testable import PushModel
import Synchronization

@testable import DeviceSimulator

/// A declared Android news app (channels, a manifest default channel, a launcher activity and an article activity
/// opened by `click_action` and by deep link) on a Pixel, and messages for it.
enum AndroidFixture {
    static let pkg = "com.example.news"
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let firebase = AndroidFirebaseConfig(
        senderID: "123456789012", projectID: "demo-project", appID: "1:123456789012:android:0a1b2c3d4e5f",
        apiKey: "AIzaSyTEST")

    static let navigation = NavigationDeclaration(
        screens: [ScreenDeclaration(id: "article", title: "Article")],
        routes: [
            RouteDeclaration(
                name: "open-article", triggers: [.tap], whenKeyPresent: "article_id",
                requiredKeys: [RouteKey("article_id", .string)],
                push: [ScreenPush("article", title: .fromKey("headline"))],
                openURLFromKey: "url")
        ])

    static func app(
        channels: [AndroidChannel] = [
            AndroidChannel(id: "news", name: "News", importance: .high),
            AndroidChannel(id: "quiet", name: "Quiet", importance: .low),
            AndroidChannel(id: "muted", name: "Muted", importance: .none),
        ],
        defaultChannel: String? = "news", messagingService: String? = ".PushService", directBootAware: Bool = false,
        permission: PostNotificationsState = .granted, handler: AndroidMessageHandler = AndroidMessageHandler(),
        articleLaunchMode: AndroidLaunchMode = .singleTop, articleHandlesNewIntent: Bool = true,
        drawables: [String]? = nil, bucket: AndroidStandbyBucket = .active, targetSdk: Int = 34,
        autoInit: Bool = true
    ) -> AndroidAppDeclaration {
        AndroidAppDeclaration(
            packageName: pkg, targetSdk: targetSdk, firebase: firebase,
            manifest: AndroidManifestFacts(
                messagingService: messagingService, serviceDirectBootAware: directBootAware,
                defaultChannelID: defaultChannel, defaultIcon: "ic_stat_news", defaultColor: "#3366FF",
                autoInitEnabled: autoInit,
                activities: [
                    AndroidActivityDeclaration(name: ".MainActivity", launcher: true),
                    AndroidActivityDeclaration(
                        name: ".ArticleActivity", actions: ["com.example.news.OPEN_ARTICLE"],
                        deepLinks: [
                            AndroidDeepLink(scheme: "https", host: "news.example.com", pathPrefix: "/articles")
                        ],
                        launchMode: articleLaunchMode, handlesNewIntent: articleHandlesNewIntent, screen: "article"),
                ]),
            channels: channels, permission: permission, handler: handler, drawables: drawables, standbyBucket: bucket,
            navigation: navigation)
    }

    static func device(apiLevel: Int = 34, rules: AndroidRules = AndroidRules()) -> (AndroidDevice, ManualClock) {
        let clock = ManualClock(start: start)
        return (
            AndroidDevice(
                name: "pixel", serial: "emulator-5554", apiLevel: apiLevel, seed: 7, clock: clock, rules: rules), clock
        )
    }

    /// A device with `app` set up (installed, launched once, Home) and then put in `state`.
    static func ready(
        _ app: AndroidAppDeclaration = app(), state: AndroidAppState = .background, apiLevel: Int = 34,
        rules: AndroidRules = AndroidRules()
    ) -> (AndroidDevice, ManualClock) {
        let (d, clock) = device(apiLevel: apiLevel, rules: rules)
        d.setUp(app)
        put(d, in: state)
        return (d, clock)
    }

    static func put(_ d: AndroidDevice, in state: AndroidAppState) {
        switch state {
        case .foreground: _ = try? d.launch(pkg)
        case .background: break
        case .killed: d.kill(pkg)
        case .forceStopped: d.forceStop(pkg)
        }
    }

    static func token(_ d: AndroidDevice) -> String { d.snapshot.apps[pkg]?.fcmToken ?? "no-token" }

    static let counter = Mutex(0)

    /// A message for the app's current token, sent now.
    static func message(
        _ d: AndroidDevice, kind: AndroidMessageKind = .data, priority: AndroidMessagePriority? = nil,
        ttl: Int64 = AndroidMessage.defaultTTLSeconds, collapseKey: String? = nil,
        notification: AndroidNotificationPayload = AndroidNotificationPayload(title: "Breaking", body: "News"),
        data: [String: String] = ["article_id": "42", "headline": "Swift 7"], id: String? = nil,
        directBootOK: Bool = false
    ) -> AndroidMessage {
        let n = counter.withLock { c in
            c += 1
            return c
        }
        return AndroidMessage(
            messageID: id ?? "0:\(1_767_225_600_000_000 + n)%31bd1c9631bd1c96", token: token(d),
            senderID: firebase.senderID,
            packageName: pkg, collapseKey: collapseKey, requestedPriority: priority, ttlSeconds: ttl,
            sentAt: d.clock.now(), data: kind == .notification ? [:] : data,
            notification: kind == .data ? nil : notification, directBootOK: directBootOK)
    }

    static func callbacks(_ events: [AndroidDeviceEvent]) -> [String] {
        events.compactMap { if case .callback(let c) = $0.kind { c.name } else { nil } }
    }

    static func drops(_ events: [AndroidDeviceEvent]) -> [String] {
        events.compactMap { if case .messageDropped(_, let r) = $0.kind { r.description } else { nil } }
    }

    static func posted(_ events: [AndroidDeviceEvent]) -> [AndroidTrayNotification] {
        events.compactMap { if case .notificationPosted(let n) = $0.kind { n } else { nil } }
    }

    static func warnings(_ events: [AndroidDeviceEvent]) -> [String] {
        events.compactMap { if case .sdkWarning(let w) = $0.kind { w } else { nil } }
    }

    static func received(_ events: [AndroidDeviceEvent]) -> [AndroidRemoteMessage] {
        events.compactMap { if case .callback(.onMessageReceived(let m)) = $0.kind { m } else { nil } }
    }

    static func state(_ d: AndroidDevice) -> AndroidAppState? { d.snapshot.apps[pkg]?.state }
}
