import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Tests/reference/android.md §5 and §7: what the SDK shows for a notification message in the background: the channel
/// fallback chain, permission and importance, icon, color, count, tag replacement, sticky.
@Suite struct AndroidTrayTests {
    struct ChannelRow: Sendable, CustomStringConvertible {
        var requested: String?
        var manifestDefault: String?
        var created: [String]
        var channel: String?
        var warnings: [String]
        var dropped: [String] = []
        var description: String {
            "requested=\(requested ?? "nil") default=\(manifestDefault ?? "nil") created=\(created)"
        }
    }

    static let requestedMissing =
        "Notification Channel requested (sports) has not been created by the app. Manifest configuration, or default, value will be used."
    static let defaultMissing =
        "Notification Channel set in AndroidManifest.xml has not been created by the app. Default value will be used."
    static let noDefault =
        "Missing Default Notification Channel metadata in AndroidManifest. Default value will be used."

    /// [R-SDK] CommonNotificationBuilder.getOrCreateChannel: message channel if created → manifest default if created
    /// → fcm_fallback_notification_channel ("Miscellaneous"); importance none blocks [AND-CH].
    static let channelRows: [ChannelRow] = [
        ChannelRow(
            requested: "news", manifestDefault: "quiet", created: ["news", "quiet"], channel: "news", warnings: []),
        ChannelRow(
            requested: "sports", manifestDefault: "quiet", created: ["news", "quiet"], channel: "quiet",
            warnings: [requestedMissing]),
        ChannelRow(
            requested: "sports", manifestDefault: "alerts", created: ["news"],
            channel: "fcm_fallback_notification_channel", warnings: [requestedMissing, defaultMissing]),
        ChannelRow(
            requested: nil, manifestDefault: nil, created: ["news"], channel: "fcm_fallback_notification_channel",
            warnings: [noDefault]),
        ChannelRow(requested: nil, manifestDefault: "news", created: ["news"], channel: "news", warnings: []),
        ChannelRow(
            requested: "muted", manifestDefault: "news", created: ["news", "muted"], channel: nil, warnings: [],
            dropped: ["channel-blocked(muted)"]),
    ]

    @Test(arguments: channelRows)
    func channelFallback(row: ChannelRow) {
        let channels = row.created.map { AndroidChannel(id: $0, importance: $0 == "muted" ? .none : .default) }
        let app = AndroidFixture.app(channels: channels, defaultChannel: row.manifestDefault)
        let (d, _) = AndroidFixture.ready(app, state: .background)
        let events = d.deliver(
            AndroidFixture.message(
                d, kind: .notification, notification: AndroidNotificationPayload(title: "t", channelID: row.requested))
        ).events
        #expect(AndroidFixture.posted(events).map(\.channelID) == (row.channel.map { [$0] } ?? []))
        #expect(AndroidFixture.warnings(events) == row.warnings)
        #expect(AndroidFixture.drops(events) == row.dropped)
        if row.channel == AndroidChannel.fcmFallback.id {
            #expect(d.snapshot.apps[AndroidFixture.pkg]?.channel(row.channel!)?.name == "Miscellaneous")
        }
    }

    struct PermissionRow: Sendable, CustomStringConvertible {
        var apiLevel: Int
        var permission: PostNotificationsState
        var shown: Bool
        var description: String { "API \(apiLevel) \(permission.rawValue)" }
    }

