import Testing

@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat

/// A send without an `apns-id` gets one from the run's seed, the scenario and the send's index: pinned here so the
/// ids in reports stay the same from run to run and release to release.
@Suite struct SeededAPNsIDTests {
    @Test func seededIDsArePinned() {
        #expect(StepRunner.deterministicUUID(42, "checkout/first push", 0) == "1433a951-becf-43b0-9425-8449b9b2bd84")
        #expect(StepRunner.deterministicUUID(0, "s", 7) == "6edad3d5-9481-4da5-aa5d-d0a040b9eec7")
        #expect(StepRunner.deterministicUUID(.max, "a b", 123) == "f8d930bf-02f8-4b31-971e-009b2b14bfcf")
    }
}
