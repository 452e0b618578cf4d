import Foundation
@testable import HTTPServer
import PushcheckTestSupport
import Testing

/// Hostile or broken clients: each gets its error, and then a good request on a new connection still works.
@Suite struct RobustnessTests {
    let files: TestFiles

    init() throws { files = try TestFiles.get() }

    private func expectHealthy(_ s: TestServer, tls: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var args = ["-sS", "--http2-prior-knowledge", "\(s.url)/healthy"]
        if tls { args = ["-sS", "--http2", "--cacert", files.caPath, "\(s.url)/healthy"] }
        let r = try runTool("curl", args)
        #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(field("path", in: r.stdout) == ["/healthy"], sourceLocation: sourceLocation)
    }

    @Test func invalidPrefaceOnCleartextGets400AndClose() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        raw.send("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n" + String(repeating: "\u{1}", count: 40))
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        try expectHealthy(s, tls: false)
    }

    @Test func invalidPrefaceOverTLSWithALPNh2IsClosed() throws {
        let s = try TestServer(tls: files.tls())
        let garbage = try files.file(Array("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\nnot a settings frame".utf8))
        // s_client sends the file, then waits for the server; the server must close on its own.
        let r = try runTool(
            "sh", ["-c", "openssl s_client -quiet -alpn h2 -connect 127.0.0.1:\(s.port) < \(garbage)"],
            timeout: 10)
        #expect(!r.timedOut)
        try expectHealthy(s, tls: true)
    }

    @Test func plaintextBytesToTheTLSPortAreRefused() throws {
        let s = try TestServer(tls: files.tls())
        let raw = try RawSocket(port: s.port)
        raw.send("GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("HTTP/1.1"))
        try expectHealthy(s, tls: true)
    }

    @Test func truncatedFrameThenCloseLeavesTheServerServing() throws {
        let s = try TestServer()
        do {
            let raw = try RawSocket(port: s.port)
            raw.send(H2Frame.preface + H2Frame.emptySettings + Array(H2Frame.get(stream: 1).prefix(6)))
        }  // closed here, mid-frame
        try expectHealthy(s, tls: false)
    }

    @Test func oversizedHeadersAreRefusedWithoutHarm() throws {
        let s = try TestServer(tls: files.tls())
        let big = "x-big: " + String(repeating: "a", count: 100_000)
        let h2 = try runTool(
            "curl",
            [
                "-sS", "--http2", "--cacert", files.caPath, "-H", big, "-w", "%{http_code}",
                "-o", "/dev/null", "\(s.url)/big",
            ])
        // nghttp2 either refuses the header block (stream or connection error) or we answer 431.
        #expect(h2.status != 0 || h2.stdout == "431", "\(h2.stdout) \(h2.stderr)")
        let h1 = try runTool(
            "curl",
            [
                "-sS", "--http1.1", "--cacert", files.caPath, "-H", big, "-w", "%{http_code}",
                "-o", "/dev/null", "\(s.url)/big",
            ])
        #expect(h1.stdout == "431", "\(h1.stdout) \(h1.stderr)")
        try expectHealthy(s, tls: true)
    }

    @Test func headersOverTheListenerLimitGet431OnHTTP2() throws {
        let s = try TestServer { $0.maxHeaderListSize = 1024 }
        let r = try runTool(
            "curl",
            [
                "-sS", "--http2-prior-knowledge", "-H", "x-pad: " + String(repeating: "b", count: 2000),
                "-w", "%{http_code}", "-o", "/dev/null", "\(s.url)/pad",
            ])
        #expect(r.stdout == "431", "\(r.stdout) \(r.stderr)")
        try expectHealthy(s, tls: false)
    }

    @Test func streamsBeyondTheLimitAreRefused() throws {
        let s = try TestServer(handler: EchoHandler()) { $0.maxConcurrentStreams = 5 }
        let raw = try RawSocket(port: s.port, receiveTimeout: 3)
        // The handler answers "/" at once, so use a path the handler delays: literal ":path /delay/500".
        let path = Array("/delay/500".utf8)
        var frames = H2Frame.preface + H2Frame.emptySettings
        for i in 0..<20 {
            let block: [UInt8] = [0x82, 0x86, 0x01, 0x01, UInt8(ascii: "x"), 0x04, UInt8(path.count)] + path
            frames += H2Frame.frame(type: 1, flags: 0x5, stream: UInt32(2 * i + 1), payload: block)
        }
        raw.send(frames)
        let received = H2Frame.parse(raw.read(atLeast: 1 << 20))
        let refused = received.filter { $0.type == 3 && $0.payload == [0, 0, 0, 7] }
        let answered = Set(received.filter { $0.type == 1 }.map(\.stream))
        #expect(refused.count == 15)
        #expect(answered.count == 5, "\(received.map { ($0.type, $0.stream, $0.payload.prefix(8)) })")
        try expectHealthy(s, tls: false)
    }

    @Test func h2loadIsServedAndAFloodPastTheLimitIsRefusedNotFatal() throws {
        let s = try TestServer(tls: files.tls())
        let r = try runTool("h2load", ["-n", "400", "-c", "4", "-m", "50", "\(s.url)/load"], timeout: 60)
        #expect(r.stdout.contains("400 succeeded"), "\(r.stdout) \(r.stderr)")
        // h2load opens 50 streams before it reads SETTINGS(10): the excess is refused, the rest is served.
        let limited = try TestServer(tls: files.tls()) { $0.maxConcurrentStreams = 10 }
        let flood = try runTool("h2load", ["-n", "400", "-c", "4", "-m", "50", "\(limited.url)/load"], timeout: 60)
        #expect(flood.stdout.contains("400 done"), "\(flood.stdout) \(flood.stderr)")
        #expect(!flood.stdout.contains(" 0 succeeded"), "\(flood.stdout)")
        try expectHealthy(limited, tls: true)
    }

    @Test func stalledClientIsClosedByTheIdleTimeout() throws {
        for tls in [false, true] {
            let s = try TestServer(tls: tls ? files.tls() : nil) { $0.idleTimeout = .milliseconds(200) }
            let raw = try RawSocket(port: s.port, receiveTimeout: 5)
            let (_, closed) = raw.readUntilClose()
            #expect(closed)
            #expect(s.server.stats.openConnections == 0)
            try expectHealthy(s, tls: tls)
        }
    }

    @Test func bodyOverTheLimitGets413AndTheConnectionSurvivesOnHTTP2() throws {
        let s = try TestServer(tls: files.tls())
        let big = try files.file(Array(repeating: 7, count: (1 << 20) + 1))
        let r = try runTool(
            "curl",
            [
                "-sS", "--http2", "--cacert", files.caPath, "--data-binary", "@" + big,
                "-w", "code=%{http_code}\n", "\(s.url)/big",
                "--next", "--http2", "--cacert", files.caPath, "\(s.url)/next",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("code=413"))
        #expect(field("path", in: r.stdout) == ["/next"])
        #expect(s.server.stats.acceptedConnections == 1)
        let h1 = try runTool(
            "curl",
            [
                "-sS", "--http1.1", "--cacert", files.caPath, "--data-binary", "@" + big,
                "-w", "%{http_code}", "-o", "/dev/null", "\(s.url)/big",
            ])
        #expect(h1.stdout == "413", "\(h1.stderr)")
    }

    @Test func malformedHTTP1Gets400AndClose() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        raw.send("GET / HTTP/1.1\r\nbad header line without colon\r\n\r\n")
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        try expectHealthy(s, tls: false)
    }

    @Test func aClientThatHalfClosesStillGetsItsResponses() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        raw.send("GET /delay/100 HTTP/1.1\r\nhost: x\r\n\r\nGET /then HTTP/1.1\r\nhost: x\r\n\r\n")
        raw.shutdownWrite()
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        #expect(field("path", in: String(decoding: bytes, as: UTF8.self)) == ["/delay/100", "/then"])
        #expect(eventually { s.server.stats.openConnections == 0 })
    }

    @Test func pipelinedHTTP1RequestsAreAnsweredInOrder() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        raw.send(
            "GET /delay/100 HTTP/1.1\r\nhost: x\r\n\r\nGET /second HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        #expect(field("path", in: String(decoding: bytes, as: UTF8.self)) == ["/delay/100", "/second"])
    }
}
