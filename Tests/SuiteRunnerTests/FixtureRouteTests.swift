import Testing
@testable import SuiteRunner

@Suite struct FixtureRouteTests {
    @Test func pagesMapToFilesAndIndex() {
        #expect(
            FixtureRoute.decide(method: "GET", target: "/a/b.html").route
                == .file(relativePath: "a/b.html", status: 200))
        #expect(
            FixtureRoute.decide(method: "HEAD", target: "/").route == .file(relativePath: "index.html", status: 200))
        #expect(
            FixtureRoute.decide(method: "GET", target: "/docs/?x=1").route
                == .file(relativePath: "docs/index.html", status: 200))
    }

    @Test func traversalIsRefused() {
        for target in ["/../etc/passwd", "/a/%2e%2e/%2e%2e/etc/passwd", "/a/..%2f..%2fetc", "/a\\b", "/a%00b", "/%zz"] {
            guard case let .generated(status, _, _) = FixtureRoute.decide(method: "GET", target: target).route else {
                Issue.record("\(target) was not refused")
                continue
            }
            #expect(status == 403, "\(target)")
        }
    }

    @Test func knobs() {
        let slow = FixtureRoute.decide(method: "GET", target: "/p.html?delay=250&status=503")
        #expect(slow.delayMilliseconds == 250)
        #expect(slow.route == .file(relativePath: "p.html", status: 503))
        #expect(
            FixtureRoute.decide(method: "GET", target: "/?delay=99999999").delayMilliseconds
                == FixtureRoute.maxDelayMilliseconds)
        #expect(
            FixtureRoute.decide(method: "GET", target: "/__status/410").route
                == .generated(status: 410, title: "410 Gone", headers: [:]))
        // The reason phrases are the HTTP server's (HTTPResponse.reasonPhrase); an unlisted status says "Status".
        #expect(
            FixtureRoute.decide(method: "GET", target: "/__status/413").route
                == .generated(status: 413, title: "413 Payload Too Large", headers: [:]))
        #expect(
            FixtureRoute.decide(method: "GET", target: "/__status/418").route
                == .generated(status: 418, title: "418 Status", headers: [:]))
        #expect(FixtureRoute.decide(method: "GET", target: "/__status/abc").route == FixtureRoute.notFound)
        #expect(
            FixtureRoute.decide(method: "POST", target: "/").route
                == .generated(status: 405, title: "405 Method Not Allowed", headers: ["allow": "GET, HEAD"]))
    }

    @Test func redirectChains() {
        #expect(
            FixtureRoute.decide(method: "GET", target: "/__redirect?to=/done.html&n=3").route
                == .redirect(location: "/__redirect?to=/done.html&n=2"))
        #expect(
            FixtureRoute.decide(method: "GET", target: "/__redirect?to=%2Fdone.html%3Fa%3D1").route
                == .redirect(location: "/done.html?a=1"))
        #expect(FixtureRoute.decide(method: "GET", target: "/__redirect").route == .redirect(location: "/"))
    }

    @Test func contentTypes() {
        #expect(FixtureRoute.contentType(forPath: "/x/index.HTML") == "text/html; charset=utf-8")
        #expect(FixtureRoute.contentType(forPath: "a.json") == "application/json")
        #expect(FixtureRoute.contentType(forPath: "noext") == "application/octet-stream")
    }
}
