import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// The logs that grow with every push stay bounded on a phone that receives pushes for hours (README, Reliability:
/// simulator limits): the event log and iOS's Notification Center keep their newest entries, counting what they drop,
/// and event numbers go on where they were. On Android the tray is bounded by the system's own rule: 50 notifications
/// per package, the next one "Not showing more" (Tests/reference/android.md §7, [AOSP-NMS]).
@Suite struct PhoneLogLimitTests {
    @Test func theLimitDropsTheOldestOnlyPastItsSlack() {
        let limit = PhoneLogLimit(10)
        var log = Array(1...15)
        #expect(limit.trim(&log) == 0)  // 10 + 5 of slack
        log.append(16)
        #expect(limit.trim(&log) == 6)
        #expect(log == Array(7...16))
    }

    /// 60 alerts with a 20-entry event log and a 5-notification Notification Center: both stay within limit + slack,
    /// the drops are counted, numbers are unique and contiguous, and a window kept by number still finds its events.
    @Test func anIPhoneKeepsItsNewestEventsAndNotifications() {
        var rules = DeviceRules()
        rules.eventLogLimit = PhoneLogLimit(20)
        rules.notificationCenterLimit = PhoneLogLimit(5)
        let (d, _) = Fixture.ready(state: .notRunning, rules: rules)
        var logged = d.snapshot.events.count
        var windowStart = 0
        for i in 1...60 {
            if i == 55 { windowStart = d.snapshot.events.last!.sequence }
            logged += d.deliver(Fixture.push(Fixture.alertPayload, id: "p\(i)")).events.count
        }
        let s = d.snapshot
        #expect(s.events.count <= 30 && s.events.count >= 20)
        #expect(s.eventsDropped + s.events.count == logged)
        #expect(s.events.last!.sequence == logged)
        #expect(zip(s.events, s.events.dropFirst()).allSatisfy { $0.sequence + 1 == $1.sequence })
        #expect(s.notificationCenter.count <= 7 && s.notificationCenter.count >= 5)
        #expect(s.notificationsDropped + s.notificationCenter.count == 60)
        #expect(s.notificationCenter.last?.content.title == "Hello")
        let received = s.events.entries(after: windowStart).compactMap { e -> String? in
            if case .pushReceived(let id, _) = e.kind { id } else { nil }
        }
        #expect(received == ["p55", "p56", "p57", "p58", "p59", "p60"])
    }

    @Test func aWindowStartedBeforeTheOldestKeptEventGetsAllThatIsKept() {
        var rules = DeviceRules()
        rules.eventLogLimit = PhoneLogLimit(4)
        let (d, _) = Fixture.ready(state: .notRunning, rules: rules)
        for i in 1...10 { d.deliver(Fixture.push(Fixture.alertPayload, id: "p\(i)")) }
        let events = d.snapshot.events
        #expect(events.entries(after: 0).count == events.count)
        #expect(events.entries(after: events.last!.sequence).isEmpty)
        #expect(events.entries(after: events.last!.sequence + 5).isEmpty)
    }

    @Test func anAndroidPhoneKeepsItsNewestEvents() {
        var rules = AndroidRules()
        rules.eventLogLimit = PhoneLogLimit(12)
        let (d, _) = AndroidFixture.ready(rules: rules)
        for _ in 1...30 { d.deliver(AndroidFixture.message(d)) }
        let s = d.snapshot
        #expect(s.events.count <= 18 && s.events.count >= 12)
        #expect(s.eventsDropped > 0)
        #expect(s.events.last!.sequence == s.eventsDropped + s.events.count)
    }

    /// High-priority data messages that show nothing, to an app in the Active bucket with the deprioritization rule
    /// off (the defaults): nothing reads their times, so none are kept (both lists grew by one per message).
    @Test func unreadPriorityHistoryIsNotKept() {
        let (d, _) = AndroidFixture.ready()
        for _ in 1...40 { d.deliver(AndroidFixture.message(d, priority: .high)) }
        let app = d.snapshot.apps[AndroidFixture.pkg]!
        #expect(app.highPriorityDeliveries.isEmpty)
        #expect(app.silentHighPriority.isEmpty)
        var rules = AndroidRules()
        rules.deprioritizeAfterSilentHighPriority = 1_000
        let (ruled, _) = AndroidFixture.ready(rules: rules)
        for _ in 1...3 { ruled.deliver(AndroidFixture.message(ruled, priority: .high)) }
        #expect(ruled.snapshot.apps[AndroidFixture.pkg]!.silentHighPriority.count == 3)
    }

    /// AOSP `NotificationManagerService`: a package's 51st notification is not shown (counted before posting; a tag
    /// already in the tray still replaces its notification).
    @Test func anAndroidPackageShowsAtMostFiftyNotifications() {
        let (d, _) = AndroidFixture.ready()
        for _ in 1...50 { d.deliver(AndroidFixture.message(d, kind: .notification)) }
        #expect(d.snapshot.tray.count == 50)
        let refused = d.deliver(AndroidFixture.message(d, kind: .notification)).events
        #expect(AndroidFixture.drops(refused) == ["package-notification-limit(50)"])
        #expect(AndroidFixture.posted(refused).isEmpty)
        #expect(d.snapshot.tray.count == 50)
        let tag = d.snapshot.tray[3].tag
        let replacing = d.deliver(
            AndroidFixture.message(
                d, kind: .notification, notification: AndroidNotificationPayload(title: "Again", tag: tag))
        ).events
        #expect(AndroidFixture.drops(replacing).isEmpty)
        #expect(d.snapshot.tray.count == 50 && d.snapshot.tray[3].title == "Again")
    }
}
