import Testing

@testable import SuiteFormat

/// The tables of names a suite may write, as a schema or reference generator reads them.
@Suite struct SuiteTableTests {
    static let tables: [(place: String, entries: [(name: String, summary: String)])] = [
        (ExpectKey.place, ExpectKey.entries), (NotificationField.place, NotificationField.entries),
        (NavigationField.place, NavigationField.entries), (PageField.place, PageField.entries),
        (ExtensionField.place, ExtensionField.entries), (WholeObject.place, WholeObject.entries),
        (CallbackField.place, CallbackField.entries), (SendCapture.place, SendCapture.entries),
        (FCMSendCapture.place, FCMSendCapture.entries), (RunCapture.place, RunCapture.entries),
        (DeviceVariable.place, DeviceVariable.entries), (FixtureVariable.place, FixtureVariable.entries),
        (GatewayVariable.place, GatewayVariable.entries), (LiveActivityField.place, LiveActivityField.entries),
    ]

    @Test func everyEntryHasOneLineSayingWhatItIs() {
        for table in Self.tables {
            let names = table.entries.map(\.name)
            #expect(Set(names).count == names.count, "\(table.place): a name twice")
            for entry in table.entries {
                #expect(!entry.summary.isEmpty && !entry.summary.contains("\n"), "\(table.place) \(entry.name)")
                #expect(entry.summary.hasSuffix("."), "\(table.place) \(entry.name)")
            }
        }
    }

    @Test func theTablesAreWhatTheDecodersAllow() {
        #expect(ExpectKey.entries.map(\.name) == ExpectKey.names)
        #expect(NotificationField.entries.map(\.name) == NotificationField.names)
        #expect(NavigationField.entries.map(\.name) == NavigationField.names)
        #expect(ExtensionField.entries.map(\.name) == ExtensionField.names)
        #expect(WholeObject.entries.map(\.name) == WholeObject.names)
        #expect(LiveActivityField.entries.map(\.name) == LiveActivityField.names)
        // page's `contains` is spelt beside the fields (a substring of `text`).
        #expect(PageField.names.filter { $0 != PageField.containsKey } == PageField.entries.map(\.name))
    }

    /// Every check says what it reads (Suites/README.md "What a check reads").
    @Test func everyFieldCheckHasAScope() {
        #expect(NotificationField.allCases.filter { Subject.notification($0).scope == .window } == [.presented])
        #expect(
            NavigationField.allCases.filter { Subject.navigation($0).scope == .window } == [.routed, .routingFailed])
        #expect(
            PageField.allCases.filter { Subject.page($0).scope == .window } == [.openedExternally, .failed, .cancelled])
        #expect(
            ExtensionField.allCases.filter { Subject.extensions($0).scope == .window } == [
                .service, .content, .response,
            ])
        #expect([Subject.status, .delivered, .dropped, .stored].allSatisfy { $0.scope == .lastSend })
        #expect([Subject.userInfo("a"), .badge, .token, .state].allSatisfy { $0.scope == .state })
        #expect([Subject.callbacks, .openedURLs].allSatisfy { $0.scope == .window })
    }
}
