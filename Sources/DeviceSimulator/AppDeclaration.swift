import Foundation
import Provisioning
import PushModel

/// `UIBackgroundFetchResult`, what the app's fetch handler reports.
package enum FetchResult: String, Sendable, Equatable {
    case newData = "new-data"
    case noData = "no-data"
    case failed
}

/// Which app-delegate / notification-center-delegate methods the app implements and how they answer.
package struct DelegateBehaviour: Sendable, Equatable {
    /// `userNotificationCenter(_:willPresent:withCompletionHandler:)`; nil = not implemented
    /// (then foreground notifications are not displayed).
    var willPresentOptions: PresentationOptions?
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`.
    package var implementsFetchHandler: Bool
    /// The result the fetch handler passes to its completion handler.
    var fetchResult: FetchResult
    /// How long the fetch handler takes before calling its completion handler (seconds of app time);
    /// more than 30 s gets the app terminated. nil = never calls it.
    var fetchDuration: TimeInterval?
    /// Deprecated `application(_:didReceiveRemoteNotification:)` (foreground only; ignored if the fetch variant exists).
    var implementsLegacyDidReceive: Bool
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)`.
    var implementsDidReceiveResponse: Bool
    /// Whether `UNUserNotificationCenter.current().delegate` is set before launch finishes (else the tap
    /// response at a cold start is missed).
    var delegateSetBeforeLaunchFinishes: Bool
    /// A scene-based app: a cold-start tap arrives in `UIScene.ConnectionOptions.notificationResponse`
    /// instead of `launchOptions[.remoteNotification]`.
    var usesScenes: Bool

    package init(
        willPresentOptions: PresentationOptions? = [.banner, .sound, .list, .badge],
        implementsFetchHandler: Bool = true, fetchResult: FetchResult = .newData,
        fetchDuration: TimeInterval? = 1, implementsLegacyDidReceive: Bool = false,
        implementsDidReceiveResponse: Bool = true, delegateSetBeforeLaunchFinishes: Bool = true,
        usesScenes: Bool = false
    ) {
        self.willPresentOptions = willPresentOptions
        self.implementsFetchHandler = implementsFetchHandler
        self.fetchResult = fetchResult
        self.fetchDuration = fetchDuration
        self.implementsLegacyDidReceive = implementsLegacyDidReceive
        self.implementsDidReceiveResponse = implementsDidReceiveResponse
        self.delegateSetBeforeLaunchFinishes = delegateSetBeforeLaunchFinishes
        self.usesScenes = usesScenes
    }
}

/// A `UNNotificationAction` registered by the app in a category.
package struct NotificationAction: Sendable, Equatable {
    package var id: String
    package var title: String
    /// `.foreground` option: choosing it brings the app to the foreground; otherwise it runs in the background.
    package var foreground: Bool
    package init(id: String, title: String, foreground: Bool = false) {
        self.id = id
        self.title = title
        self.foreground = foreground
    }
}

/// A `UNNotificationCategory` registered by the app.
package struct NotificationCategory: Sendable, Equatable {
    package var id: String
    package var actions: [NotificationAction]
    package init(id: String, actions: [NotificationAction]) {
        self.id = id
        self.actions = actions
    }
}

