import APNsGateway
import Testing
@testable import Scenarios

/// pushcheck's own sends reach each world's gateway under `/w/<id>` on one process-wide server.
@Suite struct SharedGatewayServerTests {
    @Test func splitsTheWorldPrefix() {
        #expect(WorldRoutingHandler.split("/w/17/3/device/abc")! == (17, "/3/device/abc"))
        #expect(WorldRoutingHandler.split("/w/3")! == (3, "/"))
        #expect(WorldRoutingHandler.split("/3/device/abc") == nil)
        #expect(WorldRoutingHandler.split("/w/x/3/device/abc") == nil)
    }

    @Test func worldsAreMountedAndUnmounted() throws {
        let routes = WorldRoutes()
        let a = routes.add(try APNsGateway()), b = routes.add(try APNsGateway())
        #expect(a != b)
        #expect(routes.gateway(a) != nil && routes.gateway(b) != nil)
        routes.remove(a)
        #expect(routes.gateway(a) == nil, "a finished scenario's prefix answers 404")
        #expect(routes.gateway(b) != nil)
    }
}
