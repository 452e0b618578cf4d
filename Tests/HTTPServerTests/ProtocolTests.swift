import Foundation
import HTTPServer
import PushcheckTestSupport
import Testing

/// Each protocol path, driven by real external clients.
@Suite struct ProtocolTests {
    let files: TestFiles

    init() throws { files = try TestFiles.get() }

    @Test func tlsWithALPNh2ServesHTTP2ToCurl() throws {
        let s = try TestServer(tls: files.tls())
        let r = try runTool(
            "curl",
            [
                "-sS", "--http2", "--cacert", files.caPath, "-H", "x-test: a", "-H", "X-Test: b",
                "-w", "\nhttp=%{http_version}", "\(s.url)/hello?q=1",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("version", in: r.stdout) == ["HTTP/2"])
        #expect(field("alpn", in: r.stdout) == ["h2"])
        #expect(field("path", in: r.stdout) == ["/hello?q=1"])
        #expect(field("x-test", in: r.stdout) == ["a,b"])
        #expect(r.stdout.contains("http=2"))
    }

    @Test func tlsWithALPNHTTP1ServesHTTP1ToCurl() throws {
        let s = try TestServer(tls: files.tls())
        let r = try runTool("curl", ["-sS", "--http1.1", "--cacert", files.caPath, "-d", "abc", "\(s.url)/one"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("version", in: r.stdout) == ["HTTP/1.1"])
        #expect(field("alpn", in: r.stdout) == ["http/1.1"])
        #expect(field("method", in: r.stdout) == ["POST"])
        #expect(field("len", in: r.stdout) == ["3"])
    }

    @Test func cleartextPriorKnowledgeServesH2C() throws {
        let s = try TestServer()
        let r = try runTool("curl", ["-sS", "--http2-prior-knowledge", "-w", "\nhttp=%{http_version}", "\(s.url)/c"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("version", in: r.stdout) == ["HTTP/2"])
        #expect(field("alpn", in: r.stdout) == ["none"])
        #expect(r.stdout.contains("http=2"))
    }

    @Test func cleartextHTTP1KeepsTheConnectionAlive() throws {
        let s = try TestServer()
        let r = try runTool("curl", ["-sS", "--http1.1", "\(s.url)/a", "\(s.url)/b"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("path", in: r.stdout) == ["/a", "/b"])
        #expect(field("version", in: r.stdout) == ["HTTP/1.1", "HTTP/1.1"])
        let conns = field("conn", in: r.stdout)
        #expect(conns.count == 2 && conns[0] == conns[1])
        #expect(field("count", in: r.stdout) == ["1", "2"])
    }

    @Test func chunkedHTTP1RequestBodyIsAssembled() throws {
        let s = try TestServer()
        let r = try runTool(
            "curl",
            [
                "-sS", "--http1.1", "-H", "Transfer-Encoding: chunked", "--data-binary",
                "@" + files.file(Array(repeating: 65, count: 5000)), "\(s.url)/chunked",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("len", in: r.stdout) == ["5000"])
    }

    @Test func nghttpOverTLSAndH2CSeesOurSettings() throws {
        let tlsServer = try TestServer(tls: files.tls())
        let clear = try TestServer()
        for url in [tlsServer.url, clear.url] {
            let r = try runTool("nghttp", ["-v", "-n", "\(url)/frames"])
            #expect(r.status == 0, "\(url): \(r.stdout) \(r.stderr)")
            #expect(r.stdout.contains("recv SETTINGS frame"))
            #expect(r.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]"))
            #expect(r.stdout.contains(":status: 200"))
        }
    }

    @Test func tlsWithoutALPNButWithPrefaceIsServedHTTP2() throws {
        let s = try TestServer(tls: files.tls())
        let r = try runTool(
            "curl",
            [
                "-sS", "-v", "--http2-prior-knowledge", "--no-alpn", "--cacert", files.caPath,
                "\(s.url)/no-alpn",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("version", in: r.stdout) == ["HTTP/2"])
        #expect(field("alpn", in: r.stdout) == ["none"])
    }

    @Test func tlsWithoutALPNAndHTTP1BytesIsServedHTTP1() throws {
        let s = try TestServer(tls: files.tls())
        let r = try runTool("curl", ["-sS", "--http1.1", "--no-alpn", "--cacert", files.caPath, "\(s.url)/plain"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("version", in: r.stdout) == ["HTTP/1.1"])
        #expect(field("alpn", in: r.stdout) == ["none"])
    }

    @Test func delayedResponseDoesNotHoldUpOtherStreams() throws {
        let s = try TestServer(tls: files.tls())
        let r = try runTool("nghttp", ["\(s.url)/delay/200", "\(s.url)/fast"])
        #expect(r.status == 0, "\(r.stderr)")
        // nghttp prints bodies as they arrive: the fast stream's body comes first.
        #expect(field("path", in: r.stdout) == ["/fast", "/delay/200"])
        let conns = field("conn", in: r.stdout)
        #expect(conns.count == 2 && conns[0] == conns[1])
        #expect(s.handler.responded.withLock { $0 } == ["/fast", "/delay/200"])
    }

    /// A connection reuses the response slot of a request answered inline; one a delayed answer still holds is
    /// never reused, so late answers and the inline ones between them each reach their own stream.
    @Test func inlineAndDelayedAnswersInterleavedReachTheirOwnStreams() throws {
        let s = try TestServer(tls: files.tls())
        let paths = ["/a", "/delay/300", "/b", "/delay/100", "/c", "/d", "/delay/200", "/e"]
        let r = try runTool("nghttp", paths.map { "\(s.url)\($0)" })
        #expect(r.status == 0, "\(r.stderr)")
        let answered = field("path", in: r.stdout)
        #expect(answered.count == paths.count)
        #expect(Set(answered) == Set(paths))
        // Inline answers first (in request order), then the delayed ones by their delay.
        #expect(answered.suffix(3) == ["/delay/100", "/delay/200", "/delay/300"])
        let conns = field("conn", in: r.stdout)
        #expect(conns.count == paths.count && Set(conns).count == 1)
    }

    @Test func perConnectionStorageLivesAsLongAsTheConnection() throws {
        let s = try TestServer()
        let first = try runTool("nghttp", ["\(s.url)/count/a", "\(s.url)/count/b", "\(s.url)/count/c"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(field("count", in: first.stdout).sorted() == ["1", "2", "3"])
        let second = try runTool("nghttp", ["\(s.url)/count"])
        #expect(field("count", in: second.stdout) == ["1"])
        #expect(field("conn", in: second.stdout) != [field("conn", in: first.stdout).first ?? ""])
    }

    @Test func mutualTLSReportsTheClientCertificate() throws {
        let s = try TestServer(tls: files.tls(mutual: true))
        let trusted = try runTool(
            "curl",
            [
                "-sS", "--cacert", files.caPath, "--cert", files.clientCertPath,
                "--key", files.clientKeyPath, "\(s.url)/cert",
            ])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(Int(field("der", in: trusted.stdout).first ?? "0")! > 100)
        #expect(field("trusted", in: trusted.stdout) == ["true"])
        let stranger = try runTool(
            "curl",
            [
                "-sS", "--cacert", files.caPath, "--cert", files.strangerCertPath,
                "--key", files.strangerKeyPath, "\(s.url)/cert",
            ])
        #expect(stranger.status == 0, "\(stranger.stderr)")
        #expect(Int(field("der", in: stranger.stdout).first ?? "0")! > 100)
        #expect(field("trusted", in: stranger.stdout) == ["false"])
        let none = try runTool("curl", ["-sS", "--cacert", files.caPath, "\(s.url)/cert"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(field("der", in: none.stdout) == ["0"])
    }

    @Test func serverStartsWithSeveralLoopsAndCountsRequests() throws {
        let s = try TestServer(loops: 3)
        for _ in 0..<4 {
            let r = try runTool("curl", ["-sS", "--http2-prior-knowledge", "\(s.url)/n"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(s.server.stats.requestsServed == 4)
        #expect(s.server.stats.acceptedConnections == 4)
        #expect(s.server.stats.http2Connections == 4)
    }

    @Test func tls12IsAccepted() throws {
        let s = try TestServer(tls: files.tls())
        let r = try runTool("curl", ["-sS", "--tlsv1.2", "--tls-max", "1.2", "--cacert", files.caPath, "\(s.url)/v12"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(field("path", in: r.stdout) == ["/v12"])
    }

    @Test func handlerSeesConnectionOpenAndClose() throws {
        let s = try TestServer()
        let r = try runTool("curl", ["-sS", "--http2-prior-knowledge", "\(s.url)/life"])
        #expect(r.status == 0, "\(r.stderr)")
        let id = UInt64(field("conn", in: r.stdout).first ?? "") ?? 0
        #expect(s.handler.opened.withLock { $0 } == [id])
        #expect(eventually { s.handler.closed.withLock { $0 } == [id] })
        #expect(eventually { s.server.stats.openConnections == 0 })
    }

    @Test func badTLSMaterialFailsStart() throws {
        let server = HTTPServer(listeners: [
            ListenerConfiguration(
                name: "broken", tls: TLSConfiguration(certificateChainPEM: "nope", privateKeyPEM: "nope"),
                handler: EchoHandler())
        ])
        #expect(throws: HTTPServerError.self) { try server.start() }
    }
}