/// What a notification service extension does to `mutable-content` pushes (device.md §2.1).
package struct ServiceExtensionBehaviour: Sendable, Equatable {
    /// Seconds until it calls the content handler; past `DeviceRules.serviceExtensionBudget` the
    /// original content is shown.
    package var duration: TimeInterval
    var newTitle: String?
    var newSubtitle: String?
    var newBody: String?
    var newCategoryID: String?
    var newThreadID: String?
    /// Keys added to (or replaced in) `userInfo`.
    var userInfoAdditions: [String: JSONValue]

    package init(
        duration: TimeInterval = 1, newTitle: String? = nil, newSubtitle: String? = nil, newBody: String? = nil,
        newCategoryID: String? = nil, newThreadID: String? = nil, userInfoAdditions: [String: JSONValue] = [:]
    ) {
        self.duration = duration
        self.newTitle = newTitle
        self.newSubtitle = newSubtitle
        self.newBody = newBody
        self.newCategoryID = newCategoryID
        self.newThreadID = newThreadID
        self.userInfoAdditions = userInfoAdditions
    }

    func apply(to content: NotificationContent) -> NotificationContent {
        var c = content
        if let t = newTitle { c.title = t }
        if let s = newSubtitle { c.subtitle = s }
        if let b = newBody { c.body = b }
        if let cat = newCategoryID { c.categoryID = cat }
        if let th = newThreadID { c.threadID = th }
        if !userInfoAdditions.isEmpty, case .object(var o) = c.userInfo {
            for (k, v) in userInfoAdditions { o[k] = v }
            c.userInfo = .object(o)
        }
        return c
    }
}

/// `UNNotificationContentExtensionResponseOption` (raw values as Apple's).
package enum ContentExtensionResponse: Int, Sendable, Equatable {
    case doNotDismiss = 0
    case dismiss = 1
    case dismissAndForwardAction = 2
}

/// How a content extension handles one action.
package struct ContentExtensionActionHandling: Sendable, Equatable {
    /// A payload key (dotted path) whose string value is a URL the extension opens.
    var openURLFromKey: String?
    package var response: ContentExtensionResponse
    package init(openURLFromKey: String? = nil, response: ContentExtensionResponse) {
        self.openURLFromKey = openURLFromKey
        self.response = response
    }
}

/// A notification content extension (device.md §2.2).
package struct ContentExtensionDeclaration: Sendable, Equatable {
    package var name: String
    /// `UNNotificationExtensionCategory`, matched case-sensitively to the category.
    package var categories: [String]
    /// Whether it implements `didReceive(_:completionHandler:)`; if not, every action goes to the app.
    var implementsDidReceiveResponse: Bool
    /// Per-action handling; an action not listed is forwarded (`.dismissAndForwardAction`).
    package var actions: [String: ContentExtensionActionHandling]
    package var defaultContentHidden: Bool
    /// `UNNotificationExtensionInitialContentSizeRatio` (height / width of the initial view).
    package var initialContentSizeRatio: Double?
    /// `UNNotificationExtensionOverridesDefaultTitle`.
    package var overridesDefaultTitle: Bool
    /// `UNNotificationExtensionUserInteractionEnabled` (iOS 12+): touches reach the extension's view.
    package var userInteractionEnabled: Bool
    /// The Info.plist path when it has no `UNNotificationExtensionCategory`: iOS never picks such an
    /// extension (`categories` is empty), which is a finding on the app, not a load error.
    var infoPlistMissingCategory: String?

    package init(
        name: String, categories: [String], implementsDidReceiveResponse: Bool = true,
        actions: [String: ContentExtensionActionHandling] = [:], defaultContentHidden: Bool = false,
        initialContentSizeRatio: Double? = nil, overridesDefaultTitle: Bool = false,
        userInteractionEnabled: Bool = false, infoPlistMissingCategory: String? = nil
    ) {
        self.name = name
        self.categories = categories
        self.implementsDidReceiveResponse = implementsDidReceiveResponse
        self.actions = actions
        self.defaultContentHidden = defaultContentHidden
        self.initialContentSizeRatio = initialContentSizeRatio
        self.overridesDefaultTitle = overridesDefaultTitle
        self.userInteractionEnabled = userInteractionEnabled
        self.infoPlistMissingCategory = infoPlistMissingCategory
    }
}

/// Firebase Messaging in the app.
package struct FirebaseDeclaration: Sendable, Equatable {
    package var senderID: String
    package var projectID: String
    /// The app sets `Messaging.messaging().apnsToken` itself (needed when swizzling is off).
    var forwardsAPNsToken: Bool
    package init(senderID: String, projectID: String, forwardsAPNsToken: Bool = false) {
        self.senderID = senderID
        self.projectID = projectID
        self.forwardsAPNsToken = forwardsAPNsToken
    }
}

