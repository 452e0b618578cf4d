/// A position in a JSON body's bytes, for the send readers that only ever accept (`FCMSendFastReader.Reader`,
/// `FCMDirectSend.Scanner`): blanks skipped and one byte consumed the same way in both.
protocol JSONByteCursor {
    var b: UnsafeBufferPointer<UInt8> { get }
    var i: Int { get set }
}

extension JSONByteCursor {
    /// Skips JSON's four blanks.
    mutating func ws() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    /// Consumes `c` (after blanks).
    mutating func take(_ c: UInt8) -> Bool {
        ws()
        guard i < b.count, b[i] == c else { return false }
        i += 1
        return true
    }
}
