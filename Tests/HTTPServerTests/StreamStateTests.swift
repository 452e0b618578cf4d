import Foundation
import PushcheckTestSupport
import Testing

@testable import HTTPServer

/// The stream-state rules the frame scanner enforces where nghttp2 (keeping no closed streams) cannot: RFC 9113
/// §5.1, §5.1.1, §6.1 and the PRIORITY self-dependency (h2spec http2/5.1 #5–#12, 5.1.1 #2, 5.3.1 #2, 6.1 #2),
/// first as pure logic, then over a raw socket the way h2spec sends them.
@Suite struct StreamStateTests {
    static let streamClosed = HTTP2ClientStreams.Verdict.violation(errorCode: 0x5, detail: "DATA: stream closed")

    @Test func streamsMoveThroughTheirStatesFromTheClientsFrames() {
        var s = HTTP2ClientStreams()
        #expect(s.state(of: 1) == .idle)
        #expect(s.headers(stream: 1, endStream: false) == .pass)
        #expect(s.state(of: 1) == .open)
        #expect(s.data(stream: 1, endStream: false) == .pass)
        #expect(s.headers(stream: 1, endStream: true) == .pass)  // trailers end it
        #expect(s.state(of: 1) == .endedByClient)
        #expect(s.data(stream: 1, endStream: true) == Self.streamClosed)
        #expect(s.headers(stream: 1, endStream: true) == .violation(errorCode: 0x5, detail: "HEADERS: stream closed"))
        // Reset by the client: closed too.
        #expect(s.headers(stream: 3, endStream: false) == .pass)
        s.clientReset(stream: 3)
        #expect(s.data(stream: 3, endStream: false) == Self.streamClosed)
    }

