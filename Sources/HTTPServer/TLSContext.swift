import COpenSSL
import PushCrypto

/// Owns one `SSL_CTX`. Created on (and confined to) the loop thread that uses it; `validate` builds and
/// frees one on the caller's thread so bad PEMs fail `start()`.
final class TLSContext {
    let ctx: OpaquePointer
    let requestsClientCertificate: Bool

    init(_ config: TLSConfiguration, listener: String) throws(HTTPServerError) {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            throw .tls(listener: listener, reason: "SSL_CTX_new failed")
        }
        self.ctx = ctx
        requestsClientCertificate = config.clientCertificates != .none
        _ = pc_SSL_CTX_set_min_proto_version(ctx, pc_TLS1_2_VERSION())
        _ = SSL_CTX_set_options(
            ctx,
            pc_SSL_OP_NO_COMPRESSION() | pc_SSL_OP_NO_RENEGOTIATION()
                | pc_SSL_OP_CIPHER_SERVER_PREFERENCE())
        _ = pc_SSL_CTX_set_mode(ctx, pc_SSL_MODE_RELEASE_BUFFERS())

        let certs = Self.readCertificates(config.certificateChainPEM)
        defer { certs.forEach { X509_free($0) } }
        guard let leaf = certs.first else {
            throw .tls(listener: listener, reason: "no certificate found in certificateChainPEM")
        }
        guard SSL_CTX_use_certificate(ctx, leaf) == 1 else {
            throw .tls(listener: listener, reason: "leaf certificate rejected: \(Self.lastError())")
        }
        for extra in certs.dropFirst() where pc_SSL_CTX_add1_chain_cert(ctx, extra) != 1 {
            throw .tls(listener: listener, reason: "chain certificate rejected: \(Self.lastError())")
        }
        guard let key = Self.readPrivateKey(config.privateKeyPEM) else {
            throw .tls(listener: listener, reason: "privateKeyPEM holds no readable private key")
        }
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_PrivateKey(ctx, key) == 1, SSL_CTX_check_private_key(ctx) == 1 else {
            throw .tls(listener: listener, reason: "private key does not match the certificate")
        }
        if case .request(let trusted) = config.clientCertificates {
            let store = SSL_CTX_get_cert_store(ctx)
            for pem in trusted {
                let cas = Self.readCertificates(pem)
                if cas.isEmpty { throw .tls(listener: listener, reason: "a trustedCAPEMs entry holds no certificate") }
                for ca in cas {
                    X509_STORE_add_cert(store, ca)
                    X509_free(ca)
                }
            }
            // Accept any certificate: the verdict is reported, the handler decides what a bad cert means.
            SSL_CTX_set_verify(ctx, pc_SSL_VERIFY_PEER(), { _, _ in 1 })
        }
        SSL_CTX_set_alpn_select_cb(ctx, alpnSelect, nil)
    }

    deinit { SSL_CTX_free(ctx) }

    static func validate(_ config: TLSConfiguration, listener: String) throws(HTTPServerError) {
        _ = try TLSContext(config, listener: listener)
    }

    static func readCertificates(_ pem: String) -> [OpaquePointer] {
        withReadBIO(pem) { bio in
            var out: [OpaquePointer] = []
            while let x = PEM_read_bio_X509(bio, nil, nil, nil) { out.append(x) }
            ERR_clear_error()
            return out
        } ?? []
    }

    static func readPrivateKey(_ pem: String) -> OpaquePointer? {
        withReadBIO(pem) { PEM_read_bio_PrivateKey($0, nil, nil, nil) } ?? nil
    }

    /// Runs `body` with a read-only memory BIO over `text`'s bytes. `BIO_new_mem_buf` does not copy: the BIO
    /// reads the caller's buffer whenever it is read, so the buffer must outlive every read. `&array` passed
    /// straight to it is only valid for that one call (the BIO then read freed or moved memory); here the
    /// buffer is pinned for the whole of `body`, and the BIO is freed before it is released.
    static func withReadBIO<R>(_ text: String, _ body: (OpaquePointer) -> R) -> R? {
        Array(text.utf8).withUnsafeBytes { raw -> R? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    static func lastError() -> String {
        OpenSSL.drainErrors(fallback: "unknown OpenSSL error")
    }
}

/// ALPN: prefer `h2`, then `http/1.1`; anything else → no ALPN (the first bytes decide later).
private func alpnSelect(
    _ ssl: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ outlen: UnsafeMutablePointer<UInt8>?,
    _ input: UnsafePointer<UInt8>?, _ inlen: UInt32, _ arg: UnsafeMutableRawPointer?
) -> Int32 {
    guard let input, let out, let outlen else { return pc_SSL_TLSEXT_ERR_NOACK() }
    let list = UnsafeBufferPointer(start: input, count: Int(inlen))
    for wanted in [Array("h2".utf8), Array("http/1.1".utf8)] {
        var i = 0
        while i < list.count {
            let len = Int(list[i])
            let start = i + 1
            guard start + len <= list.count else { break }
            if len == wanted.count && Array(list[start..<start + len]) == wanted {
                out.pointee = input + start
                outlen.pointee = UInt8(len)
                return pc_SSL_TLSEXT_ERR_OK()
            }
            i = start + len
        }
    }
    return pc_SSL_TLSEXT_ERR_NOACK()
}

extension TLSConfiguration {
    /// Why OpenSSL would refuse this identity for a listener (no certificate, a chain certificate rejected, a key that
    /// does not match, a client CA file without a certificate), or nil: what `start()` would find, found without
    /// listening (`serve` checks its config's `tls:` with it as the file loads).
    package func refusal() -> String? {
        do throws(HTTPServerError) {
            try TLSContext.validate(self, listener: "")
            return nil
        } catch {
            if case .tls(_, let reason) = error { return reason }
            return "\(error)"
        }
    }
}
