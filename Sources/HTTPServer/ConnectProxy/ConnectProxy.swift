import Foundation
import Glibc
import Synchronization

/// `serve`'s HTTP CONNECT proxy listener (`proxy_port:` / `--proxy-port`): reads one `CONNECT host:port`
/// head per connection (`ConnectRequest`), answers `200 Connection established` and then copies bytes both
/// ways between the client and the mock's TLS listener for that host (sandbox, production, or a
/// channel-management one) on loopback. A tunnel costs two
/// threads (blocking reads on each side, small stacks); a test harness opens a handful, so this stays simple, and
/// its limits keep a flood from taking the proxy down: at most `maxConnections` at once (the next gets
/// `503`), the request head within `headTimeout` (else `408`) and 16 KiB (else `431`), and an `accept` that fails
/// (out of file descriptors) is retried, never the end of the listener.
package final class ConnectProxy: Sendable {
    private let listenFD: Int32
    private let headTimeout: Duration
    private let maxConnections: Int
    /// The bound port.
    package let port: Int
    /// `http://HOST:PORT`, for `HTTPS_PROXY` (a wildcard host is written as 127.0.0.1).
    package let url: String
    private let targets: [ConnectRequest.Target: Int]
    private let open = Mutex<Set<Int32>>([])
    private let stopped = Mutex(false)

    /// Binds `host:port` (0 = ephemeral) and starts accepting; `targets` are the loopback ports of the mock's TLS
    /// listeners (a target not given is answered 502).
    package init(
        host: String, port: Int, targets: [ConnectRequest.Target: Int], headTimeout: Duration = .seconds(10),
        maxConnections: Int = 256
    ) throws(ConnectProxyError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else {
            close(fd)
            throw .cannotListen("the proxy listens on IPv4 addresses only, not '\(host)'")
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let e = String(cString: strerror(errno))
            close(fd)
            throw .cannotListen("\(host):\(port): \(e)")
        }
        var actual = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        listenFD = fd
        self.port = Int(UInt16(bigEndian: actual.sin_port))
        url = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(self.port)"
        self.targets = targets
        self.headTimeout = headTimeout
        self.maxConnections = maxConnections
        Self.startThread { [self] in acceptLoop() }
    }

    /// Tunnels copy 16 KiB at a time and call nothing deep: a small stack, not the default 8 MiB each.
    private static func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Stops accepting and closes every tunnel.
    package func shutdown() {
        guard
            !stopped.withLock({
                let was = $0; $0 = true; return was
            })
        else { return }
        Glibc.shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
        for fd in open.withLock({ $0 }) { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                if stopped.withLock({ $0 }) { return }
                // Out of descriptors or memory: wait for tunnels to close rather than spin; anything else (a
                // connection reset before it was accepted, EINTR) is one client's problem, not the listener's.
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno) { usleep(50_000) }
                continue
            }
            guard open.withLock({ $0.count }) < maxConnections else {
                Self.writeAll(client, Array(ConnectRefusal.tooManyConnections(maxConnections).response.utf8))
                close(client)
                continue
            }
            track(client)
            Self.startThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { untrack(client) }
        let head: String, rest: [UInt8]
        switch readHead(client) {
        case .head(let h, let r): (head, rest) = (h, r)
        case .closed: return
        case .refused(let refusal):
            writeAll(client, Array(refusal.response.utf8))
            return
        }
        let target: ConnectRequest.Target
        switch ConnectRequest.parse(head).flatMap({ $0.target }) {
        case .failure(let refusal):
            writeAll(client, Array(refusal.response.utf8))
            return
        case .success(let t): target = t
        }
        guard let port = targets[target], port > 0, let upstream = connectLoopback(port: port) else {
            writeAll(
                client,
                Array(
                    ConnectRefusal(status: 502, reason: "Bad Gateway", message: "the mock's listener is not reachable")
                        .response.utf8))
            return
        }
        track(upstream)
        defer { untrack(upstream) }
        writeAll(client, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
        if !rest.isEmpty { writeAll(upstream, rest) }
        let done = DispatchSemaphore(value: 0)
        Self.startThread {
            Self.pump(from: upstream, to: client)
            done.signal()
        }
        Self.pump(from: client, to: upstream)
        done.wait()
    }

    private func track(_ fd: Int32) { open.withLock { _ = $0.insert(fd) } }
    private func untrack(_ fd: Int32) {
        open.withLock { _ = $0.remove(fd) }
        close(fd)
    }

    /// What reading a request head gave.
    private enum HeadRead {
        case head(String, rest: [UInt8])
        case closed
        case refused(ConnectRefusal)
    }

    /// The most a request head may take.
    static let maxHeadBytes = 16 * 1024

    /// Reads until the blank line ending the request head, within `headTimeout` of the start and
    /// `maxHeadBytes`; returns the head and any bytes after it.
    private func readHead(_ fd: Int32) -> HeadRead {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        let deadline = ContinuousClock.now + headTimeout
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .refused(.headTimeout(headTimeout)) }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            let p = poll(&ready, 1, milliseconds)
            if p < 0, errno == EINTR { continue }
            if p == 0 { continue }  // the deadline check above answers
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return .closed }
            buffer += chunk[0..<n]
            if let r = buffer.firstRange(of: end) {
                return .head(
                    String(decoding: buffer[..<r.lowerBound], as: UTF8.self), rest: Array(buffer[r.upperBound...]))
            }
            if buffer.count > Self.maxHeadBytes { return .refused(.headTooLarge(Self.maxHeadBytes)) }
        }
    }

    /// Copies until EOF on `from`, then half-closes `to` so the other direction can finish.
    private static func pump(from: Int32, to: Int32) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            if !writeAll(to, Array(chunk[0..<n])) { break }
        }
        Glibc.shutdown(to, Int32(SHUT_WR))
    }

    @discardableResult
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) { Self.writeAll(fd, bytes) }

    private func connectLoopback(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard r == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}

/// Why the proxy listener could not start.
package enum ConnectProxyError: Error, CustomStringConvertible {
    case cannotListen(String)
    package var description: String {
        switch self {
        case .cannotListen(let d): return "cannot start the CONNECT proxy: \(d)"
        }
    }
}
