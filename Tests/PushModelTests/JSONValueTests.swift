import Testing

@testable import PushModel

@Suite struct JSONValueTests {
    @Test func parsesAndLooksUpPaths() throws {
        let v = try JSONValue.parse(
            #"{"aps":{"alert":{"title":"Hi","body":"there"},"badge":3},"items":[{"id":"x"},2.5,null,true]}"#)
        #expect(v[path: "aps.alert.title"] == "Hi")
        #expect(v[path: "aps.badge"]?.intValue == 3)
        #expect(v[path: "items.0.id"] == "x")
        #expect(v[path: "items.1"]?.doubleValue == 2.5)
        #expect(v[path: "items.2"] == .null)
        #expect(v[path: "items.3"]?.boolValue == true)
        #expect(v[path: "items.9"] == nil)
        #expect(v[path: "aps.missing"] == nil)
        #expect(v[path: "aps.badge.deeper"] == nil)
        #expect(v[path: ""] == v)
    }

    @Test func serializesWithSortedKeys() throws {
        let v: JSONValue = ["b": 1, "a": ["z": true, "y": nil], "c": "q\"\n\u{1}", "d": 1.5, "e": [1, -2]]
        #expect(v.serialized() == #"{"a":{"y":null,"z":true},"b":1,"c":"q\"\n\u0001","d":1.5,"e":[1,-2]}"#)
        #expect(try JSONValue.parse(v.serialized()) == v)
    }

    @Test func unicodeEscapes() throws {
        #expect(try JSONValue.parse(#""\u00e9\ud83d\ude00\/""#) == .string("é😀/"))
        #expect(try JSONValue.parse(Array("\"é\"".utf8)) == .string("é"))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "tru", "\"abc", "{\"a\":1}x", "\"\\ud83d\"", "[1 2]", "\"\u{1}\"",
        "{1:2}", "-", "1e",
    ])
    func rejectsInvalid(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func numbers() throws {
        #expect(try JSONValue.parse("-0.5e2") == .number(-50))
        #expect(try JSONValue.parse("1234567890123").serialized() == "1234567890123")
        #expect(JSONValue.number(0.25).serialized() == "0.25")
    }

    /// The exact-integer case is boxed: an inline Int128 would align every JSONValue (in every array and object the
    /// runner and the device hold) to 16 bytes, a stride of 32 instead of 24.
    @Test func theExactIntegerCaseDoesNotWidenEveryValue() {
        #expect(MemoryLayout<JSONValue>.stride == 24)
        #expect(MemoryLayout<JSONValue>.alignment == 8)
    }

    /// An integer a Double would round (beyond ±2^53) keeps its exact value when it fits 64 bits, as iOS's
    /// JSONSerialization keeps it in an NSNumber: parsed, written back and compared exactly. Integers a Double holds
    /// exactly stay `.number` (one representation per value), and ordinary numbers are written as before.
    @Test func integersBeyondDoublePrecisionStayExact() throws {
        let texts = ["1234567890123456789", "9007199254740993", "-9223372036854775807", "18446744073709551615"]
        for text in texts {
            let v = try JSONValue.parse(Array(#"{"nid":\#(text)}"#.utf8))
            #expect(v.serialized() == #"{"nid":\#(text)}"#)
            #expect(v["nid"] == .integer(Int128(text)!))
            #expect(v.prettySerialized().contains(text))
        }
        #expect(try JSONValue.parse("9007199254740993") != JSONValue.parse("9007199254740992"))
        #expect(try JSONValue.parse("9007199254740992") == .number(9_007_199_254_740_992), "2^53 is exact")
        #expect(try JSONValue.parse("1152921504606846976") == .number(1_152_921_504_606_846_976), "2^60 is exact")
        #expect(
            try JSONValue.parse("18446744073709551616") == .number(18_446_744_073_709_551_616), "past UInt64: Double")
        #expect(try JSONValue.parse("1.0").serialized() == "1" && JSONValue.number(1e20).serialized() == "1e+20")
        #expect(try JSONValue.parse("9007199254740993").intValue == 9_007_199_254_740_993)
    }

    @Test func rejectsDeepNesting() {
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    }

    /// Integers up to 15 digits are converted without `Double(_:)`; every number still reads as `Double(text)` does.
    @Test func numbersReadAsDoubleReadsThem() throws {
        let texts = [
            "0", "-0", "7", "-7", "123456789012345", "-999999999999999", "1234567890123456", "98765432109876543210",
            "1e2", "-1E-2", "1.5", "0.1", "10.0",
        ]
        for text in texts {
            let v = try JSONValue.parse(text)
            #expect(v == .number(Double(text)!), "\(text)")
            #expect(v.doubleValue?.sign == Double(text)!.sign, "\(text)")
        }
        // Writing and characters stay as before: strings that need escapes and ones that need none.
        #expect(JSONValue.string("plain ascii / é").serialized() == "\"plain ascii / é\"")
        #expect(JSONValue.string("q\"b\\n\nc\u{1}").serialized() == #""q\"b\\n\nc\u0001""#)
    }

    @Test func everyEscapeIsWrittenAndReadBack() throws {
        // Escapes first, last, side by side and between runs of plain and non-ASCII text, and every control byte.
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let texts = [
            "\n", "\nline\n", "a\"b\\c", "\\\\\"\"", "é\tü\r\n日本", "  [iphone] push received\n  passed\n", controls,
            controls + "x" + controls, "\u{7f}\u{1f}end",
        ]
        for text in texts {
            var out: [UInt8] = [UInt8(ascii: "x")]
            JSONValue.writeString(text, into: &out)
            #expect(out.first == UInt8(ascii: "x"), "what was there is kept")
            let written = String(decoding: out.dropFirst(), as: UTF8.self)
            #expect(try JSONValue.parse(written) == .string(text), "\(written)")
            #expect(!written.utf8.dropFirst().dropLast().contains { $0 < 0x20 }, "\(written)")
        }
        var out: [UInt8] = []
        JSONValue.writeString("a\u{1}\u{1f}\\", into: &out)
        #expect(String(decoding: out, as: UTF8.self) == #""a\u0001\u001f\\""#)
    }
}
