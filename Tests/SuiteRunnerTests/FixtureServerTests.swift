import Foundation
import PushcheckTestSupport
import Testing
@testable import SuiteRunner

/// The fixture web server against real clients: curl over HTTP/1.1, h2c, HTTPS with h2 via ALPN.
@Suite(.serialized) struct FixtureServerTests {
    static func withServer(_ body: (FixtureServer, TempDirectory) throws -> Void) throws {
        let dir = try TempDirectory("fixture-pages")
        defer { dir.remove() }
        try dir.write("index.html", "<html><head><title>Home</title></head><body>home page</body></html>")
        try FileManager.default.createDirectory(atPath: dir.file("docs"), withIntermediateDirectories: true)
        try dir.write("docs/index.html", "<title>Docs</title>")
        try dir.write("data.json", "{\"ok\":true}")
        try dir.write("../fixture-secret-\(getpid()).txt", "secret")
        defer { try? FileManager.default.removeItem(atPath: dir.file("../fixture-secret-\(getpid()).txt")) }
        let server = try FixtureServer(pagesDirectory: dir.path)
        defer { server.stop() }
        try body(server, dir)
    }

    /// `curl -s -o body -w '%{http_code} %{http_version} %{content_type}'`.
    static func curl(_ arguments: [String]) throws -> (code: String, version: String, type: String, body: String) {
        let out = try runTool(
            "curl",
            ["-s", "-S", "--max-time", "10", "-w", "\n%{http_code} %{http_version} %{content_type}"] + arguments)
        #expect(out.status == 0, "curl \(arguments): \(out)")
        var lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let meta = lines.removeLast().split(separator: " ", maxSplits: 2).map(String.init)
        return (meta[0], meta.count > 1 ? meta[1] : "", meta.count > 2 ? meta[2] : "", lines.joined(separator: "\n"))
    }

    /// h2spec (HTTP/2 conformance, 146 cases) against both listeners: h2 over TLS and h2c.
    @Test(.disabled(if: H2Spec.skipReason != nil, Comment(rawValue: H2Spec.skipReason ?? "")))
    func bothListenersPassAllOfH2Spec() throws {
        _ = try H2Spec.binary()
        try Self.withServer { server, _ in
            for url in [server.httpsURL, server.httpURL] {
                let result = try H2Spec.run(url)
                #expect(result.passed, "h2spec against the fixture server at \(url):\n\(result)")
            }
        }
    }

