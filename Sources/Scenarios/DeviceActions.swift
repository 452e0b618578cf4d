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
        func interact(_ body: () throws(InteractionError) -> [DeviceEvent]) throws(StepStop) {
            do { _ = try body() } catch {
                throw fail(
                    "\(step.keyword) failed: \(error.description)", expected: "the interaction to be possible",
                    actual: error.description)
            }
        }
        var detail = ""
        switch action {
        case .launch, .foreground: device.launch(bundle)
        case .background:
            device.launch(bundle)
            device.moveToBackground(bundle)
        case .suspend:
            device.launch(bundle)
            device.suspend(bundle)
        case .terminate: device.terminate(bundle)
        case .forceQuit: device.forceQuit(bundle)
        case .reboot: device.reboot()
        case .state(let s):
            detail = s.rawValue
            switch s {
            case .foreground: device.launch(bundle)
            case .background:
                device.launch(bundle)
                device.moveToBackground(bundle)
            case .suspended:
                device.launch(bundle)
                device.suspend(bundle)
            case .notRunning: device.terminate(bundle)
            case .forceQuit: device.forceQuit(bundle)
            }
        case .online(let on):
            device.setOnline(on)
        case .authorization(let settings):
            detail = settings.status.rawValue
            device.setNotificationSettings(settings, for: bundle)
        case .install:
            guard let app = world.declaration.apps.first(where: { $0.bundleID == bundle }) else {
                throw .harness(
                    type: "world", message: "no app '\(bundle)' in the world", detail: "step at \(step.range)")
            }
            device.setUp(app)
        case .uninstall: device.perform { (s: inout DeviceState, now: Date) in s.uninstall(bundle, now: now) }
        case .register: device.registerForRemoteNotifications(bundle)
        case .tap(let sel):
            let id = try notification(sel)
            detail = id
            try interact { () throws(InteractionError) in try device.tap(id) }
        case .chooseAction(let actionID, let sel):
            let id = try notification(sel)
            detail = "\(actionID) on \(id)"
            try interact { () throws(InteractionError) in try device.chooseAction(actionID, on: id) }
        case .dismiss(let sel):
            let id = try notification(sel)
            detail = id
            try interact { () throws(InteractionError) in try device.dismiss(id) }
        case .expand(let sel):
            let id = try notification(sel)
            detail = id
            try interact { () throws(InteractionError) in
                try device.perform { (s: inout DeviceState, now: Date) throws(InteractionError) in
                    try s.expand(id, now: now)
                }.events
            }
        case .quickAction(let type):
            detail = type
            device.performQuickAction(bundle, type: type)
        case .back: device.pressBack(bundle)
        case .answerAlert(let button):
            detail = button
            guard device.snapshot.apps[bundle]?.router.alert != nil else {
                throw fail(
                    "no alert on screen to answer", expected: "an alert with a '\(button)' button", actual: "no alert")
            }
            guard device.answerAlert(bundle, button: button).isEmpty == false else {
                let buttons = device.snapshot.apps[bundle]?.router.alert?.alert.buttons ?? []
                throw fail(
                    "the alert has no '\(button)' button", expected: button, actual: buttons.joined(separator: ", "))
            }
        case .logIn: device.logIn(bundle)
        case .logOut: device.perform { (s: inout DeviceState, _: Date) in s.logOut(bundle) }
        case .wait(let duration):
            detail = "\(duration)"
            let (s, a) = duration.components
            world.clock.advance(by: Double(s) + Double(a) / 1e18)
        case .loadPage, .followLink:
            let web: WebView
            do { web = try world.web(fixtureCAPath: context.environment.fixtureCAPath) } catch {
                throw .harness(type: "world", message: "cannot start the web view: \(error)", detail: "\(error)")
            }
            let outcome: WebNavigationOutcome
            do {
                if case .followLink(let t) = action {
                    let link = try context.render(t, world: world)
                    detail = link
                    outcome = try await device.followLink(bundle, link, with: web)
                } else {
                    outcome = try await device.loadWebView(bundle, with: web)
                }
            } catch {
                throw fail("\(step.keyword) failed: \(error)", expected: "a page to load", actual: "\(error)")
            }
            if case .failed(let f) = outcome, case .couldNotConnect = f {
                throw .harness(type: "page", message: "page unreachable: \(f)", detail: "step at \(step.range)")
            }
        }
        context.transcript.step(step, detail)
    }
}
