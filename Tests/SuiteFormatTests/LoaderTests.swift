import Foundation
@testable import SuiteFormat
import Testing
@testable import YAMLSource

/// Suite files: positions, parameter expansion, includes, and every kind of mistake.
@Suite struct LoaderTests {
    static let world = """
        world:
          include: \(Support.suites)/apps/news-app.yaml
        """

    @Test func scenariosKeepTheirLineAndIdAndParametersExpand() throws {
        let path = try Support.write(
            """
            \(Self.world)
            scenarios:
              - name: plain
                tags: [a, b]
                steps:
                  - reboot
              - name: by state
                parameters: { state: [background, not-running], auth: [token] }
                steps:
                  - state: ${scenario.state}
            """)
        let suite = try Support.load(path)
        #expect(
            suite.scenarios.map(\.name) == [
                "plain", "by state [state=background, auth=token]", "by state [state=not-running, auth=token]",
            ])
        #expect(suite.scenarios.map(\.line) == [4, 8, 8])
        #expect(suite.scenarios[0].tags == ["a", "b"])
        #expect(suite.scenarios[0].id == "\(path)::plain")
        #expect(suite.scenarios[2].parameters == ["state": "not-running", "auth": "token"])
        #expect(suite.scenarios[0].steps[0].range.line == 7)
        #expect(suite.scenarios[0].steps[0].range.column == 9)
        #expect(suite.world.apps.map(\.bundleID) == ["com.example.pushdemo"])
        #expect(suite.world.devices.map(\.name) == ["iphone"])
        #expect(suite.name == ((path as NSString).lastPathComponent as NSString).deletingPathExtension)
    }

    @Test func jsonSuitesLoadToo() throws {
        let path = try Support.write(
            """
            {"name": "json", "scenarios": [{"name": "one", "steps": ["reboot", {"wait": "5s"}]}]}
            """, name: "suite.json")
        let suite = try Support.load(path)
        #expect(suite.name == "json")
        #expect(suite.scenarios.first?.steps.count == 2)
        #expect(suite.world.devices.map(\.name) == ["iphone"])
    }

    @Test func includeOnlyFilesAreNotSuites() throws {
        #expect(!SuiteLoader.isSuiteFile(path: Support.suites + "/apps/news-app.yaml"))
        #expect(SuiteLoader.isSuiteFile(path: Support.suites + "/apns-gateway.yaml"))
        let broken = try Support.write("scenarios: [ {name: x\n")
        #expect(SuiteLoader.isSuiteFile(path: broken))
    }

    @Test func unknownKeyIsAnErrorWithASuggestion() throws {
        let e = try #require(
            try Support.loadError(
                """
                scenarios:
                  - name: typo
                    steps:
                      - reboot
                    tgas: [x]
                """))
        #expect(e.kind == .unknownKey)
        #expect(e.line == 5 && e.column == 5)
        #expect(e.suggestion == "did you mean 'tags'?")
        #expect(e.expected?.contains("name, tags, parameters, steps") == true)
        let step = try #require(
            try Support.loadError(
                """
                scenarios:
                  - name: typo in a step
                    steps:
                      - send: { payload: { aps: {} } }
                        expcet: { status: 200 }
                """))
        #expect(step.kind == .unknownKey)
        #expect(step.line == 5 && step.column == 9)
        #expect(step.suggestion == "did you mean 'expect'?")
        #expect(step.rendered(color: false).contains("^"))
        let bare = try #require(try Support.loadError("scenarios:\n  - name: x\n    steps: [rebot]\n"))
        #expect(bare.kind == .invalidValue)
        #expect(bare.line == 3 && bare.column == 13)
        #expect(bare.suggestion == "did you mean 'reboot'?")
        let check = try #require(
            try Support.loadError(
                """
                scenarios:
                  - name: x
                    steps:
                      - expect: { navigation: { tabb: 1 } }
                """))
        #expect(check.kind == .unknownKey && check.suggestion == "did you mean 'tab'?")
    }

    @Test func wrongTypesPointAtTheValue() throws {
        let tags = try #require(try Support.loadError("scenarios:\n  - name: x\n    tags: 5\n    steps: []\n"))
        #expect(tags.kind == .typeMismatch)
        #expect(tags.line == 3 && tags.column == 11)
        let wait = try #require(try Support.loadError("scenarios:\n  - name: x\n    steps:\n      - wait: soon\n"))
        #expect(wait.line == 4 && wait.column == 15)
        let state = try #require(
            try Support.loadError("scenarios:\n  - name: x\n    steps:\n      - state: backgrond\n"))
        #expect(state.kind == .invalidValue && state.suggestion == "did you mean 'background'?")
        let payload = try #require(
            try Support.loadError("scenarios:\n  - name: x\n    steps:\n      - send: { payload: '{\"aps\": ' }\n"))
        #expect(payload.kind == .invalidValue && payload.line == 4)
        let regex = try #require(
            try Support.loadError(
                "scenarios:\n  - name: x\n    steps:\n      - expect: { stdout: { matches: '([' } }\n"))
        #expect(regex.kind == .invalidValue && regex.line == 4)
    }

    @Test func undefinedVariablesAreErrorsAtTheirColumn() throws {
        let device = try #require(
            try Self.stepError(#"- send: { token: "${device.iphnoe.token}", payload: { aps: {} } }"#))
        #expect(device.message == "undefined variable '${device.iphnoe.token}'")
        #expect(device.line == 6 && device.column == 25)
        #expect(device.suggestion == "did you mean '${device.iphone.token}'?")
        let capture = try #require(
            try Support.loadError(
                """
                scenarios:
                  - name: used before captured
                    steps:
                      - run: echo ${out}
                      - run: echo hi
                        capture: { out: stdout }
                """))
        #expect(capture.message == "undefined variable '${out}'")
        #expect(capture.line == 4 && capture.column == 19)
        let param = try #require(
            try Support.loadError(
                """
                scenarios:
                  - name: p
                    parameters: { state: [background] }
                    steps:
                      - run: echo ${scenario.stat}
                """))
        #expect(param.message == "undefined variable '${scenario.stat}'")
        let unclosed = try #require(
            try Support.loadError("scenarios:\n  - name: x\n    steps:\n      - run: echo ${env.HOME\n"))
        #expect(unclosed.message.contains("unclosed"))
        // env references are only checked when the step runs
        #expect(
            try Support.loadError("scenarios:\n  - name: x\n    steps:\n      - run: echo ${env.ANYTHING}\n") == nil)
    }

    @Test func fixtureGatewayScenarioSuiteAndCapturedNamesAreKnownAndNothingNextToThem() throws {
        func error(_ reference: String) throws -> SourceError? {
            try Support.loadError(
                """
                variables: { base.url: x }
                scenarios:
                  - name: s
                    steps:
                      - run: echo hi
                        capture: { out: stdout }
                      - run: echo \(reference)
                """)
        }
        for known in [
            "${fixture.http}", "${fixture.https}", "${fixture.ca}", "${gateway.sandbox}", "${gateway.production}",
            "${gateway.ca}", "${gateway.fcm}", "${scenario.name}", "${base.url}", "${out}",
        ] {
            #expect(try error(known) == nil, "\(known)")
        }
        for unknown in [
            "${fixture.ftp}", "${fixture.http.x}", "${gateway}", "${gateway.fcm.x}", "${scenario}", "${base}",
        ] {
            let e = try #require(try error(unknown), "\(unknown)")
            #expect(e.message == "undefined variable '\(unknown)'")
        }
        // The suggestion still comes from every name there is.
        #expect(try error("${fixture.htp}")?.suggestion == "did you mean '${fixture.http}'?")
    }

    @Test func badIncludePathIsAnErrorAtTheInclude() throws {
        let e = try #require(try Support.loadError("world:\n  include: apps/missing.yaml\nscenarios: []\n"))
        #expect(e.kind == .io)
        #expect(e.line == 2 && e.column == 12)
        #expect(e.message.contains("apps/missing.yaml"))
        let nested = try #require(
            try Support.loadError(
                "world:\n  include: apps/a.yaml\nscenarios: []\n", extra: ["apps/a.yaml": "apps: []\ndevcies: []\n"]))
        #expect(nested.kind == .unknownKey && nested.file.hasSuffix("apps/a.yaml") && nested.line == 2)
        #expect(nested.suggestion == "did you mean 'devices'?")
    }

    /// The loader decodes a large file in batches and lets go of each batch's nodes: the scenarios keep their order
    /// across batches, names are checked across them, and the first error in the file still wins.
    @Test func aLargeSuiteLoadsInOrderAcrossDecodingBatches() throws {
        let count = 1_300  // three batches
        func suite(_ names: [String], brokenAt broken: Int? = nil) -> String {
            "name: large\nscenarios:\n"
                + names.enumerated().map { i, name in
                    "  - name: \(name)\n    steps: [\(i == broken ? "{ nope: 1 }" : "{ run: \"true\" }")]\n"
                }.joined()
        }
        var names = (1...count).map { "scenario \($0)" }
        let loaded = try Support.load(try Support.write(suite(names)))
        #expect(loaded.name == "large")
        #expect(loaded.scenarios.map(\.name) == names)
        #expect(loaded.scenarios.map(\.line) == (0..<count).map { 3 + 2 * $0 })
        // A name taken in the first batch, again in the third.
        names[1_100] = "scenario 7"
        let dup = try #require(try Support.loadError(suite(names)))
        #expect(dup.message == "two scenarios are named 'scenario 7'" && dup.line == 3 + 2 * 1_100)
        #expect(dup.expected == "expected unique names (the first is at line \(3 + 2 * 6))")
        // An error in the second batch comes before the duplicate in the third.
        let first = try #require(try Support.loadError(suite(names, brokenAt: 700)))
        #expect(first.line == 4 + 2 * 700 && first.kind == .unknownKey)
    }

    @Test func otherMistakes() throws {
        let dup = try #require(
            try Support.loadError("scenarios:\n  - { name: a, steps: [reboot] }\n  - { name: a, steps: [reboot] }\n"))
        #expect(dup.message == "two scenarios are named 'a'" && dup.line == 3)
        let fcm = try #require(
            try Support.loadError("scenarios:\n  - name: a\n    steps:\n      - send: { via: fcm, payload: {} }\n"))
        #expect(
            fcm.line == 4 && fcm.expected?.contains("message:") == true && fcm.suggestion?.contains("message:") == true)
        let two = try #require(
            try Support.loadError("scenarios:\n  - name: a\n    steps:\n      - { tap: latest, back: true }\n"))
        #expect(two.message.contains("cannot be combined"))
        let capture = try #require(
            try Support.loadError(
                "scenarios:\n  - name: a\n    steps:\n      - run: echo\n        capture: { x: status }\n"))
        #expect(capture.message.contains("cannot capture 'status'"))
        let missing = try #require(try Support.loadError("name: no scenarios\n"))
        #expect(missing.kind == .missingKey)
        let device = try #require(
            try Support.loadError(
                """
                world:
                  devices: [{ name: a, udid: U, apps: [com.example.nothere] }]
                scenarios: []
                """))
        #expect(device.message.contains("unknown app"))
    }
}

