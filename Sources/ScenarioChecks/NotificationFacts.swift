import DeviceSimulator
import Foundation
import PushModel
import SuiteFormat

/// `notification: { actions: [...] }` — the action buttons iOS offers for the last presented
/// notification: those of the app's registered `UNNotificationCategory` whose identifier equals the
/// payload's `aps.category` exactly; none when no category matches (device.md §2.2 "Actions", [A-GEN]).
enum NotificationActions {
    static func offered(_ field: NotificationField, _ content: NotificationContent?, _ o: Observation) -> JSONValue? {
        guard let content, let app = o.snapshot.apps[o.bundleID] else { return nil }
        let actions = app.declaration.categories.first { $0.id == content.categoryID }?.actions ?? []
        return .array(actions.map { .string(field == .actions ? $0.id : $0.title) })
    }
}

/// `extensions: { content_size_ratio: 0.5, default_content_hidden: true, user_interaction: false,
/// overrides_title: false }` — the Info.plist facts of the content extension on screen: the one the window shows
/// (the user expanded a notification or chose an action since the previous expect, and no notification came
/// after), else the one that renders the app's latest notification; device.md §2.2 [A-KEY][A-CUST][RIP].
enum ContentExtensionFacts {
    // The facts themselves are `ExtensionField` cases, observed in `Observation.extensions(_:)`.
    static func renderingExtension(_ o: Observation) -> ContentExtensionDeclaration? {
        guard let app = o.snapshot.apps[o.bundleID]?.declaration else { return nil }
        for e in o.window.reversed() {
            if case .contentExtensionShown(let name, _) = e.kind,
                let ext = app.contentExtensions.first(where: { $0.name == name })
            {
                return ext
            }
            if case .notificationPresented = e.kind { break }
        }
        return o.latestNotification().flatMap { app.contentExtension(for: $0.content.categoryID) }
    }
}
