@testable import PushModel
import Testing
@testable import YAMLSource

@Suite struct JSONTextTests {
    @Test func yamlPayloadBecomesJSONInWrittenOrder() throws {
        let text = """
            aps:
              alert: {title: 確認, body: "入力内容が保存されていません。\\n編集を終了しますか？"}
              badge: 1
              mutable-content: 1
              sound: ~
            url: https://example.com/a?b=1
            ratio: 2.5
            whole: 3.0
            quoted: '42'
            flags: [true, false]
            """
        let json = try load(text).mapping().required("aps", as: YAMLNode.self).jsonText()
        #expect(
            json
                == #"{"alert":{"title":"確認","body":"入力内容が保存されていません。\n編集を終了しますか？"},"badge":1,"mutable-content":1,"sound":null}"#
        )
        let root = try load(text)
        #expect(try root["url"]?.jsonText() == #""https://example.com/a?b=1""#)
        #expect(try root["ratio"]?.jsonText() == "2.5")
        #expect(try root["whole"]?.jsonText() == "3")
        #expect(try root["quoted"]?.jsonText() == #""42""#)
        #expect(try root["flags"]?.jsonText() == "[true,false]")
    }

    @Test func controlCharactersAreEscaped() throws {
        let root = try load("s: \"a\\tb\\u0001\\\\\\\"\"\n")
        #expect(try root["s"]?.jsonText() == #""a\tb\u0001\\\"""#)
    }

    /// The payload a suite writes in YAML is the JSON the gateways would write: one string escaper and one
    /// number writer (PushModel's), so a string or number reads back the same whichever side wrote it.
    @Test func stringsAndNumbersAreWrittenAsJSONValueWritesThem() throws {
        let root = try load("s: \"\\b\\f\\n\\u2028/é\"\nbig: 1.0e15\nsmall: 0.5\n")
        for key in ["s", "big", "small"] {
            let text = try #require(try root[key]?.jsonText())
            #expect(text == (try JSONValue.parse(text)).serialized(), "\(key): \(text)")
        }
        #expect(try root["s"]?.jsonText() == "\"\\u0008\\u000c\\n\u{2028}/é\"")
        #expect(try root["big"]?.jsonText() == "1000000000000000")
    }

    @Test func infinityIsRejectedAtTheScalar() throws {
        let root = try load("a: .inf\n")
        let error = expectError { try root.jsonText() }
        #expect(error?.kind == .invalidValue)
        #expect(error?.column == 4)
    }
}
