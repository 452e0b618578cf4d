import PushModel

/// How Google's proto3 JSON parser reads a request object: field names in `snake_case` or `lowerCamelCase`,
/// unknown names rejected, wrong types rejected with the field's path. Errors carry Google's wording.
struct ProtoObject {
    /// Dotted path for messages (`message`, `message.apns`).
    let path: String
    /// Proto message type for "Invalid value" messages (e.g. `google.firebase.fcm.v1.ApnsConfig`).
    let fields: [String: JSONValue]
    /// The request body and this object's key path in it (names as sent), for wire-order indexes in errors.
    let raw: [UInt8]
    let jsonPath: [String]
    /// snake_case name → the spelling the sender used.
    let sentNames: [String: String]

    /// Reads `value` as an object with the given known fields (snake_case names).
    init(_ value: JSONValue, path: String, type: String, known: [String], raw: [UInt8] = [], jsonPath: [String] = [])
        throws(FCMErrorResponse)
    {
        guard case .object(let o) = value else { throw Self.invalidValue(path, "type.googleapis.com/\(type)", value) }
        var fields: [String: JSONValue] = [:]
        var sentNames: [String: String] = [:]
        for (name, v) in o {
            let snake = Self.snakeCase(name)
            // A field in both spellings is a duplicate even when one of them is null.
            guard known.contains(snake), sentNames[snake] == nil else {
                throw Self.firstBadName(in: o, known: known, path: path, raw: raw, jsonPath: jsonPath)
            }
            if v != .null { fields[snake] = v }
            sentNames[snake] = name
        }
        self.path = path
        self.fields = fields
        self.raw = raw
        self.jsonPath = jsonPath
        self.sentNames = sentNames
    }

    /// The error for the first unknown or repeated name in wire order, as Google's streaming parser meets it
    /// (a dictionary's order is arbitrary, and would make the answer vary between runs). The same spelling twice is
    /// one JSON member (the last value counts), as everywhere else.
    static func firstBadName(
        in o: [String: JSONValue], known: [String], path: String, raw: [UInt8], jsonPath: [String]
    ) -> FCMErrorResponse {
        var order = o.keys.sorted()
        if let wire = JSONKeyOrder.keys(at: jsonPath, in: raw), wire.allSatisfy({ o[$0] != nil }) { order = wire }
        var spellings: [String: String] = [:]
        for name in order {
            let snake = snakeCase(name)
            guard known.contains(snake) else {
                let at = path.isEmpty ? "" : " at '\(path)'"
                let msg = "Invalid JSON payload received. Unknown name \"\(name)\"\(at): Cannot find field."
                return FCMErrorResponse.decoding(path, msg)
            }
            if let earlier = spellings[snake], earlier != name {
                let msg = "Invalid JSON payload received. Duplicate field \"\(name)\"."
                return FCMErrorResponse.decoding(path, msg)
            }
            spellings[snake] = name
        }
        return FCMErrorResponse(.invalidArgument)  // not reached: the caller found a bad name
    }

    func child(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    subscript(_ name: String) -> JSONValue? { fields[name] }

    func string(_ name: String) throws(FCMErrorResponse) -> String? {
        guard let v = fields[name] else { return nil }
        guard case .string(let s) = v else { throw Self.invalidValue(child(name), "TYPE_STRING", v) }
        return s
    }

    func bool(_ name: String) throws(FCMErrorResponse) -> Bool? {
        guard let v = fields[name] else { return nil }
        guard case .bool(let b) = v else { throw Self.invalidValue(child(name), "TYPE_BOOL", v) }
        return b
    }

    /// A `map<string, string>`: every value a string; the violation names the entry by index, as Google does.
    func stringMap(_ name: String) throws(FCMErrorResponse) -> [(key: String, value: String)] {
        guard let v = fields[name] else { return [] }
        guard case .object(let o) = v else { throw Self.invalidValue(child(name), "TYPE_MESSAGE", v) }
        var out: [(String, String)] = []
        for key in o.keys.sorted() {
            guard case .string(let s) = o[key]! else {
                // Google counts entries in the order they were sent.
                let order = JSONKeyOrder.keys(at: jsonPath + [sentNames[name] ?? name], in: raw) ?? o.keys.sorted()
                let i = order.firstIndex(of: key) ?? 0
                throw Self.invalidValue("\(child(name))[\(i)].value", "TYPE_STRING", o[key]!)
            }
            out.append((key, s))
        }
        return out
    }

    func object(_ name: String, type: String, known: [String]) throws(FCMErrorResponse) -> ProtoObject? {
        guard let v = fields[name] else { return nil }
        return try ProtoObject(
            v, path: child(name), type: type, known: known, raw: raw, jsonPath: jsonPath + [sentNames[name] ?? name])
    }

    /// `Invalid value at 'message.data[0].value' (TYPE_STRING), 12` — Google's message and field violation (a
    /// decoding error: no FcmError).
    static func invalidValue(_ path: String, _ type: String, _ value: JSONValue) -> FCMErrorResponse {
        return FCMErrorResponse.decoding(path, "Invalid value at '\(path)' (\(type)), \(value.serialized())")
    }

    /// `validateOnly` → `validate_only` (proto field names are snake_case; JSON names are their camelCase).
    static func snakeCase(_ name: String) -> String {
        // ASCII only (proto field names are), byte-wise: Character properties are slow on the send path.
        guard name.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return name }
        var out: [UInt8] = []
        for b in name.utf8 {
            if (0x41...0x5A).contains(b) {
                out += [UInt8(ascii: "_"), b | 0x20]
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
