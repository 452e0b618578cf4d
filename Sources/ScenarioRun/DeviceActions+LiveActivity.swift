import DeviceSimulator
import SuiteFormat
import YAMLSource

extension DeviceActions {
    /// `start_activity: { channel: "${channel}" }`: the channel id a backend created earlier, resolved when the step
    /// runs (the rest of the request is literal).
    static func renderActivityChannel(
        _ action: DeviceAction, world: ScenarioWorld, run: RunContext, range: SourceRange
    )
        throws(StepStop) -> DeviceAction
    {
        guard case .startActivity(let app, var request) = action, case .channel(let text)? = request.pushType,
            text.contains("${")
        else { return action }
        let template: Template
        do { template = try Template(text, range: range) } catch {
            throw .harness(kind: .variable, message: "start_activity channel: \(error)", detail: text)
        }
        request.pushType = .channel(try run.render(template, world: world))
        return .startActivity(app: app, request)
    }
}
