import Foundation
import PushcheckTestSupport
import Testing
@testable import PushCrypto

@Suite struct KeyTests {
    @Test func p8FromOpenSSLGenpkeyLoads() throws {
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        let gen = try runTool(
            "openssl",
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", dir.file("AuthKey.p8")])
        #expect(gen.status == 0, "\(gen.stderr)")
        let pem = String(decoding: try dir.read("AuthKey.p8"), as: UTF8.self)
        #expect(pem.contains("BEGIN PRIVATE KEY"))
        let key = try P256PrivateKey(pem: pem)
        // Our public key must equal the one OpenSSL derives.
        let pub = try runTool("openssl", ["pkey", "-in", dir.file("AuthKey.p8"), "-pubout"])
        #expect(try P256PublicKey(pem: pub.stdout) == key.publicKey)
    }

    @Test func sec1ECPrivateKeyLoadsAndMatchesPKCS8() throws {
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        _ = try runTool(
            "openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", dir.file("sec1.pem")])
        let sec1 = String(decoding: try dir.read("sec1.pem"), as: UTF8.self)
        #expect(sec1.contains("BEGIN EC PRIVATE KEY"))
        let key = try P256PrivateKey(pem: sec1)
        #expect(key.pkcs8PEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(try P256PrivateKey(pem: key.pkcs8PEM) == key)
    }

    @Test func generatedKeyRoundTripsThroughPEM() throws {
        let key = try P256PrivateKey.generate()
        #expect(try P256PrivateKey(pem: key.pkcs8PEM) == key)
        #expect(try P256PublicKey(pem: key.publicKey.pem) == key.publicKey)
        #expect(try P256PrivateKey.generate().publicKey != key.publicKey)
    }

    @Test func rsaKeyIsRejectedAsP256WithWrongKeyType() throws {
        let rsa = try RSAPrivateKey.generate()
        #expect(throws: KeyError.wrongKeyType(expected: "P-256 EC", found: "RSA-2048")) {
            try P256PrivateKey(pem: rsa.pkcs8PEM)
        }
        let ec = try P256PrivateKey.generate()
        #expect(throws: KeyError.wrongKeyType(expected: "RSA", found: "P-256 EC")) {
            try RSAPrivateKey(pem: ec.pkcs8PEM)
        }
    }

    @Test func otherCurveIsRejected() throws {
        let out = try runTool("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"])
        #expect(throws: KeyError.wrongKeyType(expected: "P-256 EC", found: "EC (secp384r1)")) {
            try P256PrivateKey(pem: out.stdout)
        }
    }

    @Test func garbageAndEncryptedPEMGiveClearErrors() throws {
        #expect(throws: KeyError.self) { try P256PrivateKey(pem: "hello") }
        let corrupt = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
        do {
            _ = try P256PrivateKey(pem: corrupt)
            Issue.record("corrupt PEM loaded")
        } catch let error as KeyError {
            guard case .invalidPEM = error else { Issue.record("unexpected \(error)"); return }
        }
        let encrypted = try runTool(
            "sh",
            [
                "-c",
                "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 | openssl pkcs8 -topk8 -passout pass:secret",
            ])
        #expect(throws: KeyError.encrypted) { try P256PrivateKey(pem: encrypted.stdout) }
        #expect(KeyError.encrypted.description.contains("-nocrypt"))
    }

    @Test func rsaKeyFromOpenSSLLoadsInBothPEMForms() throws {
        let pkcs8 = try runTool("openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
        let key = try RSAPrivateKey(pem: pkcs8.stdout)
        let pkcs1 = try runTool("openssl", ["rsa", "-traditional"], stdin: pkcs8.stdoutBytes)
        #expect(pkcs1.stdout.contains("BEGIN RSA PRIVATE KEY"))
        #expect(try RSAPrivateKey(pem: pkcs1.stdout) == key)
        #expect(key.publicKey.bits == 2048)
        #expect(try RSAPublicKey(pem: key.publicKey.pem) == key.publicKey)
    }

    @Test func p8WithCRLFAndNoTrailingNewlineLoads() throws {
        let key = try P256PrivateKey.generate()
        let windows = key.pkcs8PEM.replacingOccurrences(of: "\n", with: "\r\n").trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(try P256PrivateKey(pem: windows) == key)
    }

    @Test func derSignatureConversionRejectsBadInput() throws {
        #expect(throws: ECDSASignature.ConversionError.wrongRawLength(63)) {
            try ECDSASignature.derFromRaw(Array(repeating: 1, count: 63))
        }
        #expect(throws: ECDSASignature.ConversionError.invalidDER) {
            try ECDSASignature.rawFromDER([0x30, 0x03, 0x02, 0x01])
        }
        let raw = (1...64).map { UInt8($0) }
        #expect(try ECDSASignature.rawFromDER(ECDSASignature.derFromRaw(raw)) == raw)
    }
}

/// A remembered verification answers only for the exact same key, signature and message.
@Suite struct RecentVerificationTests {
    @Test func onlyExactRepeatsAreRemembered() throws {
        let key = try P256PrivateKey.generate(), other = try P256PrivateKey.generate()
        let message = Array("header.claims".utf8)
        let signature = try key.signatureDER(for: message)
        #expect(key.publicKey.isValidSignature(der: signature, for: message))
        #expect(key.publicKey.isValidSignature(der: signature, for: message), "again, from the cache")
        #expect(!key.publicKey.isValidSignature(der: signature, for: message + [0x2E]), "another message")
        #expect(!other.publicKey.isValidSignature(der: signature, for: message), "another key")
        var tampered = signature
        tampered[tampered.count - 1] ^= 1
        #expect(!key.publicKey.isValidSignature(der: tampered, for: message), "another signature")
    }
}
