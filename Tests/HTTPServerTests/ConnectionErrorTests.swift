import Foundation
@testable import HTTPServer
import PushcheckTestSupport
import Testing

/// Connection errors end with a GOAWAY that names the error (RFC 9113 §5.4.1), sent over a raw socket the way
/// the attack was; and connections that never finish opening are closed by the opening deadline.
@Suite struct ConnectionErrorTests {
    let files: TestFiles

    init() throws { files = try TestFiles.get() }

    /// The GOAWAY frames in what the server sent: (last stream id, error code, debug text).
    private func goAways(_ bytes: [UInt8]) -> [(last: UInt32, code: UInt32, debug: String)] {
        H2Frame.parse(bytes).filter { $0.type == 7 }.map { f in
            let p = f.payload
            let last = UInt32(p[0] & 0x7f) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
            let code = UInt32(p[4]) << 24 | UInt32(p[5]) << 16 | UInt32(p[6]) << 8 | UInt32(p[7])
            return (last, code, String(decoding: p[8...], as: UTF8.self))
        }
    }

    /// GET / with `:authority x` (nghttp2 resets requests without one).
    private func request(stream: UInt32) -> [UInt8] {
        H2Frame.frame(type: 1, flags: 0x5, stream: stream, payload: [0x82, 0x86, 0x84, 0x01, 0x01, UInt8(ascii: "x")])
    }

    private func expectServing(_ s: TestServer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try runTool("curl", ["-sS", "--http2-prior-knowledge", "\(s.url)/healthy"])
        #expect(field("path", in: r.stdout) == ["/healthy"], "\(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test func priorityOnStreamZeroIsAProtocolError() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        // A request first (answered), then PRIORITY with stream id 0: exclusive=0, dependency 0, weight 16.
        raw.send(
            H2Frame.preface + H2Frame.emptySettings + request(stream: 1)
                + H2Frame.frame(type: 2, flags: 0, stream: 0, payload: [0, 0, 0, 0, 15]))
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        let away = goAways(bytes)
        #expect(away.count == 1)
        #expect(away.first?.code == 0x1)  // PROTOCOL_ERROR
        #expect(away.first?.debug == "PRIORITY: stream_id == 0")
        #expect(away.first?.last == 1)
        #expect(H2Frame.parse(bytes).contains { $0.type == 1 && $0.stream == 1 })  // stream 1 was answered
        try expectServing(s)
    }

