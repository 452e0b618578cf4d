import Foundation
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import Reports

/// The HTML report's data (`ReportData` v1): what `run --html` embeds is what `merge-reports` reads back, hostile
/// text cannot leave its script block, and a file that is not a report is refused with a reason.
@Suite struct HTMLReportTests {
    static let hostile = "</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)>"

    static var traced: TestCaseReport {
        let notification = NotificationPicture(
            id: "n1", appName: "Shop", bundleID: "com.example.shop", title: hostile, subtitle: "Order 42",
            body: "shipped", threadID: "orders", badge: 3, sound: "default", categoryID: "ORDER", banner: true,
            list: false, quiet: false, interruptionLevel: "active", actions: ["Track"],
            expanded: ExpandedContent(lines: ["Parcel 42"], actions: ["Track", "Cancel"]))
        let navigation = NavigationPicture(
            tabs: ["Home", "Orders"], selectedTab: 1,
            stack: [.init(id: "order", title: "Order 42", url: "https://shop.example/o/42")],
            alert: .init(title: "確認", message: "Leave?", buttons: ["キャンセル", "OK"]))
        let page = PagePicture(
            requestedURL: "http://f/o", finalURL: "http://f/orders/42", status: 200, title: "Order",
            redirects: [.init(status: 302, from: "http://f/o", to: "http://f/orders/42")], html: hostile, text: "t",
            servedBytes: 70_000)
        let trace = [
            TraceEvent(
                .request, from: .runner, to: .apns, label: "POST /3/device/7c1f", atMilliseconds: 1.5,
                headers: [TraceHeader("authorization", TraceEvent.redactedAuthorization("bearer a.b.secret"))],
                body: #"{"aps":{"alert":"\#(hostile)"}}"#, jwt: TraceJWT(header: "{}", claims: #"{"iss":"T"}"#),
                stepLine: 12),
            TraceEvent(
                .response, from: .apns, to: .runner, label: "410", durationMilliseconds: 2, status: 410,
                reason: "Unregistered"),
            TraceEvent(.dropped, from: .apns, to: .device, label: "dropped", dropped: "app force-quit"),
            TraceEvent(
                .presented, from: .device, to: .device, label: "banner", device: "iphone", notification: notification),
            TraceEvent(.navigation, from: .app, to: .router, label: "route", navigation: navigation, notes: ["n"]),
            TraceEvent(.page, from: .fixture, to: .webView, label: "200", page: page),
        ]
        return TestCaseReport(
            classname: "Suites/shop.yaml", name: "order \(hostile)", file: "Suites/shop.yaml", line: 9, time: 0.25,
            outcome: .failure(ProblemReport(message: "expect status", type: "assertion", detail: "d")),
            retries: [
                RetryAttempt(kind: .error, problem: ProblemReport(message: "m", type: "timeout"), systemOut: "o")
            ],
            systemOut: "transcript \(hostile)", systemErr: "e", tags: ["shop", "smoke"],
            checks: [
                CheckFailureReport(
                    message: "expect status", expected: "200", actual: "410", file: "Suites/shop.yaml", line: 14,
                    column: 9, events: "gateway → 410", hop: .apns, traceIndex: 1),
                CheckFailureReport(
                    message: "snapshot 'order › sent' differs", expected: "the stored snapshot", actual: "…",
                    hop: .apns, diff: "~ pushes[0].payload.aps.alert: \"Order\" → \"Order \(hostile)\""),
            ], trace: trace)
    }

    static var report: TestReport {
        let date = Date(timeIntervalSince1970: 1_767_225_600)
        let cases = [
            traced, TestCaseReport(classname: "Suites/shop.yaml", name: "passes", time: 0.1, outcome: .passed),
            TestCaseReport(
                classname: "Suites/shop.yaml", name: "later", time: 0, outcome: .skipped(message: "not today"),
                tags: ["slow"]),
            TestCaseReport(
                classname: "Suites/shop.yaml", name: "crashes", time: 1,
                outcome: .error(ProblemReport(message: "boom", kind: .command, detail: "exit 2"))),
        ]
        return TestReport(
            name: "pushcheck", timestamp: date, hostname: "ci-7",
            properties: [ReportProperty("seed", "7"), ReportProperty("shard", "2/3")],
            suites: [
                TestSuiteReport(
                    name: "Suites/shop.yaml", file: "Suites/shop.yaml", timestamp: date, hostname: "ci-7", cases: cases,
                    title: "shop checkout")
            ])
    }

    @Test func embeddedDataReadsBackAsTheSameReport() throws {
        let facts = ReportData.RunFacts(wallSeconds: 3.5, generator: "pushcheck 9.9")
        let html = HTMLReport.render(Self.report, facts: facts)
        let (back, backFacts) = try HTMLReport.parse(Array(html.utf8), path: "r.html")
        #expect(back == Self.report)
        #expect(backFacts == facts)
    }

