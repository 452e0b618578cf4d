import Foundation
@testable import HTTPClient
import PushcheckTestSupport

/// The python HTTP/1.1 test server: redirects, a slow path, and an echo of what arrived.
let pythonServerScript = #"""
    import json, ssl, sys, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    port, mode = int(sys.argv[1]), sys.argv[2]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args):
            pass
        def reply(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if self.path.startswith("/hop/"):
                n = int(self.path[len("/hop/"):])
                if n == 0:
                    self.reply(200, b"arrived")
                else:
                    self.reply(302, b"", [("Location", "/hop/%d" % (n - 1))])
            elif self.path.startswith("/3/device/"):
                peer = dict(x[0] for x in self.connection.getpeercert()["subject"])["commonName"]
                doc = {"reason": "Unregistered", "timestamp": 1767225600000}
                self.reply(410, json.dumps(doc).encode(), [("Content-Type", "application/json"),
                           ("apns-id", self.headers.get("apns-id", "")), ("x-peer", peer),
                           ("x-authorization", self.headers.get("authorization", "none"))])
            elif self.path == "/nothing":
                self.close_connection = True
            elif self.path == "/short":
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                self.wfile.write(b"short")
                self.wfile.flush()
                self.close_connection = True
            elif self.path == "/garbage":
                self.wfile.write(b"NOT HTTP AT ALL\r\n\r\n")
                self.wfile.flush()
                self.close_connection = True
            elif self.path == "/slow":
                time.sleep(5)
                self.reply(200, b"late")
            elif self.path == "/echo":
                peer = None
                try:
                    cert = self.connection.getpeercert()
                    if cert:
                        peer = dict(x[0] for x in cert["subject"])["commonName"]
                except Exception:
                    pass
                doc = {"method": self.command, "headers": [[k.lower(), v] for k, v in self.headers.items()],
                       "body": body.decode("utf-8", "replace"), "peer": peer}
                self.reply(200, json.dumps(doc).encode(), [("Content-Type", "application/json"), ("X-Multi", "1"), ("X-Multi", "2")])
            else:
                self.reply(404, b"no such path")
        do_GET = do_POST = do_PUT = do_DELETE = handle_any

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    if mode == "mtls":
        cert, key, ca = sys.argv[3:6]
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        ctx.load_verify_locations(ca)
        ctx.verify_mode = ssl.CERT_REQUIRED
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    server.serve_forever()
    """#

/// Starts the python server (`mode`: "plain" or "mtls") in a directory of its own.
func startPythonServer(mode: String = "plain", extra: [String] = []) throws -> ServerProcess {
    let dir = try TempDirectory("pushcheck-httpclient")
    let port = try freeLoopbackPort()
    return try ServerProcess(
        "/usr/bin/env", ["python3", try dir.write("server.py", pythonServerScript), String(port), mode] + extra,
        port: port, logPath: dir.file("python.log"), owning: dir)
}

/// Starts the python server requiring mutual TLS: it presents the test server certificate and accepts
/// client certificates issued by the test CA.
func startMutualTLSPythonServer() throws -> ServerProcess {
    let certs = try TestCertificates.get()
    return try startPythonServer(mode: "mtls", extra: [certs.server.cert, certs.server.key, certs.ca.cert])
}

/// The test client certificate (issued by the test CA) as HTTPClient takes it.
func testClientCertificate() throws -> ClientCertificate {
    let certs = try TestCertificates.get()
    return try ClientCertificate(certificateFile: certs.client.cert, privateKeyFile: certs.client.key)
}

/// Starts `nghttpd` serving a directory of its own with an `index.html`: TLS with the given
/// certificate, or h2c.
func startNghttpd(certificate: CertificateFiles?) throws -> ServerProcess {
    let dir = try TempDirectory("pushcheck-httpclient")
    try dir.write("index.html", "<html><head><title>pushcheck</title></head><body>hello</body></html>\n")
    let port = try freeLoopbackPort()
    var arguments = ["-a", "127.0.0.1", "-d", dir.path, "-v"]
    if let certificate {
        arguments += [String(port), certificate.key, certificate.cert]
    } else {
        arguments += ["--no-tls", String(port)]
    }
    return try ServerProcess(
        "/usr/sbin/nghttpd", arguments, port: port, logPath: dir.file("nghttpd.log"), owning: dir)
}
