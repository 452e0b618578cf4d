@testable import PushModel
import Testing

@testable import APNsGateway

/// The gateway's quick payload scan may only accept what the full grammar (`JSONValue.isValidObject`) accepts;
/// whatever it does not accept goes to the full grammar, so the verdict never changes.
struct PlainJSONObjectScanTests {
    static let documents = [
        #"{"aps":{"alert":{"title":"bench","body":"hello"},"badge":1},"url":"https://example.com/a"}"#,
        #"{}"#, #"  { "a" : [ 1 , -2.5e3 , true , false , null , "x" ] }  "#, #"{"a":1e400}"#, #"{"a":-0}"#,
        #"{"é":"ü😀","esc":"\u00e9\ud83d\ude00\/\n\t\"\\"}"#, #"{"a":{"b":{"c":[[[]]]}}}"#, #"{"a":1,"a":2}"#,
        #"{"a":[],"b":{},"c":[{}],"d":0.5E+2,"e":-1e-2,"f":"~\u{7F}"}"#,
        // not objects, or not JSON
        #"[]"#, #""text""#, #"1"#, #"null"#, "", " ", "{", "}", #"{"a":}"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{'a':1}"#,
        #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":tru}"#, #"{"a":"\x"}"#, #"{"a":"\ud83d"}"#,
        "{\"a\":\"\u{1}\"}", #"{"a":1}x"#, #"{"a":1} {"#, #"{"a":[1 2]}"#, #"{1:2}"#, #"{"a":"unterminated}"#,
        #"{"a":-}"#, #"{"a":1e}"#, #"{"a":"\u12"}"#, #"{"a":[1,]}"#, #"{,}"#, #"{"a":nul}"#, #"{"a":--1}"#,
    ]

    @Test(arguments: documents)
    func acceptsOnlyWhatTheFullGrammarAccepts(_ text: String) {
        let bytes = Array(text.utf8)
        if PlainJSONObjectScan.accepts(bytes) { #expect(JSONValue.isValidObject(bytes), "\(text)") }
    }

    @Test func acceptsTheUsualPayloads() {
        for text in [
            #"{"aps":{"alert":{"title":"bench","body":"hello"},"badge":1},"url":"https://example.com/a"}"#,
            #"{"aps":{"content-available":1}}"#, #" {"aps":{"alert":"hi","sound":"default","badge":0}} "#,
            #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"v":[1,2.5,-3e2]}}}"#,
        ] {
            #expect(PlainJSONObjectScan.accepts(Array(text.utf8)), "\(text)")
        }
    }

    @Test func leavesDeepNestingToTheFullGrammar() {
        let deep = String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40)
        #expect(!PlainJSONObjectScan.accepts(Array(deep.utf8)))
        #expect(JSONValue.isValidObject(Array(deep.utf8)))
    }

    /// Strings long enough for the eight-bytes-at-a-time path: one byte of a plain run, at every position of runs of
    /// 0 to 40 bytes, set to each byte value. The scan accepts exactly when every byte of the string is plain
    /// printable ASCII other than `"` and `\` (a quote ends the string early, so the rest must read as JSON), and
    /// never what the full grammar refuses.
    @Test func readsLongStringsByteForByteAsTheShortPath() {
        for length in 0...40 {
            for position in 0..<max(length, 1) where length > 0 || position == 0 {
                for value in UInt8.min...UInt8.max {
                    var run = [UInt8](repeating: UInt8(ascii: "m"), count: length)
                    if length > 0 { run[position] = value }
                    let document = Array(#"{"k":""#.utf8) + run + Array(#""}"#.utf8)
                    let plain = run.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }
                    let accepted = PlainJSONObjectScan.accepts(document)
                    if value == 0x22 && length > 0 {
                        // The string ends at the quote; whatever follows decides (`"}` right after it is valid).
                        if accepted { #expect(JSONValue.isValidObject(document)) }
                    } else {
                        #expect(accepted == plain, "length \(length), byte \(value) at \(position)")
                    }
                    if accepted { #expect(JSONValue.isValidObject(document)) }
                }
            }
        }
    }

    /// Every one-byte change of a few documents (each byte set to each of a set of significant values, and
    /// removed): the scan never accepts a document the full grammar refuses.
    @Test func neverAcceptsAMutationTheFullGrammarRefuses() {
        let seeds = [
            #"{"aps":{"alert":{"title":"t","body":"b"},"badge":12},"n":[-0.5e+3,true,null,false],"s":"x"}"#,
            #"{"a":[{}],"b":{"c":[]},"d":10}"#,
        ]
        let values: [UInt8] = Array(#"{}[]":,"-+.eE0123456789tfnlrsu \ax"#.utf8) + [0x00, 0x09, 0x0A, 0x7F, 0x80, 0xC3]
        for seed in seeds {
            let base = Array(seed.utf8)
            for i in base.indices {
                var removed = base
                removed.remove(at: i)
                if PlainJSONObjectScan.accepts(removed) { #expect(JSONValue.isValidObject(removed)) }
                for v in values {
                    var b = base
                    b[i] = v
                    if PlainJSONObjectScan.accepts(b) {
                        #expect(JSONValue.isValidObject(b), "\(String(decoding: b, as: UTF8.self))")
                    }
                }
            }
        }
    }
}
