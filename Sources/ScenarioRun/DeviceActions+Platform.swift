import DeviceBridge
import DeviceSimulator
import Foundation
import PushModel
import ScenarioChecks
import SuiteFormat

extension DeviceActions {
    /// The device steps on an Android phone: the same `DeviceAction`s (resolved the same way by `userActions`)
    /// applied through `HostedDevice.apply`, `install` with the world's Android app, the web steps on the top
    /// activity's WebView.
    static func performAndroid(
        _ step: DeviceStep, _ context: Step, device d: HostedDevice, bundle: String, world: ScenarioWorld,
        run: inout RunContext
    ) async throws(StepStop) {
        guard let device = d.android else { return }
        func fail(_ message: String, expected: String, actual: String, on hop: TraceHop = .device) -> StepStop {
            .failure(
                AssertionFailure(
                    message: message, expected: expected, actual: actual, file: context.range.file,
                    line: context.range.line, column: context.range.column,
                    events: AndroidObservation.render(Array(device.events.suffix(12))), focus: TraceFocus(hop)))
        }
        func arrow(_ kind: TraceEvent.Kind, _ from: TraceHop, _ to: TraceHop, _ label: String) -> TraceEvent {
            TraceEvent(
                kind, from: from, to: to, label: label, device: world.devices.count > 1 ? d.name : nil,
                stepLine: context.range.line)
        }
        var detail = ""
        switch step {
        case .action(let action):
            if action.onlyOn == .ios {
                throw failure(
                    .notOnThisPlatform(action: context.keyword, platform: .android), keyword: context.keyword,
                    alertButtons: { [] }, { fail($0, expected: $1, actual: $2) })
            }
            func latest() throws(StepStop) -> String {
                let tray = device.snapshot.tray.filter { $0.packageName == bundle || context.app == nil }
                guard let last = tray.last else {
                    throw fail(
                        "no notification to \(context.keyword) in the tray", expected: "a posted notification",
                        actual: "the tray is empty (was the message shown? see the events)")
                }
                return last.id
            }
            let actions = try userActions(action, bundle: bundle, latest: latest)
            detail = actions.last.map { Self.detail($0, keyword: context.keyword) } ?? ""
            run.trace.add(arrow(.action, .runner, .device, context.keyword + (detail.isEmpty ? "" : " " + detail)))
            for a in actions {
                do throws(DeviceActionError) { try d.apply(a) } catch {
                    throw failure(error, keyword: context.keyword, alertButtons: { [] }) {
                        fail($0, expected: $1, actual: $2)
                    }
                }
            }
        case .install:
            guard let app = world.declaration.androidApps.first(where: { $0.packageName == bundle }) else {
                throw .harness(
                    kind: .world, message: "no Android app '\(bundle)' in the world", detail: "step at \(context.range)"
                )
            }
            run.trace.add(arrow(.action, .runner, .device, "install \(bundle)"))
            device.setUp(app)
        case .wait: break
        case .openLink(let t):
            let uri = try run.render(t, world: world)
            detail = uri
            run.trace.add(arrow(.action, .runner, .device, "open_link \(uri)"))
            do throws(DeviceActionError) { try d.apply(.openLink(uri)) } catch {
                throw failure(error, keyword: context.keyword, alertButtons: { [] }) {
                    fail($0, expected: $1, actual: $2)
                }
            }
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
                let url =
                    device.snapshot.apps[bundle]?.task.last?.router.stack.last?.url ?? "(no URL on the top screen)"
                run.trace.add(arrow(.navigation, .router, .webView, "load " + url))
            }
            let outcome: WebNavigationOutcome
            do throws(WebViewStepError) { outcome = try await device.perform(webAction, with: web) } catch {
                throw fail(
                    "\(context.keyword) failed: \(error)", expected: "a page to load", actual: "\(error)", on: .webView)
            }
            if case .failed(let f) = outcome, case .couldNotConnect = f {
                throw .harness(kind: .page, message: "page unreachable: \(f)", detail: "step at \(context.range)")
            }
        }
        run.transcript.step(context, detail)
    }
}
