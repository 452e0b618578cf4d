import Foundation
import Provisioning
import PushModel

/// `UIBackgroundFetchResult`, what the app's fetch handler reports.
public enum FetchResult: String, Sendable, Equatable {
    case newData = "new-data"
    case noData = "no-data"
    case failed
}

/// Which app-delegate / notification-center-delegate methods the app implements and how they answer.
public struct DelegateBehaviour: Sendable, Equatable {
    /// `userNotificationCenter(_:willPresent:withCompletionHandler:)`; nil = not implemented
    /// (then foreground notifications are not displayed).
    public var willPresentOptions: PresentationOptions?
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`.
    public var implementsFetchHandler: Bool
    /// The result the fetch handler passes to its completion handler.
    public var fetchResult: FetchResult
    /// How long the fetch handler takes before calling its completion handler (seconds of app time);
    /// more than 30 s gets the app terminated. nil = never calls it.
    public var fetchDuration: TimeInterval?
    /// Deprecated `application(_:didReceiveRemoteNotification:)` (foreground only; ignored if the fetch variant exists).
    public var implementsLegacyDidReceive: Bool
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)`.
    public var implementsDidReceiveResponse: Bool
    /// Whether `UNUserNotificationCenter.current().delegate` is set before launch finishes (else the tap
    /// response at a cold start is missed).
    public var delegateSetBeforeLaunchFinishes: Bool
    /// A scene-based app: a cold-start tap arrives in `UIScene.ConnectionOptions.notificationResponse`
    /// instead of `launchOptions[.remoteNotification]`.
    public var usesScenes: Bool

    public init(
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
public struct NotificationAction: Sendable, Equatable {
    public var id: String
    public var title: String
    /// `.foreground` option: choosing it brings the app to the foreground; otherwise it runs in the background.
    public var foreground: Bool
    public init(id: String, title: String, foreground: Bool = false) {
        self.id = id
        self.title = title
        self.foreground = foreground
    }
}

/// A `UNNotificationCategory` registered by the app.
public struct NotificationCategory: Sendable, Equatable {
    public var id: String
    public var actions: [NotificationAction]
    public init(id: String, actions: [NotificationAction]) {
        self.id = id
        self.actions = actions
    }
}

/// What a notification service extension does to `mutable-content` pushes (device.md §2.1).
public struct ServiceExtensionBehaviour: Sendable, Equatable {
    /// Seconds until it calls the content handler; past `DeviceRules.serviceExtensionBudget` the
    /// original content is shown.
    public var duration: TimeInterval
    public var newTitle: String?
    public var newSubtitle: String?
    public var newBody: String?
    public var newCategoryID: String?
    public var newThreadID: String?
    /// Keys added to (or replaced in) `userInfo`.
    public var userInfoAdditions: [String: JSONValue]

    public init(
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
public enum ContentExtensionResponse: Int, Sendable, Equatable {
    case doNotDismiss = 0
    case dismiss = 1
    case dismissAndForwardAction = 2
}

/// How a content extension handles one action.
public struct ContentExtensionActionHandling: Sendable, Equatable {
    /// A payload key (dotted path) whose string value is a URL the extension opens.
    public var openURLFromKey: String?
    public var response: ContentExtensionResponse
    public init(openURLFromKey: String? = nil, response: ContentExtensionResponse) {
        self.openURLFromKey = openURLFromKey
        self.response = response
    }
}

/// A notification content extension (device.md §2.2).
public struct ContentExtensionDeclaration: Sendable, Equatable {
    public var name: String
    /// `UNNotificationExtensionCategory`, matched case-sensitively to the category.
    public var categories: [String]
    /// Whether it implements `didReceive(_:completionHandler:)`; if not, every action goes to the app.
    public var implementsDidReceiveResponse: Bool
    /// Per-action handling; an action not listed is forwarded (`.dismissAndForwardAction`).
    public var actions: [String: ContentExtensionActionHandling]
    public var defaultContentHidden: Bool
    /// `UNNotificationExtensionInitialContentSizeRatio` (height / width of the initial view).
    public var initialContentSizeRatio: Double?
    /// `UNNotificationExtensionOverridesDefaultTitle`.
    public var overridesDefaultTitle: Bool
    /// `UNNotificationExtensionUserInteractionEnabled` (iOS 12+): touches reach the extension's view.
    public var userInteractionEnabled: Bool
    /// The Info.plist path when it has no `UNNotificationExtensionCategory`: iOS never picks such an
    /// extension (`categories` is empty), which is a finding on the app, not a load error.
    public var infoPlistMissingCategory: String?

    public init(
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
public struct FirebaseDeclaration: Sendable, Equatable {
    public var senderID: String
    public var projectID: String
    /// The app sets `Messaging.messaging().apnsToken` itself (needed when swizzling is off).
    public var forwardsAPNsToken: Bool
    public init(senderID: String, projectID: String, forwardsAPNsToken: Bool = false) {
        self.senderID = senderID
        self.projectID = projectID
        self.forwardsAPNsToken = forwardsAPNsToken
    }
}

/// Everything the simulated device needs to know about one app.
public struct AppDeclaration: Sendable, Equatable {
    public var signing: AppSigningConfiguration
    public var profile: ProvisioningProfile
    public var delegate: DelegateBehaviour
    public var categories: [NotificationCategory]
    public var serviceExtension: ServiceExtensionBehaviour?
    public var contentExtensions: [ContentExtensionDeclaration]
    public var firebase: FirebaseDeclaration?
    public var navigation: NavigationDeclaration
    /// The app's `decidePolicyFor navigationAction`.
    public var webViewPolicy: WebViewPolicy
    /// What the user answers when the app asks for notification permission (`setUp` applies it).
    public var authorization: NotificationSettings

    public init(
        signing: AppSigningConfiguration, profile: ProvisioningProfile,
        delegate: DelegateBehaviour = DelegateBehaviour(), categories: [NotificationCategory] = [],
        serviceExtension: ServiceExtensionBehaviour? = nil, contentExtensions: [ContentExtensionDeclaration] = [],
        firebase: FirebaseDeclaration? = nil, navigation: NavigationDeclaration = NavigationDeclaration(),
        webViewPolicy: WebViewPolicy = WebViewPolicy(), authorization: NotificationSettings = .authorized
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
    }

    public var bundleID: String { signing.bundleID }

    /// The content extension whose categories contain `category` exactly (case-sensitive).
    public func contentExtension(for category: String?) -> ContentExtensionDeclaration? {
        guard let category else { return nil }
        return contentExtensions.first { $0.categories.contains(category) }
    }
}

/// An FCM registration token and what Firebase knows about it.
public struct FCMRegistration: Sendable, Equatable {
    public var bundleID: String
    public var fcmToken: String
    public var senderID: String
    public var projectID: String
    /// The APNs token Firebase maps it to; nil when the app never handed it over.
    public var apnsToken: DeviceToken?
    public var environment: APSEnvironment?
}
