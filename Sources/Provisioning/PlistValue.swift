import Foundation
import PushModel

/// A property-list value as a `Sendable` tree, read from XML or binary plists.
///
/// Foundation hands plists back as `Any`; this enum keeps the types explicit so that checks can say
/// exactly which key had which type.
package enum PlistValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data([UInt8])
    case array([PlistValue])
    case dictionary([String: PlistValue])

    /// The string, if this is a string.
    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The boolean, if this is a boolean (plists also spell booleans as `YES`/`NO` strings in the wild).
    package var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .string(let s):
            switch s.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: return nil
            }
        case .integer(let i): return i != 0
        default: return nil
        }
    }
    /// The date, if this is a date.
    var dateValue: Date? { if case .date(let d) = self { return d } else { return nil } }
    /// The array, if this is an array.
    package var arrayValue: [PlistValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// The dictionary, if this is a dictionary.
    package var dictionaryValue: [String: PlistValue]? {
        if case .dictionary(let d) = self { return d } else { return nil }
    }
    /// The strings of an array of strings (non-string elements are skipped); a lone string counts as one.
    package var stringArray: [String]? {
        switch self {
        case .array(let a): return a.compactMap(\.stringValue)
        case .string(let s): return [s]
        default: return nil
        }
    }

    /// Member lookup for dictionaries.
    package subscript(key: String) -> PlistValue? { dictionaryValue?[key] }

    /// A short type name used in findings and errors ("string", "array", …).
    package var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }

    package var description: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return ISO8601.string(d)
        case .data(let d): return "<\(d.count) bytes>"
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let d):
            return "{" + d.keys.sorted().map { "\"\($0)\": \(d[$0]!.description)" }.joined(separator: ", ") + "}"
        }
    }
}

extension PlistValue {
    /// Parses XML or binary property-list bytes.
    /// - Throws: `ProvisioningError.notAPropertyList` naming `source` when the bytes are not a plist.
    package static func parse(_ bytes: Data, source: String) throws(ProvisioningError) -> PlistValue {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil)
        } catch {
            throw .notAPropertyList(source: source, reason: "\(error)")
        }
        guard let value = PlistValue(foundation: object) else {
            throw .notAPropertyList(source: source, reason: "unsupported value of type \(type(of: object))")
        }
        return value
    }

    /// Converts a Foundation property-list object; `nil` for anything that is not a plist type.
    package init?(foundation object: Any) {
        switch object {
        case let s as String: self = .string(s)
        case let d as Date: self = .date(d)
        case let d as Data: self = .data([UInt8](d))
        case let a as [Any]:
            var out: [PlistValue] = []
            for element in a {
                guard let v = PlistValue(foundation: element) else { return nil }
                out.append(v)
            }
            self = .array(out)
        case let d as [String: Any]:
            var out: [String: PlistValue] = [:]
            for (k, element) in d {
                guard let v = PlistValue(foundation: element) else { return nil }
                out[k] = v
            }
            self = .dictionary(out)
        case let n as NSNumber:
            self = PlistValue(number: n)
        case let b as Bool: self = .bool(b)
        case let i as Int: self = .integer(i)
        case let d as Double: self = .real(d)
        default: return nil
        }
    }

    private init(number n: NSNumber) {
        // corelibs-foundation boxes plist booleans as NSNumber with objCType "c" (char).
        let kind = String(cString: n.objCType)
        if type(of: n) != NSNumber.self || kind == "c" || kind == "B" {
            if kind == "c" || kind == "B" {
                self = .bool(n.boolValue)
                return
            }
        }
        if kind == "f" || kind == "d" { self = .real(n.doubleValue) } else { self = .integer(n.intValue) }
    }
}
