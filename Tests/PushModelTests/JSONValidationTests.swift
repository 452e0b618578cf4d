import Testing

@testable import PushModel

/// `JSONValue.isValidObject` (the gateway's per-push check) must accept exactly what `parse` accepts as an object.
struct JSONValidationTests {
    static let documents = [
        #"{"aps":{"alert":{"title":"bench","body":"hello"},"badge":1},"url":"https://example.com/a"}"#,
        #"{}"#, #"  { "a" : [ 1 , -2.5e3 , true , false , null , "x" ] }  "#, #"{"a":1e400}"#, #"{"a":-0}"#,
        #"{"é":"ü😀","esc":"\u00e9\ud83d\ude00\/\n\t\"\\"}"#, #"{"a":{"b":{"c":[[[]]]}}}"#, #"{"a":1,"a":2}"#,
        // not objects, or not JSON
        #"[]"#, #""text""#, #"1"#, #"null"#, "", " ", "{", "}", #"{"a":}"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{'a':1}"#,
        #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":tru}"#, #"{"a":"\x"}"#, #"{"a":"\ud83d"}"#,
        "{\"a\":\"\u{1}\"}", #"{"a":1}x"#, #"{"a":1} {"#, #"{"a":[1 2]}"#, #"{1:2}"#, #"{"a":"unterminated}"#,
        #"{"a":-}"#, #"{"a":1e}"#, #"{"a":"\u12"}"#,
    ]

    @Test(arguments: documents)
    func agreesWithParse(_ text: String) {
        let bytes = Array(text.utf8)
        let parsedObject: Bool
        if case .object = try? JSONValue.parse(bytes) { parsedObject = true } else { parsedObject = false }
        #expect(JSONValue.isValidObject(bytes) == parsedObject, "\(text)")
    }

    @Test func invalidUTF8IsRefused() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(JSONValue.isValidObject(bytes) == false)
        #expect((try? JSONValue.parse(bytes)) == nil)
    }

    @Test func deepNestingIsRefusedLikeParse() {
        let deep = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
        #expect(JSONValue.isValidObject(Array(deep.utf8)) == false)
        #expect((try? JSONValue.parse(deep)) == nil)
    }
}
