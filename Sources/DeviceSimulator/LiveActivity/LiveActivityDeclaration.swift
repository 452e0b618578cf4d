import Foundation
import PushModel

/// The Swift type of one stored property of an `ActivityAttributes` struct or its `ContentState`, as the
/// ActivityKit JSON decoder reads it from a push (Tests/reference/live-activities.md §4): a JSON number for `int`
/// (whole) and `double`, a string, a boolean, or a `date` (ActivityKit's `JSONDecoder` uses the default
/// `.deferredToDate` strategy: a number of seconds since 2001-01-01). A trailing `?` (`int?`) makes it optional.
package struct ActivityFieldType: Sendable, Equatable, CustomStringConvertible {
    package enum Base: String, Sendable, CaseIterable {
        case int, double, string, bool, date
    }
    package var base: Base
    package var optional: Bool

    package init(_ base: Base, optional: Bool = false) {
        self.base = base
        self.optional = optional
    }

    /// `int`, `string?`, …; nil for any other spelling.
    package init?(spelling: String) {
        let optional = spelling.hasSuffix("?")
        guard let base = Base(rawValue: optional ? String(spelling.dropLast()) : spelling) else { return nil }
        self.init(base, optional: optional)
    }

    /// Every spelling a declaration may use.
    package static var spellings: [String] { Base.allCases.flatMap { [$0.rawValue, $0.rawValue + "?"] } }

    package var description: String { base.rawValue + (optional ? "?" : "") }

    /// Whether `value` decodes as this type (null or absent only when optional: checked by the caller).
    func accepts(_ value: JSONValue) -> Bool {
        switch base {
        case .int: return value.intValue != nil
        case .double, .date: return value.doubleValue != nil
        case .string: return value.stringValue != nil
        case .bool: return value.boolValue != nil
        }
    }

    var jsonKind: String { base == .int || base == .double || base == .date ? "number" : base.rawValue }
}

/// One stored property: its coding key and type.
package struct ActivityField: Sendable, Equatable {
    package var name: String
    package var type: ActivityFieldType
    package init(_ name: String, _ type: ActivityFieldType) {
        self.name = name
        self.type = type
    }
}

/// One Live Activity type the app declares (an `ActivityAttributes` struct in its widget extension):
/// `live_activities: [{ attributes: RideAttributes, content_state: { eta: int, driver: string },
/// attributes_fields: { ride_id: string }, frequent_updates: true }]`.
package struct LiveActivityDeclaration: Sendable, Equatable {
    /// The struct's name: what `attributes-type` names in a push-to-start payload.
    package var attributesType: String
    /// `ContentState`'s properties, in declaration order.
    package var contentState: [ActivityField]
    /// The static attributes' properties (`attributes` of a push-to-start payload).
    var attributesFields: [ActivityField]
    /// `NSSupportsLiveActivitiesFrequentUpdates`: a larger budget of priority-10 updates.
    var frequentUpdates: Bool

    package init(
        attributesType: String, contentState: [ActivityField], attributesFields: [ActivityField] = [],
        frequentUpdates: Bool = false
    ) {
        self.attributesType = attributesType
        self.contentState = contentState
        self.attributesFields = attributesFields
        self.frequentUpdates = frequentUpdates
    }

    /// Why `value` does not decode as the content state (nil: it does).
    func contentStateProblem(_ value: JSONValue?) -> String? {
        Self.decodingProblem(value, fields: contentState, what: "content-state")
    }

    /// Why `value` does not decode as the attributes (nil: it does).
    func attributesProblem(_ value: JSONValue?) -> String? {
        Self.decodingProblem(value, fields: attributesFields, what: "attributes")
    }

    /// What Swift's `JSONDecoder` would refuse in `value` decoded as a struct with `fields`: not an object
    /// (typeMismatch), a required key absent (keyNotFound) or null (valueNotFound), a value of another JSON type
    /// or a fractional number for an `Int` (typeMismatch / dataCorrupted). Keys the struct does not have are
    /// ignored, as the synthesized `Decodable` ignores them.
    static func decodingProblem(_ value: JSONValue?, fields: [ActivityField], what: String) -> String? {
        guard let value else { return "\(what) missing" }
        guard let o = value.objectValue else { return "\(what) is not an object" }
        for f in fields {
            guard let v = o[f.name], !v.isNull else {
                if f.type.optional { continue }
                return "\(what).\(f.name) \(o[f.name] == nil ? "missing" : "is null") (\(f.type) required)"
            }
            guard f.type.accepts(v) else {
                return "\(what).\(f.name): expected \(f.type), got \(Self.describe(v))"
            }
        }
        return nil
    }

    static func describe(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return "string \"\(s)\""
        case .number, .integer: return "number \(v.serialized())"
        case .bool(let b): return "bool \(b)"
        case .array: return "an array"
        case .object: return "an object"
        case .null: return "null"
        }
    }
}

extension AppDeclaration {
    /// The Live Activity type named `attributesType`, if the app declares it.
    func liveActivity(_ attributesType: String) -> LiveActivityDeclaration? {
        liveActivities.first { $0.attributesType == attributesType }
    }
}
