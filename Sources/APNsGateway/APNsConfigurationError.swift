/// A problem in the gateway's configuration, with what to fix.
package enum APNsConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case badProviderKey(keyID: String, detail: String)
    case badDeviceToken(String)
    case cannotOpenLogFile(path: String, detail: String)

    package var description: String {
        switch self {
        case .badProviderKey(let kid, let detail):
            return "provider key \(kid): \(detail); pass the .p8 file's PEM or its public key PEM"
        case .badDeviceToken(let t):
            return "device token '\(t)' is not non-empty even-length hex; copy the token as hex"
        case .cannotOpenLogFile(let path, let detail):
            return "cannot open delivery log file \(path): \(detail); check the directory exists and is writable"
        }
    }
}