    /// POST_NOTIFICATIONS on 33+ (not asked = off on a new install); below 33 only a user's "off" [AND-PERM].
    @Test(arguments: [
        PermissionRow(apiLevel: 34, permission: .granted, shown: true),
        PermissionRow(apiLevel: 34, permission: .denied, shown: false),
        PermissionRow(apiLevel: 34, permission: .notAsked, shown: false),
        PermissionRow(apiLevel: 32, permission: .notAsked, shown: true),
        PermissionRow(apiLevel: 32, permission: .denied, shown: false),
    ])
    func permission(row: PermissionRow) {
        let (d, _) = AndroidFixture.ready(AndroidFixture.app(permission: row.permission), apiLevel: row.apiLevel)
        let events = d.deliver(AndroidFixture.message(d, kind: .notificationAndData)).events
        #expect(AndroidFixture.posted(events).count == (row.shown ? 1 : 0))
        #expect(AndroidFixture.drops(events) == (row.shown ? [] : ["post-notifications-not-granted"]))
        // Denial blocks only what is shown: a data message still reaches onMessageReceived.
        #expect(
            AndroidFixture.callbacks(d.deliver(AndroidFixture.message(d, kind: .data)).events) == ["onMessageReceived"])
    }

    /// Below API 26 there are no channels.
    @Test func noChannelsBeforeOreo() {
        let (d, _) = AndroidFixture.ready(apiLevel: 25)
        let n = AndroidFixture.posted(d.deliver(AndroidFixture.message(d, kind: .notification)).events)
        #expect(n.count == 1 && n[0].channelID == nil)
        #expect(d.snapshot.apps[AndroidFixture.pkg]?.channels.isEmpty == true)
    }

    /// Same tag replaces; no tag never does (`FCM-Notification:<uptime>`) [R-SDK].
    @Test func tagReplacement() {
        let (d, _) = AndroidFixture.ready()
        let tagged = AndroidNotificationPayload(title: "Score 1-0", tag: "match-7")
        d.deliver(AndroidFixture.message(d, kind: .notification, notification: tagged))
        var second = tagged
        second.title = "Score 2-0"
        let events = d.deliver(AndroidFixture.message(d, kind: .notification, notification: second)).events
        #expect(events.contains { if case .notificationReplaced(_, "match-7") = $0.kind { true } else { false } })
        d.deliver(AndroidFixture.message(d, kind: .notification))
        d.deliver(AndroidFixture.message(d, kind: .notification))
        let tray = d.snapshot.tray
        #expect(tray.map(\.title) == ["Score 2-0", "Breaking", "Breaking"])
        #expect(tray[1].tag.hasPrefix("FCM-Notification:") && tray[1].tag != tray[2].tag)
    }

    /// Small icon: the message's if the app has it → manifest default → launcher icon; color: the message's if valid
    /// → manifest default; a negative count is ignored [R-SDK].
    @Test func iconColorCount() {
        let app = AndroidFixture.app(drawables: ["ic_stat_goal"])
        let (d, _) = AndroidFixture.ready(app)
        let ok = AndroidNotificationPayload(title: "t", icon: "ic_stat_goal", color: "#FF0000", notificationCount: 3)
        let n1 = AndroidFixture.posted(
            d.deliver(AndroidFixture.message(d, kind: .notification, notification: ok)).events)
        #expect(n1.map(\.smallIcon) == ["ic_stat_goal"] && n1.map(\.color) == ["#FF0000"] && n1.map(\.number) == [3])
        let bad = AndroidNotificationPayload(title: "t", icon: "ic_missing", color: "red", notificationCount: -1)
        let events = d.deliver(AndroidFixture.message(d, kind: .notification, notification: bad)).events
        let n2 = AndroidFixture.posted(events)
        #expect(n2.map(\.smallIcon) == ["ic_stat_news"] && n2.map(\.color) == ["#3366FF"] && n2[0].number == nil)
        #expect(AndroidFixture.warnings(events).count == 3)
        var noDefault = app
        noDefault.manifest.defaultIcon = nil
        let (d2, _) = AndroidFixture.ready(noDefault)
        let n3 = AndroidFixture.posted(d2.deliver(AndroidFixture.message(d2, kind: .notification)).events)
        #expect(n3.map(\.smallIcon) == ["ic_launcher"])
    }

    /// The app's own notification from a data message: no channel fallback ("the notification doesn't appear"
    /// [AND-CH]).
    @Test func appPostedNotificationNeedsItsChannel() {
        let post = AndroidAppNotification(channelID: "promotions", titleKey: "headline")
        let (d, _) = AndroidFixture.ready(AndroidFixture.app(handler: AndroidMessageHandler(postsNotification: post)))
        let events = d.deliver(AndroidFixture.message(d, kind: .data)).events
        #expect(AndroidFixture.drops(events) == ["channel-not-created(promotions)"])
        let good = AndroidAppNotification(channelID: "news", titleKey: "headline", activity: ".ArticleActivity")
        let (d2, _) = AndroidFixture.ready(AndroidFixture.app(handler: AndroidMessageHandler(postsNotification: good)))
        let n = AndroidFixture.posted(d2.deliver(AndroidFixture.message(d2, kind: .data)).events)
        #expect(n.map(\.title) == ["Swift 7"] && n.map(\.poster) == [.app] && n.map(\.channelID) == ["news"])
    }
}
