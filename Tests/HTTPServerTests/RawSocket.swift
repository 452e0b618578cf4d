import Foundation
import PushcheckTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A blocking loopback TCP client with a receive timeout, for sending bytes no well-behaved client sends.
final class RawSocket {
    let fd: Int32

    /// `noDelay`: TCP_NODELAY, so that a small send goes out at once rather than after the previous one's ACK.
    init(port: Int, receiveTimeout: TimeInterval = 5, noDelay: Bool = false) throws {
        fd = try connectToLoopback(port: port)
        if noDelay {
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        var tv = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout.truncatingRemainder(dividingBy: 1)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Shuts down our sending side (the server sees EOF) while still reading.
    func shutdownWrite() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until the peer closes (`closed == true`) or the receive timeout passes.
    func readUntilClose() -> (bytes: [UInt8], closed: Bool) {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return (all, true) }
            if n < 0 { return (all, errno == ECONNRESET) }
            all.append(contentsOf: buffer[0..<n])
        }
    }

    /// Reads at least `count` bytes, or whatever arrived before close/timeout.
    func read(atLeast count: Int) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while all.count < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            all.append(contentsOf: buffer[0..<n])
        }
        return all
    }
}

/// Minimal HTTP/2 framing for hostile-client tests.
enum H2Frame {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> [UInt8] {
        let n = payload.count
        return [
            UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff), type, flags,
            UInt8(stream >> 24 & 0x7f), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff), UInt8(stream & 0xff),
        ]
            + payload
    }

    static let emptySettings = frame(type: 4, flags: 0, stream: 0, payload: [])

    /// GET / over http, HPACK static-table only (":method GET", ":scheme http", ":path /"), END_STREAM|END_HEADERS.
    static func get(stream: UInt32) -> [UInt8] {
        frame(type: 1, flags: 0x5, stream: stream, payload: [0x82, 0x86, 0x84])
    }

    /// Parsed frames (type, flags, stream, payload) from a byte stream; a trailing partial frame is ignored.
    /// How many leading bytes of `bytes` are whole frames.
    static func parsedLength(_ bytes: [UInt8]) -> Int {
        var i = 0
        while i + 9 <= bytes.count {
            let len = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            guard i + 9 + len <= bytes.count else { break }
            i += 9 + len
        }
        return i
    }

    static func parse(_ bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] {
        var out: [(UInt8, UInt8, UInt32, [UInt8])] = []
        var i = 0
        while i + 9 <= bytes.count {
            let len = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            guard i + 9 + len <= bytes.count else { break }
            let stream =
                UInt32(bytes[i + 5] & 0x7f) << 24 | UInt32(bytes[i + 6]) << 16
                | UInt32(bytes[i + 7]) << 8 | UInt32(bytes[i + 8])
            out.append((bytes[i + 3], bytes[i + 4], stream, Array(bytes[i + 9..<i + 9 + len])))
            i += 9 + len
        }
        return out
    }
}
