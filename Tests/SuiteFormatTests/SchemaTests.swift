@testable import DeviceSimulator
import Foundation
@testable import PushModel
import PushcheckTestSupport
import Testing
@testable import YAMLSource

@testable import SuiteFormat

/// `pushcheck schema` (Suites/suite.schema.json): generated from the loader's tables, checked in, never stale.
/// What a real validator says about it is Tests/python/test_suite_schema.py.
@Suite struct SchemaTests {
    static let schemaPath = SuiteFiles.suites + "/suite.schema.json"
    static let brokenDirectory = SuiteFiles.root + "/Tests/schema/broken"

    @Test func theCheckedInSchemaIsCurrent() throws {
        let checkedIn = try String(contentsOfFile: Self.schemaPath, encoding: .utf8)
        #expect(
            checkedIn == SuiteSchema.text(),
            "Suites/suite.schema.json is stale: regenerate it with `make schema` (pushcheck schema > Suites/suite.schema.json)"
        )
    }

    /// Every table the schema reads, from the file's down (a world's apps, a step's send, …).
    static func tables() -> [KeyTable] {
        var seen: [String: KeyTable] = [:]
        func walk(_ shape: ValueShape) {
            switch shape {
            case .object(let t): visit(t)
            case .list(let s), .dictionary(_, let s): walk(s)
            case .either(let shapes): shapes.forEach(walk)
            default: break
            }
        }
        func visit(_ t: KeyTable) {
            guard seen[t.name] == nil else { return }
            seen[t.name] = t
            for key in t.keys { walk(key.value) }
        }
        for t in [
            SuiteKeys.suite, SuiteKeys.includedWorld, SuiteKeys.stepKeywords, SuiteKeys.stepModifiers, SuiteKeys.send,
            SuiteKeys.fcmSend,
        ] {
            visit(t)
        }
        return seen.values.sorted { $0.name < $1.name }
    }

    @Test func everyKeyHasOneLineSayingWhatItIs() {
        let tables = Self.tables()
        #expect(tables.count > 40)
        for table in tables {
            #expect(Set(table.names).count == table.names.count, "\(table.name): a key twice")
            for key in table.keys + [TableKey(table.name, .text, table.summary)] {
                #expect(!key.summary.isEmpty && !key.summary.contains("\n"), "\(table.name).\(key.name)")
                #expect(key.summary.hasSuffix("."), "\(table.name).\(key.name): \(key.summary)")
            }
        }
    }

    static var document: [String: JSONValue] { SuiteSchema.document().objectValue ?? [:] }
    static func def(_ name: String) -> JSONValue? { document["$defs"]?[name] }
    static func propertyNames(_ schema: JSONValue?) -> Set<String> {
        Set(schema?["properties"]?.objectValue?.keys.map { $0 } ?? [])
    }
    static func constants(_ schema: JSONValue?) -> [String] {
        (schema?["anyOf"]?.arrayValue ?? []).compactMap { $0["const"]?.stringValue }
    }

    @Test func everyCheckFieldAndMatcherIsInTheSchema() throws {
        let expect = Self.def("expect")
        #expect(Self.propertyNames(expect) == Set(ExpectKey.names))
        let fields = expect?["properties"]
        #expect(Self.propertyNames(fields?["notification"]) == Set(NotificationField.names))
        #expect(Self.propertyNames(fields?["navigation"]) == Set(NavigationField.names))
        #expect(Self.propertyNames(fields?["page"]) == Set(PageField.names))
        #expect(Self.propertyNames(fields?["extensions"]) == Set(ExtensionField.names))
        #expect(Self.propertyNames(fields?["exactly"]) == Set(WholeObject.names))
        let callbacks = fields?["callback"]
        #expect(Self.propertyNames(callbacks) == Set(AppCallback.Kind.allCases.map(\.rawValue)))
        for kind in AppCallback.Kind.allCases {
            #expect(Self.propertyNames(callbacks?["properties"]?[kind.rawValue]) == Set(CallbackField.names(for: kind)))
        }
        #expect(Self.propertyNames(Self.def("matcher")) == Set(ExpectationDecoder.MatcherKey.names))
        // Each check key says what it checks, from SuiteTables.swift.
        #expect(fields?["status"]?["description"]?.stringValue == ExpectKey.status.summary)
    }

    @Test func everyStepCaptureSourceAndVariableIsInTheSchema() throws {
        let step = try #require(Self.def("step")?["anyOf"]?.arrayValue)
        #expect(Self.constants(step[0]).sorted() == StepDecoder.bareKeywords.sorted())
        #expect(Self.propertyNames(step[1]) == Set(StepDecoder.keywords + StepDecoder.modifiers))
        let sources = Set(
            ["Send", "Run", "Device"].flatMap { Self.constants(Self.def("captureSourceFrom" + $0)) })
        let expected =
            SendCapture.allCases.map(\.rawValue) + FCMSendCapture.allCases.map(\.rawValue)
            + RunCapture.allCases.map(\.rawValue) + DeviceVariable.allCases.map(\.rawValue)
        #expect(sources == Set(expected))
        let variables = Self.constants(Self.def("variables"))
        for v in FixtureVariable.allCases { #expect(variables.contains("${fixture.\(v.rawValue)}")) }
        for v in GatewayVariable.allCases { #expect(variables.contains("${gateway.\(v.rawValue)}")) }
        let patterns = (Self.def("variables")?["anyOf"]?.arrayValue ?? []).compactMap { $0["pattern"]?.stringValue }
        for v in DeviceVariable.allCases { #expect(patterns.contains { $0.contains("\\.\(v.rawValue)\\}") }) }
    }

    /// The decoders take their keys from the same tables: the unknown-key message lists exactly a table's keys.
    @Test(arguments: [
        ("world: { apps: [{ bundle_id: a, zzz: 1 }] }\nscenarios: [{ name: t, steps: [reboot] }]", "app"),
        ("world: { devices: [{ name: d, udid: u, zzz: 1 }] }\nscenarios: [{ name: t, steps: [reboot] }]", "device"),
        ("world: { gateway: { apns: { zzz: 1 } } }\nscenarios: [{ name: t, steps: [reboot] }]", "apns"),
        ("world: { gateway: { fcm: { zzz: 1 } } }\nscenarios: [{ name: t, steps: [reboot] }]", "fcm"),
        ("scenarios: [{ name: t, steps: [{ send: { payload: {}, zzz: 1 } }] }]", "send"),
        ("scenarios: [{ name: t, zzz: 1, steps: [reboot] }]", "scenario"),
    ])
    func theDecodersListTheTablesKeys(_ text: String, _ table: String) throws {
        let error = try #require(try Support.loadError(text))
        let keys = try #require(Self.tables().first { $0.name == table }).names
        #expect(error.kind == .unknownKey, "\(error)")
        #expect(error.expected == "expected one of: " + keys.joined(separator: ", "), "\(error)")
    }

    /// The decoders of what a suite file holds (its world's apps, devices and gateways too) take their key lists and
    /// their fixed values from the tables: a literal list in a decoder would be a key the schema does not know.
    @Test func noDecoderOfSuiteFilesWritesItsKeysTwice() throws {
        let directories = ["SuiteFormat", "DeviceSimulator", "APNsGateway", "FCMGateway", "DeviceBridge/World"]
        for directory in directories {
            let path = SuiteFiles.root + "/Sources/" + directory
            let files = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { $0.hasSuffix(".swift") && !$0.hasSuffix("Keys.swift") }
            for file in files {
                let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
                for literal in text.matches(of: /(allowed|allowedKeys): \[|oneOf: \[|oneOf\(\[/) {
                    let line = text[..<literal.range.lowerBound].split(
                        separator: "\n", omittingEmptySubsequences: false
                    )
                    .count
                    Issue.record("\(directory)/\(file):\(line): a literal key or value list; declare it in a KeyTable")
                }
            }
        }
    }

    /// Every file of the broken corpus fails to load with the error its first line names (`# loader:
    /// [file:]line:col: message`), the same the schema test expects the CLI to print.
    @Test func theBrokenCorpusFailsWhereItSays() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.brokenDirectory)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 15)
        for name in files {
            let path = Self.brokenDirectory + "/" + name
            let header = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")[0]
            let want = try #require(header.firstMatch(of: /^# loader: (?:(\S+\.yaml):)?(\d+):(\d+): (.+)$/), "\(name)")
            let file = want.1.map { Self.brokenDirectory + "/" + $0 } ?? path
            do {
                _ = try SuiteLoader.load(path: path)
                Issue.record("\(name) loaded")
            } catch {
                let got = "\(error.range.file):\(error.line):\(error.column): \(error.message)"
                #expect(got == "\(file):\(want.2):\(want.3): \(want.4)", "\(name)")
            }
        }
    }

    @Test func aMappingForOneValueMustBeAMatcher() throws {
        let send = "- send: { to: iphone, payload: { aps: { alert: Hi } } }\n        "
        func error(_ expect: String) throws -> SourceError? {
            try Support.loadError("scenarios:\n  - name: t\n    steps:\n      \(send)expect: \(expect)\n")
        }
        let typo = try #require(try error("{ status: { equal: 200 } }"))
        #expect(typo.kind == .unknownKey && typo.message == "unknown matcher 'equal'")
        #expect(typo.suggestion == "did you mean 'equals'?")
        #expect(try error("{ navigation: { stack: { containz: detail } } }")?.message == "unknown matcher 'containz'")
        #expect(try error("{ status: {} }")?.kind == .invalidValue)
        // An object is a value where the observed value may be one.
        #expect(try error("{ user_info: { order: { id: A1 } } }") == nil)
        #expect(try error("{ callback: { willPresent: { user_info: { order: { id: A1 } } } } }") == nil)
        #expect(try error("{ status: { not: { equals: 410 } }, callbacks: { contains: willPresent } }") == nil)
        #expect(try error("{ status: { not: { equal: 410 } } }")?.message == "unknown matcher 'equal'")
    }

    /// A JSON file names its schema with `$schema:` (a YAML file with a comment); the loader ignores it.
    @Test func aSuiteOrAWorldFileMayNameItsSchema() throws {
        let world = #"{ "$schema": "../suite.schema.json", "apps": [] }"#
        let suite = """
            { "$schema": "suite.schema.json", "world": { "include": "apps/world.json" },
              "scenarios": [{ "name": "t", "steps": ["reboot"] }] }
            """
        let path = try Support.write(suite, name: "suite.json", extra: ["apps/world.json": world])
        #expect(try Support.load(path).scenarios.count == 1)
    }
}