    @Test func largeDataIsEmbeddedGzippedAndReadsBackTheSame() throws {
        let html = HTMLReport.render(Self.report, compressAbove: 100)
        #expect(html.contains(#"{"data":"H4sI"#) && html.contains(#""encoding":"gzip+base64"}"#))
        #expect(!html.contains("gateway → 410"))  // no plain text of the data
        let (back, _) = try HTMLReport.parse(Array(html.utf8), path: "big.html")
        #expect(back == Self.report)
        #expect(!HTMLReport.render(Self.report).contains(#""encoding":"gzip+base64""#))  // small ones stay plain
        let corrupt = WebUI_dataTag + #"{"encoding":"gzip+base64","data":"H4sIAAAAAAAAAwMA"}</script>"#
        do {
            _ = try HTMLReport.parse(Array(corrupt.utf8), path: "corrupt.html")
            Issue.record("corrupt gzip was read")
        } catch {
            #expect(error.description.contains("does not inflate"))
        }
        let bytes = Array(String(repeating: "pushcheck ", count: 10_000).utf8)
        let packed = Gzip.compress(bytes)
        #expect(packed.count < bytes.count / 50 && packed.starts(with: [0x1F, 0x8B]))
        #expect(try Gzip.decompress(packed) == bytes)
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array(packed.dropLast(9))) }
    }

    @Test func hostileTextCannotCloseTheDataBlock() {
        let html = HTMLReport.render(Self.report)
        // The page has exactly its own two script elements: the data and the drawing code.
        #expect(html.components(separatedBy: "</script>").count == 3)
        #expect(html.components(separatedBy: "<script").count == 3)
        #expect(!html.contains("<!-- <img"))
        #expect(!html.contains("onerror=alert(2)>"))
        #expect(html.contains(#"\u003c/script\u003e\u003cscript\u003ealert(1)"#))
    }

    @Test func documentCarriesTotalsSeedShardAndCaseIDs() throws {
        let json = ReportData.encode(Self.report, facts: .init(wallSeconds: 2))
        #expect(json["format"] == "pushcheck-report" && json["version"] == 1)
        #expect(json["seed"] == "7" && json["shard"] == "2/3" && json["wall_seconds"] == 2)
        #expect(
            json["totals"] == [
                "tests": 4, "passed": 1, "failures": 1, "errors": 1, "skipped": 1, "flaky": 0, "time": 1.35,
            ])
        #expect(json["suites"]?.arrayValue?.first?["title"] == "shop checkout")  // the suite's name:, for the page
        let first = try #require(json["suites"]?.arrayValue?.first?["cases"]?.arrayValue?.first)
        #expect(first["id"]?.stringValue == "Suites/shop.yaml::order \(Self.hostile)")
        #expect(first["outcome"] == "failed" && first["failures"]?.arrayValue?.first?["hop"] == "apns")
        #expect(first["trace"]?.arrayValue?.count == 6)
        #expect(first["trace"]?.arrayValue?.first?["headers"]?.arrayValue?.first?["value"] == "bearer a.b.…")
    }

    @Test func aMergedReportNamesEveryShardAndEverySeed() {
        var merged = Self.report
        merged.properties = [
            ReportProperty("seed", "7"), ReportProperty("shard", "2/3"), ReportProperty("seed", "8"),
            ReportProperty("shard", "1/3"), ReportProperty("shard", "3/3"), ReportProperty("seed", "7"),
        ]
        let json = ReportData.encode(merged, facts: .init())
        #expect(json["shards"] == "1–3 of 3" && json["shard"] == nil)
        #expect(json["seeds"] == ["7", "8"] && json["seed"] == nil)
        #expect(ReportData.shardsSummary(["1/4", "3/4"]) == "1, 3 of 4")
        #expect(ReportData.shardsSummary(["1/2", "x"]) == "1/2, x")
        // Shards that shared their seed: one seed, as a single run says it.
        merged.properties = [ReportProperty("seed", "7"), ReportProperty("shard", "1/2"), ReportProperty("seed", "7")]
        let same = ReportData.encode(merged, facts: .init())
        #expect(same["seed"] == "7" && same["seeds"] == nil && same["shard"] == "1/2")
    }

    @Test func anotherVersionOrNoDataIsRefusedWithAReason() throws {
        let future =
            #"<script type="application/json" id="pushcheck-data">{"format":"pushcheck-report","version":2}</script>"#
        #expect(throws: ReportsError.self) { try HTMLReport.parse(Array(future.utf8), path: "f.html") }
        do {
            _ = try HTMLReport.parse(Array(future.utf8), path: "f.html")
        } catch {
            #expect(error.description.contains("version 2 is not 1"))
        }
        do {
            _ = try HTMLReport.parse(Array("<html>junit?</html>".utf8), path: "x.html")
            Issue.record("a page without data was read")
        } catch {
            #expect(error.description.contains("x.html") && error.description.contains("no embedded report data"))
        }
        // A killed run leaves the page that says it is under way: the refusal says so.
        let dir = try TempDirectory("in-progress")
        defer { dir.remove() }
        let placeholder = URL(fileURLWithPath: dir.file("intr.html"))
        try HTMLReport.writeRunInProgress(scenarios: 3, to: placeholder)
        do {
            _ = try HTMLReport.read(contentsOf: placeholder)
            Issue.record("a run-in-progress page was read")
        } catch {
            #expect(error.description.contains("intr.html"))
            #expect(error.description.contains("'run in progress' page of a run that did not finish"))
            #expect(error.description.contains("JUnit report"))
        }
        let cut = "<p>\n" + WebUI_dataTag + #"{"format":"pushcheck-report","#
        do {
            _ = try HTMLReport.parse(Array(cut.utf8), path: "cut.html")
            Issue.record("a cut-off page was read")
        } catch {
            guard case .invalidReportData(_, let line, _) = error else { Issue.record("\(error)"); return }
            #expect(line == 2)
        }
    }

    @Test func shardsMergeFromHTMLAndJUnitAlike() throws {
        let dir = try TempDirectory("html-merge")
        defer { dir.remove() }
        var first = Self.report
        first.suites[0].cases = [Self.traced]
        var second = Self.report
        second.suites[0].cases.removeFirst()
        try HTMLReport.write(
            first, facts: .init(wallSeconds: 4), to: URL(fileURLWithPath: dir.file("report-1-of-3.html")))
        try HTMLReport.write(
            second, facts: .init(wallSeconds: 9), to: URL(fileURLWithPath: dir.file("report-2-of-3.html")))
        var third = Self.report
        third.suites = [
            TestSuiteReport(
                name: "Suites/other.yaml", timestamp: third.timestamp, hostname: "h",
                cases: [
                    TestCaseReport(classname: "Suites/other.yaml", name: "x", time: 1, outcome: .passed)
                ])
        ]
        try JUnitXMLWriter.write(third, to: URL(fileURLWithPath: dir.file("junit-3-of-3.xml")))
        let (merged, facts) = try HTMLReport.merge(
            ["junit-3-of-3.xml", "report-2-of-3.html", "report-1-of-3.html"].map { URL(fileURLWithPath: dir.file($0)) })
        #expect(merged.totals.tests == 5 && merged.totals.failures == 1 && merged.totals.errors == 1)
        #expect(merged.suites.map(\.name) == ["Suites/shop.yaml", "Suites/other.yaml"])
        #expect(merged.suites[0].cases.first == Self.traced)  // shard 1 first, trace and checks intact
        #expect(facts.wallSeconds == 9)  // the longest shard
        #expect(throws: ReportsError.self) {
            try HTMLReport.merge(
                ["report-1-of-3.html", "report-1-of-3.html"].map { URL(fileURLWithPath: dir.file($0)) })
        }
    }
}

