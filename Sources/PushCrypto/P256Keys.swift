import COpenSSL
import Synchronization

/// A P-256 (prime256v1) private key, as in Apple's `AuthKey_<KEYID>.p8` files. Stored as PKCS#8 DER; loading and
/// PEM as every `TypedPrivateKey`.
package struct P256PrivateKey: TypedPrivateKey {
    package static let kind = KeyKind.p256
    package typealias PublicKey = P256PublicKey
    package let pkcs8DER: [UInt8]

    package init(validatedDER: [UInt8]) { pkcs8DER = validatedDER }

    /// Generates a fresh random key.
    package static func generate() throws -> P256PrivateKey {
        OpenSSL.clearErrors()
        return P256PrivateKey(validatedDER: try KeyKind.p256.generatedDER("P-256".withCString { pc_EVP_EC_gen($0) }))
    }

    /// ECDSA-SHA256 signature in DER (ECDSA-Sig-Value) form, as `openssl dgst -sha256 -sign` makes.
    func signatureDER(for message: [UInt8]) throws -> [UInt8] {
        try evpKey().signSHA256(message)
    }

    /// ECDSA-SHA256 signature in JOSE form: raw r‖s, 64 bytes.
    func signatureRaw(for message: [UInt8]) throws -> [UInt8] {
        try ECDSASignature.rawFromDER(try signatureDER(for: message))
    }
}

/// A P-256 public key. Stored as SubjectPublicKeyInfo DER; equal keys have equal DER.
package struct P256PublicKey: TypedPublicKey {
    package static let kind = KeyKind.p256
    package let spkiDER: [UInt8]

    package init(validatedDER: [UInt8]) { spkiDER = validatedDER }

    /// Checks a DER ECDSA-SHA256 signature over `message`. A verification that succeeded is remembered
    /// (`RecentVerifications`): the same key, signature and message always verify alike, and decoding the key for
    /// OpenSSL 3 costs more than the check itself.
    package func isValidSignature(der signature: [UInt8], for message: [UInt8]) -> Bool {
        let triple = RecentVerifications.Entry(key: spkiDER, signature: signature, message: message)
        if RecentVerifications.shared.contains(triple) { return true }
        guard evpKey()?.verifySHA256(signature, message: message) == true else { return false }
        RecentVerifications.shared.insert(triple)
        return true
    }

    /// Checks a JOSE raw r‖s (64-byte) ECDSA-SHA256 signature over `message`.
    package func isValidSignature(raw signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = try? ECDSASignature.derFromRaw(signature) else { return false }
        return isValidSignature(der: der, for: message)
    }
}

/// The last few (key, signature, message) triples that verified. The runner's worlds each verify the provider
/// token their first push carries on a connection, and the scenarios of a run send the same few tokens: each was
/// decoded and verified once per scenario (12 % of the runner bench's CPU). Only exact byte-for-byte repeats hit.
final class RecentVerifications: Sendable {
    struct Entry: Equatable {
        var key: [UInt8]
        var signature: [UInt8]
        var message: [UInt8]
    }

    static let capacity = 16
    static let shared = RecentVerifications()

    private let entries = Mutex<(list: [Entry], next: Int)>(([], 0))

    func contains(_ entry: Entry) -> Bool { entries.withLock { $0.list.contains(entry) } }

    func insert(_ entry: Entry) {
        entries.withLock { e in
            if e.list.count < Self.capacity {
                e.list.append(entry)
            } else {
                e.list[e.next] = entry
                e.next = (e.next + 1) % Self.capacity
            }
        }
    }
}
