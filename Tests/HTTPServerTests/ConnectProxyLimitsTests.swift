import Foundation
import Glibc
@testable import HTTPServer
import Testing

/// serve's CONNECT proxy under clients that never finish: it answers each with a status and keeps serving others.
/// Its listener survived nothing of the kind before (an `accept` that failed ended it for good; a silent client
/// held a thread for ever; an oversized head was reset without an answer).
@Suite struct ConnectProxyLimitsTests {
    static func text(_ socket: RawSocket) -> String { String(decoding: socket.readUntilClose().bytes, as: UTF8.self) }

    @Test func theConnectionOverTheLimitGets503AndTheNextAfterACloseIsServed() throws {
        let proxy = try ConnectProxy(host: "127.0.0.1", port: 0, targets: [:], maxConnections: 2)
        defer { proxy.shutdown() }
        var silent = [try RawSocket(port: proxy.port), try RawSocket(port: proxy.port)]
        usleep(100_000)  // both accepted
        let third = try RawSocket(port: proxy.port)
        let refused = Self.text(third)
        #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(refused)")
        #expect(refused.contains("holds 2 connections already"))
        silent.removeAll()  // closed: their threads end
        usleep(200_000)
        let next = try RawSocket(port: proxy.port)
        next.send("GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        #expect(Self.text(next).hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
    }

    @Test func aHeadThatNeverEndsGets408() throws {
        let proxy = try ConnectProxy(
            host: "127.0.0.1", port: 0, targets: [:], headTimeout: .milliseconds(300))
        defer { proxy.shutdown() }
        let client = try RawSocket(port: proxy.port)
        client.send("CONNECT api.sandbox.push.apple.com:443 HTTP/1.1\r\n")
        let answer = Self.text(client)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
    }

    @Test func aHeadOver16KiBGets431() throws {
        let proxy = try ConnectProxy(host: "127.0.0.1", port: 0, targets: [:])
        defer { proxy.shutdown() }
        let client = try RawSocket(port: proxy.port)
        client.send("CONNECT api.sandbox.push.apple.com:443 HTTP/1.1\r\nx: " + String(repeating: "a", count: 17 * 1024))
        let answer = Self.text(client)
        #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(answer)")
    }
}
