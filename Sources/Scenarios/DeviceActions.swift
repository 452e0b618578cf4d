import DeviceSimulator
import Foundation
import PushModel

/// Device and user actions: lifecycle, network, permissions, notification interactions, navigation, clock.
enum DeviceActions {
    static func perform(_ action: DeviceAction, step: Step, world: ScenarioWorld, context: inout RunContext)
        async throws(StepStop)
    {
        guard let d = world.device(step.device) else {
            throw .harness(type: "world", message: "no device '\(step.device ?? "")'", detail: "step at \(step.range)")
        }
        let device = d.device
        let bundle = world.bundleID(on: d, step.app) ?? ""
        func fail(_ message: String, expected: String, actual: String) -> StepStop {
            .failure(
                AssertionFailure(
                    message: message, expected: expected, actual: actual, file: step.range.file, line: step.range.line,
                    column: step.range.column, events: Observation.render(Array(device.events.suffix(12)))))
        }
        func notification(_ selector: NotificationSelector) throws(StepStop) -> String {
            let center = device.snapshot.notificationCenter.filter { $0.bundleID == bundle || step.app == nil }
            switch selector {
            case .id(let id): return id
            case .latest:
                guard let last = center.last else {
                    throw fail(
                        "no notification to \(step.keyword) in Notification Center",
                        expected: "a presented notification",
                        actual: "Notification Center is empty (was the push shown? see the events)")
                }
                return last.id
            }
        }
        /// Applies a control-endpoint action: the one implementation `serve`'s `/devices/{name}/actions` uses.
        func apply(_ a: DeviceSimulator.DeviceAction) throws(StepStop) {
            do throws(DeviceActionError) { _ = try device.apply(a) } catch {
                switch error {
                case .noAlertShowing(_, let button):
                    let buttons = device.snapshot.apps[bundle]?.router.alert?.alert.buttons ?? []
                    throw fail(
                        "the alert has no '\(button)' button", expected: button, actual: buttons.joined(separator: ", "))
                case .interaction(let e):
                    throw fail(
                        "\(step.keyword) failed: \(e.description)", expected: "the interaction to be possible",
                        actual: e.description)
                case .noSuchApp, .noSuchNotification:
                    throw fail(
                        "\(step.keyword) failed: \(error.description)", expected: "an installed app",
                        actual: error.description)
                }
            }
        }
        var detail = ""
        switch action {
        case .state(let s): detail = s.rawValue
        case .authorization(let settings): detail = settings.status.rawValue
        case .quickAction(let type): detail = type
        case .answerAlert(let button):
            detail = button
            guard device.snapshot.apps[bundle]?.router.alert != nil else {
                throw fail(
                    "no alert on screen to answer", expected: "an alert with a '\(button)' button", actual: "no alert")
            }
        default: break
        }
        if let actions = try simulatorActions(action, bundle: bundle, notification: notification) {
            for a in actions { try apply(a) }
            if case .chooseAction(let actionID, .id(let id))? = actions.first {
                detail = "\(actionID) on \(id)"
            } else if let a = actions.first, let id = a.notificationID {
                detail = id
            }
            context.transcript.step(step, detail)
            return
        }
        switch action {
        case .install:
            guard let app = world.declaration.apps.first(where: { $0.bundleID == bundle }) else {
                throw .harness(
                    type: "world", message: "no app '\(bundle)' in the world", detail: "step at \(step.range)")
            }
            device.setUp(app)
        case .wait(let duration):
            detail = "\(duration)"
            let (s, a) = duration.components
            world.clock.advance(by: Double(s) + Double(a) / 1e18)
        case .loadPage, .followLink:
            let web: WebView
            do { web = try world.web(fixtureCAPath: context.environment.fixtureCAPath) } catch {
                throw .harness(type: "world", message: "cannot start the web view: \(error)", detail: "\(error)")
            }
            var webAction = WebAction.loadPage(app: bundle)
            if case .followLink(let t) = action {
                let link = try context.render(t, world: world)
                detail = link
                webAction = .followLink(link, app: bundle)
            }
            let outcome: WebNavigationOutcome
            do throws(WebViewStepError) { outcome = try await device.perform(webAction, with: web) } catch {
                throw fail("\(step.keyword) failed: \(error)", expected: "a page to load", actual: "\(error)")
            }
            if case .failed(let f) = outcome, case .couldNotConnect = f {
                throw .harness(type: "page", message: "page unreachable: \(f)", detail: "step at \(step.range)")
            }
        default: break  // every other step is a `DeviceSimulator.DeviceAction`, applied above
        }
        context.transcript.step(step, detail)
    }

    /// The control-endpoint actions a suite step is, on `bundle` (lifecycle steps such as `background`
    /// launch the app first, as a user would); nil for steps only a suite has (`install`, `wait`, web
    /// steps). `notification` resolves a selector to an id (a suite's `latest` means the step's app's).
    static func simulatorActions(
        _ action: DeviceAction, bundle: String, notification: (NotificationSelector) throws(StepStop) -> String
    ) throws(StepStop) -> [DeviceSimulator.DeviceAction]? {
        let app: String? = bundle
        func state(_ s: AppState) -> [DeviceSimulator.DeviceAction] {
            switch s {
            case .foreground: return [.launch(app: app)]
            case .background: return [.launch(app: app), .background(app: app)]
            case .suspended: return [.launch(app: app), .suspend(app: app)]
            case .notRunning: return [.terminate(app: app)]
            case .forceQuit: return [.forceQuit(app: app)]
            }
        }
        switch action {
        case .launch, .foreground: return state(.foreground)
        case .background: return state(.background)
        case .suspend: return state(.suspended)
        case .terminate: return state(.notRunning)
        case .forceQuit: return state(.forceQuit)
        case .state(let s): return state(s)
        case .reboot: return [.reboot]
        case .online(let on): return [.online(on)]
        case .authorization(let settings): return [.authorize(app: app, settings)]
        case .uninstall: return [.uninstall(app: app)]
        case .register: return [.register(app: app)]
        case .tap(let sel): return [.tap(.id(try notification(sel)))]
        case .chooseAction(let actionID, let sel): return [.chooseAction(actionID, on: .id(try notification(sel)))]
        case .dismiss(let sel): return [.dismiss(.id(try notification(sel)))]
        case .expand(let sel): return [.expand(.id(try notification(sel)))]
        case .quickAction(let type): return [.quickAction(app: app, type: type)]
        case .back: return [.back(app: app)]
        case .answerAlert(let button): return [.answerAlert(app: app, button: button)]
        case .logIn: return [.logIn(app: app)]
        case .logOut: return [.logOut(app: app)]
        case .install, .wait, .loadPage, .followLink: return nil
        }
    }
}

extension DeviceSimulator.DeviceAction {
    /// The notification id a tap / dismiss / expand addresses, if it names one.
    var notificationID: String? {
        switch self {
        case .tap(.id(let id)), .dismiss(.id(let id)), .expand(.id(let id)): return id
        default: return nil
        }
    }
}
