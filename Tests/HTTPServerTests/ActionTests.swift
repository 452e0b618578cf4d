import Foundation
@testable import HTTPServer
import PushcheckTestSupport
import Testing

/// `ConnectionAction`s and per-connection SETTINGS, seen from real clients.
@Suite struct ActionTests {
    let files: TestFiles

    init() throws { files = try TestFiles.get() }

    @Test func goAwayActionSendsGOAWAYWithDebugData() throws {
        let s = try TestServer(tls: files.tls())
        let r = try runTool("nghttp", ["-v", "\(s.url)/goaway"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("recv GOAWAY frame"))
        #expect(r.stdout.contains("opaque_data(9)=[bye-debug]"))
        #expect(r.stdout.contains("path=/goaway"))
    }

    @Test func goAwayOnHTTP1ClosesAfterTheResponse() throws {
        let s = try TestServer()
        let r = try runTool("curl", ["-sS", "-i", "--http1.1", "\(s.url)/goaway"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.lowercased().contains("connection: close"))
    }

    @Test func dropActionClosesTheSocketAndTheServerKeepsServing() throws {
        let s = try TestServer(tls: files.tls())
        let dropped = try runTool(
            "curl",
            [
                "-sS", "--http2", "--cacert", files.caPath, "\(s.url)/drop",
                "--next", "--http2", "--cacert", files.caPath, "\(s.url)/after",
            ])
        // The dropped connection may or may not have carried its response out; the next request must work.
        let after = try runTool("curl", ["-sS", "--http2", "--cacert", files.caPath, "\(s.url)/after"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(field("path", in: after.stdout) == ["/after"])
        // A raw HTTP/1.1 client sees the socket close right after its request.
        let raw = try RawSocket(port: s.port)
        raw.send("GET /drop HTTP/1.1\r\nhost: x\r\n\r\nGET /never HTTP/1.1\r\nhost: x\r\n\r\n")
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("/never"))
        _ = dropped
    }

    @Test func setMaxConcurrentStreamsSendsSETTINGS() throws {
        let s = try TestServer()
        let r = try runTool("nghttp", ["-v", "\(s.url)/settings/7"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]"))
        #expect(r.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7]"))
    }

    @Test func handlerChoosesTheInitialStreamLimitPerConnection() throws {
        let s = try TestServer(handler: EchoHandler(initialStreams: 1))
        // nghttp opens both streams before it has read our SETTINGS: the second is over the limit.
        let r = try runTool("nghttp", ["-v", "\(s.url)/a", "\(s.url)/b"])
        #expect(r.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"))
        #expect(r.stdout.contains("error_code=REFUSED_STREAM(0x07)"), "\(r.stdout)")
        #expect(field("path", in: r.stdout).count == 1)
    }

    @Test func listenerStreamLimitIsAdvertised() throws {
        let s = try TestServer { $0.maxConcurrentStreams = 42 }
        let r = try runTool("nghttp", ["-v", "\(s.url)/x"])
        #expect(r.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):42]"))
    }

    @Test func gracefulShutdownFinishesInFlightStreams() throws {
        let handler = EchoHandler()
        var config = ListenerConfiguration(name: "graceful", tls: files.tls(), handler: handler)
        config.idleTimeout = .seconds(30)
        let server = HTTPServer(listeners: [config], loops: 1)
        let bound = try server.start()
        let result = Mutex<ToolOutput?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let url = bound[0].url
        Thread.detachNewThread {
            let r = try? runTool("nghttp", ["-v", "\(url)/delay/400"])
            result.withLock { $0 = r }
            finished.signal()
        }
        #expect(handler.received.wait(timeout: .now() + 10) == .success)
        server.shutdown(grace: .seconds(10))
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let r = try #require(result.withLock { $0 })
        #expect(r.stdout.contains("recv GOAWAY frame"))
        #expect(r.stdout.contains("path=/delay/400"))
        // The listener is gone.
        #expect(throws: (any Error).self) { try RawSocket(port: bound[0].port) }
    }

    @Test func shutdownClosesIdleConnectionsWithoutWaitingForTheGrace() throws {
        let server = HTTPServer(listeners: [ListenerConfiguration(name: "idle", handler: EchoHandler())], loops: 1)
        let bound = try server.start()
        let h2 = try RawSocket(port: bound[0].port, receiveTimeout: 5)
        h2.send(H2Frame.preface + H2Frame.emptySettings)
        let h1 = try RawSocket(port: bound[0].port, receiveTimeout: 5)
        h1.send("GET /first HTTP/1.1\r\nhost: x\r\n\r\n")
        _ = h1.read(atLeast: 1)
        let early = h2.read(atLeast: 9)  // our SETTINGS: the session exists
        server.beginShutdown(grace: .seconds(60))
        let (h2Bytes, h2Closed) = h2.readUntilClose()
        let (_, h1Closed) = h1.readUntilClose()
        #expect(h2Closed && h1Closed)
        let goaway = H2Frame.parse(early + h2Bytes).first { $0.type == 7 }
        #expect(goaway.map { Array($0.payload.dropFirst(4).prefix(4)) } == [0, 0, 0, 0])  // NO_ERROR, then debug data
        server.waitUntilStopped()
    }

    @Test func shutdownGraceBoundsAResponseThatNeverComes() throws {
        let server = HTTPServer(listeners: [ListenerConfiguration(name: "stuck", handler: SilentHandler())], loops: 1)
        let bound = try server.start()
        let raw = try RawSocket(port: bound[0].port, receiveTimeout: 10)
        raw.send("GET /never HTTP/1.1\r\nhost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.2)  // lets the request reach the handler; correctness does not depend on it
        server.shutdown(grace: .milliseconds(300))
        let (_, closed) = raw.readUntilClose()
        #expect(closed)
    }
}

/// Never responds.
struct SilentHandler: HTTPHandler {
    func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {}
}

import Synchronization
