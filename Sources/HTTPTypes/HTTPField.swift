/// One header field: lowercased name, value untouched; lists of them keep order and duplicates. The one header
/// vocabulary of the server (requests received, responses sent) and the client (requests sent, responses received).
///
/// Names are lowercased because field names are case-insensitive (RFC 9110 §5.1) and HTTP/2 carries them in
/// lowercase only (RFC 9113 §8.2.1): every comparison is then a plain `==`.
package struct HTTPField: Sendable, Equatable, CustomStringConvertible {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = asciiLowercased(name)
        self.value = value
    }

    /// For names the caller knows are lowercase already (HTTP/2 field names, which nghttp2 checks).

    package init(lowercased name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    package var description: String { "\(name): \(value)" }
}

/// `s.lowercased()`, skipped when `s` is lowercase ASCII already
/// (the usual case for header names, looked up on every request).

func asciiLowercased(_ s: String) -> String {
    guard s.utf8.contains(where: { ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 }) else { return s }
    return s.lowercased()
}

extension Array where Element == HTTPField {
    /// All values of a header (any spelling of its name), in order.
    package func values(_ name: String) -> [String] {
        let n = asciiLowercased(name)
        return filter { $0.name == n }.map(\.value)
    }

    /// The first value of a header (any spelling of its name).

    package func value(_ name: String) -> String? {
        let n = asciiLowercased(name)
        return first { $0.name == n }?.value
    }
}
