import Testing
@testable import YAMLSource

enum APNsEnvironment: String, CaseIterable, YAMLDecodable {
    case sandbox, production
}

@Suite struct DecodingTests {
    let config = """
        team_id: ABCDE12345
        port: 2197
        ratio: 0.5
        verbose: true
        environment: production
        timeout: 250ms
        max_payload: 4KB
        tags: [smoke, fcm]
        env:
          API_URL: https://127.0.0.1
          RETRIES: 3
        faults:
          drop: 2
        empty:
        """

    @Test func typedAccessorsReadEveryKind() throws {
        let m = try load(config).mapping()
        #expect(try m.required("team_id", as: String.self) == "ABCDE12345")
        #expect(try m.required("port", as: Int.self) == 2197)
        #expect(try m.required("port", as: Double.self) == 2197)
        #expect(try m.required("ratio", as: Double.self) == 0.5)
        #expect(try m.required("verbose", as: Bool.self))
        #expect(try m.required("environment", as: APNsEnvironment.self) == .production)
        #expect(try m.required("timeout", as: Duration.self) == .milliseconds(250))
        #expect(try m.required("max_payload", as: ByteSize.self) == ByteSize(bytes: 4096))
        #expect(try m.required("tags", as: [String].self) == ["smoke", "fcm"])
        #expect(try m.required("env", as: [String: String].self) == ["API_URL": "https://127.0.0.1", "RETRIES": "3"])
        #expect(try m.optionalMapping("faults", allowedKeys: ["drop", "delay"])?.required("drop", as: Int.self) == 2)
        #expect(try m.required("port", as: YAMLNode.self).range.start == SourcePosition(line: 2, column: 7))
    }

    @Test func absentAndNullOptionalsAreNil() throws {
        let m = try load(config).mapping()
        #expect(try m.optional("missing", as: Int.self) == nil)
        #expect(try m.optional("empty", as: Int.self) == nil)
        #expect(try m.optional("empty", as: Int.self, default: 7) == 7)
        #expect(try m.optionalMapping("empty") == nil)
        #expect(try m.optionalSequence("empty") == nil)
        #expect(try m.optional("missing", oneOf: ["a"]) == nil)
        #expect(m.contains("empty"))
        #expect(!m.contains("missing"))
        #expect(m.keys.first == "team_id")
    }

    @Test func unknownKeySuggestionSkipsKeysAlreadyPresent() throws {
        let node = try load("send: x\nsnd: y\n")
        let error = expectError { try node.mapping(allowedKeys: ["send", "expect"]) }
        #expect(error?.kind == .unknownKey)
        #expect(error?.line == 2)
        #expect(error?.suggestion == nil)
    }

    @Test func unknownKeyWithoutCloseMatchHasNoSuggestion() throws {
        let error = expectError { try load("zzz: 1\n").mapping(allowedKeys: ["send", "expect"]) }
        #expect(error?.expected == "expected one of: send, expect")
        #expect(error?.suggestion == nil)
    }

    @Test func caseIterableEnumSuggests() throws {
        let m = try load("environment: sandbx\n").mapping()
        let error = expectError { try m.required("environment", as: APNsEnvironment.self) }
        #expect(error?.message == "invalid value 'sandbx' for 'environment'")
        #expect(error?.suggestion == "did you mean 'sandbox'?")
    }

    @Test func sequenceItemErrorsPointAtTheItem() throws {
        let m = try load("ports: [1, 2, x]\n").mapping()
        let error = expectError { try m.required("ports", as: [Int].self) }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.column == 15)
        #expect(error?.message == "wrong type")  // the item, not the key, is wrong
        #expect(error?.expected == "expected an integer, found the string 'x'")
    }

    @Test func boolRejectsYAML11Words() throws {
        let m = try load("a: yes\nb: off\nc: 1\n").mapping()
        #expect(expectError { try m.required("a", as: Bool.self) }?.suggestion == "write 'true'")
        #expect(expectError { try m.required("b", as: Bool.self) }?.suggestion == "write 'false'")
        #expect(
            expectError { try m.required("c", as: Bool.self) }?.expected
                == "expected a boolean (true or false), found the integer 1")
    }

    @Test func foundDescriptions() throws {
        let root = try load("s: abc\ni: 42\nf: 1.5\nb: false\nn: ~\nm: {}\nq: []\n")
        #expect(
            ["s", "i", "f", "b", "n", "m", "q"].map { root[$0]?.foundDescription ?? "" } == [
                "the string 'abc'", "the integer 42", "the number 1.5", "the boolean false", "null", "a mapping",
                "a sequence",
            ])
    }

    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)), ("2s", .seconds(2)), ("1.5s", .milliseconds(1500)),
        ("5m", .seconds(300)), ("1h", .seconds(3600)), ("100us", .microseconds(100)), ("10ns", .nanoseconds(10)),
        ("0", .zero), ("\"2s\"", .seconds(2)),
    ])
    func durations(text: String, expected: Duration) throws {
        #expect(try load("d: \(text)\n").mapping().required("d", as: Duration.self) == expected)
    }

    @Test(arguments: ["2", "-1s", "2 secs", "ms", "1.5", "s5", "~"])
    func badDurations(text: String) throws {
        let m = try load("d: \(text)\n").mapping()
        #expect(expectError { try m.required("d", as: Duration.self) } != nil)
    }

    @Test(arguments: [
        ("4096", 4096), ("4KB", 4096), ("4 KiB", 4096), ("4k", 4096), ("1MB", 1_048_576), ("2G", 2_147_483_648),
        ("512B", 512), ("0.5KB", 512),
    ])
    func byteSizes(text: String, expected: Int) throws {
        #expect(try load("s: \(text)\n").mapping().required("s", as: ByteSize.self).bytes == expected)
    }

    @Test(arguments: ["-1", "4 kilos", "KB", "x", "1e30GB"])
    func badByteSizes(text: String) throws {
        let m = try load("s: \(text)\n").mapping()
        #expect(expectError { try m.required("s", as: ByteSize.self) } != nil)
    }

    @Test func exactlyOne() throws {
        let steps = try load("- send: x\n- run: y\n- name: z\n").sequence()
        #expect(try steps[0].mapping().exactlyOne(of: ["send", "expect", "run"]) == "send")
        #expect(try steps[1].mapping().exactlyOne(of: ["send", "expect", "run"]) == "run")
        let error = expectError { try steps[2].mapping().exactlyOne(of: ["send", "expect", "run"]) }
        #expect(error?.kind == .missingKey)
        #expect(error?.line == 3)
    }

    @Test func nonScalarKeysAreRejected() {
        let error = expectError { try load("? [a, b]\n: 1\n") }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.message == "a mapping key must be a scalar")
    }

    @Test func spelling() {
        #expect(Spelling.closest(to: "expcet", in: ["send", "expect", "run"]) == "expect")
        #expect(Spelling.closest(to: "prod", in: ["sandbox", "production"]) == "production")
        #expect(Spelling.closest(to: "TEAM_ID", in: ["team_id"]) == "team_id")
        #expect(Spelling.closest(to: "xyz", in: ["send", "expect"]) == nil)
        #expect(Spelling.distance("expcet", "expect") == 1)
        #expect(Spelling.distance("kitten", "sitting") == 3)
    }
}