    @Test func aSkippedIdentifierIsAProtocolErrorForHeadersAndClosedForData() {
        var s = HTTP2ClientStreams()
        #expect(s.headers(stream: 5, endStream: true) == .pass)  // skips 1 and 3
        #expect(s.state(of: 1) == .skipped && s.state(of: 3) == .skipped)
        #expect(
            s.headers(stream: 3, endStream: true)
                == .violation(errorCode: 0x1, detail: "HEADERS: stream_id below an opened stream"))
        #expect(s.data(stream: 1, endStream: true) == Self.streamClosed)
        #expect(s.headers(stream: 11, endStream: true) == .pass)  // skips 7 and 9
        #expect(s.state(of: 9) == .skipped && s.state(of: 5) == .endedByClient && s.state(of: 13) == .idle)
    }

    @Test func framesOnAStreamTheServerResetAreIgnored() {
        var s = HTTP2ClientStreams()
        #expect(s.headers(stream: 1, endStream: false) == .pass)
        s.serverReset(stream: 1)
        #expect(s.state(of: 1) == .resetByServer)
        #expect(s.data(stream: 1, endStream: true) == .pass)
        #expect(s.headers(stream: 1, endStream: true) == .pass)
        // A reset of a stream the client had already ended changes nothing.
        #expect(s.headers(stream: 3, endStream: true) == .pass)
        s.serverReset(stream: 3)
        #expect(s.state(of: 3) == .endedByClient)
    }

    @Test func theRecordsOfGapsAndResetsAreBounded() {
        var s = HTTP2ClientStreams()
        var id: UInt32 = 1
        for _ in 0..<(HTTP2ClientStreams.maxGaps + 5) {
            id += 4  // skips one identifier each time
            _ = s.headers(stream: id, endStream: true)
        }
        #expect(s.state(of: id - 2) == .skipped)
        #expect(s.state(of: 3) == .endedByClient)  // the oldest gap is forgotten: still an error, STREAM_CLOSED
        for _ in 0..<(HTTP2ClientStreams.maxServerResets + 10) {
            id += 2
            _ = s.headers(stream: id, endStream: false)
            s.serverReset(stream: id)
        }
        #expect(s.state(of: id) == .resetByServer)
    }

    @Test func aSelfDependentPrioritySplitAcrossReadsIsFoundAtItsFrame() {
        var scanner = HTTP2FrameScanner()
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        let ping = H2Frame.frame(type: 6, flags: 0, stream: 0, payload: Array(repeating: 0, count: 8))
        let priority = H2Frame.frame(type: 2, flags: 0, stream: 7, payload: [0, 0, 0, 7, 15])
        let first = preface + ping + priority[0..<12]
        #expect(first.withUnsafeBytes { scanner.scan($0) } == nil)
        let second = Array(priority[12...]) + ping
        let violation = second.withUnsafeBytes { scanner.scan($0) }
        #expect(violation == .init(offset: 0, errorCode: 0x1, detail: "PRIORITY: stream depends on itself"))
        var whole = HTTP2FrameScanner()
        let bytes = preface + ping + priority
        #expect(
            bytes.withUnsafeBytes { whole.scan($0) }?.offset == preface.count + ping.count,
            "everything before the frame goes to nghttp2")
        var other = HTTP2FrameScanner()
        let fine = preface + H2Frame.frame(type: 2, flags: 0, stream: 7, payload: [0, 0, 0, 5, 15])
        #expect(fine.withUnsafeBytes { other.scan($0) } == nil)
    }

    @Test func theScannerListsTheWholeWellFormedResetsOfClientStreamsInAChunk() {
        var scanner = HTTP2FrameScanner()
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        let ping = H2Frame.frame(type: 6, flags: 0, stream: 0, payload: Array(repeating: 0, count: 8))
        func reset(_ stream: UInt32, _ payload: [UInt8] = [0, 0, 0, 5]) -> [UInt8] {
            H2Frame.frame(type: 3, flags: 0, stream: stream, payload: payload)
        }
        // Streams 1 and 3: listed; 2 (a server stream) and 0: not (nghttp2's to refuse); a 5-byte payload: not
        // (nghttp2's FRAME_SIZE_ERROR).
        let first = preface + reset(1) + ping + reset(2) + reset(0) + reset(5, [0, 0, 0, 5, 0]) + reset(3)
        #expect(first.withUnsafeBytes { scanner.scan($0) } == nil)
        let at3 = first.count - 13
        #expect(scanner.resets.map(\.offset) == [preface.count, at3])
        #expect(scanner.resets.map(\.stream) == [1, 3])
        #expect(scanner.heldFrom == nil)
        // A reset split across two chunks, at any byte: the first chunk holds it back from where it starts (its
        // header cut short, or its error code still to come), and the next, which begins with what was held, lists it.
        let split = reset(7)
        for cut in 1..<split.count {
            let first = ping + split[..<cut]
            #expect(first.withUnsafeBytes { scanner.scan($0) } == nil)
            #expect(scanner.resets.isEmpty && scanner.heldFrom == ping.count, "cut at \(cut)")
            let next = Array(first[ping.count...]) + split[cut...] + reset(9)
            #expect(next.withUnsafeBytes { scanner.scan($0) } == nil)
            #expect(
                scanner.resets.map(\.offset) == [0, 13] && scanner.resets.map(\.stream) == [7, 9], "cut at \(cut)")
            #expect(scanner.heldFrom == nil)
        }
        // Any other frame's header cut short is held too; its payload is not.
        let data = H2Frame.frame(type: 0, flags: 0, stream: 9, payload: Array(repeating: 1, count: 20))
        #expect((ping + data[..<4]).withUnsafeBytes { scanner.scan($0) } == nil)
        #expect(scanner.heldFrom == ping.count)
        #expect((Array(data[..<15])).withUnsafeBytes { scanner.scan($0) } == nil)
        #expect(scanner.heldFrom == nil, "the header whole, six payload bytes: nothing held")
        #expect((Array(data[15...]) + ping).withUnsafeBytes { scanner.scan($0) } == nil)
        #expect(scanner.resets.isEmpty && scanner.heldFrom == nil, "each chunk lists its own")
    }

    /// The session's way of reading (`HTTP2Session.receive`): each chunk scanned after what the last one held, the
    /// held end kept for the next. However a stream of frames is cut into reads, every byte is handed on once, in
    /// order, and the scanner lists the same resets, at the same places, as when it reads the stream whole.
    @Test func heldEndsHandEveryByteOnOnceAndFindEveryResetHoweverReadsFall() {
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        var stream = preface
        var generator = SystemRandomNumberGenerator()
        for k in 0..<400 {
            let id = UInt32(2 * k + 1)
            switch k % 4 {
            case 0: stream += request(stream: id)
            case 1: stream += H2Frame.frame(type: 3, flags: 0, stream: id - 2, payload: [0, 0, 0, 5])
            case 2: stream += H2Frame.frame(type: 0, flags: 0, stream: 0, payload: Array(repeating: 7, count: k % 23))
            default: stream += H2Frame.frame(type: 6, flags: 0, stream: 0, payload: Array(repeating: 0, count: 8))
            }
        }
        func resets(reading chunks: [Int]) -> (handedOn: [UInt8], resets: [Int]) {
            var scanner = HTTP2FrameScanner()
            var handedOn: [UInt8] = [], found: [Int] = [], held: [UInt8] = []
            var at = 0  // where in `stream` the next new chunk starts
            for size in chunks + [stream.count] where at < stream.count {
                let fresh = Array(stream[at..<min(stream.count, at + size)])
                let chunk = held + fresh
                let start = at - held.count
                at += fresh.count
                #expect(chunk.withUnsafeBytes { scanner.scan($0) } == nil)
                let end = scanner.heldFrom ?? chunk.count
                found += scanner.resets.map { start + $0.offset }
                handedOn += chunk[..<end]
                held = Array(chunk[end...])
            }
            #expect(held.isEmpty)
            return (handedOn, found)
        }
        let whole = resets(reading: [stream.count])
        #expect(whole.handedOn == stream && whole.resets.count == 100)
        for round in 0..<200 {
            let chunks = (0..<stream.count).map { _ in
                Int.random(in: 1...(round % 2 == 0 ? 16 : 200), using: &generator)
            }
            let cut = resets(reading: chunks)
            #expect(cut.handedOn == stream, "round \(round)")
            #expect(cut.resets == whole.resets, "round \(round)")
        }
    }

    // MARK: over a socket

    /// GET / with `:authority x`, END_HEADERS, END_STREAM if `end`.
    private func request(stream: UInt32, end: Bool = true) -> [UInt8] {
        H2Frame.frame(
            type: 1, flags: end ? 0x5 : 0x4, stream: stream, payload: [0x82, 0x86, 0x84, 0x01, 0x01, UInt8(ascii: "x")])
    }

    private func data(stream: UInt32, end: Bool = true) -> [UInt8] {
        H2Frame.frame(type: 0, flags: end ? 0x1 : 0, stream: stream, payload: Array("test".utf8))
    }

    /// The GOAWAY frames in what the server sent: (error code, debug text).
    private func goAways(_ bytes: [UInt8]) -> [(code: UInt32, debug: String)] {
        H2Frame.parse(bytes).filter { $0.type == 7 }.map { f in
            let p = f.payload
            return (
                UInt32(p[4]) << 24 | UInt32(p[5]) << 16 | UInt32(p[6]) << 8 | UInt32(p[7]),
                String(decoding: p[8...], as: UTF8.self)
            )
        }
    }

    /// Sends `opening`, waits until the response to `answered` has come, sends `then`; returns the GOAWAYs.
    private func exchange(_ opening: [UInt8], answered: UInt32?, then: [UInt8]) throws -> [(
        code: UInt32, debug: String
    )] {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port, receiveTimeout: 2)
        raw.send(H2Frame.preface + H2Frame.emptySettings + opening)
        var seen: [UInt8] = []
        if let answered {
            while !H2Frame.parse(seen).contains(where: { $0.stream == answered && $0.flags & 0x1 != 0 }) {
                let more = raw.read(atLeast: 1)
                if more.isEmpty { break }
                seen += more
            }
        }
        raw.send(then)
        let (rest, closed) = raw.readUntilClose()
        let away = goAways(seen + rest)
        if !away.isEmpty { #expect(closed, "a connection error closes the connection") }
        return away
    }

    @Test func dataOrHeadersAfterTheClientsEndStreamIsStreamClosed() throws {
        // h2spec 5.1 #11/#12 (the stream answered and closed) and #5/#6 (answer not awaited): the same verdict
        // whether or not the server has answered yet.
        for wait in [UInt32(1), nil] {
            let d = try exchange(request(stream: 1), answered: wait, then: data(stream: 1))
            #expect(d.map(\.code) == [0x5] && d.first?.debug == "DATA: stream closed", "\(d)")
            let h = try exchange(request(stream: 1), answered: wait, then: request(stream: 1))
            #expect(h.map(\.code) == [0x5] && h.first?.debug == "HEADERS: stream closed", "\(h)")
        }
    }

    @Test func dataOrHeadersAfterTheClientsResetIsStreamClosed() throws {
        // h2spec 5.1 #8/#9.
        let reset = H2Frame.frame(type: 3, flags: 0, stream: 1, payload: [0, 0, 0, 8])
        let d = try exchange(request(stream: 1, end: false) + reset, answered: nil, then: data(stream: 1))
        #expect(d.map(\.code) == [0x5], "\(d)")
        let h = try exchange(request(stream: 1, end: false) + reset, answered: nil, then: request(stream: 1))
        #expect(h.map(\.code) == [0x5], "\(h)")
    }

    @Test func headersOnASkippedLowerIdentifierIsAProtocolError() throws {
        // h2spec 5.1.1 #2, which nghttpd fails too (nghttp2 ignores the frame).
        let away = try exchange(request(stream: 5), answered: nil, then: request(stream: 3))
        #expect(away.map(\.code) == [0x1], "\(away)")
        #expect(away.first?.debug == "HEADERS: stream_id below an opened stream")
    }

    @Test func priorityDependingOnItselfIsAProtocolError() throws {
        // h2spec 5.3.1 #2.
        let priority = H2Frame.frame(type: 2, flags: 0, stream: 1, payload: [0, 0, 0, 1, 15])
        let away = try exchange(request(stream: 1, end: false), answered: nil, then: priority)
        #expect(away.map(\.code) == [0x1] && away.first?.debug == "PRIORITY: stream depends on itself", "\(away)")
    }

    @Test func whatTheRulesAllowStillPasses() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port, receiveTimeout: 1)
        let window = H2Frame.frame(type: 8, flags: 0, stream: 1, payload: [0, 0, 0x10, 0])
        let rst = H2Frame.frame(type: 3, flags: 0, stream: 1, payload: [0, 0, 0, 8])
        let priority = H2Frame.frame(type: 2, flags: 0, stream: 1, payload: [0, 0, 0, 0, 15])
        // Trailers on an open stream; WINDOW_UPDATE, PRIORITY and RST_STREAM on one the client ended (§5.1).
        let trailers = H2Frame.frame(type: 1, flags: 0x5, stream: 3, payload: [0x40, 0x01, 0x61, 0x01, 0x62])
        raw.send(
            H2Frame.preface + H2Frame.emptySettings + request(stream: 1) + window + priority + rst
                + request(stream: 3, end: false) + data(stream: 3, end: false) + trailers)
        let frames = H2Frame.parse(raw.read(atLeast: 1 << 16))
        #expect(!frames.contains { $0.type == 7 }, "no GOAWAY: \(frames.map { ($0.type, $0.stream) })")
        #expect(frames.contains { $0.type == 1 && $0.stream == 3 })
    }

    @Test func framesInFlightOnAStreamTheServerResetAreIgnored() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port, receiveTimeout: 2)
        // An uppercase field name: nghttp2 resets the stream (RST_STREAM PROTOCOL_ERROR, RFC 9113 §8.2.1).
        let bad = H2Frame.frame(
            type: 1, flags: 0x4, stream: 1,
            payload: [0x82, 0x86, 0x84, 0x01, 0x01, UInt8(ascii: "x"), 0x00, 0x01, UInt8(ascii: "X"), 0x01, 0x31])
        raw.send(H2Frame.preface + H2Frame.emptySettings + bad)
        var seen: [UInt8] = []
        while !H2Frame.parse(seen).contains(where: { $0.type == 3 && $0.stream == 1 }) {
            let more = raw.read(atLeast: 1)
            if more.isEmpty { break }
            seen += more
        }
        #expect(H2Frame.parse(seen).contains { $0.type == 3 && $0.stream == 1 }, "no RST_STREAM for stream 1")
        raw.send(data(stream: 1) + request(stream: 3))
        let frames = H2Frame.parse(raw.read(atLeast: 1 << 16))
        #expect(!frames.contains { $0.type == 7 }, "no GOAWAY: \(frames.map { ($0.type, $0.stream) })")
        #expect(frames.contains { $0.type == 1 && $0.stream == 3 })
    }
}
