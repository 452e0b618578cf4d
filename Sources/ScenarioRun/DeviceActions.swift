import DeviceSimulator
import Foundation
import PushModel
import ScenarioChecks
import SuiteFormat

/// Device and user steps, one path for both phones (where they differ: DeviceActions+Platform.swift). Every step
/// `serve`'s control endpoint also has is a `DeviceSimulator.DeviceAction` applied by `HostedDevice.apply(_:)`;
/// web steps go through the phone's `perform(_:with:)`.
enum DeviceActions {
    static func perform(_ step: DeviceStep, _ context: Step, world: ScenarioWorld, run: inout RunContext)
        async throws(StepStop)
    {
        guard let d = world.device(context.device) else {
            throw .harness(
                kind: .world, message: "no device '\(context.device ?? "")'", detail: "step at \(context.range)")
        }
        let bundle = world.bundleID(on: d, context.app) ?? ""
        if case .wait(let duration) = step {
            run.trace.add(
                TraceEvent(.note, from: .runner, to: .runner, label: "wait \(duration)", stepLine: context.range.line))
            let (s, a) = duration.components
            world.clock.advance(by: Double(s) + Double(a) / 1e18)
            // What the time made due on the Android phones (Doze's maintenance windows) happens now.
            for d in world.devices { d.android?.advanceTime() }
            run.transcript.step(context, "\(duration)")
            return
        }
        func fail(_ message: String, expected: String, actual: String, on hop: TraceHop = .device) -> StepStop {
            .failure(
                AssertionFailure(
                    message: message, expected: expected, actual: actual, file: context.range.file,
                    line: context.range.line, column: context.range.column,
                    events: d.renderedEvents(last: 12), focus: TraceFocus(hop)))
        }
        func arrow(_ kind: TraceEvent.Kind, _ from: TraceHop, _ to: TraceHop, _ label: String) -> TraceEvent {
            TraceEvent(
                kind, from: from, to: to, label: label, device: world.devices.count > 1 ? d.name : nil,
                stepLine: context.range.line)
        }
        func refused(_ error: DeviceActionError, alertButtons: () -> [String] = { [] }) -> StepStop {
            failure(error, keyword: context.keyword, alertButtons: alertButtons) { fail($0, expected: $1, actual: $2) }
        }
        var detail = ""
        switch step {
        case .action(let action):
            if let only = action.onlyOn, only != d.platform {
                throw refused(.notOnThisPlatform(action: context.keyword, platform: d.platform))
            }
            // A suite's `latest` is the step's app's latest (any app's without `app:`).
            func latest() throws(StepStop) -> String {
                guard let id = d.latestNotificationID(bundle, anyApp: context.app == nil) else {
                    let shown = d.shownNotifications
                    throw fail(
                        "no notification to \(context.keyword) in \(shown.place)", expected: shown.expected,
                        actual: shown.empty)
                }
                return id
            }
            let action = try renderActivityChannel(action, world: world, run: run, range: context.range)
            let actions = try userActions(action, bundle: bundle, latest: latest)
            if case .answerAlert(_, let button) = action, d.alertShowing(bundle) == false {
                throw fail(
                    "no alert on screen to answer", expected: "an alert with a '\(button)' button", actual: "no alert")
            }
            detail = actions.last.map { Self.detail($0, keyword: context.keyword) } ?? ""
            run.trace.add(arrow(.action, .runner, .device, context.keyword + (detail.isEmpty ? "" : " " + detail)))
            for a in actions {
                do throws(DeviceActionError) { try d.apply(a) } catch {
                    throw refused(error, alertButtons: { d.alertButtons(bundle) })
                }
            }
        case .install:
            let setUp = try d.setUpStep(bundle, world: world, range: context.range)
            run.trace.add(arrow(.action, .runner, .device, "install \(bundle)"))
            setUp()
        case .wait: break
        case .openLink(let t):
            guard d.platform == .android else {
                throw refused(.notOnThisPlatform(action: context.keyword, platform: d.platform))
            }
            let uri = try run.render(t, world: world)
            detail = uri
            run.trace.add(arrow(.action, .runner, .device, "open_link \(uri)"))
            do throws(DeviceActionError) { try d.apply(.openLink(uri)) } catch { throw refused(error) }
        case .loadPage, .followLink:
            let web: WebView
            do { web = try world.web(fixtureCAPath: run.environment.fixtureCAPath) } catch {
                throw .harness(kind: .world, message: "cannot start the web view: \(error)", detail: "\(error)")
            }
            var webAction = WebAction.loadPage(app: bundle)
            if case .followLink(let t) = step {
                let link = try run.render(t, world: world)
                detail = link
                webAction = .followLink(link, app: bundle)
                run.trace.add(arrow(.action, .runner, .webView, "\(context.keyword) \(link)"))
            } else {
                run.trace.add(arrow(.navigation, .router, .webView, "load " + d.topURL(bundle)))
            }
            let outcome: WebNavigationOutcome
            do throws(WebViewStepError) { outcome = try await d.perform(webAction, with: web) } catch {
                throw fail(
                    "\(context.keyword) failed: \(error)", expected: "a page to load", actual: "\(error)", on: .webView)
            }
            if case .failed(let f) = outcome, case .couldNotConnect = f {
                throw .harness(kind: .page, message: "page unreachable: \(f)", detail: "step at \(context.range)")
            }
        }
        run.transcript.step(context, detail)
    }

