@testable import DeviceSimulator
import Foundation
@testable import PushModel
import Testing
@testable import YAMLSource

@testable import SuiteFormat

/// The table of `expect:` keys and fields (`CheckSubject.swift`): every entry decodes, every subject it
/// decodes to is observed, and the unknown-key errors list and suggest from it.
@Suite struct CheckTableTests {
    static func decode(_ yaml: String) throws(SourceError) -> SuiteFormat.Expectation {
        try ExpectationDecoder.decode(try YAMLLoader.load(string: yaml, file: "expect.yaml"))
    }

    static func error(_ yaml: String) -> SourceError? {
        do throws(SourceError) {
            _ = try decode(yaml)
            return nil
        } catch { return error }
    }

    /// `status: ok` loaded and failed at run time with `expected: "ok" actual: 200`; a plain value that can never
    /// equal what the run observes is refused where it is written.
    @Test func plainValuesOfNumberAndYesNoChecksHaveTheirKind() throws {
        for (yaml, expected) in [
            ("status: ok", "expected the answer's HTTP status, a number such as 200 or 410"),
            ("status: BadDeviceToken", "expected the answer's HTTP status, a number such as 200 or 410"),
            ("exit: zero", "expected an exit status, a number such as 0"),
            ("delivered: yes please", "expected true or false"),
            ("stored: 1", "expected true or false"),
        ] {
            let e = try #require(Self.error(yaml), "\(yaml) was accepted")
            #expect(e.expected == expected, "\(yaml): \(e)")
            #expect(
                e.range.start.line == 1 && e.range.start.column == yaml.firstIndex(of: ":")!.utf16Offset(in: yaml) + 3)
        }
        for yaml in [
            "status: 200", #"status: "410""#, "status: { not: 200 }", "status: ${saved.status}",
            "status: ~", "exit: 2", "delivered: false", "stored: true", "delivered: { exists: true }",
        ] {
            #expect(Self.error(yaml) == nil, "\(yaml)")
        }
    }

    /// `expect:` indented under `send:` among the send's keys got "unknown key 'expect'" and the send's key list; now
    /// it says where the key belongs.
    @Test func aStepKeyInsideTheSendIsToldWhereItBelongs() throws {
        let suite = """
            name: s
            scenarios:
              - name: one
                steps:
                  - send:
                      payload: { aps: { alert: Hi } }
                      expect: { status: 200 }

            """
        let e = try #require(try Support.loadError(suite))
        #expect(e.message == "'expect:' is inside 'send:'")
        #expect(e.range.start.line == 7 && e.range.start.column == 11, "\(e)")
        #expect(e.suggestion == "move 'expect:' left to column 9, under 'send:' (and its keys with it)")
        // An expect step's own `name:` (the FCM message name) is a check, not a misplaced step key.
        let fcmName = "name: s\nscenarios:\n  - name: one\n    steps:\n      - expect: { name: { exists: true } }\n"
        #expect(try Support.loadError(fcmName) == nil, "\(fcmName)")
    }

    /// `steps: []` loaded and passed, checking nothing; a placeholder says so with `skip:`.
    @Test func aScenarioWithoutStepsIsAnErrorUnlessSkipped() throws {
        let e = try #require(try Support.loadError("name: s\nscenarios:\n  - name: one\n    steps: []\n"))
        #expect(e.expected == "expected at least one step" && e.range.start.line == 4, "\(e)")
        #expect(try Support.loadError("name: s\nscenarios:\n  - name: one\n    skip: later\n    steps: []\n") == nil)
    }

    /// `skip: false` skipped the scenario (any text did, "false" too): true skips, false runs, a text is the
    /// reason, and `""`, `no`, a number or a `${…}` (not expanded there) are errors at the value.
    @Test func skipIsTrueFalseOrAReason() throws {
        func reason(_ value: String) throws -> String? {
            let path = try Support.write("name: s\nscenarios:\n  - name: one\n    skip: \(value)\n    steps: [ tap ]\n")
            return try Support.load(path).scenarios.first?.skipReason
        }
        #expect(try reason("true") == "skip: true")
        #expect(try reason("false") == nil)
        #expect(try reason("null") == nil)
        #expect(try reason("\"waits for the new backend\"") == "waits for the new backend")
        for bad in [
            "\"\"", "\" \"", "no", "yes", "Off", "42", "[a]", "{ a: 1 }", "\"${env.SKIP}\"", "\"false\"", "'false'",
            "\"False\"", "\"true\"", "\"no\"",
        ] {
            let e = try #require(
                try Support.loadError("name: s\nscenarios:\n  - name: one\n    skip: \(bad)\n    steps: [ tap ]\n"),
                "skip: \(bad) loaded")
            #expect(e.range.start.line == 4 && e.range.start.column == 11, "\(bad): \(e)")
            #expect(e.suggestion?.contains("skip: true") == true || e.expected?.contains("${") == true, "\(e)")
        }
        // false is not a placeholder: a scenario without steps still needs a reason.
        #expect(try Support.loadError("name: s\nscenarios:\n  - name: one\n    skip: false\n    steps: []\n") != nil)
    }

    /// `expect: {}`, a null `expect:`, `exactly: {}`, `user_info: {}`, `notification: {}` loaded and passed, checking
    /// nothing: errors at the value, as `steps: []` is. `callbacks: []` (no callback was called) is a check.
    @Test(arguments: [
        ("{}", 17), ("", 16), ("{ exactly: {} }", 28), ("{ at_least: {} }", 29), ("{ user_info: {} }", 30),
        ("{ notification: {} }", 33), ("{ headers: {} }", 28), ("{ request: 1 }", 17),
    ])
    func checksThatCheckNothingAreErrors(expect: String, column: Int) throws {
        let text =
            "name: s\nscenarios:\n  - name: one\n    steps:\n      - send: { payload: {} }\n        expect: \(expect)\n"
        let e = try #require(try Support.loadError(text), "expect: \(expect) loaded")
        #expect(e.range.start.line == 6 && e.range.start.column == column, "\(expect): \(e.range.start)")
        #expect(e.suggestion?.contains("remove") == true, "\(e)")
        let standalone = "name: s\nscenarios:\n  - name: one\n    steps:\n      - expect: \(expect)\n"
        #expect(try Support.loadError(standalone) != nil, "standalone expect: \(expect) loaded")
    }

    @Test func anEmptyListOfCallbacksIsACheck() throws {
        let text = "name: s\nscenarios:\n  - name: one\n    steps:\n      - expect: { callbacks: [] }\n"
        #expect(try Support.loadError(text) == nil)
        let whole = "name: s\nscenarios:\n  - name: one\n    steps:\n      - expect: { exactly: { user_info: {} } }\n"
        #expect(try Support.loadError(whole) == nil)
    }

    /// A value each top-level key accepts, and what it must decode to. Exhaustive: a new key fails to
    /// compile here until it has a sample.
    static func sample(_ key: ExpectKey) -> (yaml: String, check: (SuiteFormat.Expectation) -> Bool) {
        func one(_ subject: Subject, label: String = key.rawValue) -> (SuiteFormat.Expectation) -> Bool {
            { $0.checks.count == 1 && $0.checks[0].subject == subject && $0.checks[0].label == label }
        }
        switch key {
        case .status: return ("200", one(.status))
        case .reason: return ("BadDeviceToken", one(.reason))
        case .headers: return ("{ Apns-Id: { exists: true } }", one(.header("apns-id"), label: "headers.Apns-Id"))
        case .timestamp: return ("{ exists: true }", one(.timestamp))
        case .errorCode: return ("UNREGISTERED", one(.fcmErrorCode))
        case .name: return ("{ matches: \"^projects/demo-project/messages/\" }", one(.fcmName))
        case .delivered: return ("true", one(.delivered))
        case .dropped: return ("none", one(.dropped))
        case .stored: return ("false", one(.stored))
        case .reached: return ("pushkit", one(.reached))
        case .callkit: return ("reported", one(.callkit))
        case .callbacks: return ("[willPresent]", one(.callbacks))
        case .userInfo:
            return (
                "{ gcm.message_id: { exists: true } }",
                one(.userInfo("gcm.message_id"), label: "user_info.gcm.message_id")
            )
        case .notification: return ("{ title: Hi }", one(.notification(.title), label: "notification.title"))
        case .extensions: return ("{ service: ran }", one(.extensions(.service), label: "extensions.service"))
        case .navigation: return ("{ tab: 1 }", one(.navigation(.tab), label: "navigation.tab"))
        case .page: return ("{ contains: Welcome }", one(.page(.text), label: "page.contains"))
        case .openedURL: return ("https://example.com", one(.openedURLs))
        case .install: return ("installed", one(.install))
        case .registration: return ("registered", one(.registration))
        case .findings: return ("MissingEntitlement", one(.findings))
        case .symptoms: return ("{ contains: x }", one(.symptoms))
        case .token: return ("{ exists: true }", one(.token))
        case .state: return ("foreground", one(.state))
        case .badge: return ("1", one(.badge))
        case .exit: return ("0", one(.exitCode))
        case .stdout: return ("{ contains: sent }", one(.stdout))
        case .stderr: return ("\"\"", one(.stderr))
        case .extras: return ("{ order_id: A1 }", one(.extras("order_id"), label: "extras.order_id"))
        case .channel: return ("orders", one(.channel))
        case .tray: return ("[Shipped]", one(.tray))
        case .permission:
            return (
                "{ POST_NOTIFICATIONS: granted }",
                one(.permission("POST_NOTIFICATIONS"), label: "permission.POST_NOTIFICATIONS")
            )
        case .activity:
            return (
                "{ content_state: { eta: 3 } }",
                one(.activity(.contentState, path: "eta"), label: "activity.content_state.eta")
            )
        case .callback:
            return (
                "{ didReceiveResponse: { action: open } }",
                { $0.checks.count == 1 && $0.checks[0].subject == .callback(.didReceiveResponse, .action, path: "") }
            )
        case .exactly:
            return (
                "{ user_info: { a: b } }",
                { $0.objects.map(\.label) == ["exactly.user_info"] && $0.objects[0].mode == .exact }
            )
        case .atLeast:
            return (
                "{ notification: { title: Hi } }",
                { $0.objects.map(\.label) == ["at_least.notification"] && $0.objects[0].mode == .subset }
            )
        case .snapshot: return ("true", { $0.snapshot != nil })
        // `request:` picks a request and checks nothing: alone it is refused (an expect that checks nothing).
        case .request: return ("2\nstatus: 200", { if case .index(2)? = $0.request { true } else { false } })
        }
    }

    @Test func everyKeyOfTheTableDecodes() throws {
        #expect(ExpectKey.allCases.count == ExpectKey.names.count)
        for key in ExpectKey.allCases {
            let (yaml, check) = Self.sample(key)
            let e = try Self.decode("\(key.rawValue): \(yaml)")
            #expect(check(e), "\(key.rawValue): \(yaml) decoded to \(e.checks.map(\.subject))")
        }
    }

    @Test func everyFieldOfTheTableDecodesToItsTypedSubject() throws {
        func expectOne(_ yaml: String, _ subject: Subject, _ label: String) throws {
            let e = try Self.decode(yaml)
            #expect(e.checks.map(\.subject) == [subject], "\(yaml)")
            #expect(e.checks.map(\.label) == [label], "\(yaml)")
        }
        for f in NotificationField.allCases {
            try expectOne("notification: { \(f.rawValue): x }", .notification(f), "notification.\(f.rawValue)")
        }
        for f in NavigationField.allCases {
            try expectOne("navigation: { \(f.rawValue): x }", .navigation(f), "navigation.\(f.rawValue)")
        }
        for f in PageField.allCases {
            try expectOne("page: { \(f.rawValue): x }", .page(f), "page.\(f.rawValue)")
        }
        for f in ExtensionField.allCases {
            try expectOne("extensions: { \(f.rawValue): x }", .extensions(f), "extensions.\(f.rawValue)")
        }
    }

    /// Every field of every callback decodes to its typed subject and label; key-path fields take a mapping.
    @Test func everyCallbackFieldDecodesToItsTypedSubject() throws {
        for callback in AppCallback.Kind.allCases {
            let names = CallbackField.names(for: callback)
            #expect(names.first == "calls", "\(callback)")
            for name in names {
                let field = try #require(CallbackField(rawValue: name))
                let label = "callback.\(callback.rawValue).\(name)"
                if field.takesKeyPaths {
                    let e = try Self.decode("callback: { \(callback.rawValue): { \(name): { a.b: x } } }")
                    #expect(e.checks.map(\.subject) == [.callback(callback, field, path: "a.b")])
                    #expect(e.checks.map(\.label) == [label + ".a.b"])
                } else {
                    let e = try Self.decode("callback: { \(callback.rawValue): { \(name): x } }")
                    #expect(e.checks.map(\.subject) == [.callback(callback, field, path: "")])
                    #expect(e.checks.map(\.label) == [label])
                }
            }
        }
        let unknown = try #require(Self.error("callback: { willPresnt: { calls: 1 } }"))
        #expect(unknown.expected == "expected one of: " + CallbackDetail.callbackNames.joined(separator: ", "))
        #expect(unknown.suggestion == "did you mean 'willPresent'?")
    }

    @Test func unknownKeysListAndSuggestFromTheTable() throws {
        let top = try #require(Self.error("stauts: 200"))
        #expect(top.kind == .unknownKey)
        #expect(top.expected == "expected one of: " + ExpectKey.names.joined(separator: ", "))
        #expect(top.suggestion == "did you mean 'status'?")
        #expect(Self.error("at_lest: { user_info: { a: b } }")?.suggestion == "did you mean 'at_least'?")
        #expect(Self.error("opened_ur: x")?.suggestion == "did you mean 'opened_url'?")

        let cases: [(String, [String], String)] = [
            ("notification: { thread_i: x }", NotificationField.names, "thread_id"),
            ("navigation: { loged_in: x }", NavigationField.names, "logged_in"),
            ("page: { contain: x }", PageField.names, "contains"),
            ("extensions: { overides_title: x }", ExtensionField.names, "overrides_title"),
        ]
        for (yaml, names, suggestion) in cases {
            let e = try #require(Self.error(yaml))
            #expect(e.kind == .unknownKey, "\(yaml)")
            #expect(e.expected == "expected one of: " + names.joined(separator: ", "), "\(yaml)")
            #expect(e.suggestion == "did you mean '\(suggestion)'?", "\(yaml)")
        }
        let whole = try #require(Self.error("exactly: { paylod: { a: b } }"))
        #expect(whole.expected == "expected one of: " + WholeObject.names.joined(separator: ", "))
        #expect(whole.suggestion == "did you mean 'payload'?")
        for object in WholeObject.allCases {
            let e = try Self.decode("at_least: { \(object.rawValue): { a: b } }")
            #expect(e.objects.map(\.object) == [object])
        }
        // The page keys are the fields with `contains` (a substring of the text) right after `text`.
        #expect(
            PageField.names == [
                "status", "url", "title", "text", "contains", "http_version", "redirects", "opened_externally",
                "failed", "cancelled",
            ])
    }
}
