import Foundation
import Testing
@testable import YAMLSource

@testable import DeviceSimulator

/// `WebAction`: the web step a suite and `serve`'s control endpoint share.
@Suite struct WebActionTests {
    static func decode(_ yaml: String) throws -> WebAction {
        try WebAction.decode(try YAMLMapping(try YAMLLoader.load(string: yaml, file: "action.yaml")))
    }

    @Test func decodesEveryForm() throws {
        #expect(try Self.decode("load_page: true") == .loadPage(app: nil))
        #expect(try Self.decode("load_page: com.example.app") == .loadPage(app: "com.example.app"))
        #expect(try Self.decode("{ load_page: true, app: com.example.app }") == .loadPage(app: "com.example.app"))
        #expect(try Self.decode("{ follow_link: Details, app: a.b }") == .followLink("Details", app: "a.b"))
        #expect(throws: SourceError.self) { try Self.decode("{ load_page: true, follow_link: x }") }
        #expect(throws: SourceError.self) { try Self.decode("{ follow_link: x, link: y }") }
    }

    @Test func appMustBeInstalled() async throws {
        let server = try PageServer()
        let web = try server.webView()
        defer { web.shutdown() }
        let (d, _) = Fixture.ready(state: .foreground)
        await #expect(throws: WebViewStepError.noSuchApp("com.other.app", installed: [Fixture.bundleID])) {
            try await d.perform(.loadPage(app: "com.other.app"), with: web)
        }
        // The only installed app is the default; with no URL on screen that is the next error.
        await #expect(throws: WebViewStepError.noWebViewOnScreen(bundleID: Fixture.bundleID)) {
            try await d.perform(.loadPage(app: nil), with: web)
        }
    }

    @Test func poolSharesOneEnginePerTrustSet() throws {
        let pool = WebViewPool()
        defer { pool.shutdown() }
        let a = try pool.engine(trusting: [], timeout: .seconds(5))
        #expect(try pool.engine(trusting: [], timeout: .seconds(5)) === a)
        #expect(try pool.engine(trusting: [], timeout: .seconds(6)) !== a)
    }
}