    /// What a suite step does as control-endpoint actions on `bundle`: the app is always named, a
    /// `latest` notification is resolved by `latest`, and `background` / `suspend` launch the app first
    /// (a suite moves a running app, as a user would).
    static func userActions(
        _ action: DeviceAction, bundle: String, latest: () throws(StepStop) -> String
    ) throws(StepStop) -> [DeviceAction] {
        func ref(_ r: NotificationRef) throws(StepStop) -> NotificationRef {
            if case .latest = r { return .id(try latest()) }
            return r
        }
        switch action {
        case .launch: return [.launch(app: bundle)]
        case .background: return [.launch(app: bundle), .background(app: bundle)]
        case .suspend: return [.launch(app: bundle), .suspend(app: bundle)]
        case .terminate: return [.terminate(app: bundle)]
        case .forceQuit: return [.forceQuit(app: bundle)]
        case .reboot, .online: return [action]
        case .register: return [.register(app: bundle)]
        case .uninstall: return [.uninstall(app: bundle)]
        case .authorize(_, let settings): return [.authorize(app: bundle, settings)]
        case .tap(let r): return [.tap(try ref(r))]
        case .chooseAction(let id, let r): return [.chooseAction(id, on: try ref(r))]
        case .dismiss(let r): return [.dismiss(try ref(r))]
        case .expand(let r): return [.expand(try ref(r))]
        case .back: return [.back(app: bundle)]
        case .swipeBack: return [.swipeBack(app: bundle)]
        case .answerAlert(_, let button): return [.answerAlert(app: bundle, button: button)]
        case .logIn: return [.logIn(app: bundle)]
        case .logOut: return [.logOut(app: bundle)]
        case .quickAction(_, let type): return [.quickAction(app: bundle, type: type)]
        case .forceStop: return [.forceStop(app: bundle)]
        case .clearData: return [.clearData(app: bundle)]
        case .doze, .lock, .openLink: return [action]
        case .permission(_, let granted): return [.permission(app: bundle, granted: granted)]
        case .startActivity(_, let request): return [.startActivity(app: bundle, request)]
        }
    }

    /// The step's failure for an action the device refused.
    static func failure(
        _ error: DeviceActionError, keyword: String, alertButtons: () -> [String],
        _ fail: (String, String, String) -> StepStop
    ) -> StepStop {
        switch error {
        case .noAlertShowing(_, let button):
            return fail("the alert has no '\(button)' button", button, alertButtons().joined(separator: ", "))
        case .interaction(let e):
            return fail("\(keyword) failed: \(e.description)", "the interaction to be possible", e.description)
        case .noSuchApp:
            return fail("\(keyword) failed: \(error.description)", "an installed app", error.description)
        case .notOnThisPlatform:
            return fail("\(keyword) failed: \(error.description)", "an action of this phone", error.description)
        case .noActivityForLink:
            return fail("\(keyword) failed: \(error.description)", "an activity for the link", error.description)
        case .noSuchNotification:
            return fail(
                "\(keyword) failed: \(error.description)", "a notification in Notification Center", error.description)
        }
    }

    /// What the transcript shows after the step keyword.
    static func detail(_ action: DeviceAction, keyword: String) -> String {
        switch action {
        case .tap(.id(let id)), .dismiss(.id(let id)), .expand(.id(let id)): return id
        case .chooseAction(let a, .id(let id)): return "\(a) on \(id)"
        case .authorize(_, let settings): return settings.status.rawValue
        case .quickAction(_, let type): return type
        case .permission(_, let granted): return granted ? "POST_NOTIFICATIONS granted" : "POST_NOTIFICATIONS denied"
        case .answerAlert(_, let button): return button
        case .launch where keyword == "state": return AppState.foreground.rawValue
        case .background where keyword == "state": return AppState.background.rawValue
        case .suspend where keyword == "state": return AppState.suspended.rawValue
        case .terminate where keyword == "state": return AppState.notRunning.rawValue
        case .forceQuit where keyword == "state": return AppState.forceQuit.rawValue
        default: return ""
        }
    }
}
