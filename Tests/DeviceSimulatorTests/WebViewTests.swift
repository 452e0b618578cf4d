import Dispatch
import Foundation
@testable import HTTPClient
import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Pages served by a real local server (the project's HTTPServer: TLS+ALPN h2, and cleartext HTTP/1.1).
struct PageHandler: HTTPHandler {
    static func html(_ s: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPField("content-type", "text/html; charset=utf-8")], body: Array(s.utf8))
    }

    func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        switch request.path {
        case "/page":
            responder.respond(
                Self.html(
                    """
                    <!DOCTYPE html><html><head><title>Swift Evolution</title><style>p{}</style></head>
                    <body><h1>Proposals</h1><p>Served over \(request.version.rawValue).</p>
                    <a href="https://apps.apple.com/jp/app/id123">App Store</a>
                    <a href="/next" target="_blank">Next page</a>
                    <a href="tel:0312345678">Call</a>
                    <script>var hidden = 1;</script></body></html>
                    """))
        case "/next": responder.respond(Self.html("<html><head><title>Next</title></head><body>second</body></html>"))
        case "/redirect": responder.respond(HTTPResponse(status: 302, headers: [HTTPField("location", "/page")]))
        case "/loop": responder.respond(HTTPResponse(status: 302, headers: [HTTPField("location", "/loop")]))
        case "/json":
            responder.respond(
                HTTPResponse(
                    status: 200, headers: [HTTPField("content-type", "application/json")], body: Array("{}".utf8)))
        case "/broken":
            responder.respond(
                Self.html("<html><head><title>Broken</title><body><div><p>unclosed <b>bold</div></i>&nbsp"))
        case "/empty": responder.respond(Self.html(""))
        case "/ja-header":
            responder.respond(Self.html("<html><head><title>関モバ</title></head><body>通知を試した</body></html>"))
        case "/ja-meta":
            responder.respond(
                HTTPResponse(
                    status: 200, headers: [HTTPField("content-type", "text/html")],
                    body: Array(
                        "<html><head><meta charset=\"utf-8\"><title>関モバ</title></head><body>通知</body></html>".utf8)))
        case "/ja-bare":
            responder.respond(
                HTTPResponse(
                    status: 200, headers: [HTTPField("content-type", "text/html")],
                    body: Array(
                        "<html><head><title>関モバ</title></head><body>通知</body></html>".utf8)))
        case "/sjis":
            // "テスト" in Shift_JIS, declared in the header.
            responder.respond(
                HTTPResponse(
                    status: 200, headers: [HTTPField("content-type", "text/html; charset=Shift_JIS")],
                    body: Array("<html><head><title>".utf8) + [0x83, 0x65, 0x83, 0x58, 0x83, 0x67]
                        + Array("</title></head><body>x</body></html>".utf8)))
        case "/sjis-meta":
            // "テスト" in Shift_JIS, declared only by the page's <meta>.
            responder.respond(
                HTTPResponse(
                    status: 200, headers: [HTTPField("content-type", "text/html")],
                    body: Array(
                        "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\"><title>"
                            .utf8)
                        + [0x83, 0x65, 0x83, 0x58, 0x83, 0x67] + Array("</title></head><body>x</body></html>".utf8)))
        case "/big":
            responder.respond(
                Self.html(
                    "<html><head><title>Big</title></head><body>" + String(repeating: "<p>関モバ</p>", count: 10_000)))
        case "/slow":
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) {
                responder.respond(Self.html("<title>late</title>"))
            }
        default:
            responder.respond(
                HTTPResponse(
                    status: 404, headers: [HTTPField("content-type", "text/html")],
                    body: Array("<title>Not Found</title>".utf8)))
        }
    }
}

/// One server with a TLS listener and a cleartext one, and the CA that signed the TLS certificate.
final class PageServer: Sendable {
    let server: HTTPServer
    let https: String
    let http: String
    let caPEM: String

