import Foundation

/// An entry of a phone's event log (`DeviceEvent`, `AndroidDeviceEvent`): numbered 1, 2, 3, … in the order things
/// happened, stamped with the injected clock, about one app or the whole device.
protocol PhoneEvent: CustomStringConvertible {
    associatedtype Kind: CustomStringConvertible
    init(sequence: Int, at: Date, app: String?, kind: Kind)
    var sequence: Int { get }
    /// The app concerned (bundle ID, package name); nil: the device.
    var app: String? { get }
    var kind: Kind { get }
}

extension PhoneEvent {
    package var description: String { "#\(sequence) \(app ?? "device"): \(kind)" }
}

extension Array where Element: PhoneEvent {
    /// Appends the next entry of the log: what happened to `app` (nil: the device) at `now`.
    mutating func log(_ kind: Element.Kind, _ app: String?, _ now: Date) {
        append(Element(sequence: count + 1, at: now, app: app, kind: kind))
    }
}
