import Testing
@testable import YAMLSource

@Suite struct ScalarTypingTests {
    @Test(arguments: [
        ("~", YAMLValue.null), ("null", .null), ("Null", .null), ("NULL", .null), ("", .null),
        ("true", .bool(true)), ("True", .bool(true)), ("FALSE", .bool(false)),
        ("yes", .string("yes")), ("no", .string("no")), ("on", .string("on")),
        ("42", .int(42)), ("-7", .int(-7)), ("+3", .int(3)), ("0x1F", .int(31)), ("0o17", .int(15)),
        ("007", .int(7)), ("1.5", .float(1.5)), ("-.5", .float(-0.5)), (".5", .float(0.5)), ("1.", .float(1)),
        ("2.5e3", .float(2500)), ("1E-2", .float(0.01)), (".inf", .float(.infinity)), ("-.Inf", .float(-.infinity)),
        ("99999999999999999999", .float(1e20)), ("0x", .string("0x")), ("1_000", .string("1_000")),
        ("12:30", .string("12:30")), ("1e5x", .string("1e5x")), ("e5", .string("e5")), ("-", .string("-")),
        ("abc", .string("abc")),
    ])
    func plainScalarsFollowTheCoreSchema(text: String, expected: YAMLValue) {
        #expect(YAMLValue.resolve(YAMLScalar(text)) == expected, "\(text)")
    }

    @Test func nanIsAFloat() {
        guard case .float(let d) = YAMLValue.resolve(YAMLScalar(".nan")) else {
            Issue.record("not a float")
            return
        }
        #expect(d.isNaN)
    }

    @Test func quotedScalarsAreAlwaysStrings() throws {
        let root = try load("a: '42'\nb: \"true\"\nc: 'null'\nd: |\n  12\ne: 42\n")
        #expect(root["a"]?.value == .string("42"))
        #expect(root["b"]?.value == .string("true"))
        #expect(root["c"]?.value == .string("null"))
        #expect(root["d"]?.value == .string("12\n"))
        #expect(root["e"]?.value == .int(42))
    }

    @Test func explicitTagsOverridePlainTyping() {
        #expect(YAMLValue.resolve(YAMLScalar("42"), tag: "tag:yaml.org,2002:str") == .string("42"))
        #expect(YAMLValue.resolve(YAMLScalar("42", style: .doubleQuoted), tag: "tag:yaml.org,2002:int") == .int(42))
        #expect(YAMLValue.resolve(YAMLScalar("3"), tag: "tag:yaml.org,2002:float") == .float(3))
        #expect(YAMLValue.resolve(YAMLScalar("true"), tag: "!") == .string("true"))
    }
}
