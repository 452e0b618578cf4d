@testable import PushModel
import Testing

@testable import SuiteFormat

/// `Subject.traceFocus`: the lifeline of the HTML report's sequence diagram each check is marked on, for every key
/// a suite may write (decoded from `CheckTableTests`' samples, so a new key has to say where it belongs).
@Suite struct SubjectTraceTests {
    static func hop(of key: ExpectKey) -> TraceHop? {
        switch key {
        case .status, .reason, .headers, .timestamp, .stored: .apns
        case .errorCode, .name: .fcm
        case .delivered, .dropped, .reached, .notification, .install, .registration, .findings, .symptoms, .token,
            .state, .badge, .channel, .tray, .permission, .activity:
            .device
        case .callbacks, .userInfo, .callback, .exactly, .callkit, .extras: .app
        case .extensions: .serviceExtension
        case .navigation, .openedURL: .router
        case .page: .webView
        case .exit, .stdout, .stderr: .backend
        case .atLeast: .device
        case .snapshot, .request: nil
        }
    }

    @Test func everyCheckIsMarkedOnItsHop() throws {
        for key in ExpectKey.allCases {
            let (yaml, _) = CheckTableTests.sample(key)
            let expectation = try CheckTableTests.decode("\(key.rawValue): \(yaml)")
            // `request:`'s sample has a status check beside it (alone it checks nothing, and is refused).
            let focus =
                key == .request
                ? nil : expectation.checks.first?.subject.traceFocus ?? expectation.objects.first?.object.traceFocus
            #expect(focus?.hop == Self.hop(of: key), "\(key)")
        }
    }

    @Test func theArrowKindNamesWhatTheCheckRead() {
        #expect(Subject.status.traceFocus == TraceFocus(.apns, .response))
        #expect(Subject.delivered.traceFocus == TraceFocus(.device, .delivery))
        #expect(Subject.dropped.traceFocus == TraceFocus(.device, .dropped))
        #expect(Subject.notification(.title).traceFocus == TraceFocus(.device, .presented))
        #expect(Subject.navigation(.title).traceFocus == TraceFocus(.router, .navigation))
        #expect(Subject.page(.status).traceFocus == TraceFocus(.webView, .page))
        #expect(Subject.extensions(.content).traceFocus == TraceFocus(.contentExtension))
        #expect(WholeObject.payload.traceFocus == TraceFocus(.apns, .request))
    }

    @Test func theFocusFindsTheLastArrowOfItsKindOnItsHop() {
        let trace = [
            TraceEvent(.request, from: .runner, to: .apns, label: "POST"),
            TraceEvent(.response, from: .apns, to: .runner, label: "200"),
            TraceEvent(.delivery, from: .apns, to: .device, label: "delivered"),
            TraceEvent(.request, from: .runner, to: .apns, label: "POST"),
            TraceEvent(.response, from: .apns, to: .runner, label: "410"),
        ]
        #expect(TraceFocus(.apns, .response).index(in: trace) == 4)
        #expect(TraceFocus(.apns, .response).index(in: trace, from: 3) == 4)
        #expect(TraceFocus(.device, .delivery).index(in: trace) == 2)
        #expect(TraceFocus(.device, .delivery).index(in: trace, from: 3) == nil)
        // No arrow of that kind: the last one on the hop.
        #expect(TraceFocus(.device, .presented).index(in: trace) == 2)
        #expect(TraceFocus(.router).index(in: trace) == nil)
    }
}
