import DeviceBridge
import DeviceSimulator
import Foundation
import PushModel
import ScenarioChecks
import SuiteFormat
import YAMLSource

/// Where a device step differs between the phones, read from the hosted device so `DeviceActions.perform` is one
/// path for both: an iPhone's Notification Center and apps' routers, an Android phone's tray and top activities.
extension HostedDevice {
    /// The device's last `count` events, one a line, for a failure's events.
    func renderedEvents(last count: Int) -> String {
        switch engine {
        case .iphone(let d): return Observation.render(Array(d.events.suffix(count)))
        case .android(let d): return AndroidObservation.render(Array(d.events.suffix(count)))
        }
    }

    /// Where shown notifications are, for the failure of a `latest` with none there.
    var shownNotifications: (place: String, expected: String, empty: String) {
        switch engine {
        case .iphone:
            return (
                "Notification Center", "a presented notification",
                "Notification Center is empty (was the push shown? see the events)"
            )
        case .android:
            return ("the tray", "a posted notification", "the tray is empty (was the message shown? see the events)")
        }
    }

    /// The id of the last notification shown for `bundle` (for any app's with `anyApp`), nil when there is none.
    func latestNotificationID(_ bundle: String, anyApp: Bool) -> String? {
        switch engine {
        case .iphone(let d): return d.snapshot.notificationCenter.last { $0.bundleID == bundle || anyApp }?.id
        case .android(let d): return d.snapshot.tray.last { $0.packageName == bundle || anyApp }?.id
        }
    }

    /// Whether `bundle` shows an alert, where a step checks that before answering it (the iPhone); nil on Android,
    /// whose `answer_alert` the device refuses itself.
    func alertShowing(_ bundle: String) -> Bool? {
        iphone.map { $0.snapshot.apps[bundle]?.router.alert != nil }
    }

    /// The buttons of the alert `bundle` shows, for an `answer_alert` the device refused (none named on Android).
    func alertButtons(_ bundle: String) -> [String] {
        iphone?.snapshot.apps[bundle]?.router.alert?.alert.buttons ?? []
    }

    /// The URL on `bundle`'s top screen, for a `load_page` arrow.
    func topURL(_ bundle: String) -> String {
        let router =
            switch engine {
            case .iphone(let d): d.snapshot.apps[bundle]?.router
            case .android(let d): d.snapshot.apps[bundle]?.task.last?.router
            }
        return router?.stack.last?.url ?? "(no URL on the top screen)"
    }

    /// `install`: sets up the world's app `bundle` on this phone when called; a harness error when the world has
    /// no such app for this platform.
    func setUpStep(_ bundle: String, world: ScenarioWorld, range: SourceRange) throws(StepStop) -> () -> Void {
        switch engine {
        case .iphone(let device):
            guard let app = world.declaration.apps.first(where: { $0.bundleID == bundle }) else {
                throw .harness(kind: .world, message: "no app '\(bundle)' in the world", detail: "step at \(range)")
            }
            return { device.setUp(app) }
        case .android(let device):
            guard let app = world.declaration.androidApps.first(where: { $0.packageName == bundle }) else {
                throw .harness(
                    kind: .world, message: "no Android app '\(bundle)' in the world", detail: "step at \(range)")
            }
            return { device.setUp(app) }
        }
    }

    /// A web step on `bundle`'s WebView.
    func perform(_ action: WebAction, with web: WebView) async throws(WebViewStepError) -> WebNavigationOutcome {
        switch engine {
        case .iphone(let d): return try await d.perform(action, with: web)
        case .android(let d): return try await d.perform(action, with: web)
        }
    }
}
