import Testing
@testable import HTTPClient

@Test func HTTPClientBuilds() {}
