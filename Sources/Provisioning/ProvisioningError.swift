/// Why a provisioning file could not be read. Each case says which file and what to do.
package enum ProvisioningError: Error, Equatable, CustomStringConvertible {
    /// The bytes are not a DER-encoded CMS (PKCS#7) message.
    case notCMS(source: String, reason: String)
    /// The CMS message has no embedded content (a detached signature).
    case detachedContent(source: String)
    /// The bytes (or the CMS payload) are not a property list.
    case notAPropertyList(source: String, reason: String)
    /// A required key is absent.
    case missingKey(source: String, key: String)
    /// A key has the wrong type.
    case wrongType(source: String, key: String, expected: String, found: String)
    /// The file could not be read from disk.
    case unreadable(path: String, reason: String)

    package var description: String {
        switch self {
        case .notCMS(let source, let reason):
            return "\(source): not a CMS-signed provisioning profile (\(reason)); "
                + "pass the .mobileprovision file as downloaded from the developer portal or Xcode"
        case .detachedContent(let source):
            return "\(source): the CMS signature carries no embedded plist; "
                + "a .mobileprovision embeds its plist, re-download the profile"
        case .notAPropertyList(let source, let reason):
            return "\(source): not a property list (\(reason)); expected an XML or binary plist"
        case .missingKey(let source, let key):
            return "\(source): required key '\(key)' is missing; add it or regenerate the file"
        case .wrongType(let source, let key, let expected, let found):
            return "\(source): key '\(key)' should be \(expected) but is \(found); fix its type"
        case .unreadable(let path, let reason):
            return "\(path): cannot read (\(reason)); check the path and permissions"
        }
    }
}
