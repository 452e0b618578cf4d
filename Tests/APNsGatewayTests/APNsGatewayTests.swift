import Testing
@testable import APNsGateway

@Test func APNsGatewayBuilds() {}
