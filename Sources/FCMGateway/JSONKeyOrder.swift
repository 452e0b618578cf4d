/// The order in which an object's keys appear in raw JSON. `JSONValue` keeps objects as dictionaries, but Google's
/// errors name map entries by their position as sent (`message.data[1].value`), so the rules look the order up here.
enum JSONKeyOrder {
    /// Keys of the object at `path` (object keys from the root), in wire order; `nil` if there is no such object
    /// or the text is not valid JSON.
    static func keys(at path: [String], in bytes: [UInt8]) -> [String]? {
        var s = Scanner(bytes: bytes, target: path)
        guard s.value(path: []) else { return nil }
        return s.found
    }

    struct Scanner {
        let bytes: [UInt8]
        let target: [String]
        var i = 0
        var found: [String]?

        mutating func space() { while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 } }

        /// Skips one value; records keys when the object at `path` is the target. False on malformed input.
        mutating func value(path: [String]) -> Bool {
            space()
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var keys: [String] = []
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                    i += 1
                } else {
                    while true {
                        space()
                        guard let key = string() else { return false }
                        keys.append(key)
                        space()
                        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
                        i += 1
                        guard value(path: path + [key]) else { return false }
                        space()
                        guard i < bytes.count else { return false }
                        if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                        guard bytes[i] == UInt8(ascii: "}") else { return false }
                        i += 1
                        break
                    }
                }
                if path == target, found == nil { found = keys }
                return true
            case UInt8(ascii: "["):
                i += 1
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return true }
                while true {
                    guard value(path: path + ["[]"]) else { return false }
                    space()
                    guard i < bytes.count else { return false }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    guard bytes[i] == UInt8(ascii: "]") else { return false }
                    i += 1
                    return true
                }
            case UInt8(ascii: "\""):
                return string() != nil
            default:
                // number, true, false, null: up to the next delimiter
                let start = i
                while i < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(
                        bytes[i])
                { i += 1 }
                return i > start
            }
        }

        /// A JSON string (escapes decoded only as far as the key comparison needs: `\"` and `\\`; keys with other
        /// escapes keep their raw spelling, which only matters for an index in an error message).
        mutating func string() -> String? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
                if b == UInt8(ascii: "\\"), i + 1 < bytes.count {
                    let next = bytes[i + 1]
                    if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next == UInt8(ascii: "/") {
                        out.append(next)
                    } else {
                        out += [b, next]
                    }
                    i += 2
                    continue
                }
                out.append(b)
                i += 1
            }
            return nil
        }
    }
}
