import COpenSSL

/// One server-side TLS session over memory BIOs: ciphertext in via `feed`, plaintext out via `readPlaintext`,
/// plaintext in via `write`, ciphertext out via `drainCiphertext`. Loop-confined.
final class TLSSession {
    enum HandshakeState { case inProgress, done, failed(String) }

    private let ssl: OpaquePointer
    private let rbio: OpaquePointer
    private let wbio: OpaquePointer
    private(set) var handshakeComplete = false

    init?(context: TLSContext) {
        guard let ssl = SSL_new(context.ctx) else { return nil }
        guard let r = BIO_new(BIO_s_mem()), let w = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            return nil
        }
        self.ssl = ssl
        rbio = r
        wbio = w
        SSL_set_bio(ssl, r, w)  // the SSL now owns both BIOs
        SSL_set_accept_state(ssl)
    }

    deinit { SSL_free(ssl) }

    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = BIO_write(rbio, base, Int32(bytes.count))
    }

    func handshake() -> HandshakeState {
        if handshakeComplete { return .done }
        let rc = SSL_do_handshake(ssl)
        if rc == 1 {
            handshakeComplete = true
            return .done
        }
        let err = SSL_get_error(ssl, rc)
        if err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE { return .inProgress }
        let reason = TLSContext.lastError()
        ERR_clear_error()
        return .failed(reason)
    }

    /// Plaintext available so far. `closed` is true after a close_notify (`error` false) or a fatal error.
    /// `scratch` is a loop-owned buffer reused across calls.
    func readPlaintext(into out: inout [UInt8], scratch: UnsafeMutableRawBufferPointer) -> (closed: Bool, error: Bool) {
        while true {
            let n = SSL_read(ssl, scratch.baseAddress, Int32(scratch.count))
            if n > 0 {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<Int(n)]))
                continue
            }
            let err = SSL_get_error(ssl, n)
            if err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE { return (false, false) }
            if err == SSL_ERROR_ZERO_RETURN { return (true, false) }
            ERR_clear_error()
            return (true, true)
        }
    }

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = SSL_write(ssl, raw.baseAddress! + offset, Int32(min(raw.count - offset, 1 << 20)))
                if n <= 0 { ERR_clear_error(); return }
                offset += Int(n)
            }
        }
    }

    func drainCiphertext(into out: inout [UInt8]) {
        let pending = Int(BIO_ctrl_pending(wbio))
        guard pending > 0 else { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: pending))
        let n = out.withUnsafeMutableBytes { BIO_read(wbio, $0.baseAddress! + start, Int32(pending)) }
        out.removeLast(pending - max(0, Int(n)))
    }

    var negotiatedALPN: String? {
        var data: UnsafePointer<UInt8>?
        var len: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &len)
        guard let data, len > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(len)), as: UTF8.self)
    }

    /// The client certificate (DER) and whether it chained to a trusted CA.
    var peerCertificate: (der: [UInt8], trusted: Bool)? {
        guard let cert = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(cert) }
        var out: UnsafeMutablePointer<UInt8>?
        let len = i2d_X509(cert, &out)
        guard len > 0, let out else { return nil }
        defer { pc_OPENSSL_free(out) }
        let der = Array(UnsafeBufferPointer(start: out, count: Int(len)))
        return (der, SSL_get_verify_result(ssl) == X509_V_OK)
    }
}
