import Foundation

/// The push-relevant part of a notification extension's `Info.plist` (`NSExtension`), device.md §2.2.
package struct NotificationExtensionInfo: Sendable, Equatable {
    /// Which extension point it plugs into.
    package enum Kind: String, Sendable, Equatable {
        case service = "com.apple.usernotifications.service"
        case content = "com.apple.usernotifications.content-extension"
    }

    package var kind: Kind
    /// `UNNotificationExtensionCategory` (content extensions; string or array in the plist).
    package var categories: [String]
    /// `UNNotificationExtensionInitialContentSizeRatio` (required for content extensions).
    package var initialContentSizeRatio: Double?
    package var defaultContentHidden: Bool
    package var overridesDefaultTitle: Bool
    package var userInteractionEnabled: Bool

    /// Reads an extension's `Info.plist` (XML or binary).
    /// - Throws: `ProvisioningError` naming the missing or ill-typed key (e.g. a content extension
    ///   without `UNNotificationExtensionCategory`, which iOS requires).
    package init(infoPlist bytes: Data, source: String) throws(ProvisioningError) {
        let root = PlistReader(try PlistValue.parse(bytes, source: source), source: source)
        let ext = PlistReader(.dictionary(try root.dictionary("NSExtension")), source: source, path: "NSExtension.")
        let point = try ext.string("NSExtensionPointIdentifier")
        guard let kind = Kind(rawValue: point) else {
            throw .wrongType(
                source: source, key: "NSExtension.NSExtensionPointIdentifier",
                expected: "\"\(Kind.service.rawValue)\" or \"\(Kind.content.rawValue)\"", found: "\"\(point)\"")
        }
        self.kind = kind
        let attributes = ext.dictionary["NSExtensionAttributes"]?.dictionaryValue ?? [:]
        let attrs = PlistReader(.dictionary(attributes), source: source, path: "NSExtension.NSExtensionAttributes.")
        let categoryKey = "UNNotificationExtensionCategory"
        let ratioKey = "UNNotificationExtensionInitialContentSizeRatio"
        if kind == .content {
            guard let value = attributes[categoryKey] else {
                throw .missingKey(source: source, key: attrs.path + categoryKey)
            }
            guard let list = value.stringArray, !list.isEmpty else {
                throw .wrongType(
                    source: source, key: attrs.path + categoryKey, expected: "a string or an array of strings",
                    found: value.typeName)
            }
            categories = list
            guard let ratio = attributes[ratioKey] else {
                throw .missingKey(source: source, key: attrs.path + ratioKey)
            }
            switch ratio {
            case .real(let d): initialContentSizeRatio = d
            case .integer(let i): initialContentSizeRatio = Double(i)
            default:
                throw .wrongType(
                    source: source, key: attrs.path + ratioKey, expected: "a number", found: ratio.typeName)
            }
        } else {
            categories = []
            initialContentSizeRatio = nil
        }
        defaultContentHidden = try attrs.optionalBool("UNNotificationExtensionDefaultContentHidden") ?? false
        overridesDefaultTitle = try attrs.optionalBool("UNNotificationExtensionOverridesDefaultTitle") ?? false
        userInteractionEnabled = try attrs.optionalBool("UNNotificationExtensionUserInteractionEnabled") ?? false
    }
}