/// What the app's PushKit delegate does with a VoIP push (`voip:`).
package struct VoIPBehaviour: Sendable, Equatable {
    /// It calls CallKit's `reportNewIncomingCall` from `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)`;
    /// if not, iOS 13+ terminates it and, after repeated failures, stops delivering VoIP pushes to it.
    var reportsCall: Bool
    package init(reportsCall: Bool = true) { self.reportsCall = reportsCall }
}

/// Everything the simulated device needs to know about one app.
package struct AppDeclaration: Sendable, Equatable {
    package var signing: AppSigningConfiguration
    package var profile: ProvisioningProfile
    var delegate: DelegateBehaviour
    package var categories: [NotificationCategory]
    package var serviceExtension: ServiceExtensionBehaviour?
    package var contentExtensions: [ContentExtensionDeclaration]
    package var firebase: FirebaseDeclaration?
    package var navigation: NavigationDeclaration
    /// The app's `decidePolicyFor navigationAction`.
    var webViewPolicy: WebViewPolicy
    /// What the user answers when the app asks for notification permission (`setUp` applies it).
    package var authorization: NotificationSettings
    /// The tokens it asks for beyond the APNs device token (`push_types:`): a PushKit VoIP token, a Push to Talk
    /// token, a location push token (it has a Location Push Service Extension), a widgets or controls push token
    /// (its widgets or controls have a push handler), a File Provider token. Each is issued when it registers.
    var pushTypes: [PushTokenKind]
    package var voip: VoIPBehaviour
    /// `live_activities:`, the app's `ActivityAttributes` types (LiveActivity/LiveActivityDeclaration.swift).
    package var liveActivities: [LiveActivityDeclaration] = []
    /// `NSSupportsLiveActivities` in the app's Info.plist: without it ActivityKit starts nothing.
    package var supportsLiveActivities = false

    package init(
        signing: AppSigningConfiguration, profile: ProvisioningProfile,
        delegate: DelegateBehaviour = DelegateBehaviour(), categories: [NotificationCategory] = [],
        serviceExtension: ServiceExtensionBehaviour? = nil, contentExtensions: [ContentExtensionDeclaration] = [],
        firebase: FirebaseDeclaration? = nil, navigation: NavigationDeclaration = NavigationDeclaration(),
        webViewPolicy: WebViewPolicy = WebViewPolicy(), authorization: NotificationSettings = .authorized,
        pushTypes: [PushTokenKind] = [], voip: VoIPBehaviour = VoIPBehaviour()
    ) {
        self.signing = signing
        self.profile = profile
        self.delegate = delegate
        self.categories = categories
        self.serviceExtension = serviceExtension
        self.contentExtensions = contentExtensions
        self.firebase = firebase
        self.navigation = navigation
        self.webViewPolicy = webViewPolicy
        self.authorization = authorization
        self.pushTypes = pushTypes
        self.voip = voip
    }

    /// The token kinds `push_types:` may name: those an app asks for itself (Live Activity tokens come from its
    /// activities, the APNs token from `registerForRemoteNotifications`).
    static let declarableTokenKinds: [PushTokenKind] = [
        .voip, .pushToTalk, .location, .widgets, .controls, .fileProvider,
    ]

    package var bundleID: String { signing.bundleID }

    /// The content extension whose categories contain `category` exactly (case-sensitive).
    package func contentExtension(for category: String?) -> ContentExtensionDeclaration? {
        guard let category else { return nil }
        return contentExtensions.first { $0.categories.contains(category) }
    }
}

/// An FCM registration token and what Firebase knows about it.
package struct FCMRegistration: Sendable, Equatable {
    package var bundleID: String
    package var fcmToken: String
    package var senderID: String
    package var projectID: String
    /// The APNs token Firebase maps it to; nil when the app never handed it over.
    package var apnsToken: DeviceToken?
    package var environment: APSEnvironment?
}
