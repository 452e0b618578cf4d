import Foundation
import Provisioning
import PushModel
import YAMLSource

/// The suite and `serve` spellings of Live Activities: an app's `live_activities:` and `supports_live_activities`,
/// and the `start_activity` device action.
///
/// ```yaml
/// apps:
///   - bundle_id: com.example.rides
///     supports_live_activities: true        # NSSupportsLiveActivities (or from info_plist_file)
///     live_activities:
///       - attributes: RideAttributes
///         attributes_fields: { ride_id: string }
///         content_state: { eta: int, driver: string, note: string? }
///         frequent_updates: false           # NSSupportsLiveActivitiesFrequentUpdates
/// steps:
///   - start_activity: { type: RideAttributes, attributes: { ride_id: R1 }, content_state: { eta: 5, driver: Ann },
///                       push_type: token }  # or channel (with channel: <id>) or none; stale_after: 10m; relevance: 50
/// ```
extension AppDeclaration {
    static let liveActivityTable = KeyTable(
        "liveActivity", "An ActivityAttributes type of the app's widget extension.",
        [
            .init("attributes", .text, "The ActivityAttributes struct's name (attributes-type).", required: true),
            .init(
                "content_state", .dictionary(keys: "property", .oneOf(ActivityFieldType.spellings)),
                "ContentState's properties and types (int, double, string, bool, date; ? = optional).",
                required: true),
            .init(
                "attributes_fields", .dictionary(keys: "property", .oneOf(ActivityFieldType.spellings)),
                "The static attributes' properties and types."),
            .init(
                "frequent_updates", .boolean,
                "NSSupportsLiveActivitiesFrequentUpdates: the larger priority-10 budget (default false)."),
        ])

    static func decodeFields(_ m: YAMLMapping?) throws(SourceError) -> [ActivityField] {
        var out: [ActivityField] = []
        for pair in m?.pairs ?? [] {
            let spelling = try pair.value.oneOf(ActivityFieldType.spellings)
            out.append(ActivityField(pair.keyString, ActivityFieldType(spelling: spelling)!))
        }
        return out
    }

    /// `live_activities:` and `NSSupportsLiveActivities` (`supports_live_activities`, else the Info.plist's).
    static func decodeLiveActivities(_ m: YAMLMapping, file: String, into app: inout AppDeclaration)
        throws(SourceError)
    {
        var info: [String: PlistValue] = [:]
        if let n = m["info_plist_file"], !n.isNull { info = try readPlist(n, file: file) }
        app.supportsLiveActivities =
            try m.optional("supports_live_activities", as: Bool.self) ?? info["NSSupportsLiveActivities"]?.boolValue
            ?? false
        let frequentPlist = info["NSSupportsLiveActivitiesFrequentUpdates"]?.boolValue ?? false
        for node in try m.optionalSequence("live_activities") ?? [] {
            let l = try YAMLMapping(node)
            try l.checkKeys(liveActivityTable)
            app.liveActivities.append(
                LiveActivityDeclaration(
                    attributesType: try l.required("attributes"),
                    contentState: try decodeFields(try l.optionalMapping("content_state")),
                    attributesFields: try decodeFields(try l.optionalMapping("attributes_fields")),
                    frequentUpdates: try l.optional("frequent_updates", as: Bool.self) ?? frequentPlist))
        }
    }
}

extension ActivityRequest {
    package static let keyTable = KeyTable(
        "startActivity", "Activity.request(attributes:content:pushType:) in the app (it must be in the foreground).",
        [
            .init("type", .text, "The attributes type (default: the app's first live_activities entry)."),
            .init("attributes", .json, "The static attributes."),
            .init("content_state", .json, "The initial ContentState.", required: true),
            .init(
                "push_type", .oneOf(["token", "channel", "none"]),
                "token: a push token (pushTokenUpdates); channel: listen to `channel`; none: local only (default token)."
            ),
            .init("channel", .text, "The broadcast channel id (push_type channel; may be a ${variable})."),
            .init("stale_after", .duration, "staleDate, from the start."),
            .init("relevance", .number, "relevanceScore."),
        ])

    static func json(_ node: YAMLNode?) throws(SourceError) -> JSONValue? {
        guard let node, !node.isNull else { return nil }
        do { return try JSONValue.parse(try node.jsonText()) } catch let e as SourceError { throw e } catch {
            throw node.invalidValue(expected: "a JSON-compatible value")
        }
    }

    /// `start_activity: { type:, attributes:, content_state:, push_type:, channel:, stale_after:, relevance: }`.
    package static func decode(_ node: YAMLNode) throws(SourceError) -> ActivityRequest {
        let m = try YAMLMapping(node)
        try m.checkKeys(keyTable)
        let channel: String? = try m.optional("channel")
        let kind =
            try m.optional("push_type", oneOf: ["token", "channel", "none"]) ?? (channel == nil ? "token" : "channel")
        var pushType: PushType?
        switch kind {
        case "token": pushType = .token
        case "channel":
            guard let channel else {
                throw node.invalidValue(expected: "channel: <channel id> with push_type: channel")
            }
            pushType = .channel(channel)
        default: pushType = nil
        }
        return ActivityRequest(
            attributesType: try m.optional("type"), attributes: try json(m["attributes"]) ?? .object([:]),
            contentState: try json(try m.required("content_state", as: YAMLNode.self)) ?? .null, pushType: pushType,
            staleAfter: try m.optional("stale_after", as: Duration.self).map(AppDeclaration.seconds),
            relevanceScore: try m.optional("relevance"))
    }
}
