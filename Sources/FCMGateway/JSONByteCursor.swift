/// A position in a JSON body's bytes, for the send readers that only ever accept (`FCMSendFastReader.Reader`,
/// `FCMDirectSend.Scanner`): blanks skipped and one byte consumed the same way in both.
protocol JSONByteCursor {
    /// What a member's name is read as (a `String`, or the range of its bytes).
    associatedtype Key
    var b: UnsafeBufferPointer<UInt8> { get }
    var i: Int { get set }
    /// A member's name and its `:`, or `nil` when it is not one the reader takes.
    mutating func key() -> Key?
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

    /// Walks an object's members: `member` reads one value per key and returns false to give up.
    /// An empty object is fine.
    mutating func object(_ member: (inout Self, Key) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        while true {
            guard let k = key(), member(&self, k) else { return false }
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}"))
        }
    }
}
