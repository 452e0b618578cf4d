import PushModel

/// Where `FCMDirectSend` writes the payload: counting only (`base` nil), then into the array's storage, sized by
/// the count (appending piece by piece to an array checked its capacity and grew it for every key and value).
extension FCMDirectSend {
    struct ByteWriter {
        let base: UnsafeMutablePointer<UInt8>?
        var count = 0

        mutating func put(_ c: UInt8) {
            base?[count] = c
            count += 1
        }

        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            if let base, let from = bytes.baseAddress { (base + count).initialize(from: from, count: bytes.count) }
            count += bytes.count
        }

        mutating func put(_ bytes: UnsafeRawBufferPointer) { put(bytes.bindMemory(to: UInt8.self)) }

        /// `JSONValue.writeString`: quoted, with its escapes.
        mutating func putString(_ s: String) {
            put(UInt8(ascii: "\""))
            // Most need no escape: copied whole from the contiguous bytes.
            let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                for c in bytes where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return false }
                put(bytes)
                return true
            }
            if copied == true {
                put(UInt8(ascii: "\""))
                return
            }
            for c in s.utf8 {
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    put(UInt8(ascii: "\\"))
                    put(c)
                case 0x0A: put(FCMDirectSend.staticBytes(#"\n"#))
                case 0x0D: put(FCMDirectSend.staticBytes(#"\r"#))
                case 0x09: put(FCMDirectSend.staticBytes(#"\t"#))
                case 0..<0x20:
                    put(FCMDirectSend.staticBytes(#"\u00"#))
                    put(FCMDirectSend.hexDigit(c >> 4))
                    put(FCMDirectSend.hexDigit(c & 0xF))
                default: put(c)
                }
            }
            put(UInt8(ascii: "\""))
        }
    }

    static func hexDigit(_ d: UInt8) -> UInt8 { d < 10 ? UInt8(ascii: "0") + d : UInt8(ascii: "a") + d - 10 }

    /// The payload's bytes: counted, then written into an array of exactly that size.
    func payload(_ b: UnsafeBufferPointer<UInt8>, messageID: UInt64, senderID: String, fid: String?) -> [UInt8] {
        var counter = ByteWriter(base: nil)
        writePayload(b, messageID: messageID, senderID: senderID, fid: fid, into: &counter)
        return [UInt8](exactCount: counter.count) { buffer in
            var w = ByteWriter(base: buffer.baseAddress)
            writePayload(b, messageID: messageID, senderID: senderID, fid: fid, into: &w)
            precondition(w.count == counter.count, "FCMDirectSend: the payload's two passes differ")
        }
    }
}
