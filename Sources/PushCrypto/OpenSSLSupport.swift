import COpenSSL
import Foundation

/// Helpers shared by the OpenSSL-backed types: error-queue draining and memory BIOs. The one place for them in the
/// package: HTTPServer's TLS set-up uses these too (`package`). Public API exposes only Swift values.
package enum OpenSSL {
    /// Drains OpenSSL's thread-local error queue into one readable line (empty queue → `fallback`).
    package static func drainErrors(fallback: String = "no detail from OpenSSL") -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            parts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return parts.isEmpty ? fallback : parts.joined(separator: "; ")
    }

    /// Clears stale errors so a later `drainErrors` reports only the current failure.
    static func clearErrors() { ERR_clear_error() }

    /// Runs `body` with a read-only memory BIO over `bytes`.
    package static func withReadBIO<R>(_ bytes: [UInt8], _ body: (OpaquePointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { raw -> R in
            // BIO_new_mem_buf does not copy; the buffer outlives the BIO because both die in this scope.
            let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))!
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Runs `body` with an empty memory BIO and returns what it wrote (nil if `body` returns false).
    static func collectWrittenBytes(_ body: (OpaquePointer) -> Bool) -> [UInt8]? {
        let bio = BIO_new(BIO_s_mem())!
        defer { BIO_free(bio) }
        guard body(bio) else { return nil }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = pc_BIO_get_mem_data(bio, &pointer)
        guard length > 0, let pointer else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        return digest
    }

    /// DER-encodes with an `i2d_*` style function.
    static func derEncode(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else { return nil }
        return out
    }

    /// DER-encodes with an `i2d_*` function that allocates its own output (called with `*out == NULL`).
    static func derEncodeAllocating(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32)
        -> [UInt8]?
    {
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = encode(&out)
        guard length > 0, let out else { return nil }
        defer { pc_OPENSSL_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// Decodes with a `d2i_*` style function; returns nil on failure.
    static func derDecode<T>(
        _ bytes: [UInt8], _ decode: (UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> T?
    ) -> T? {
        bytes.withUnsafeBufferPointer { buffer -> T? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return decode(&cursor, buffer.count)
        }
    }
}

/// Textual PEM helpers (pure string work, no OpenSSL).
enum PEM {
    /// Wraps DER bytes in a PEM block with the given label.
    static func encode(_ der: [UInt8], label: String) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
    }

    /// The labels of all PEM blocks in `text`, in order (e.g. `["EC PRIVATE KEY"]`).
    static func labels(in text: String) -> [String] {
        var result: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: " \t\r")
            if trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----") {
                result.append(String(trimmed.dropFirst(11).dropLast(5)))
            }
        }
        return result
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        let chars = Set(set)
        var slice = Substring(self)
        while let first = slice.first, chars.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, chars.contains(last) { slice = slice.dropLast() }
        return slice
    }
}
