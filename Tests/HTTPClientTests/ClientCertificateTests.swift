import Foundation
import PushcheckTestSupport
import Testing

@testable import HTTPClient

/// Mutual TLS: a python server that requires a client certificate signed by the test CA.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ClientCertificateTests {
    @Test func clientCertificateIsPresentedAndVerified() async throws {
        let certs = try TestCertificates.get()
        let server = try startMutualTLSPythonServer()
        defer { server.stop() }
        let url = "https://localhost:\(server.port)/echo"
        let roots = try TrustRoots.files([certs.ca.cert])

        let withCert = try HTTPClient(
            configuration: HTTPClientConfiguration(
                trustRoots: roots,
                clientCertificate: try testClientCertificate(),
                totalTimeout: .seconds(10)))
        let response = try await withCert.execute(.get(url))
        #expect(response.status == 200)
        let echo = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        #expect(echo?["peer"] as? String == "pushcheck-client")

        let withoutCert = try HTTPClient(
            configuration: HTTPClientConfiguration(trustRoots: roots, totalTimeout: .seconds(10)))
        await #expect {
            _ = try await withoutCert.execute(.get(url))
        } throws: { error in
            // TLS 1.3: the server's "certificate required" alert comes after the client's handshake is
            // done; curl reports it as a TLS error or, when the close wins the race, a closed connection.
            switch error as? HTTPClientError {
            case .tlsFailure, .connectionClosed: return true
            default: return false
            }
        }
    }

    @Test func unreadableCertificateFileIsAConfigurationError() {
        #expect {
            _ = try ClientCertificate(
                certificateFile: "/nonexistent/client.pem", privateKeyFile: "/nonexistent/key.pem")
        } throws: { error in
            guard case .configuration(let message) = error as? HTTPClientError else { return false }
            return message.contains("/nonexistent/client.pem")
        }
    }
}
