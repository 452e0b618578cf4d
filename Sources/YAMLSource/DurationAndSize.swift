extension Duration: YAMLDecodable {
    /// A non-negative number with a unit: `250ms`, `2s`, `1.5s`, `5m`, `1h`, `100us`, `10ns`
    /// (also `µs`). A bare `0` is allowed; other bare numbers are rejected because the
    /// unit would be a guess.
    package static func decode(from node: YAMLNode) throws(SourceError) -> Duration {
        let hint = "write a number with a unit, e.g. '250ms', '2s', '5m'"
        if case .int(0)? = node.value { return .zero }
        guard let scalar = node.scalar, !node.isNull, case .string = YAMLValue.resolve(YAMLScalar(scalar.value)) else {
            throw node.typeMismatch(expected: "a duration such as '250ms' or '2s'", suggestion: hint)
        }
        let text = scalar.value.trimmingSpaces
        let units: [(String, Double)] = [
            ("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600),
        ]
        for (unit, seconds) in units where text.hasSuffix(unit) {
            let number = String(text.dropLast(unit.count)).trimmingSpaces
            // "ms" also ends in "s": make sure the number part is a plain number.
            guard let value = Double(number), value.isFinite, value >= 0, number.first?.isNumber == true else {
                continue
            }
            let nanoseconds = (value * seconds * 1e9).rounded()
            guard nanoseconds < 9.2e18 else { break }
            return .nanoseconds(Int64(nanoseconds))
        }
        throw SourceError(
            .invalidValue, "invalid duration '\(scalar.value)'", at: node.range,
            expected: "expected a duration: number + ns, us, ms, s, m or h", suggestion: hint)
    }
}

/// A byte count written as `4096`, `4KB`, `4 KiB`, `1MB`, `2G`.
///
/// Units are binary whichever spelling is used (K, KB and KiB are all 1024), because
/// push limits are quoted that way ("4KB (4096 bytes)").
package struct ByteSize: Sendable, Hashable, Comparable, YAMLDecodable, CustomStringConvertible {
    /// The number of bytes.
    package var bytes: Int

    /// Creates a size.
    package init(bytes: Int) { self.bytes = bytes }

    package static func < (lhs: ByteSize, rhs: ByteSize) -> Bool { lhs.bytes < rhs.bytes }

    package var description: String { "\(bytes) bytes" }

    /// Decodes a plain non-negative integer (bytes) or a number with B, K/KB/KiB, M/MB/MiB, G/GB/GiB.
    package static func decode(from node: YAMLNode) throws(SourceError) -> ByteSize {
        if case .int(let n)? = node.value, n >= 0 { return ByteSize(bytes: n) }
        let hint = "write a size such as '4096', '4KB' or '1MB'"
        guard let scalar = node.scalar, !node.isNull else {
            throw node.typeMismatch(expected: "a byte size such as '4KB'", suggestion: hint)
        }
        let text = scalar.value.trimmingSpaces
        let multipliers: [(String, Int)] = [
            ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1 << 10), ("MB", 1 << 20),
            ("GB", 1 << 30), ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("B", 1),
        ]
        for (unit, multiplier) in multipliers where text.uppercased().hasSuffix(unit.uppercased()) {
            let number = String(text.dropLast(unit.count)).trimmingSpaces
            guard let value = Double(number), value >= 0, number.first?.isNumber == true,
                value * Double(multiplier) < 9e15
            else { break }
            return ByteSize(bytes: Int((value * Double(multiplier)).rounded()))
        }
        throw SourceError(
            .invalidValue, "invalid byte size '\(scalar.value)'", at: node.range,
            expected: "expected a size: number + B, KB, MB or GB", suggestion: hint)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
