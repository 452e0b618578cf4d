/// A kind of push address an app on a device holds. iOS hands an app one token per purpose, each from its own API,
/// and APNs routes by token: a push type reaches what its token kind was issued for (Tests/reference/ios-push-types.md
/// §1).
///
/// Extension point: a new kind is a case here, its row in `kinds(for:)` (which push types it takes), the device
/// issuing it (`DeviceState.issuePushTokens`) and the registration sink registering it (`GatewayRegistrationSink`);
/// the gateway, the fleet's index and the device then apply `outcome(of:at:)` to it with no other change. A kind
/// addressing many devices at once (a broadcast channel) keeps its own table beside the fleet's `TokenIndex`.
package enum PushTokenKind: String, Sendable, Hashable, CaseIterable {
    /// The APNs device token (`didRegisterForRemoteNotificationsWithDeviceToken`): alert and background pushes.
    case apns
    /// The PushKit VoIP token (`PKPushRegistry` with `.voIP`, `pushRegistry(_:didUpdate:for:)`).
    case voip
    /// The Push to Talk ephemeral token (`PTChannelManagerDelegate.channelManager(_:receivedEphemeralPushToken:)`).
    case pushToTalk = "pushtotalk"
    /// The location push token (`CLLocationManager.startMonitoringLocationPushes(completion:)`).
    case location
    /// The WidgetKit push token (`WidgetPushHandler.pushTokenDidChange(_:widgets:)`, iOS 26).
    case widgets
    /// The controls push token (`ControlPushHandler.pushTokensDidChange(controls:)`, iOS 18).
    case controls
    /// The File Provider PushKit token (`PKPushRegistry` with `.fileProvider`).
    case fileProvider = "fileprovider"
    /// A Live Activity's update token (`Activity.pushTokenUpdates`).
    case activity
    /// A push-to-start token (`Activity<Attributes>.pushToStartTokenUpdates`, iOS 17.2).
    case pushToStart = "push-to-start"
    /// An Android app's FCM registration token, sent to through the FCM v1 API (never an APNs address: no push
    /// type is meant for it, and the Android phone's delivery rules are FCM's).
    case fcm

    /// The token kinds a push type is meant for. `complication` (a paired Apple Watch's complication token) and
    /// `mdm` (the MDM check-in token) have none on the simulated iPhone.
    package static func kinds(for type: APNsPushType) -> [PushTokenKind] {
        switch type {
        case .alert, .background: return [.apns]
        case .voip: return [.voip]
        case .pushtotalk: return [.pushToTalk]
        case .location: return [.location]
        case .widgets: return [.widgets]
        case .controls: return [.controls]
        case .fileprovider: return [.fileProvider]
        case .liveactivity: return [.activity, .pushToStart]
        case .complication, .mdm: return []
        }
    }

    /// What becomes of a push of `type` sent to a token of `kind`: the one rule for every pair (reference §1).
    ///
    /// - A VoIP push at an APNs device token: **400 DeviceTokenNotForTopic** (reported again and again: PyAPNs2
    ///   #134, QuickBlox #1020, sygnal #102, react-native-voip-push-notification #90).
    /// - An alert or background push (bare bundle topic) at a VoIP token: **400 TopicDisallowed** (node-apn #658,
    ///   vapor-apns #24: "Pushing to this topic is not allowed").
    /// - `complication` and `mdm`: nothing on the simulated iPhone takes them (`notModelled`).
    /// - Every other pair of a type and a kind not meant for it: Apple documents no answer; APNs routes by token and
    ///   topic, so the gateway answers 200 and the device drops the push (`mismatch`), as iOS discards it.
    package static func outcome(of type: APNsPushType, at kind: PushTokenKind) -> TokenKindOutcome {
        switch (type, kind) {
        case (.complication, _), (.mdm, _): return .notModelled
        case (.voip, .apns): return .refuse(.deviceTokenNotForTopic)
        case (.alert, .voip), (.background, .voip): return .refuse(.topicDisallowed)
        default: return kinds(for: type).contains(kind) ? .deliver : .mismatch
        }
    }
}

/// `PushTokenKind.outcome(of:at:)`'s answer.
package enum TokenKindOutcome: Sendable, Equatable {
    /// The push reaches what the token was issued for.
    case deliver
    /// APNs refuses it with this reason; the device never sees it.
    case refuse(APNsReason)
    /// APNs answers 200 and the device drops it: `token-kind-mismatch: <type> push to <kind> token`.
    case mismatch
    /// APNs answers 200 and the simulated iPhone drops it: what it would reach is not modelled.
    case notModelled
}
