import Foundation
@testable import HTTPServer
import PushcheckTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Backpressure, priorities, IPv6, signals.
@Suite struct LifecycleTests {
    @Test func aClientThatReadsLateStillGetsEveryResponseWhole() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port, receiveTimeout: 10)
        // 40 pipelined requests for 256 KiB each: far more than the socket buffers and the server's high-water
        // mark, so the server must stop reading and producing, then resume as we drain.
        var requests = ""
        for i in 0..<40 { requests += "GET /big/262144?\(i) HTTP/1.1\r\nhost: x\r\n\r\n" }
        requests += "GET /last HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
        raw.send(requests)
        Thread.sleep(forTimeInterval: 0.3)  // let output pile up; the assertions do not depend on timing
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 41)
        #expect(bytes.count > 40 * 262_144)
        #expect(text.hasSuffix(text.components(separatedBy: "\r\n\r\n").last!))
        #expect(field("path", in: text).last == "/last")
        #expect(s.server.stats.backpressurePauses > 0)
    }

    @Test func http2LargeResponsesFlowThroughFlowControl() throws {
        let files = try TestFiles.get()
        let s = try TestServer(tls: files.tls())
        let r = try runTool(
            "curl",
            [
                "-sS", "--http2", "--cacert", files.caPath, "-o", "/dev/null",
                "-w", "%{size_download}", "\(s.url)/big/3000000",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "3000000")
    }

    @Test func expect100ContinueIsAnsweredBeforeTheBody() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        raw.send(
            "POST /up HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\nexpect: 100-continue\r\nconnection: close\r\n\r\n")
        let interim = "HTTP/1.1 100 Continue\r\n\r\n"
        #expect(String(decoding: raw.read(atLeast: interim.utf8.count), as: UTF8.self) == interim)
        raw.send("hello")
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        #expect(field("len", in: String(decoding: bytes, as: UTF8.self)) == ["5"])
    }

    @Test func priorityFramesAreIgnored() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port, receiveTimeout: 3)
        let priority = H2Frame.frame(type: 2, flags: 0, stream: 3, payload: [0, 0, 0, 1, 200])
        let get = H2Frame.frame(
            type: 1, flags: 0x5, stream: 1, payload: [0x82, 0x86, 0x84, 0x01, 0x01, UInt8(ascii: "x")])
        raw.send(H2Frame.preface + H2Frame.emptySettings + priority + get)
        let frames = H2Frame.parse(raw.read(atLeast: 200))
        #expect(frames.contains { $0.type == 1 && $0.stream == 1 })
        #expect(!frames.contains { $0.type == 7 })  // no GOAWAY
    }

    @Test func listensOnIPv6Loopback() throws {
        let server = HTTPServer(
            listeners: [ListenerConfiguration(name: "v6", host: "::1", handler: EchoHandler())],
            loops: 1)
        let bound = try server.start()
        defer { server.shutdown(grace: .seconds(1)) }
        #expect(bound[0].url.hasPrefix("http://[::1]:"))
        let r = try runTool("curl", ["-sS", "-g", "--http2-prior-knowledge", "\(bound[0].url)/six"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("path", in: r.stdout) == ["/six"])
    }

    @Test func invalidHostAndBusyPortAreTypedErrors() throws {
        let bad = HTTPServer(listeners: [ListenerConfiguration(name: "x", host: "localhost", handler: EchoHandler())])
        #expect(throws: HTTPServerError.invalidHost("localhost")) { try bad.start() }
        let s = try TestServer()
        let clash = HTTPServer(listeners: [ListenerConfiguration(name: "y", port: s.port, handler: EchoHandler())])
        // SO_REUSEPORT must not let a second server silently share a port that is already in use.
        #expect(throws: HTTPServerError.bindFailed(host: "127.0.0.1", port: s.port, errno: EADDRINUSE)) {
            try clash.start()
        }
        #expect(throws: HTTPServerError.alreadyStarted) { try s.server.start() }
    }

    @Test func terminationSignalWaiterReturnsTheSignal() throws {
        let got = DispatchSemaphore(value: 0)
        let signal = Mutex<Int32>(0)
        Thread.detachNewThread {
            TerminationSignals.block()
            pthread_kill(pthread_self(), SIGTERM)  // pending on this thread only, because it is blocked here
            let n = (try? TerminationSignals.wait()) ?? -1
            signal.withLock { $0 = n }
            got.signal()
        }
        #expect(got.wait(timeout: .now() + 5) == .success)
        #expect(signal.withLock { $0 } == SIGTERM)
    }
}

import Synchronization