    @Test func priorityOnAStreamIsStillIgnored() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port, receiveTimeout: 1)
        raw.send(
            H2Frame.preface + H2Frame.emptySettings
                + H2Frame.frame(type: 2, flags: 0, stream: 3, payload: [0, 0, 0, 0, 15]) + request(stream: 1))
        let bytes = raw.read(atLeast: 1 << 16)
        #expect(goAways(bytes).isEmpty)
        #expect(H2Frame.parse(bytes).contains { $0.type == 1 && $0.stream == 1 })
    }

    @Test func pingFloodEndsWithGoAwayEnhanceYourCalm() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        // 5000 PINGs in one write and nothing read: more ACKs queued than nghttp2 keeps (1000).
        let ping = H2Frame.frame(type: 6, flags: 0, stream: 0, payload: Array(repeating: 1, count: 8))
        raw.send(H2Frame.preface + H2Frame.emptySettings + Array((0..<5000).map { _ in ping }.joined()))
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        let away = goAways(bytes)
        #expect(away.map(\.code) == [0xb], "\(away)")  // ENHANCE_YOUR_CALM
        #expect(away.first?.debug == "flood: too many frames to acknowledge")
        try expectServing(s)
    }

    @Test func continuationFloodEndsWithGoAwayEnhanceYourCalm() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        // HEADERS without END_HEADERS, then CONTINUATION frames without it: nghttp2 allows 8.
        var frames =
            H2Frame.preface + H2Frame.emptySettings
            + H2Frame.frame(type: 1, flags: 0x1, stream: 1, payload: [0x82, 0x86, 0x84])
        for _ in 0..<20 {
            frames += H2Frame.frame(type: 9, flags: 0, stream: 1, payload: [0x40, 0x01, 0x61, 0x01, 0x62])
        }
        raw.send(frames)
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        let away = goAways(bytes)
        #expect(away.map(\.code) == [0xb], "\(away)")
        #expect(away.first?.debug == "flood: too many CONTINUATION frames")
        try expectServing(s)
    }

    /// CVE-2023-44487: open a stream and reset it at once, 3000 times, without waiting for answers. `/delay/1000` is
    /// answered a second later; `/empty` at once, but the reset reaches nghttp2 before the answer has gone out, so it
    /// counts as well.
    @Test(arguments: ["/delay/1000", "/empty"])
    func rapidResetEndsWithNghttp2sGoAwayInternalError(path: String) throws {
        let s = try TestServer(handler: EchoHandler())
        let raw = try RawSocket(port: s.port)
        var frames = H2Frame.preface + H2Frame.emptySettings
        for i in 0..<3000 {
            let id = UInt32(2 * i + 1)
            frames += get(path, stream: id) + H2Frame.frame(type: 3, flags: 0, stream: id, payload: [0, 0, 0, 8])
        }
        raw.send(frames)
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        let away = goAways(bytes)
        // nghttp2's stream reset rate limit (a burst of 1000, then 33 per second) ends it with INTERNAL_ERROR.
        #expect(away.map(\.code) == [0x2], "\(away)")
        #expect((1000...3000).contains(away.first?.last ?? 0), "\(away)")
        try expectServing(s)
    }

    /// GET `path` with `:authority x` (`/empty` is answered with one HEADERS frame, END_STREAM).
    private func get(_ path: String, stream: UInt32) -> [UInt8] {
        let path = Array(path.utf8)
        return H2Frame.frame(
            type: 1, flags: 0x5, stream: stream,
            payload: [0x82, 0x86, 0x01, 0x01, UInt8(ascii: "x"), 0x04, UInt8(path.count)] + path)
    }

    /// `split`: each RST_STREAM frame is sent in two parts, the first (1 to 12 bytes, every split in turn) alone and
    /// a moment before the rest, so that the server reads it as the end of one chunk and the rest in the next.
    @Test(arguments: [false, true])
    func resetsOfAnsweredStreamsDoNotCountAsRapidReset(split: Bool) throws {
        let s = try TestServer(handler: EchoHandler())
        // No delay: the 1,500 requests take about a second (Nagle's wait for each part's ACK made them take a minute,
        // long enough for nghttp2's limit to refill at 33 a second and hide a counted reset).
        let raw = try RawSocket(port: s.port, noDelay: true)
        // libcurl 7.88's way: after each answer that is one HEADERS frame, RST_STREAM(STREAM_CLOSED) on its stream
        // (RFC 9113 §5.1 allows it on a closed stream), sent with the next request. nghttp2 counted these against its
        // rapid-reset limit and ended the connection after about 1,000 requests.
        var pending = H2Frame.preface + H2Frame.emptySettings
        var received: [UInt8] = []
        var answered = 0
        var goAway: [(last: UInt32, code: UInt32, debug: String)] = []
        for i in 0..<1500 {
            let id = UInt32(2 * i + 1)
            if split, pending.count == HTTP2FrameScanner.rstStreamFrameLength {
                let cut = 1 + i % (HTTP2FrameScanner.rstStreamFrameLength - 1)
                raw.send(Array(pending[..<cut]))
                usleep(300)
                pending = Array(pending[cut...])
            }
            raw.send(pending + get("/empty", stream: id))
            // Read until this stream's answer (a HEADERS frame with END_STREAM) or a GOAWAY has arrived.
            var frames: [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] = []
            while !frames.contains(where: { ($0.type == 1 && $0.stream == id) || $0.type == 7 }) {
                let more = raw.read(atLeast: 1)
                if more.isEmpty { break }
                received += more
                frames = H2Frame.parse(received)
            }
            goAway = goAways(received)
            guard goAway.isEmpty, frames.contains(where: { $0.type == 1 && $0.stream == id && $0.flags & 1 == 1 })
            else { break }
            answered += 1
            received = Array(received[H2Frame.parsedLength(received)...])
            pending = H2Frame.frame(type: 3, flags: 0, stream: id, payload: [0, 0, 0, 5])  // RST_STREAM(STREAM_CLOSED)
        }
        #expect(answered == 1500, "\(goAway)")
        #expect(goAway.isEmpty, "\(goAway)")
    }

    @Test func brokenHPACKEndsWithNghttp2sOwnGoAwayCompressionError() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        // Index 0x7f+… far past the static and dynamic tables: a decoding error, COMPRESSION_ERROR (0x9).
        raw.send(
            H2Frame.preface + H2Frame.emptySettings
                + H2Frame.frame(type: 1, flags: 0x5, stream: 1, payload: [0xff, 0xff, 0xff, 0xff, 0x0f]))
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        #expect(goAways(bytes).map(\.code) == [0x9], "\(goAways(bytes))")  // one GOAWAY, not two
        try expectServing(s)
    }

    @Test func aPrefaceTrickledAByteAtATimeIsCutAtTheOpeningDeadline() throws {
        // idle_timeout 1 s: each byte arrives well within it, but the preface as a whole may not take longer.
        let s = try TestServer { $0.idleTimeout = .seconds(1) }
        let raw = try RawSocket(port: s.port, receiveTimeout: 0.3)
        let started = Date()
        var closed = false
        for byte in H2Frame.preface where !closed {
            raw.send([byte])
            closed = raw.readUntilClose().closed
        }
        #expect(closed)
        #expect(Date().timeIntervalSince(started) < 6, "the preface took \(Date().timeIntervalSince(started)) s")
        #expect(eventually { s.server.stats.openConnections == 0 })
        try expectServing(s)
    }

    @Test func aTLSHandshakeTrickledAByteAtATimeIsCutAtTheOpeningDeadline() throws {
        let s = try TestServer(tls: files.tls()) { $0.idleTimeout = .seconds(1) }
        let raw = try RawSocket(port: s.port, receiveTimeout: 0.3)
        // The start of a TLS 1.2 ClientHello record, then one byte per read timeout.
        let hello: [UInt8] =
            [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]
            + Array(repeating: 0x11, count: 40)
        let started = Date()
        var closed = false
        for byte in hello where !closed {
            raw.send([byte])
            closed = raw.readUntilClose().closed
        }
        #expect(closed)
        #expect(Date().timeIntervalSince(started) < 6)
        #expect(eventually { s.server.stats.openConnections == 0 })
    }

    @Test func anHTTP1RequestLineTrickledAByteAtATimeIsCutAtTheOpeningDeadline() throws {
        let s = try TestServer { $0.idleTimeout = .seconds(1) }
        let raw = try RawSocket(port: s.port, receiveTimeout: 0.3)
        let started = Date()
        var closed = false
        for byte in Array("GET /slow HTTP/1.1\r\nhost: x\r\nx-pad: aaaaaaaaaaaa\r\n\r\n".utf8) where !closed {
            raw.send([byte])
            closed = raw.readUntilClose().closed
        }
        #expect(closed)
        #expect(Date().timeIntervalSince(started) < 6)
        #expect(!s.handler.responded.withLock { $0.contains("/slow") })
    }

    /// The server's own closes carry APNs' GOAWAY debug data, JSON with a `reason` (shared/reference/apns.md §1.1):
    /// `IdleTimeout` when a connection idles out, `Shutdown` when the server stops. They were the text "idle
    /// timeout" and nothing at all.
    @Test func idleAndShutdownGoAwaysCarryAPNsJSONReasons() throws {
        let idle = try TestServer { $0.idleTimeout = .milliseconds(300) }
        let quiet = try RawSocket(port: idle.port, receiveTimeout: 5)
        quiet.send(H2Frame.preface + H2Frame.emptySettings)
        let idled = goAways(quiet.readUntilClose().bytes)
        #expect(idled.map(\.code) == [0] && idled.map(\.debug) == [#"{"reason":"IdleTimeout"}"#], "\(idled)")

        let stopping = try TestServer()
        let open = try RawSocket(port: stopping.port, receiveTimeout: 5)
        open.send(H2Frame.preface + H2Frame.emptySettings)
        _ = open.read(atLeast: 9)  // the server's SETTINGS: the session is up
        stopping.server.shutdown(grace: .milliseconds(200))
        let stopped = goAways(open.readUntilClose().bytes)
        #expect(stopped.map(\.code) == [0] && stopped.map(\.debug) == [#"{"reason":"Shutdown"}"#], "\(stopped)")
    }

    @Test func anOpenedConnectionIsNotCutByTheOpeningDeadline() throws {
        let s = try TestServer {
            $0.idleTimeout = .seconds(5); $0.handshakeTimeout = .milliseconds(300)
        }
        let raw = try RawSocket(port: s.port, receiveTimeout: 1.5)
        raw.send(H2Frame.preface + H2Frame.emptySettings)
        let (_, closed) = raw.readUntilClose()  // 1.5 s: past the opening deadline, within the idle timeout
        #expect(!closed)
        raw.send(request(stream: 1))
        let frames = H2Frame.parse(raw.read(atLeast: 60))
        #expect(
            frames.contains { $0.type == 1 && $0.stream == 1 }, "\(frames.map { ($0.type, $0.stream, $0.payload) })")
    }
}