    @Test func servesPagesOverEveryProtocol() throws {
        try Self.withServer { server, _ in
            let h1 = try Self.curl(["--http1.1", server.httpURL + "/"])
            #expect(h1.code == "200" && h1.version == "1.1" && h1.type == "text/html; charset=utf-8")
            #expect(h1.body.contains("home page"))
            let h2c = try Self.curl(["--http2-prior-knowledge", server.httpURL + "/data.json"])
            #expect(
                h2c.code == "200" && h2c.version == "2" && h2c.type == "application/json" && h2c.body == "{\"ok\":true}"
            )
            let h2 = try Self.curl(["--http2", "--cacert", server.caPath, server.httpsURL + "/docs/"])
            #expect(h2.code == "200" && h2.version == "2" && h2.body.contains("Docs"))
            let tls1 = try Self.curl(["--http1.1", "--cacert", server.caPath, server.httpsURL + "/docs/index.html"])
            #expect(tls1.code == "200" && tls1.version == "1.1")
        }
    }

    @Test func missingPagesAndTraversalAreRefused() throws {
        try Self.withServer { server, _ in
            let missing = try Self.curl([server.httpURL + "/nope.html"])
            #expect(missing.code == "404" && missing.body.contains("<title>404 Not Found</title>"))
            // The 404 page names the file it looked for (and the directory), so a missing page is not
            // mistaken for a bad URL in the push.
            #expect(missing.body.contains("no file \(server.pagesDirectory)/nope.html"))
            let secret = "fixture-secret-\(getpid()).txt"
            for path in ["/../" + secret, "/%2e%2e/" + secret, "/docs/..%2f..%2f" + secret] {
                let result = try Self.curl(["--path-as-is", server.httpURL + path])
                #expect(result.code == "403", "\(path)")
                #expect(!result.body.contains("secret"))
            }
        }
    }

    @Test func knobsHeadAndRedirects() throws {
        try Self.withServer { server, _ in
            let head = try runTool("curl", ["-s", "-I", "--max-time", "10", server.httpURL + "/data.json"])
            #expect(head.stdout.lowercased().contains("content-length: 11"))
            let status = try Self.curl([server.httpURL + "/index.html?status=503"])
            #expect(status.code == "503" && status.body.contains("home page"))
            let route = try Self.curl(["--http2", "--cacert", server.caPath, server.httpsURL + "/__status/500"])
            #expect(route.code == "500" && route.body.contains("500 Internal Server Error"))
            let chain = try Self.curl(["-L", server.httpURL + "/__redirect?to=/docs/&n=3"])
            #expect(chain.code == "200" && chain.body.contains("Docs"))
            let hops = try runTool(
                "curl",
                ["-s", "-L", "-o", "/dev/null", "-w", "%{num_redirects}", server.httpURL + "/__redirect?to=/&n=3"])
            #expect(hops.stdout == "3")
            let method = try Self.curl(["-X", "POST", server.httpURL + "/"])
            #expect(method.code == "405")
            let started = Date()
            let slow = try Self.curl([server.httpURL + "/data.json?delay=300"])
            #expect(slow.code == "200")
            #expect(Date().timeIntervalSince(started) >= 0.3)
        }
    }

    @Test func caFileIsRemovedOnStop() throws {
        let server = try FixtureServer(pagesDirectory: "/nonexistent-pages")
        #expect(FileManager.default.fileExists(atPath: server.caPath))
        let missing = try Self.curl(["--cacert", server.caPath, server.httpsURL + "/"])
        #expect(missing.code == "404")
        server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.caPath))
    }
}

/// `pushcheck run <one suite file>` serves the `pages/` of that file's suite root.
@Suite struct DefaultPagesDirectoryTests {
    @Test func aSuiteFileFindsThePagesOfItsSuiteRoot() throws {
        let dir = try TempDirectory("pages-root")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("pages"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.file("nested"), withIntermediateDirectories: true)
        try dir.write("a.yaml", "scenarios: []")
        try dir.write("nested/b.yaml", "scenarios: []")
        let root = (dir.path as NSString).standardizingPath
        #expect(RunConfiguration.defaultPagesDirectory(paths: [dir.file("a.yaml")]) == root + "/pages")
        #expect(RunConfiguration.defaultPagesDirectory(paths: [dir.file("nested/b.yaml")]) == root + "/pages")
        #expect(RunConfiguration.defaultPagesDirectory(paths: [dir.path]) == root + "/pages")
        #expect(RunConfiguration.defaultPagesDirectory(paths: ["/nonexistent/x.yaml"]) == "Suites/pages")
    }

    /// A suite file named relative to the working directory (`pushcheck run smoke.json` where there is no
    /// `pages/`) used to trap in Foundation (`deletingLastPathComponent` of ""): it falls back instead.
    @Test func aSuiteFileInTheWorkingDirectoryWithoutPagesFallsBack() {
        #expect(!FileManager.default.fileExists(atPath: "pages"))
        #expect(RunConfiguration.defaultPagesDirectory(paths: ["no-such-suite.yaml"]) == "Suites/pages")
        #expect(RunConfiguration.defaultPagesDirectory(paths: ["./no-such-suite.yaml"]) == "Suites/pages")
        #expect(RunConfiguration.defaultPagesDirectory(paths: ["."]) == "Suites/pages")
    }
}
