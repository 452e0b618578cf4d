import Foundation
import HTTPTypes
import PushcheckTestSupport
import Testing

@testable import HTTPClient

/// The client against real servers on loopback: nghttpd (h2, h2c) and a python HTTP/1.1 server.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TransportTests {
    func client(
        trusting ca: String? = nil, version: HTTPVersionPolicy = .best, redirects: RedirectPolicy = .none,
        certificate: ClientCertificate? = nil, totalTimeout: Duration = .seconds(15)
    ) throws -> HTTPClient {
        let roots = try ca.map { ca throws(HTTPClientError) in try TrustRoots.files([ca]) }
        return try HTTPClient(
            configuration: HTTPClientConfiguration(
                trustRoots: roots, clientCertificate: certificate, httpVersion: version, redirects: redirects,
                connectTimeout: .seconds(5), totalTimeout: totalTimeout))
    }

    @Test func getOverHTTP2WithTLSTrustingTheLocalCA() async throws {
        let certs = try TestCertificates.get()
        let server = try startNghttpd(certificate: certs.server)
        defer { server.stop() }

        let response = try await client(trusting: certs.ca.cert, version: .http2)
            .execute(.get("https://localhost:\(server.port)/index.html"))
        #expect(response.status == 200)
        #expect(response.httpVersion == .http2)
        #expect(response.bodyText.contains("<title>pushcheck</title>"))
        #expect(response.remoteIP == "127.0.0.1")
        #expect(response.remotePort == server.port)
        #expect(response.newConnections == 1)
        #expect(response.timings.tlsHandshake > .zero)
        #expect(response.timings.total >= response.timings.tlsHandshake)
        #expect(response.value("Content-Length") == String(response.body.count))
        #expect(response.headers.allSatisfy { $0.name == $0.name.lowercased() })
        #expect(response.effectiveURL == "https://localhost:\(server.port)/index.html")
    }

    @Test func localCAWorksAlongsideTheSystemRoots() async throws {
        let certs = try TestCertificates.get()
        let server = try startNghttpd(certificate: certs.server)
        defer { server.stop() }

        let roots = try TrustRoots.files([certs.ca.cert], includingSystemRoots: true)
        let system = try TrustRoots.system()
        #expect(roots.pemBundle.count > system.pemBundle.count)
        let webView = try HTTPClient(configuration: .webView(trustRoots: roots))
        let response = try await webView.execute(.get("https://localhost:\(server.port)/index.html"))
        #expect(response.status == 200)
        #expect(server.log().contains("user-agent: Mozilla/5.0 (iPhone;"))
        // The system roots alone do not know the local CA.
        await #expect {
            _ = try await HTTPClient(configuration: .webView(trustRoots: system))
                .execute(.get("https://localhost:\(server.port)/index.html"))
        } throws: { error in
            guard case .tlsFailure = error as? HTTPClientError else { return false }
            return true
        }
    }

    @Test func untrustedServerCertificateIsATLSFailure() async throws {
        let certs = try TestCertificates.get()
        let server = try startNghttpd(certificate: certs.rogueServer)
        defer { server.stop() }

        await #expect {
            _ = try await client(trusting: certs.ca.cert).execute(.get("https://localhost:\(server.port)/index.html"))
        } throws: { error in
            guard case .tlsFailure(_, let detail) = error as? HTTPClientError else { return false }
            return detail.localizedCaseInsensitiveContains("certificate")
        }
        // The same server is fine for a client that trusts the rogue CA: the failure was about trust.
        let ok = try await client(trusting: certs.rogueCA.cert).execute(.get("https://localhost:\(server.port)/"))
        #expect(ok.status == 200)
    }

    @Test func h2cWithPriorKnowledge() async throws {
        let server = try startNghttpd(certificate: nil)
        defer { server.stop() }

        let response = try await client(version: .http2PriorKnowledge)
            .execute(.get("http://127.0.0.1:\(server.port)/index.html"))
        #expect(response.status == 200)
        #expect(response.httpVersion == .http2)
        #expect(response.timings.tlsHandshake == .zero)
        #expect(response.bodyText.contains("hello"))
    }

    @Test func http1PostEchoesMethodBodyAndDuplicateHeaders() async throws {
        let server = try startPythonServer()
        defer { server.stop() }

        let request = ClientRequest(
            method: "POST", url: "http://127.0.0.1:\(server.port)/echo",
            headers: [HTTPField("X-Dup", "first"), HTTPField("X-Dup", "second"), HTTPField("X-Empty", "")],
            body: Array("{\"aps\":{}}".utf8))
        let response = try await client(version: .http1_1).execute(request)
        #expect(response.status == 200)
        #expect(response.httpVersion == .http1_1)
        #expect(response.values("x-multi") == ["1", "2"])
        let echo = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        #expect(echo?["method"] as? String == "POST")
        #expect(echo?["body"] as? String == "{\"aps\":{}}")
        let headers = (echo?["headers"] as? [[String]]) ?? []
        #expect(headers.filter { $0.first == "x-dup" }.map { $0[1] } == ["first", "second"])
        #expect(headers.contains(["x-empty", ""]))
        // curl's own additions for a POST body are suppressed unless asked for.
        #expect(!headers.contains { $0.first == "content-type" || $0.first == "expect" })
    }

    @Test func http2PolicyRefusesAnHTTP1Server() async throws {
        let server = try startPythonServer()
        defer { server.stop() }

        await #expect(
            throws: HTTPClientError.unexpectedHTTPVersion(
                url: "http://127.0.0.1:\(server.port)/echo", expected: "HTTP/2", got: "HTTP/1.1")
        ) {
            _ = try await client(version: .http2).execute(.get("http://127.0.0.1:\(server.port)/echo"))
        }
    }

    @Test func redirectsAreFollowedAndRecorded() async throws {
        let server = try startPythonServer()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"

        let response = try await client(redirects: .follow(limit: 3)).execute(.get("\(base)/hop/3"))
        #expect(response.status == 200)
        #expect(response.bodyText == "arrived")
        #expect(response.effectiveURL == "\(base)/hop/0")
        #expect(
            response.redirects == [
                ClientRedirect(status: 302, from: "\(base)/hop/3", to: "\(base)/hop/2"),
                ClientRedirect(status: 302, from: "\(base)/hop/2", to: "\(base)/hop/1"),
                ClientRedirect(status: 302, from: "\(base)/hop/1", to: "\(base)/hop/0"),
            ])

        await #expect {
            _ = try await client(redirects: .follow(limit: 3)).execute(.get("\(base)/hop/4"))
        } throws: { error in
            guard case .tooManyRedirects(_, let limit, _) = error as? HTTPClientError else { return false }
            return limit == 3
        }

        let unfollowed = try await client(redirects: .none).execute(.get("\(base)/hop/4"))
        #expect(unfollowed.status == 302)
        #expect(unfollowed.value("location") == "/hop/3")
        #expect(unfollowed.redirects.isEmpty)
    }

    @Test func slowServerTimesOut() async throws {
        let server = try startPythonServer()
        defer { server.stop() }

        let request = ClientRequest(url: "http://127.0.0.1:\(server.port)/slow", timeout: .milliseconds(300))
        await #expect {
            _ = try await client().execute(request)
        } throws: { error in
            guard case .timeout = error as? HTTPClientError else { return false }
            return true
        }
    }

    @Test func closedPortIsCouldNotConnect() async throws {
        let port = try freeLoopbackPort()
        await #expect {
            _ = try await client().execute(.get("http://127.0.0.1:\(port)/"))
        } throws: { error in
            guard case .couldNotConnect(let url, let detail) = error as? HTTPClientError else { return false }
            return url == "http://127.0.0.1:\(port)/" && !detail.isEmpty
        }
    }

    @Test func malformedURLIsInvalidURL() async throws {
        await #expect {
            _ = try await client().execute(.get("htp:/nowhere"))
        } throws: { error in
            guard case .invalidURL = error as? HTTPClientError else { return false }
            return true
        }
    }
}
