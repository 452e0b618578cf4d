import Foundation

/// Typed access to a plist dictionary that throws `ProvisioningError` naming the file and key.
struct PlistReader {
    let dictionary: [String: PlistValue]
    let source: String
    let path: String

    init(_ value: PlistValue, source: String, path: String = "") {
        self.dictionary = value.dictionaryValue ?? [:]
        self.source = source
        self.path = path
    }

    private func wrong(_ key: String, _ expected: String, _ v: PlistValue) -> ProvisioningError {
        .wrongType(source: source, key: path + key, expected: expected, found: v.typeName)
    }

    func optionalString(_ key: String) throws(ProvisioningError) -> String? {
        guard let v = dictionary[key] else { return nil }
        guard let s = v.stringValue else { throw wrong(key, "a string", v) }
        return s
    }

    func string(_ key: String) throws(ProvisioningError) -> String {
        guard let s = try optionalString(key) else { throw .missingKey(source: source, key: path + key) }
        return s
    }

    func optionalBool(_ key: String) throws(ProvisioningError) -> Bool? {
        guard let v = dictionary[key] else { return nil }
        guard let b = v.boolValue else { throw wrong(key, "a boolean", v) }
        return b
    }

    func optionalStrings(_ key: String) throws(ProvisioningError) -> [String]? {
        guard let v = dictionary[key] else { return nil }
        guard case .array(let items) = v else { throw wrong(key, "an array of strings", v) }
        return try items.map { item throws(ProvisioningError) in
            guard let s = item.stringValue else { throw wrong(key, "an array of strings", item) }
            return s
        }
    }

    func date(_ key: String) throws(ProvisioningError) -> Date {
        guard let v = dictionary[key] else { throw .missingKey(source: source, key: path + key) }
        guard let d = v.dateValue else { throw wrong(key, "a date", v) }
        return d
    }

    func dictionary(_ key: String) throws(ProvisioningError) -> [String: PlistValue] {
        guard let v = dictionary[key] else { throw .missingKey(source: source, key: path + key) }
        guard let d = v.dictionaryValue else { throw wrong(key, "a dictionary", v) }
        return d
    }
}
