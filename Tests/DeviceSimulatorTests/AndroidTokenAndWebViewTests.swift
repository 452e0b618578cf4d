import Foundation
@testable import PushModel
import Synchronization
import Testing

@testable import DeviceSimulator

/// Tests/reference/android.md §8 (tokens: first start, reinstall, clear data, auto-init) and the WebView with real fetches.
@Suite(.serialized) struct AndroidTokenAndWebViewTests {
    /// A token service that records the requests and answers with a token made of the installation ID.
    final class Service: AndroidTokenService, AndroidRegistrationSink {
        let requests = Mutex<[AndroidTokenRequest]>([])
        let log = Mutex<[String]>([])
        let refuse: Bool
        init(refuse: Bool = false) { self.refuse = refuse }

        func fcmToken(for request: AndroidTokenRequest) -> Result<String, FirebaseTokenRefusal> {
            requests.withLock { $0.append(request) }
            if refuse {
                return .failure(FirebaseTokenRefusal("no Firebase project with sender ID \(request.senderID)"))
            }
            return .success(request.installationID + ":APA91bTEST")
        }
        func androidTokenIssued(_ token: String, request: AndroidTokenRequest) {
            log.withLock { $0.append("issued \(token)") }
        }
        func androidTokenInvalidated(_ token: String, at date: Date) {
            log.withLock { $0.append("invalidated \(token)") }
        }
        func androidDeviceOnlineChanged(tokens: [String], online: Bool) {
            log.withLock { $0.append("online \(online) \(tokens.count)") }
        }
    }

    /// The first start of an install asks Firebase and gets `onNewToken`; the request carries the
    /// google-services.json facts and a 22-character installation ID.
    @Test func tokenFromTheService() {
        let (d, _) = AndroidFixture.device()
        let service = Service()
        d.useTokenService(service)
        d.addRegistrationSink(service)
        d.install(AndroidFixture.app())
        #expect(service.requests.withLock { $0 }.isEmpty)  // stopped until launched: no token
        let events = try! d.launch(AndroidFixture.pkg)
        let r = try! #require(service.requests.withLock { $0.first })
        #expect(
            r.packageName == AndroidFixture.pkg && r.senderID == "123456789012"
                && r.appID.hasPrefix("1:123456789012:android:"))
        #expect(r.installationID.count == 22)
        #expect(AndroidFixture.callbacks(events) == ["applicationOnCreate", "onCreate", "onNewToken"])
        #expect(AndroidFixture.token(d) == r.installationID + ":APA91bTEST")
        #expect(service.log.withLock { $0 } == ["issued \(AndroidFixture.token(d))"])
    }

    /// Reinstall and clear data give a new installation and token; the old one is invalidated (UNREGISTERED at FCM).
    @Test(arguments: ["reinstall", "clear-data"])
    func newTokenAfter(_ how: String) {
        let (d, _) = AndroidFixture.device()
        let service = Service()
        d.useTokenService(service)
        d.addRegistrationSink(service)
        d.setUp(AndroidFixture.app())
        let old = AndroidFixture.token(d)
        if how == "reinstall" {
            d.uninstall(AndroidFixture.pkg)
            d.install(AndroidFixture.app())
        } else {
            d.clearData(AndroidFixture.pkg)
        }
        #expect(AndroidFixture.state(d) == .forceStopped)
        _ = try! d.launch(AndroidFixture.pkg)
        let new = AndroidFixture.token(d)
        #expect(new != old)
        #expect(service.log.withLock { $0 } == ["issued \(old)", "invalidated \(old)", "issued \(new)"])
        var stale = AndroidFixture.message(d)
        stale.token = old
        #expect(d.deliver(stale).result == .rejected(.tokenNotRegistered))
    }

    /// A refusal is logged and leaves the app without a token; auto-init off asks nothing; no service: seeded tokens.
    @Test func refusalAutoInitAndSeededTokens() {
        let (d, _) = AndroidFixture.device()
        d.useTokenService(Service(refuse: true))
        let events = d.setUp(AndroidFixture.app())
        #expect(events.contains { if case .tokenFailed = $0.kind { true } else { false } })
        #expect(d.snapshot.apps[AndroidFixture.pkg]?.fcmToken == nil)

        let (d2, _) = AndroidFixture.device()
        d2.setUp(AndroidFixture.app(autoInit: false))
        #expect(d2.snapshot.apps[AndroidFixture.pkg]?.fcmToken == nil)

        let (a, _) = AndroidFixture.device(), (b, _) = AndroidFixture.device()
        a.setUp(AndroidFixture.app())
        b.setUp(AndroidFixture.app())
        #expect(AndroidFixture.token(a) == AndroidFixture.token(b) && AndroidFixture.token(a).contains(":APA91b"))
    }

    /// Seed 001 on Android: a tap routes to the article, whose WebView loads the URL from the extras over HTTP/2
    /// (redirect followed); a Play Store link opens outside the app by the app's policy.
    @Test func tapRoutesAndTheWebViewLoadsThePage() async throws {
        let server = try PageServer()
        let web = try server.webView()
        defer { web.shutdown() }
        var app = AndroidFixture.app()
        app.webViewPolicy = WebViewPolicy(externalHosts: ["apps.apple.com"])
        let (d, _) = AndroidFixture.ready(app, state: .killed)
        d.deliver(
            AndroidFixture.message(
                d, kind: .notificationAndData,
                notification: AndroidNotificationPayload(title: "t", clickAction: "com.example.news.OPEN_ARTICLE"),
                data: ["article_id": "1", "headline": "Proposals", "url": server.https + "/redirect"]))
        _ = try d.tap(d.snapshot.tray[0].id)
        let outcome = try await d.loadWebView(AndroidFixture.pkg, with: web)
        guard case .loaded(let page) = outcome else {
            Issue.record("expected a page, got \(outcome)")
            return
        }
        #expect(page.httpVersion == "HTTP/2" && page.finalURL == server.https + "/page")
        #expect(d.snapshot.apps[AndroidFixture.pkg]?.task.last?.router.stack.last?.url == server.https + "/page")
        let external = try await d.followLink(AndroidFixture.pkg, "App Store", with: web)
        #expect(external == .openedExternally(url: "https://apps.apple.com/jp/app/id123"))
        await #expect(throws: WebViewStepError.self) { try await d.followLink(AndroidFixture.pkg, "nope", with: web) }
    }
}
