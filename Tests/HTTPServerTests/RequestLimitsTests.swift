import Testing

@testable import HTTPServer

/// The request-size rule both protocol engines share (`IncomingBody`, `RequestLimits.refusal`), without sockets;
/// `RobustnessTests` drives the same rule over HTTP/1.1 and HTTP/2 with curl and nghttp.
@Suite struct RequestLimitsTests {
    static func append(_ body: inout IncomingBody, _ bytes: [UInt8], limit: Int) {
        bytes.withUnsafeBufferPointer { body.append($0, limit: limit) }
    }

    @Test func aBodyPastTheLimitIsDroppedButStillCounted() {
        var body = IncomingBody()
        Self.append(&body, [1, 2, 3], limit: 5)
        Self.append(&body, [4, 5], limit: 5)
        #expect(body.bytes == [1, 2, 3, 4, 5] && !body.tooLarge && body.overLimit == nil)
        Self.append(&body, [6], limit: 5)
        Self.append(&body, [7, 8], limit: 5)
        #expect(body.bytes.isEmpty && body.tooLarge && body.received == 8 && body.overLimit == 8)
    }

    @Test func headersThenBodyDecideTheRefusal() {
        var limits = RequestLimits(maxBodySize: 1, maxHeaderListSize: 100)
        var big = IncomingBody()
        Self.append(&big, [1, 2], limit: 1)
        #expect(limits.refusal(headersTooLarge: true, body: IncomingBody())?.status == 431)
        #expect(limits.refusal(headersTooLarge: true, body: big)?.status == 431)
        #expect(limits.refusal(headersTooLarge: false, body: big)?.status == 413)
        #expect(limits.refusal(headersTooLarge: false, body: IncomingBody()) == nil)
        limits.dispatchOversized = true
        #expect(limits.refusal(headersTooLarge: false, body: big) == nil)
    }

    @Test func reasonPhrasesForStatusLines() {
        #expect(HTTPResponse.reasonPhrase(404) == "Not Found")
        #expect(HTTPResponse.reasonPhrase(302) == "Found")
        #expect(HTTPResponse.reasonPhrase(418) == nil)
    }
}
