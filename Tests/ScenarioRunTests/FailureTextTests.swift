import Foundation
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing

/// Every check kind, failing: the message names the check and says expected vs actual.
@Suite struct FailureTextTests {
    struct Row: Sendable, CustomStringConvertible {
        var steps: String
        var message: String
        var expected: String
        var actual: String
        var description: String { message }
    }

    static let page =
        "- send: { payload: { aps: { alert: { title: N } }, url: \"${fixture.https}/news/swift-evolution.html\" } }\n- tap\n- load_page"

    static let rows: [Row] = [
        Row(
            steps: "- send: { payload: { aps: { alert: x } } }\n  expect: { headers: { apns-id: abc } }",
            message: "expect headers.apns-id", expected: "\"abc\"", actual: "\"<apns-id>\""),
        Row(
            steps: "- send: { payload: { aps: { alert: x } } }\n  expect: { timestamp: { exists: true } }",
            message: "expect timestamp", expected: "present", actual: "absent"),
        Row(
            steps: "- offline\n- send: { payload: { aps: { alert: x } } }\n  expect: { stored: false }",
            message: "expect stored", expected: "false", actual: "true"),
        Row(
            steps: "- send: { payload: { aps: { alert: x } } }\n  expect: { dropped: not-authorized }",
            message: "expect dropped", expected: "\"not-authorized\"", actual: "absent"),
        Row(
            steps: "- send: { payload: { aps: { alert: x } } }\n  expect: { extensions: { content: Foo } }",
            message: "expect extensions.content", expected: "\"Foo\"", actual: "absent"),
        Row(
            steps: page + "\n- follow_link: Release notes\n- expect: { page: { opened_externally: { exists: true } } }",
            message: "expect page.opened_externally", expected: "present", actual: "absent"),
        Row(
            steps: page + "\n- expect: { opened_url: apps.apple.com }",
            message: "expect opened_url", expected: "an array containing \"apps.apple.com\"", actual: "[]"),
        Row(
            steps: page + "\n- expect: { page: { contains: Kotlin } }",
            message: "expect page.contains", expected: "text containing \"Kotlin\"", actual: "<page text>"),
        Row(
            steps: "- expect: { registration: failed }",
            message: "expect registration", expected: "\"failed\"", actual: "\"registered\""),
        Row(
            steps: "- expect: { findings: profile-expired }",
            message: "expect findings", expected: "an array containing \"profile-expired\"", actual: "[]"),
        Row(
            steps: "- expect: { symptoms: Code=3000 }",
            message: "expect symptoms", expected: "text containing \"Code=3000\"", actual: "\"\""),
        Row(
            steps: "- expect: { state: foreground }",
            message: "expect state", expected: "\"foreground\"", actual: "\"not-running\""),
        Row(steps: "- expect: { badge: 1 }", message: "expect badge", expected: "1", actual: "absent"),
        Row(steps: "- expect: { token: none }", message: "expect token", expected: "absent", actual: "\"<token>\""),
        Row(
            steps: "- run: echo hi\n  expect: { stdout: { matches: \"^bye\" } }",
            message: "expect stdout", expected: "a value matching /^bye/", actual: "\"hi\\n\""),
    ]

    @Test(arguments: rows)
    func failureSaysExpectedAndActual(_ row: Row) async throws {
        let (_, r) = try await Support.runSteps(row.steps)
        let f = try #require(Support.onlyFailure(r))
        #expect(f.message == row.message)
        #expect(f.expected == row.expected)
        let actual = Support.withoutReadNote(f.actual)
        switch row.actual {
        case "\"<apns-id>\"": #expect(actual.range(of: #"^"[0-9a-f-]{36}"$"#, options: .regularExpression) != nil)
        case "\"<token>\"": #expect(actual.range(of: #"^"[0-9a-f]{64}"$"#, options: .regularExpression) != nil)
        case "<page text>": #expect(f.actual.contains("Swift Evolution") && f.actual.contains("proposals accepted"))
        default: #expect(f.actual == row.actual || f.actual.hasPrefix(row.actual + " "), "actual: \(f.actual)")
        }
        #expect(!f.events.isEmpty)
    }
}
