import DeviceSimulator
import PushModel
import SuiteFormat
import Testing

/// The values a run keeps per scenario, or copies per event, stay small: a suite's steps live for the whole run,
/// a scenario's trace until the reports are written, and an installed app is copied with every device step. Their
/// rarely set or never changed parts are kept behind one reference (`Boxed`, `indirect`); a field added inline
/// that grows one of them past its bound shows here (the runner bench's peak RSS grew 57 KB a scenario before).
@Suite struct RetainedLayoutTests {
    @Test func stepsTraceEventsAndInstalledAppsStaySmall() {
        #expect(MemoryLayout<Step>.stride <= 160, "Step was 808 bytes with its action and expectation inline")
        #expect(MemoryLayout<Step.Action>.stride <= 16, "a SendStep is 448 bytes: keep Step.Action indirect")
        #expect(MemoryLayout<TraceEvent>.stride <= 256, "TraceEvent was 576 bytes with its pictures inline")
        #expect(MemoryLayout<InstalledApp>.stride <= 600, "InstalledApp was 1,032 bytes with its declaration inline")
    }
}
