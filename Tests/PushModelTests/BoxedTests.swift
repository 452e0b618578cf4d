import Testing

@testable import PushModel

/// `Boxed` and the fields kept behind it: they read, write and compare as the plain values did.
@Suite struct BoxedTests {
    @Test func comparesByValueNotByReference() {
        let a = Boxed([1, 2, 3])
        #expect(a == a)
        #expect(a == Boxed([1, 2, 3]))
        #expect(a != Boxed([1, 2]))
        #expect(a.value == [1, 2, 3])
    }

    @Test func traceEventPicturesReadWriteAndCompareAsValues() {
        let screens = NavigationPicture(tabs: ["Home"], selectedTab: 0, stack: [.init(id: "detail", title: "Article")])
        let page = PagePicture(
            requestedURL: "http://127.0.0.1/a.html", finalURL: "http://127.0.0.1/a.html", status: 200, title: "A")
        var event = TraceEvent(.navigation, from: .app, to: .router, label: "routed", navigation: screens, page: page)
        #expect(event.navigation == screens)
        #expect(event.page == page)
        #expect(event.notification == nil)

        let same = TraceEvent(.navigation, from: .app, to: .router, label: "routed", navigation: screens, page: page)
        #expect(event == same)  // equal pictures in different boxes

        var other = screens
        other.stack = [.init(id: "home", title: "Home")]
        var moved = event
        moved.navigation = other
        #expect(moved != event)
        #expect(event.navigation == screens)  // a copy's change leaves the original alone
        #expect(moved.navigation == other)

        event.navigation = nil
        #expect(event.navigation == nil)
        #expect(event != same)
        event.navigation = screens
        #expect(event == same)
    }
}