extension LoaderTests {
    /// The load error of one step in scenario `x` (line 6 of the file) of `world`.
    static func stepError(_ step: String) throws -> SourceError? {
        try Support.loadError("\(Self.world)\nscenarios:\n  - name: x\n    steps:\n      \(step)\n")
    }
}

extension LoaderTests {
    @Test func devicesAndAppsMustBeDeclared() throws {
        let device = try #require(try Self.stepError(#"- send: { to: iphnoe, payload: { aps: {} } }"#))
        #expect(device.message == "no device 'iphnoe' in the world")
        #expect(device.line == 6 && device.column == 21)
        #expect(device.suggestion == "did you mean 'iphone'?")
        let app = try #require(try Self.stepError(#"- terminate: com.example.pushdem"#))
        #expect(app.message == "no app 'com.example.pushdem' in the world")
        #expect(app.suggestion == "did you mean 'com.example.pushdemo'?")
    }

    /// Include mistakes are errors at the `include:` that makes them: a directory or "" (was "is a directory" with no
    /// place), a suite (was "unknown key 'name'" in the suite), a cycle (was "nested at most 4 deep").
    @Test func includeMistakesAreShownAtTheInclude() throws {
        func error(_ include: String, extra: [String: String] = [:]) throws -> SourceError {
            let suite = "name: t\nworld:\n  include: \(include)\nscenarios:\n  - name: s\n    steps: [foreground]\n"
            return try #require(try Support.loadError(suite, extra: extra), "include: \(include)")
        }
        let directory = try error("apps", extra: ["apps/x.yaml": "apps: []\n"])
        #expect(directory.message.hasSuffix("it is a directory") && directory.range.start.line == 3, "\(directory)")
        #expect(directory.range.file.hasSuffix("suite.yaml"))
        let empty = try error(#""""#)
        #expect(empty.message.hasSuffix("it is a directory") && empty.range.start.line == 3, "\(empty)")
        let suite = try error("other.yaml", extra: ["other.yaml": "name: o\nscenarios: []\n"])
        #expect(suite.expected?.hasSuffix("this is a suite") == true && suite.range.start.line == 3, "\(suite)")
        let cycle = try error("a.yaml", extra: ["a.yaml": "include: b.yaml\n", "b.yaml": "include: a.yaml\n"])
        #expect(cycle.expected == "expected includes without a cycle: a.yaml → b.yaml → a.yaml", "\(cycle)")
        #expect(cycle.range.file.hasSuffix("b.yaml"))
    }

    /// `parameters: { p: [a, a] }` was "two scenarios are named 'x [p=a]'" at the scenario itself.
    @Test func aParameterValueListedTwiceIsShownAtTheSecond() throws {
        let e = try #require(
            try Support.loadError(
                "name: t\nscenarios:\n  - name: x\n    parameters: { p: [a, b, a] }\n    steps: [foreground]\n"))
        #expect(e.expected == "expected each value of 'p' once ('a' is listed twice)", "\(e)")
        #expect(e.range.start.line == 4 && e.range.start.column == 29, "\(e)")
    }

    /// A world file named on its own is no suite to run: it said "unknown key 'apps'".
    @Test func aWorldFileNamedOnItsOwnIsNotASuite() throws {
        let e = try #require(try Support.loadError("apps:\n  - bundle_id: com.example.app\n"))
        #expect(e.message == "not a suite: suite.yaml has no scenarios:", "\(e)")
        #expect(e.range.start.line == 1 && e.suggestion?.hasPrefix("run the suites that include it") == true)
    }
}
