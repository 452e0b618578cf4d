import HTTPServer
import HTTPTypes
import PushModel
import Testing

@testable import FCMGateway

/// The send path's own writers and readers against the general ones they stand in for: the same values, the
/// same bytes.
@Suite struct FCMHotPathTests {
    static let values = [
        #"{}"#, #"{"aps":{"badge":1}}"#, #"{"aps":{"badge":-0,"sound":"default"},"n":0}"#,
        #"{ "a" : [ 1 , -2 , 0 , 123456789012345 , true , false , null , [ ] , { } ] , "b" : "x" }"#,
        #"{"k":1,"k":2}"#, #"{"é":"ü","e":"z","E":"🎉","":""}"#, #"{"deep":{"a":{"b":{"c":{"d":[[[1]]]}}}}}"#,
        // Left to the parser: fractions, exponents, long or zero-led numbers, escapes, bad literals, bad JSON.
        #"{"x":2.5}"#, #"{"x":1e3}"#, #"{"x":1E3}"#, #"{"x":1234567890123456}"#, #"{"x":01}"#, #"{"x":-}"#,
        #"{"x":"a\"b"}"#, #"{"x":"\u00e9"}"#, #"{"x":tru}"#, #"{"x":nul}"#, #"{"x":1,}"#, #"{"x" 1}"#, #"{"x":[1,]}"#,
        #"{"x":1"#, #"[1,2]"#, #""s""#, #"{"x":12a}"#,
    ]

    @Test func thePayloadReaderReadsWhatTheParserReadsOrLeavesIt() {
        for text in Self.values {
            let bytes = Array(text.utf8)
            let fast: JSONValue? = bytes.withUnsafeBufferPointer { b in
                var r = FCMSendFastReader.Reader(b: b)
                guard let v = r.value(depth: 0) else { return nil }
                r.ws()
                return r.atEnd ? v : nil
            }
            if let fast {
                #expect(fast == (try? JSONValue.parse(bytes)), "\(text)")
                #expect(fast.serializedBytes() == (try? JSONValue.parse(bytes))?.serializedBytes(), "\(text)")
            }
        }
        // What it reads itself.
        for text in Self.values.prefix(7) {
            let read = Array(text.utf8).withUnsafeBufferPointer { b in
                var r = FCMSendFastReader.Reader(b: b)
                return r.value(depth: 0)
            }
            #expect(read != nil, "\(text)")
        }
        // -0 stays -0.0, as the parser reads it.
        let minusZero = Array(#"[-0]"#.utf8).withUnsafeBufferPointer { b in
            var r = FCMSendFastReader.Reader(b: b)
            return r.value(depth: 0)
        }
        if case .array(let a)? = minusZero, case .number(let d) = a[0] {
            #expect(d == 0 && d.sign == .minus)
        } else {
            Issue.record("[-0] not read")
        }
    }

    @Test func theTranslationsWriterWritesWhatSerializedBytesWrites() throws {
        var more = Self.values.compactMap { try? JSONValue.parse(Array($0.utf8)) }
        more += [
            .number(-0.0), .number(1e300), .number(-2.5), .number(8_999_999_999_999_998), .number(9.1e15),
            .number(.infinity), .number(-.nan), .number(-9_007_199_254_740_992), .number(0.1), .string("\u{1}\n\"\\"),
            .object(["b": .null, "a": .bool(true), "ab": .array([.number(3), .string("é")]), "B": .number(-7)]),
        ]
        for v in more {
            var out: [UInt8] = []
            FCMTranslation.writeJSON(v, into: &out)
            #expect(out == v.serializedBytes(), "\(v)")
        }
        for n: Int64 in [0, 1, -1, 9, 10, -10, 99, 100, 1_234_567_890, -8_999_999_999_999_999, .max, .min + 1] {
            var out: [UInt8] = []
            FCMTranslation.writeInteger(n, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(n))
        }
    }

    @Test func keysSortByTheirUTF8Bytes() {
        let keys = ["b", "a", "", "é", "e", "E", "ab", "a\u{0}", "🎉", "z", "Z", "aa", "gcm.message_id", "google.c.a.e"]
        var members = keys.map { (key: $0, value: 0) }
        FCMTranslation.sortByKeyBytes(&members)
        #expect(members.map(\.key) == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// The bearer's verdict is remembered per header value: a second send with the same header, an unknown
    /// token, a missing header and a malformed one answer as the first time.
    @Test func aRememberedBearerAnswersAsBefore() throws {
        let w = World()
        let token = w.bearer()
        let message = #"{"token":"\#(Fixture.tokenA)","notification":{"title":"t"}}"#
        func send(_ authorization: String?) -> HTTPResponse {
            let headers = authorization.map { [HTTPField("authorization", $0)] } ?? []
            return w.fcm.evaluate(
                w.request(
                    "POST", "/v1/projects/demo-project/messages:send", json: #"{"message":\#(message)}"#, bearer: nil,
                    headers: headers))
        }
        for _ in 0..<3 { #expect(send("Bearer \(token)").status == 200) }
        for header in ["Bearer nope", "Basic abc", "Bearer ", nil] {
            let first = send(header), second = send(header)
            #expect(first.status == second.status && first.body == second.body, "\(header ?? "none")")
        }
        #expect(send("bearer  \(token)  ").status == 200)
        #expect(send("Bearer nope").status == 401)
        #expect(send("Basic abc").status == 401)
        #expect(send(nil).status == 401)
        // An account that may not use the project: refused every time.
        let other = w.bearer(Fixture.otherEmail)
        #expect(send("Bearer \(other)").status == 403)
        #expect(send("Bearer \(other)").status == 403)
    }
}
