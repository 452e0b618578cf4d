import PushModel

extension DeviceState {
    /// The APNs token `bundleID` had before its current one (nil if it never had another): after an
    /// `uninstall` that is the token the provider still holds, which APNs answers with 410 Unregistered
    /// (device.md §3.4 "Token invalidated (uninstall etc.)", [A-RESP]). Read from the event log, so it
    /// survives the app's removal.
    package func previousToken(of bundleID: String) -> DeviceToken? {
        let current = apps[bundleID]?.token
        for e in events.reversed() where e.bundleID == bundleID {
            switch e.kind {
            case .registered(let token, _) where token != current: return token
            case .uninstalled(let token?) where token != current: return token
            default: continue
            }
        }
        return nil
    }
}

extension DeviceState {
    /// The FCM registration token the app held before its current one (or before it was uninstalled):
    /// what a backend that missed the change still sends to (UNREGISTERED at the FCM gateway).
    package func previousFCMToken(of bundleID: String) -> String? {
        let current = apps[bundleID]?.fcmToken
        for e in events.reversed() where e.bundleID == bundleID {
            if case .fcmTokenIssued(let token, _) = e.kind, token != current { return token }
        }
        return nil
    }
}