    init() throws {
        let ca = try CertificateAuthority.generate(commonName: "pushcheck device test CA")
        let leaf = try ca.issueServerCertificate()
        server = HTTPServer(
            listeners: [
                ListenerConfiguration(
                    name: "tls",
                    tls: TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM),
                    handler: PageHandler()),
                ListenerConfiguration(name: "plain", handler: PageHandler()),
            ], loops: 1)
        let bound = try server.start()
        https = bound.first { $0.name == "tls" }!.url
        http = bound.first { $0.name == "plain" }!.url
        caPEM = ca.certificatePEM
    }

    func webView(trusting: Bool = true, timeout: Duration = .seconds(5), redirectLimit: Int = 10) throws -> WebView {
        let roots = trusting ? try TrustRoots.pem([Array(caPEM.utf8)]) : try TrustRoots.pem([])
        return try WebView(trustRoots: roots, timeout: timeout, redirectLimit: redirectLimit)
    }

    deinit { server.shutdown(grace: .milliseconds(100)) }
}

@Suite(.serialized) struct WebViewTests {
    @Test func policyTable() {
        let p = WebViewPolicy()
        #expect(p.decide("https://apps.apple.com/jp/app/id1") == .openExternally)
        #expect(p.decide("https://itunes.apple.com/app/x") == .openExternally)
        #expect(p.decide("https://example.com/") == .load)
        #expect(p.decide("http://example.com/", targetBlank: true) == .load)
        #expect(p.decide("tel:0312345678") == .cancel(reason: "scheme 'tel' is not loaded by the web view"))
        #expect(WebViewPolicy(openOtherSchemesExternally: true).decide("mailto:a@b.c") == .openExternally)
        #expect(WebViewPolicy(externalHosts: ["example.org"]).decide("https://www.example.org/x") == .openExternally)
    }

    @Test func seed001TapRoutesToDetailAndLoadsThePageOverHTTP2() async throws {
        let server = try PageServer()
        let web = try server.webView()
        defer { web.shutdown() }
        let (d, _) = Fixture.ready(Fixture.app(navigation: SeedTests.nav001), state: .suspended)
        let payload = Fixture.json(#"{"aps":{"alert":{"title":"Swift Evolution"}},"url":"\#(server.https)/redirect"}"#)
        d.deliver(Fixture.push(payload))
        try d.tap("n1")
        let outcome = try await d.loadWebView(Fixture.bundleID, with: web)
        guard case .loaded(let page) = outcome else {
            Issue.record("expected a page, got \(outcome)")
            return
        }
        #expect(page.status == 200)
        #expect(page.httpVersion == "HTTP/2")
        #expect(page.finalURL == server.https + "/page")
        #expect(page.redirects == [server.https + "/page"])
        #expect(
            page.redirectChain == [
                ClientRedirect(status: 302, from: server.https + "/redirect", to: server.https + "/page")
            ])
        #expect(page.source.contains("<h1>Proposals</h1>") && page.source.contains("<script>") && !page.sourceTruncated)
        #expect(page.title == "Swift Evolution")
        #expect(page.text.contains("Proposals Served over HTTP/2."))
        #expect(!page.text.contains("hidden"))
        #expect(page.links.map(\.href) == ["https://apps.apple.com/jp/app/id123", "/next", "tel:0312345678"])
        #expect(page.wellFormed)
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.stack.last?.url == server.https + "/page")
        #expect(d.events.last?.kind == .webView(outcome))

