import PushModel
import YAMLSource

/// Renders `KeyTable`s and `ValueShape`s as JSON Schema (draft 2020-12), collecting every table as one of the
/// `$defs`. The rule it follows is the loader's, never stricter: a scalar read as text may be a number or a
/// boolean (`String.decode` takes `200` as "200"), an optional key may be null (null counts as absent), and in
/// steps a typed value may be a `${scenario.<parameter>}` reference (substituted before the step is decoded).
struct SchemaBuilder {
    /// The definitions so far, by name.
    private(set) var defs: [String: JSONValue] = [:]
    /// The summary each definition was made from, so two tables cannot share a name.
    private var defined: [String: String] = [:]

    static let scenarioParameterName = "scenarioParameter"

    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/$defs/" + name)] }

    /// Adds a definition the suite schema builds itself (the step, a check's value).
    mutating func define(_ name: String, _ schema: JSONValue) {
        precondition(defined[name] == nil, "two schema definitions named \(name)")
        defined[name] = name
        defs[name] = schema
    }

    /// A table, as a `$ref` to its definition. In steps the definition is another one (`<name>InSteps`), because
    /// there typed values also take `${scenario.…}` and the same table elsewhere (an app's `authorization:`) does not.
    mutating func object(_ table: KeyTable, steps: Bool) -> JSONValue {
        let name = steps ? table.name + "InSteps" : table.name
        if let seen = defined[name] {
            precondition(seen == table.summary, "two tables named \(table.name)")
            return Self.ref(name)
        }
        defined[name] = table.summary
        defs[name] = true  // a placeholder while its keys are rendered
        defs[name] = tableSchema(table, steps: steps)
        return Self.ref(name)
    }

    /// A mapping with the table's keys and no others.
    mutating func tableSchema(_ table: KeyTable, steps: Bool) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        for key in table.keys { properties[key.name] = property(key, steps: steps) }
        var schema: [String: JSONValue] = [
            "type": "object", "description": .string(table.summary), "properties": .object(properties),
            "additionalProperties": false,
        ]
        let required = table.keys.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { schema["required"] = .array(required) }
        return .object(schema)
    }

    /// One key's value, with its summary, null allowed where the decoder takes null as absent.
    mutating func property(_ key: TableKey, steps: Bool) -> JSONValue {
        let schema = shape(key.value, steps: steps)
        return Self.describe(key.acceptsNull ? Self.nullable(schema) : schema, key.summary)
    }

    mutating func shape(_ value: ValueShape, steps: Bool) -> JSONValue {
        func typed(_ schema: JSONValue) -> JSONValue {
            steps ? ["anyOf": [schema, Self.ref(Self.scenarioParameterName)]] : schema
        }
        switch value {
        case .text, .file: return Self.text
        case .integer: return typed(["type": "integer"])
        case .number: return typed(["type": "number"])
        case .boolean: return typed(["type": "boolean"])
        case .duration:
            return typed([
                "anyOf": [["type": "string", "pattern": .string(Self.durationPattern)], ["const": 0]],
                "description": "A number with a unit: ns, us, ms, s, m, h (250ms, 2s, 5m), or 0.",
            ])
        case .byteSize:
            return typed([
                "anyOf": [
                    ["type": "integer", "minimum": 0], ["type": "string", "pattern": .string(Self.sizePattern)],
                ],
                "description": "Bytes, or a number with B, K/KB/KiB, M/MB/MiB, G/GB/GiB (binary units).",
            ])
        case .date(let milliseconds):
            return typed(
                milliseconds
                    ? [
                        "type": ["string", "integer"],
                        "description": "ISO 8601 (2026-01-01T00:00:00Z), or milliseconds since 1970.",
                    ] : ["type": "string", "description": "ISO 8601 (2026-01-01T00:00:00Z)."])
        case .oneOf(let values): return typed(["enum": .array(values.map(JSONValue.string))])
        case .list(let item): return ["type": "array", "items": shape(item, steps: steps)]
        case .object(let table): return object(table, steps: steps)
        case .dictionary(let keys, let item):
            return [
                "type": "object", "propertyNames": ["description": .string(keys)],
                "additionalProperties": shape(item, steps: steps),
            ]
        case .json, .ignored: return [:]
        case .either(let shapes): return ["anyOf": .array(shapes.map { shape($0, steps: steps) })]
        case .named(let name): return Self.ref(name)
        }
    }

    /// A scalar read as text: a string, or a number or boolean as written.
    static let text: JSONValue = ["type": ["string", "number", "boolean"]]

    /// `Duration.decode`: a number (its first character a digit) and a unit, spaces around allowed.
    static let durationPattern = "^ *[0-9][^ ]* *(ns|us|µs|ms|s|m|h) *$"
    /// `ByteSize.decode`: a number and a unit of any case.
    static let sizePattern = "^ *[0-9][^ ]* *([KkMmGg]([Ii]?[Bb])?|[Bb]) *$"

    /// `schema` also taking null.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var o) = schema, !o.isEmpty else { return schema }
        switch o["type"] {
        case .string(let t)?:
            o["type"] = [.string(t), "null"]
            return .object(o)
        case .array(let ts)?:
            o["type"] = .array(ts.contains("null") ? ts : ts + ["null"])
            return .object(o)
        default: break
        }
        if case .array(let values)? = o["enum"] {
            o["enum"] = .array(values + [.null])
            return .object(o)
        }
        return ["anyOf": [schema, ["type": "null"]]]
    }

    /// `schema` described by `text`, before what it said already (a value's format, a table's summary).
    static func describe(_ schema: JSONValue, _ text: String) -> JSONValue {
        guard case .object(var o) = schema else { return ["description": .string(text)] }
        // Draft-07 validators ignore a `$ref`'s siblings (yaml-language-server's README: "Supports JSON Schema 7
        // and below"), so a described reference is written as `allOf: [$ref]` for hovers to show the text.
        if o.count == 1, o["$ref"] != nil { return ["allOf": [schema], "description": .string(text)] }
        o["description"] = .string(o["description"]?.stringValue.map { text + " " + $0 } ?? text)
        return .object(o)
    }

    /// The names of a `SuiteTable`, each with its summary (an editor shows it beside the completion).
    static func constants<T: SuiteTable>(_ table: T.Type) -> [JSONValue] {
        table.entries.map { ["const": .string($0.name), "description": .string($0.summary)] }
    }
}