private let WebUI_dataTag = #"<script type="application/json" id="pushcheck-data">"#

@Suite struct TraceModelTests {
    @Test func jwtIsDecodedWithoutItsSignature() throws {
        // {"alg":"ES256","kid":"KEY1234567"} . {"iss":"ABCDE12345","iat":1700000000} . signature
        let token =
            "bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEyMzQ1NjcifQ.eyJpc3MiOiJBQkNERTEyMzQ1IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2ln"
        let jwt = try #require(TraceJWT(authorization: token))
        #expect(jwt.header == #"{"alg":"ES256","kid":"KEY1234567"}"#)
        #expect(jwt.claims == #"{"iss":"ABCDE12345","iat":1700000000}"#)
        #expect(TraceEvent.redactedAuthorization(token).hasSuffix("MDAwMDAwfQ.…"))
        #expect(TraceJWT(authorization: "bearer not-a-jwt") == nil)
        #expect(TraceJWT(authorization: "bearer e30.bm90IGpzb24.x") == nil)  // claims are not JSON
        #expect(TraceEvent.redactedAuthorization("Basic abc") == "Basic abc")
    }

    @Test func hopsAreOrderedAsTheDiagramDrawsThem() {
        #expect(
            TraceHop.allCases.map(\.rawValue) == [
                "runner", "backend", "fcm", "apns", "device", "app", "service-extension", "content-extension", "router",
                "web-view", "fixture",
            ])
        #expect(TraceHop.fcm < TraceHop.apns && TraceHop.router < TraceHop.webView)
    }
}
