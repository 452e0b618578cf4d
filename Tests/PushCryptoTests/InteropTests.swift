import Foundation
import PushcheckTestSupport
import Testing
@testable import PushCrypto

/// Signatures and tokens checked by independent implementations (OpenSSL CLI, Python `cryptography`).
@Suite struct InteropTests {
    @Test func opensslDgstSignatureVerifiesInOurJWT() throws {
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        let key = try P256PrivateKey.generate()
        try dir.write("key.p8", key.pkcs8PEM)
        let input =
            Base64URL.encode(#"{"alg":"ES256","kid":"KEY1234567"}"#) + "."
            + Base64URL.encode(#"{"iss":"TEAM123456","iat":1700000000}"#)
        try dir.write("input", input)
        let signed = try runTool("openssl", ["dgst", "-sha256", "-sign", dir.file("key.p8"), dir.file("input")])
        #expect(signed.status == 0, "\(signed.stderr)")
        let raw = try ECDSASignature.rawFromDER(signed.stdoutBytes)
        let jwt = try JWT(compact: input + "." + Base64URL.encode(raw))
        try jwt.verifyES256(using: key.publicKey)
        #expect(jwt.issuer == "TEAM123456" && jwt.keyID == "KEY1234567")
    }

    @Test func ourES256SignatureVerifiesWithOpenSSLDgst() throws {
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        let key = try P256PrivateKey.generate()
        let token = try JWT.apnsProviderToken(
            teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_700_000_000, key: key)
        let jwt = try JWT(compact: token)
        try dir.write("pub.pem", key.publicKey.pem)
        try dir.write("input", jwt.signingInput)
        try dir.write("sig.der", try ECDSASignature.derFromRaw(jwt.signature))
        let ok = try runTool(
            "openssl",
            ["dgst", "-sha256", "-verify", dir.file("pub.pem"), "-signature", dir.file("sig.der"), dir.file("input")])
        #expect(ok.status == 0 && ok.stdout.contains("Verified OK"), "\(ok.stdout) \(ok.stderr)")
        try dir.write("input", Array("x".utf8) + jwt.signingInput)
        let bad = try runTool(
            "openssl",
            ["dgst", "-sha256", "-verify", dir.file("pub.pem"), "-signature", dir.file("sig.der"), dir.file("input")])
        #expect(bad.status != 0)
    }

    /// Python verifies our JWTs (ES256 raw r‖s and RS256) and signs ones we verify.
    @Test func pythonCryptographyAgreesBothWays() throws {
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        let ec = try P256PrivateKey.generate()
        let rsa = try RSAPrivateKey.generate()
        try dir.write("ec.pem", ec.pkcs8PEM)
        try dir.write("rsa.pem", rsa.pkcs8PEM)
        let es = try JWT.apnsProviderToken(teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_700_000_000, key: ec)
        let rs = try JWT.signRS256(claims: ["iss": "svc@example.iam.gserviceaccount.com", "iat": 1], key: rsa)
        let script = """
            import sys, base64, json
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec, padding, utils
            def b64d(s): return base64.urlsafe_b64decode(s + '=' * (-len(s) % 4))
            def b64e(b): return base64.urlsafe_b64encode(b).rstrip(b'=').decode()
            eck = serialization.load_pem_private_key(open(sys.argv[1], 'rb').read(), None)
            rsk = serialization.load_pem_private_key(open(sys.argv[2], 'rb').read(), None)
            h, c, s = sys.argv[3].split('.'); sig = b64d(s)
            r, t = int.from_bytes(sig[:32], 'big'), int.from_bytes(sig[32:], 'big')
            eck.public_key().verify(utils.encode_dss_signature(r, t), (h + '.' + c).encode(), ec.ECDSA(hashes.SHA256()))
            assert json.loads(b64d(h)) == {'alg': 'ES256', 'kid': 'KEY1234567'}
            h, c, s = sys.argv[4].split('.')
            rsk.public_key().verify(b64d(s), (h + '.' + c).encode(), padding.PKCS1v15(), hashes.SHA256())
            inp = b64e(b'{"alg":"ES256","kid":"PYKEY00001"}') + '.' + b64e(b'{"iss":"PYTEAM0001","iat":1700000001}')
            r, t = utils.decode_dss_signature(eck.sign(inp.encode(), ec.ECDSA(hashes.SHA256())))
            print(inp + '.' + b64e(r.to_bytes(32, 'big') + t.to_bytes(32, 'big')))
            inp = b64e(b'{"alg":"RS256","typ":"JWT"}') + '.' + b64e(b'{"iss":"py@example.com"}')
            print(inp + '.' + b64e(rsk.sign(inp.encode(), padding.PKCS1v15(), hashes.SHA256())))
            """
        let out = try runTool("python3", ["-c", script, dir.file("ec.pem"), dir.file("rsa.pem"), es, rs])
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        guard lines.count == 2 else { return }
        let pyES = try JWT(compact: lines[0])
        try pyES.verifyES256(using: ec.publicKey)
        #expect(pyES.issuedAt == 1_700_000_001 && pyES.issuer == "PYTEAM0001" && pyES.keyID == "PYKEY00001")
        try JWT(compact: lines[1]).verifyRS256(using: rsa.publicKey)
    }
}
