import DeviceSimulator
import Foundation
import PushModel
import SuiteFormat

/// What the `navigation:` and `page:` subjects read of one app, the same on both phones: the router (the iPhone
/// app's, the top activity's on Android), whether the app is logged in, the navigation and WebView events of the
/// window, and the page its WebView holds. `Observation` and `AndroidObservation` each build it from their own
/// state, and these two checks are answered here once.
struct ScreenObservation {
    var router: Router?
    var loggedIn: Bool?
    var navigation: [NavigationEvent]
    var webOutcomes: [WebNavigationOutcome]
    var webPage: WebPage?
    /// What `top` says when the router's stack is empty (an Android activity's own screen); nil on the iPhone.
    var screenWithoutStack: String? = nil

    /// `navigation:`; the Android-only `activity` / `activities` are answered by `AndroidObservation` (nil here).
    func value(_ field: NavigationField) -> JSONValue? {
        switch field {
        case .routed:
            return navigation.compactMap { if case .routed(let r, _) = $0 { JSONValue.string(r) } else { nil } }.last
        case .routingFailed:
            return navigation.compactMap {
                if case .routingFailed(_, let key, _, _) = $0 { JSONValue.string(key) } else { nil }
            }.last
        case .loggedIn: return loggedIn.map(JSONValue.bool)
        case .activity, .activities: return nil
        default: break
        }
        guard let router else { return nil }
        switch field {
        case .tab: return .number(Double(router.selectedTab))
        case .tabTitle:
            let tabs = router.declaration.tabs
            return tabs.indices.contains(router.selectedTab) ? .string(tabs[router.selectedTab]) : nil
        case .stack: return .array(router.stack.map { .string($0.id) })
        case .top: return router.stack.last.map { .string($0.id) } ?? screenWithoutStack.map(JSONValue.string)
        case .title: return router.stack.last.map { .string($0.title) }
        case .url: return router.stack.last?.url.map(JSONValue.string)
        case .alert: return router.alert.map { .string($0.alert.title) }
        case .alertMessage: return router.alert.map { .string($0.alert.message) }
        case .activity, .activities, .routed, .routingFailed, .loggedIn: return nil
        }
    }

    /// `page:`.
    func value(_ field: PageField) -> JSONValue? {
        let p = webPage
        switch field {
        case .openedExternally:
            return webOutcomes.compactMap {
                if case .openedExternally(let u) = $0 { JSONValue.string(u) } else { nil }
            }.last
        case .failed:
            return webOutcomes.compactMap {
                if case .failed(let f) = $0 { JSONValue.string(f.description) } else { nil }
            }.last
        case .cancelled:
            return webOutcomes.compactMap { if case .cancelled(_, let r) = $0 { JSONValue.string(r) } else { nil } }
                .last
        case .status: return p.map { .number(Double($0.status)) }
        case .url: return p.map { .string($0.finalURL) }
        case .title: return p?.title.map(JSONValue.string)
        case .text: return p.map { .string($0.text) }
        case .httpVersion: return p.map { .string($0.httpVersion) }
        case .redirects: return p.map { .array($0.redirects.map(JSONValue.string)) }
        }
    }
}
