import Foundation
@testable import HTTPClient
import PushcheckTestSupport
import Testing

@testable import DeviceSimulator

/// Issue 13: a page that never ends. A Python server (plain sockets) streams forever, chunked or under a
/// huge declared Content-Length; the web view stops at its page limit with `.tooLarge` instead of reading
/// until the timeout (an endless page used to read 4.4 GB in 10 s).
@Suite(.serialized) struct PageLimitTests {
    static let server = #"""
        import signal, socket
        signal.alarm(120)  # never outlives a hung test
        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0)); s.listen(8)
        print(s.getsockname()[1], flush=True)
        chunk = b"<p>" + b"x" * 65536 + b"</p>\n"
        while True:
            c, _ = s.accept()
            req = b""
            while b"\r\n\r\n" not in req:
                d = c.recv(4096)
                if not d: break
                req += d
            path = req.split(b" ")[1] if req.count(b" ") > 1 else b"/"
            try:
                if path == b"/declared":
                    c.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 100000000000\r\n\r\n")
                    frame = chunk
                else:
                    c.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n")
                    frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
                for _ in range(16384):  # at most ~1 GiB per connection
                    c.sendall(frame)
            except OSError:
                pass
            c.close()
        """#

    @Test(arguments: ["/endless", "/declared"])
    func anEndlessPageFailsAtThePageLimit(path: String) async throws {
        let server = try ChildProcess("/usr/bin/python3", ["-c", Self.server])
        defer { _ = server.stop(signal: SIGKILL) }
        let port = try #require(server.firstLine(timeout: 20).flatMap { Int($0) }, "server: \(server.stderr)")
        // A timeout far beyond what reading 10 MiB over loopback takes: only the size limit ends this.
        let web = try WebView(trustRoots: nil, timeout: .seconds(120))
        defer { web.shutdown() }
        let url = "http://127.0.0.1:\(port)\(path)"
        let outcome = await web.navigate(to: url)
        let limit = HTTPClientConfiguration.webViewPageLimit
        #expect(outcome == .failed(.tooLarge(url: url, limit: limit)), "\(outcome)")
        #expect("\(outcome)".contains("larger than 10 MiB"))
    }
}
