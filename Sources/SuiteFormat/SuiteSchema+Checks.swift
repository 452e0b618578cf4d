import DeviceSimulator
import PushModel
import YAMLSource

/// The `expect:` part of the suite schema: every `ExpectKey` with its summary and what it takes (`ExpectValue`).
extension SuiteSchema {
    static func expect(_ b: inout SchemaBuilder) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        for key in ExpectKey.allCases {
            let schema: JSONValue
            var nullable = false
            switch key.value {
            case .check(let checked):
                schema = typedCheck(key) ?? check(checked)
                nullable = true
            case .keyPaths(let checked, let of): schema = nonEmpty(keyPaths(check(checked), of: of))
            case .fields(let entries):
                var fields: [String: JSONValue] = [:]
                for e in entries { fields[e.name] = SchemaBuilder.describe(check(e.checked), e.summary) }
                schema = [
                    "type": "object", "properties": .object(fields), "additionalProperties": false, "minProperties": 1,
                ]
            case .callbacks: schema = nonEmpty(callbacks())
            case .wholeObjects:
                var objects: [String: JSONValue] = [:]
                for w in WholeObject.allCases {
                    objects[w.rawValue] = ["type": "object", "description": .string(w.summary)]
                }
                schema = [
                    "type": "object", "properties": .object(objects), "additionalProperties": false, "minProperties": 1,
                ]
            case .snapshot: schema = b.shape(SuiteKeys.snapshotShape, steps: true)
            case .request:
                schema = SchemaBuilder.text
                nullable = true
            }
            properties[key.rawValue] = SchemaBuilder.describe(
                nullable ? SchemaBuilder.nullable(schema) : schema, key.summary)
        }
        // Null, `{}` and a mapping under a check with no key check nothing: the loader refuses them.
        return [
            "type": "object", "minProperties": 1,
            "description": "Checks after the step; every one is evaluated and all failures are reported together.",
            "properties": .object(properties), "additionalProperties": false,
        ]
    }

    /// The checks whose plain value the loader types (`ExpectationDecoder.requirePlainValue`): `status`/`exit` an
    /// integer (or a quoted one), `delivered`/`stored` true or false; as the loader, a `${…}`, a list or a matcher
    /// passes. (`status: 200.0` is the number 200 to a JSON Schema validator: only the loader refuses it.)
    static func typedCheck(_ key: ExpectKey) -> JSONValue? {
        let plain: JSONValue
        switch key {
        case .status, .exit: plain = ["anyOf": [["type": "integer"], ["type": "string", "pattern": "^[+-]?[0-9]+$"]]]
        case .delivered, .stored: plain = ["type": "boolean"]
        default: return nil
        }
        return [
            "anyOf": [
                plain, ["type": "string", "pattern": "\\$\\{"], ["type": "array"], SchemaBuilder.ref(matcherName),
            ]
        ]
    }

    static func check(_ checked: CheckedValue) -> JSONValue {
        SchemaBuilder.ref(checked == .any ? checkAnyName : checkName)
    }

    /// `schema`, a mapping, with at least one key (`user_info: {}` checks nothing; the loader refuses it).
    static func nonEmpty(_ schema: JSONValue) -> JSONValue {
        guard case .object(var o) = schema else { return schema }
        o["minProperties"] = 1
        return .object(o)
    }

    static func keyPaths(_ value: JSONValue, of: String) -> JSONValue {
        ["type": "object", "propertyNames": ["description": .string(of)], "additionalProperties": value]
    }

    /// `callback: { <callback>: { <field>: … } }`: each callback with the fields it carries.
    static func callbacks() -> JSONValue {
        var callbacks: [String: JSONValue] = [:]
        for kind in AppCallback.Kind.allCases {
            var fields: [String: JSONValue] = [:]
            for field in CallbackField.allCases where field.callbacks.contains(kind) {
                let value = check(field.checked)
                fields[field.rawValue] = SchemaBuilder.describe(
                    field.takesKeyPaths ? keyPaths(value, of: "key path") : value, field.summary)
            }
            let names = CallbackField.names(for: kind).joined(separator: ", ")
            callbacks[kind.rawValue] = [
                "type": "object", "properties": .object(fields), "additionalProperties": false,
                "description": .string("The last call of \(kind.rawValue) since the previous expect: \(names)."),
            ]
        }
        return ["type": "object", "properties": .object(callbacks), "additionalProperties": false]
    }

    /// `{ equals: … }`, `{ exists: true }`, `{ not: { contains: x } }`: exactly one matcher key.
    static func matcher() -> JSONValue {
        var properties: [String: JSONValue] = [:]
        for key in ExpectationDecoder.MatcherKey.allCases {
            let flag: JSONValue = [
                "anyOf": [["type": "boolean"], SchemaBuilder.ref(SchemaBuilder.scenarioParameterName)]
            ]
            let schema: JSONValue
            switch key {
            case .equals, .contains: schema = [:]
            case .exists, .absent: schema = flag
            case .matches: schema = SchemaBuilder.text
            // The loader reads what is under `not:` as a check's value: a matcher, or a plain value to equal.
            case .not: schema = ["anyOf": [SchemaBuilder.ref(matcherName), ["not": ["type": "object"]]]]
            }
            properties[key.rawValue] = SchemaBuilder.describe(schema, key.summary)
        }
        return [
            "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": false,
            "properties": .object(properties),
            "description": .string(
                "A matcher: exactly one of \(ExpectationDecoder.MatcherKey.names.joined(separator: ", "))."),
        ]
    }
}
