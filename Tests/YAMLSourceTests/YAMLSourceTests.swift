import Testing
@testable import YAMLSource

@Test func YAMLSourceBuilds() {}
