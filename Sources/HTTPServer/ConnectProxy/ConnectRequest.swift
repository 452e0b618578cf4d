import Foundation

/// The head of an HTTP/1.1 `CONNECT host:port` request and where `serve`'s proxy tunnels it. Free of I/O.
///
/// Client libraries that always connect to Apple's hosts (aioapns, pyapns_client) can reach the mock
/// unchanged through `HTTPS_PROXY` or their proxy option: the proxy opens a TCP tunnel from
/// `api.sandbox.push.apple.com:443` (or `api.development…`, aioapns's sandbox host; port 2197 too) to the
/// sandbox listener, from `api.push.apple.com` to the production one, and from Apple's channel-management hosts
/// `api-manage-broadcast.sandbox.push.apple.com:2195` / `api-manage-broadcast.push.apple.com:2196` to the
/// broadcast listeners. TLS then runs end to end between the client and the mock, whose certificate names those
/// hosts.
package struct ConnectRequest: Equatable {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Which listener an APNs host goes to.
    package enum Target: Hashable, Sendable { case sandbox, production, broadcastSandbox, broadcastProduction }

    static let hosts: [String: Target] = [
        "api.sandbox.push.apple.com": .sandbox, "api.development.push.apple.com": .sandbox,
        "api.push.apple.com": .production,
        // Broadcast sends: Apple's sample requests and troubleshooting page use these hosts (Tests/reference/apns.md
        // §8.2); they reach the same listeners as device-token pushes.
        "api-broadcast.sandbox.push.apple.com": .sandbox, "api-broadcast.push.apple.com": .production,
        "api-manage-broadcast.sandbox.push.apple.com": .broadcastSandbox,
        "api-manage-broadcast.push.apple.com": .broadcastProduction,
    ]
    /// The ports Apple documents per target: 443 and 2197 for pushes, 2195 (sandbox) and 2196 (production) for
    /// channel management ("Sending channel management requests to APNs").
    package static let ports: [Target: [Int]] = [
        .sandbox: [443, 2197], .production: [443, 2197], .broadcastSandbox: [2195], .broadcastProduction: [2196],
    ]

    /// Parses a complete request head (through the blank line). The error is the status line to answer with.
    package static func parse(_ head: String) -> Result<ConnectRequest, ConnectRefusal> {
        let lines = head.components(separatedBy: "\r\n")
        let parts = (lines.first ?? "").split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
            return .failure(ConnectRefusal(status: 400, reason: "Bad Request", message: "not an HTTP/1.x request line"))
        }
        guard parts[0] == "CONNECT" else {
            return .failure(
                ConnectRefusal(
                    status: 405, reason: "Method Not Allowed",
                    message: "this is pushcheck's CONNECT proxy for APNs hosts; \(parts[0]) is not supported"))
        }
        let authority = String(parts[1])
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...])
        else {
            return .failure(ConnectRefusal(status: 400, reason: "Bad Request", message: "CONNECT needs host:port"))
        }
        return .success(ConnectRequest(host: String(authority[..<colon]).lowercased(), port: port))
    }

    /// Where the tunnel goes, or why it is refused (only APNs hosts on their documented ports are tunnelled).
    package var target: Result<Target, ConnectRefusal> {
        guard let t = Self.hosts[host], Self.ports[t, default: []].contains(port) else {
            let allowed = Self.hosts.sorted { $0.key < $1.key }.map { host, t in
                "\(host):" + Self.ports[t, default: []].map(String.init).joined(separator: "/")
            }
            return .failure(
                ConnectRefusal(
                    status: 403, reason: "Forbidden",
                    message: "pushcheck's proxy tunnels only \(allowed.joined(separator: ", ")), not \(host):\(port)"))
        }
        return .success(t)
    }
}

/// A CONNECT the proxy will not tunnel, answered with `status` and a one-line text body.
package struct ConnectRefusal: Error, Equatable {
    package var status: Int
    package var reason: String
    package var message: String

    package var response: String {
        "HTTP/1.1 \(status) \(reason)\r\ncontent-type: text/plain\r\ncontent-length: \(message.utf8.count + 1)\r\n"
            + "connection: close\r\n\r\n\(message)\n"
    }
}

extension ConnectRefusal {
    /// The proxy already holds `limit` connections.
    static func tooManyConnections(_ limit: Int) -> ConnectRefusal {
        ConnectRefusal(
            status: 503, reason: "Service Unavailable",
            message: "pushcheck's proxy holds \(limit) connections already; close some and retry")
    }

    /// The request head did not arrive within `timeout` of the connection.
    static func headTimeout(_ timeout: Duration) -> ConnectRefusal {
        ConnectRefusal(
            status: 408, reason: "Request Timeout",
            message: "no complete CONNECT request head within \(timeout.components.seconds) s of connecting")
    }

    /// The request head passed `limit` bytes without its blank line.
    static func headTooLarge(_ limit: Int) -> ConnectRefusal {
        ConnectRefusal(
            status: 431, reason: "Request Header Fields Too Large",
            message: "the CONNECT request head is over \(limit / 1024) KiB")
    }
}
