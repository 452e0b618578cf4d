import APNsGateway
import DeviceBridge

extension WorldHost {
    /// `gatewayLog(after: sequence)` without unpacking the entries at or before `sequence`: the runner reads the log
    /// after every step and expect, mostly to find nothing new, and `gatewayLog` unpacked the whole log each time.
    func gatewayEntries(after sequence: UInt64) -> [APNsLogEntry] {
        gatewayLogPage(after: sequence, limit: .max).entries
    }
}
