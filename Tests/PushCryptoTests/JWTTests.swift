import Foundation
import Testing
@testable import PushCrypto

@Suite struct JWTTests {
    @Test func base64urlRoundTripAndStrictness() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xbf, 0x00, 0x01]
        let text = Base64URL.encode(bytes)
        #expect(text == "-_-_AAE")
        #expect(Base64URL.decode(text) == bytes)
        #expect(Base64URL.decode("-_-_AAE=") == nil)  // padding
        #expect(Base64URL.decode("+/+/AAE") == nil)  // standard alphabet
        #expect(Base64URL.decode("AAAAA") == nil)  // impossible length
        #expect(Base64URL.decode("AA AA") == nil)
        #expect(Base64URL.decode("") == [])
    }

    @Test func apnsProviderTokenRoundTrip() throws {
        let key = try P256PrivateKey.generate()
        let token = try JWT.apnsProviderToken(
            teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_700_000_000, key: key)
        let jwt = try JWT(compact: token)
        #expect(jwt.algorithm == "ES256")
        #expect(jwt.keyID == "KEY1234567")
        #expect(jwt.issuer == "TEAM123456")
        #expect(jwt.issuedAt == 1_700_000_000)
        #expect(jwt.signature.count == 64)
        #expect(jwt.header["kid"] as? String == "KEY1234567")
        try jwt.verifyES256(using: key.publicKey)
        #expect(throws: JWTError.signatureMismatch) {
            try jwt.verifyES256(using: try P256PrivateKey.generate().publicKey)
        }
    }

    @Test func tamperedClaimsOrSignatureFail() throws {
        let key = try P256PrivateKey.generate()
        let token = try JWT.apnsProviderToken(
            teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_700_000_000, key: key)
        let parts = token.split(separator: ".").map(String.init)
        let forgedClaims = Base64URL.encode(#"{"iat":1700000000,"iss":"EVILTEAM00"}"#)
        #expect(throws: JWTError.signatureMismatch) {
            try JWT(compact: parts[0] + "." + forgedClaims + "." + parts[2]).verifyES256(using: key.publicKey)
        }
        var sig = Base64URL.decode(parts[2])!
        sig[10] ^= 0x01
        #expect(throws: JWTError.signatureMismatch) {
            try JWT(compact: parts[0] + "." + parts[1] + "." + Base64URL.encode(sig)).verifyES256(using: key.publicKey)
        }
        // A DER signature (what naive clients send) is the wrong length for JOSE.
        let der = try key.signatureDER(for: Array((parts[0] + "." + parts[1]).utf8))
        #expect(throws: JWTError.wrongSignatureLength(expected: 64, actual: der.count)) {
            try JWT(compact: parts[0] + "." + parts[1] + "." + Base64URL.encode(der)).verifyES256(using: key.publicKey)
        }
    }

    @Test func algorithmsOtherThanES256AreDistinctErrors() throws {
        let key = try P256PrivateKey.generate().publicKey
        let claims = Base64URL.encode(#"{"iss":"TEAM123456","iat":1}"#)
        func token(_ header: String, sig: String = "c2ln") -> String {
            Base64URL.encode(header) + "." + claims + "." + sig
        }
        #expect(throws: JWTError.algorithmNone) {
            try JWT(compact: token(#"{"alg":"none"}"#, sig: "")).verifyES256(using: key)
        }
        #expect(throws: JWTError.symmetricAlgorithm("HS256")) {
            try JWT(compact: token(#"{"alg":"HS256"}"#)).verifyES256(using: key)
        }
        #expect(throws: JWTError.unexpectedAlgorithm(found: "RS256", expected: "ES256")) {
            try JWT(compact: token(#"{"alg":"RS256"}"#)).verifyES256(using: key)
        }
        #expect(throws: JWTError.missingAlgorithm) { try JWT(compact: token(#"{"kid":"x"}"#)).verifyES256(using: key) }
    }

    @Test func structuralErrors() {
        let header = Base64URL.encode(#"{"alg":"ES256"}"#)
        #expect(throws: JWTError.malformed(detail: "expected 3 dot-separated segments, found 2")) {
            try JWT(compact: "a.b")
        }
        #expect(throws: JWTError.invalidBase64(.claims)) { try JWT(compact: header + ".e30=.AAAA") }
        #expect(throws: JWTError.invalidBase64(.signature)) { try JWT(compact: header + ".e30.AA+A") }
        #expect(throws: JWTError.invalidJSON(.header)) { try JWT(compact: Base64URL.encode("[1]") + ".e30.AAAA") }
        #expect(throws: JWTError.invalidJSON(.claims)) {
            try JWT(compact: header + "." + Base64URL.encode("nope") + ".AAAA")
        }
        // An object whose number overflows does not parse: the message says that can be why.
        #expect(throws: JWTError.invalidJSON(.claims)) {
            try JWT(compact: header + "." + Base64URL.encode(#"{"iss":"T","iat":1e400}"#) + ".AAAA")
        }
        #expect(JWTError.invalidJSON(.claims).description.contains("out of range such as 1e400"))
    }

    @Test func iatMustBeAnInteger() throws {
        func iat(_ json: String) throws -> Int? {
            try JWT(compact: Base64URL.encode(#"{"alg":"ES256"}"#) + "." + Base64URL.encode(json) + ".").issuedAt
        }
        #expect(try iat(#"{"iat":1700000000}"#) == 1_700_000_000)
        #expect(try iat(#"{"iat":"1700000000"}"#) == nil)
        #expect(try iat(#"{"iat":1.5}"#) == nil)
        #expect(try iat(#"{"iat":true}"#) == nil)
    }

    @Test func rs256RoundTripAndRejections() throws {
        let key = try RSAPrivateKey.generate()
        let token = try JWT.signRS256(
            claims: [
                "iss": "svc@p.iam.gserviceaccount.com", "aud": "https://oauth2.googleapis.com/token",
                "iat": 1_700_000_000, "exp": 1_700_003_600,
            ],
            keyID: "abc", key: key)
        let jwt = try JWT(compact: token)
        #expect(jwt.algorithm == "RS256")
        #expect(jwt.type == "JWT")
        #expect(jwt.claims["aud"] as? String == "https://oauth2.googleapis.com/token")
        try jwt.verifyRS256(using: key.publicKey)
        #expect(throws: JWTError.signatureMismatch) {
            try jwt.verifyRS256(using: try RSAPrivateKey.generate().publicKey)
        }
        #expect(throws: JWTError.unexpectedAlgorithm(found: "RS256", expected: "ES256")) {
            try jwt.verifyES256(using: try P256PrivateKey.generate().publicKey)
        }
    }

    @Test func googleServiceAccountAssertionHasGoogleAuthClaims() throws {
        let key = try RSAPrivateKey.generate()
        let token = try JWT.googleServiceAccountAssertion(
            clientEmail: "svc@p.iam.gserviceaccount.com",
            scopes: [
                "https://www.googleapis.com/auth/cloud-platform", "https://www.googleapis.com/auth/firebase.messaging",
            ],
            issuedAt: 1_700_000_000, privateKeyID: "k1", key: key)
        let jwt = try JWT(compact: token)
        try jwt.verifyRS256(using: key.publicKey)
        #expect(jwt.keyID == "k1" && jwt.issuer == "svc@p.iam.gserviceaccount.com" && jwt.issuedAt == 1_700_000_000)
        #expect(jwt.claims["aud"] as? String == "https://oauth2.googleapis.com/token")
        #expect(jwt.claims["exp"] as? Int == 1_700_003_600)
        #expect(
            jwt.claims["scope"] as? String
                == "https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/firebase.messaging")
    }
}
