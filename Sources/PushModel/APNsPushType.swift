import Foundation

/// `apns-push-type`: the 11 push types in Apple's table, with the topic suffix each requires.
package enum APNsPushType: String, Sendable, Hashable, CaseIterable, Codable {
    case alert
    case background
    case complication
    case controls
    case fileprovider
    case liveactivity
    case location
    case mdm
    case pushtotalk
    case voip
    case widgets

    /// What must follow the bundle ID in `apns-topic` (empty: the bare bundle ID).
    /// `mdm` uses the MDM certificate's UID topic as-is, so it has no suffix either.
    package var topicSuffix: String {
        switch self {
        case .alert, .background, .mdm: return ""
        case .complication: return ".complication"
        case .controls: return ".push-type.controls"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .location: return ".location-query"
        case .pushtotalk: return ".voip-ptt"
        case .voip: return ".voip"
        case .widgets: return ".push-type.widgets"
        }
    }

    /// Largest payload APNs accepts for this type: 5120 bytes for VoIP, 4096 otherwise.
    package var maxPayloadBytes: Int { self == .voip ? 5120 : 4096 }

    /// Only usable with token (JWT) authentication: `location` ("supports only token-based authentication",
    /// "Sending notification requests to APNs"), `liveactivity` (ActivityKit push notifications: "establish a
    /// token-based connection to APNs") and `fileprovider` ("you must use provider authentication tokens (not
    /// provider certificates)", "Using push notifications to signal changes"); Tests/reference/apns.md §6.1.
    package var requiresTokenAuth: Bool {
        switch self {
        case .location, .liveactivity, .fileprovider: return true
        default: return false
        }
    }

    /// Whether APNs takes a push of this type at `priority`. `background` at 10: "Always use priority 5. Using
    /// priority 10 is an error" (and Apple's older text: "It is an error to use this priority for a push
    /// notification that contains only the content-available key"). `liveactivity`: ActivityKit lists only 5
    /// and 10, so 1 is refused (a modelling choice; kalyke-apns refuses it client-side). Every other type takes
    /// 1, 5 and 10. Tests/reference/apns.md §6.2, §6.3.
    package func allows(_ priority: APNsPriority) -> Bool {
        switch (self, priority) {
        case (.background, .immediate), (.liveactivity, .powerConsiderations): return false
        default: return true
        }
    }

    /// All non-empty suffixes, longest first (so `.voip-ptt` wins over `.voip`).
    static let knownSuffixes: [(suffix: String, type: APNsPushType)] =
        allCases
        .filter { !$0.topicSuffix.isEmpty }
        .map { ($0.topicSuffix, $0) }
        .sorted { $0.suffix.count > $1.suffix.count }

    /// The push type a topic's suffix implies (`nil` for a bare bundle ID).
    package static func impliedBy(topic: String) -> APNsPushType? {
        // Byte-wise over contiguous UTF-8 (the suffixes are ASCII): this runs on every push (topic rules, the
        // registry), and Character-wise `hasSuffix`/`count` cost more than the rest of the topic checks. Read in
        // place when the String is contiguous (always, for a request's header); `withUTF8` needs a mutable copy.
        if let type = topic.utf8.withContiguousStorageIfAvailable(impliedBy(topicBytes:)) { return type }
        var topic = topic
        return topic.withUTF8(impliedBy(topicBytes:))
    }

    /// The suffix's last byte picks the one or two candidates it can be, each compared with one `memcmp` (a loop
    /// over all nine suffixes with `elementsEqual` before). No suffix ends another, so at most one matches: the
    /// same answer as `knownSuffixes`' longest-first order.
    private static func impliedBy(topicBytes t: UnsafeBufferPointer<UInt8>) -> APNsPushType? {
        guard let base = t.baseAddress, let last = t.last else { return nil }
        func ends(_ suffix: StaticString) -> Bool {
            let n = suffix.utf8CodeUnitCount
            return t.count > n && memcmp(base + (t.count - n), suffix.utf8Start, n) == 0
        }
        switch last {
        case UInt8(ascii: "n"): return ends(".complication") ? .complication : nil
        case UInt8(ascii: "s"):
            return ends(".push-type.controls") ? .controls : ends(".push-type.widgets") ? .widgets : nil
        case UInt8(ascii: "r"): return ends(".pushkit.fileprovider") ? .fileprovider : nil
        case UInt8(ascii: "y"):
            return ends(".push-type.liveactivity") ? .liveactivity : ends(".location-query") ? .location : nil
        case UInt8(ascii: "t"): return ends(".voip-ptt") ? .pushtotalk : nil
        case UInt8(ascii: "p"): return ends(".voip") ? .voip : nil
        default: return nil
        }
    }

    /// "a" or "an" before a push type or token kind name ("an alert", "a background", "a voip"): by the word's
    /// first sound, which for these lowercase names is their first letter.
    package static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    /// The bundle ID part of a topic: the topic without any known push-type suffix.
    package static func bundleID(ofTopic topic: String) -> String {
        if let t = impliedBy(topic: topic) { return String(topic.dropLast(t.topicSuffix.count)) }
        return topic
    }
}

extension APNsPushType {
    /// The push type a payload implies when the request has no `apns-push-type`: `background` when its `aps`
    /// holds `content-available: 1` and none of the keys that make the user notice (`alert`, `badge`, `sound`),
    /// else `alert`. What pushcheck's own sends, FCM's translation to APNs and `check-payload` assume.
    ///
    /// The rule is on the keys, not on what they hold, because Apple's text is: "A background notification is a
    /// remote notification that doesn't display an alert, play a sound, or badge your app's icon", sent as "a
    /// remote notification with an aps dictionary that includes only the content-available key … the aps
    /// dictionary must not contain any keys that would trigger user interactions" ("Pushing background updates
    /// to your app"); and the `alert` type is for "notifications that trigger a user interaction — for example,
    /// an alert, badge, or sound" ("Sending notification requests to APNs", `apns-push-type`; reference/apns.md
    /// §1.3, device.md §1.2). So an alert of localization keys only (`title-loc-key`, no text of its own),
    /// `badge: 0` (it clears the badge) or a `sound` in any form keeps a push an alert push.
    /// `content-available` counts only as the number 1, as on the device.
    /// - Parameters:
    ///   - contentAvailable: `aps` holds `content-available: 1`.
    ///   - apsHasKey: whether `aps` holds a key (asked for `userFacingAPSKeys` only).
    package static func implied(contentAvailable: Bool, apsHasKey: (String) -> Bool) -> APNsPushType {
        guard contentAvailable else { return .alert }
        return userFacingAPSKeys.contains(where: apsHasKey) ? .alert : .background
    }

    /// The `aps` keys that make a push one the user notices (any of them makes it an `alert` push).
    static let userFacingAPSKeys = ["alert", "badge", "sound"]

    /// `implied(contentAvailable:apsHasKey:)` for a whole payload (`alert` when it has no `aps` object).
    package static func implied(byPayload payload: JSONValue) -> APNsPushType {
        guard case .object(let aps)? = payload["aps"] else { return .alert }
        return implied(contentAvailable: aps["content-available"]?.intValue == 1) { aps[$0] != nil }
    }
}
