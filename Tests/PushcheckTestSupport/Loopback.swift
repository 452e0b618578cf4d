import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback socket call that failed while looking for a port.
package struct LoopbackError: Error, CustomStringConvertible {
    package var description: String
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released). Another
/// process may take it before the caller binds it; servers that can report their own port are better.
package func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw LoopbackError(description: "socket() failed (errno \(errno)); check the fd limit") }
    defer { close(fd) }
    var addr = loopbackAddress(port: 0)
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
            bind(fd, p, len) == 0 && getsockname(fd, p, &len) == 0
        }
    }
    guard bound else { throw LoopbackError(description: "bind/getsockname on 127.0.0.1 failed (errno \(errno))") }
    return Int(UInt16(bigEndian: addr.sin_port))
}

/// True when something accepts TCP connections on 127.0.0.1:`port` right now.
package func canConnectToLoopback(port: Int) -> Bool {
    guard let fd = try? connectToLoopback(port: port) else { return false }
    close(fd)
    return true
}

/// A blocking TCP socket connected to 127.0.0.1:`port`; the caller owns it and must `close` it.
/// Throws `LoopbackError` when nothing accepts connections there (is the server started?).
package func connectToLoopback(port: Int) throws(LoopbackError) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw LoopbackError(description: "socket() failed (errno \(errno)); check the fd limit") }
    var addr = loopbackAddress(port: UInt16(port))
    let connected = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
    guard connected else {
        let error = errno
        close(fd)
        throw LoopbackError(
            description: "connect to 127.0.0.1:\(port) failed (errno \(error)); is the server listening?")
    }
    return fd
}

private func loopbackAddress(port: UInt16) -> sockaddr_in {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = port.bigEndian
    return addr
}