        // App Store link: opened externally, navigation cancelled, the page stays.
        let store = try await d.followLink(Fixture.bundleID, "App Store", with: web)
        #expect(store == .openedExternally(url: "https://apps.apple.com/jp/app/id123"))
        #expect(
            d.events.last?.kind
                == .urlOpened(url: "https://apps.apple.com/jp/app/id123", by: "web view policy (system)"))
        // Other schemes: cancelled.
        guard case .cancelled = try await d.followLink(Fixture.bundleID, "tel:0312345678", with: web) else {
            Issue.record("tel: should be cancelled")
            return
        }
        // target=_blank loads in place.
        guard case .loaded(let next) = try await d.followLink(Fixture.bundleID, "Next page", with: web) else {
            Issue.record("_blank link should load in place")
            return
        }
        #expect(next.title == "Next")
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.stack.last?.url == server.https + "/next")
        await #expect(throws: WebViewStepError.self) { try await d.followLink(Fixture.bundleID, "nope", with: web) }
    }

    @Test func http1OverCleartext() async throws {
        let server = try PageServer()
        let web = try server.webView()
        defer { web.shutdown() }
        guard case .loaded(let page) = await web.navigate(to: server.http + "/page") else {
            Issue.record("cleartext page should load")
            return
        }
        #expect(page.httpVersion == "HTTP/1.1")
        #expect(page.text.contains("Served over HTTP/1.1."))
    }

    @Test func badPagesAreRecordedNotCrashes() async throws {
        let server = try PageServer()
        let web = try server.webView(timeout: .seconds(1), redirectLimit: 3)
        defer { web.shutdown() }
        // An error status is a page WKWebView renders (no navigationResponse handler: seed 001).
        guard case .loaded(let notFound) = await web.navigate(to: server.https + "/missing") else {
            Issue.record("a 404 page is still a page")
            return
        }
        #expect(notFound.status == 404 && notFound.title == "Not Found")
        #expect(
            await web.navigate(to: server.https + "/json")
                == .failed(.notHTML(url: server.https + "/json", contentType: "application/json")))
        #expect(
            await web.navigate(to: server.https + "/empty") == .failed(.unparsableHTML(url: server.https + "/empty")))
        guard case .failed(.tooManyRedirects(_, 3)) = await web.navigate(to: server.https + "/loop") else {
            Issue.record("redirect loop should stop at the limit")
            return
        }
        guard case .failed(.timeout) = await web.navigate(to: server.https + "/slow") else {
            Issue.record("slow page should time out")
            return
        }
        guard case .loaded(let broken) = await web.navigate(to: server.https + "/broken") else {
            Issue.record("broken HTML should still load")
            return
        }
        #expect(broken.title == "Broken")
        #expect(!broken.wellFormed)
        #expect(broken.text.contains("unclosed bold"))
    }

    @Test(arguments: ["/ja-header", "/ja-meta", "/ja-bare", "/sjis", "/sjis-meta"])
    func japanesePagesDecodeByHeaderMetaOrUTF8Default(path: String) async throws {
        let server = try PageServer()
        let web = try server.webView()
        defer { web.shutdown() }
        guard case .loaded(let page) = await web.navigate(to: server.http + path) else {
            Issue.record("\(path) should load")
            return
        }
        let title = path.hasPrefix("/sjis") ? "テスト" : "関モバ"
        #expect(page.title == title)
        // The document kept for the report's picture of the page reads as the parser read it.
        #expect(page.source.contains("<title>\(title)</title>"), "\(page.source)")
    }

    @Test func aLongPageKeepsItsFirst64KiBForTheReport() async throws {
        let server = try PageServer()
        let web = try server.webView()
        defer { web.shutdown() }
        guard case .loaded(let page) = await web.navigate(to: server.http + "/big") else {
            Issue.record("/big should load")
            return
        }
        #expect(page.sourceTruncated && page.source.hasPrefix("<html><head><title>Big</title>"))
        #expect(page.source.utf8.count <= WebPage.sourceLimit)
        #expect(page.source.utf8.count > WebPage.sourceLimit - 4)
        #expect(!page.source.contains("\u{FFFD}"), "a character cut in half is left out, not replaced")
        #expect(page.text.contains("関モバ"))
    }

    @Test func untrustedCertificateIsATLSFailure() async throws {
        let server = try PageServer()
        let web = try server.webView(trusting: false)
        defer { web.shutdown() }
        guard case .failed(.tlsFailure) = await web.navigate(to: server.https + "/page") else {
            Issue.record("a server signed by an unknown CA must fail TLS")
            return
        }
    }

    @Test func noURLOnScreenIsAStepError() async throws {
        let server = try PageServer()
        let web = try server.webView()
        defer { web.shutdown() }
        let (d, _) = Fixture.ready(state: .foreground)
        await #expect(throws: WebViewStepError.noWebViewOnScreen(bundleID: Fixture.bundleID)) {
            try await d.loadWebView(Fixture.bundleID, with: web)
        }
    }
}
