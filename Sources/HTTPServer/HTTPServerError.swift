/// Why the server could not start (or a listener could not be set up).
package enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// A system call failed; `call` names it, `errno` is the raw error number.
    case system(call: String, errno: Int32)
    /// `bind` failed, usually because the port is taken or the host is not a local address.
    case bindFailed(host: String, port: Int, errno: Int32)
    /// The host is not a numeric IPv4/IPv6 address.
    case invalidHost(String)
    /// The TLS material of a listener could not be loaded.
    case tls(listener: String, reason: String)
    /// `start()` was called twice, or after `shutdown`.
    case alreadyStarted

    package var description: String {
        switch self {
        case .system(let call, let errno):
            return "\(call) failed: \(errnoDescription(errno)) (errno \(errno)); check file-descriptor limits"
        case .bindFailed(let host, let port, let errno):
            return "cannot listen on \(host):\(port): \(errnoDescription(errno)); pick another port or use port 0"
        case .invalidHost(let host):
            return "'\(host)' is not a numeric IP address; use e.g. 127.0.0.1 or ::1"
        case .tls(let listener, let reason):
            return "listener '\(listener)': TLS setup failed: \(reason); check the certificate chain and key PEMs"
        case .alreadyStarted:
            return "the server was already started; create a new HTTPServer"
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
