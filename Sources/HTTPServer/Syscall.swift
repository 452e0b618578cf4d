import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The outcome of a non-blocking system call.
enum IOResult<T> {
    case done(T)
    case wouldBlock
}

/// Every system call goes through here: retries EINTR, maps EAGAIN to `.wouldBlock`, errno to a typed error.
@inline(__always)
func syscall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(HTTPServerError) -> IOResult<T> {
    while true {
        let r = body()
        if r >= 0 { return .done(r) }
        let e = pc_errno()
        if e == EINTR { continue }
        if e == EAGAIN || e == EWOULDBLOCK { return .wouldBlock }
        throw .system(call: name, errno: e)
    }
}

/// Monotonic nanoseconds.
func monotonicNow() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// Numeric host and port of a socket address.
func describe(_ storage: sockaddr_storage) -> (host: String, port: Int) {
    var storage = storage
    var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    return withUnsafePointer(to: &storage) { ptr in
        if Int32(ptr.pointee.ss_family) == AF_INET6 {
            return ptr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                var addr = a.pointee.sin6_addr
                inet_ntop(AF_INET6, &addr, &buf, socklen_t(buf.count))
                return (cString(buf), Int(UInt16(bigEndian: a.pointee.sin6_port)))
            }
        }
        return ptr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
            var addr = a.pointee.sin_addr
            inet_ntop(AF_INET, &addr, &buf, socklen_t(buf.count))
            return (cString(buf), Int(UInt16(bigEndian: a.pointee.sin_port)))
        }
    }
}

/// Creates a non-blocking listening socket bound to host:port with SO_REUSEPORT (one per loop).
/// With `exclusiveProbe`, first checks that nobody else listens there (SO_REUSEPORT would otherwise let a
/// second listener of ours silently share the port).
func makeListeningSocket(
    host: String, port: Int, exclusiveProbe: Bool = false
) throws(HTTPServerError) -> (fd: Int32, port: Int) {
    if exclusiveProbe && port != 0 {
        let probe = try bindSocket(host: host, port: port, reusePort: false)
        close(probe)
    }
    let fd = try bindSocket(host: host, port: port, reusePort: true)
    if listen(fd, 1024) != 0 {
        let e = pc_errno()
        close(fd)
        throw .system(call: "listen", errno: e)
    }
    var bound = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &bound) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, describe(bound).port)
}

private func bindSocket(host: String, port: Int, reusePort: Bool) throws(HTTPServerError) -> Int32 {
    var storage = sockaddr_storage()
    let length: socklen_t
    let family: Int32
    // Only the concrete address differs between the families; it is copied into the neutral storage `bind` takes.
    func store<Address>(_ address: Address) -> socklen_t {
        withUnsafeMutableBytes(of: &storage) { dst in withUnsafeBytes(of: address) { dst.copyMemory(from: $0) } }
        return socklen_t(MemoryLayout<Address>.size)
    }
    if host.contains(":") {
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        a.sin6_port = UInt16(port).bigEndian
        guard inet_pton(AF_INET6, host, &a.sin6_addr) == 1 else { throw .invalidHost(host) }
        (length, family) = (store(a), AF_INET6)
    } else {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = UInt16(port).bigEndian
        guard inet_pton(AF_INET, host, &a.sin_addr) == 1 else { throw .invalidHost(host) }
        (length, family) = (store(a), AF_INET)
    }
    let fd = pc_socket_stream_nonblock(family)
    if fd < 0 { throw .system(call: "socket", errno: pc_errno()) }
    _ = pc_setsockopt_int(fd, pc_SOL_SOCKET(), pc_SO_REUSEADDR(), 1)
    if reusePort { _ = pc_setsockopt_int(fd, pc_SOL_SOCKET(), pc_SO_REUSEPORT(), 1) }
    let rc = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    if rc != 0 {
        let e = pc_errno()
        close(fd)
        throw .bindFailed(host: host, port: port, errno: e)
    }
    return fd
}

/// A NUL-terminated C buffer as a String.
func cString(_ buf: [CChar]) -> String {
    String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// `strerror` text for an errno value.
func errnoDescription(_ code: Int32) -> String {
    guard let p = strerror(code) else { return "errno \(code)" }
    var out: [UInt8] = []
    var q = p
    while q.pointee != 0 { out.append(UInt8(bitPattern: q.pointee)); q += 1 }
    return String(decoding: out, as: UTF8.self)
}

/// True when `host` is a numeric IPv4 or IPv6 address, as the listeners bind to (`inet_pton`): what `serve --host`
/// checks before starting anything, so a malformed address is a usage error rather than a failed start.
package func isNumericIPAddress(_ host: String) -> Bool {
    if host.contains(":") {
        var a = in6_addr()
        return inet_pton(AF_INET6, host, &a) == 1
    }
    var a = in_addr()
    return inet_pton(AF_INET, host, &a) == 1
}
