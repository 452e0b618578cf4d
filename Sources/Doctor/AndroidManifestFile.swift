import XMLSupport

/// A plain-XML `AndroidManifest.xml` (the source one under `app/src/main/`, or the merged one under
/// `app/build/intermediates/merged_manifests/`), read for what FCM delivery depends on (Tests/reference/android.md §10).
/// Attributes are read under the conventional `android:` / `tools:` prefixes.
package struct AndroidManifestFile: Sendable, Equatable {
    /// An `<intent-filter>`.
    package struct IntentFilter: Sendable, Equatable {
        package var actions: [String]
        package var categories: [String]
        /// `<data>` as `scheme://host/pathPrefix` pieces.
        package var data: [(scheme: String?, host: String?, pathPrefix: String?)]

        package static func == (a: IntentFilter, b: IntentFilter) -> Bool {
            a.actions == b.actions && a.categories == b.categories
                && a.data.map { [$0.scheme, $0.host, $0.pathPrefix] }
                    == b.data.map { [$0.scheme, $0.host, $0.pathPrefix] }
        }
    }

    /// An `<activity>` or `<service>`.
    package struct Component: Sendable, Equatable {
        package var name: String
        package var line: Int
        var exported: Bool?
        var directBootAware: Bool
        package var launchMode: String?
        var filters: [IntentFilter]

        func handles(action: String) -> IntentFilter? { filters.first { $0.actions.contains(action) } }
    }

    /// `<manifest package=…>` (AGP 7+ projects set `namespace`/`applicationId` in Gradle instead; the merged
    /// manifest has it).
    package var package: String?
    /// `<uses-sdk android:targetSdkVersion>` (merged manifests; source ones leave it to Gradle).
    package var targetSdk: Int?
    /// `<uses-permission android:name>`, except those `tools:node="remove"` takes out.
    var permissions: [String]
    /// Permissions removed with `tools:node="remove"`: they stay out of the merged manifest too.
    var removedPermissions: [String]
    /// The `<application>`'s `<meta-data android:name>` → `android:value` or `android:resource`.
    var metaData: [String: String]
    package var activities: [Component]
    var services: [Component]

    static let android = "android:"
    static let messagingEvent = "com.google.firebase.MESSAGING_EVENT"
    static let postNotifications = "android.permission.POST_NOTIFICATIONS"

    /// The service with the `com.google.firebase.MESSAGING_EVENT` filter (the app's FirebaseMessagingService).
    package var messagingService: Component? { services.first { $0.handles(action: Self.messagingEvent) != nil } }

    /// The activity with `MAIN` + `LAUNCHER`.
    package var launcherActivity: Component? {
        activities.first { a in
            a.filters.contains {
                $0.actions.contains("android.intent.action.MAIN")
                    && $0.categories.contains("android.intent.category.LAUNCHER")
            }
        }
    }

    /// Why a file is not a manifest doctor can read.
    package struct Unreadable: Error, CustomStringConvertible {
        package var description: String
    }

    /// Binary XML (AXML, as packed in an APK) starts with the `RES_XML_TYPE` chunk: type 0x0003, header size 0x0008.
    static func isBinaryXML(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x03 && bytes[1] == 0x00 && bytes[2] == 0x08 && bytes[3] == 0x00
    }

    /// Parses the plain-XML manifest (no network, no external entities: `XMLTree`).
    package init(bytes: [UInt8], source: String) throws(Unreadable) {
        if Self.isBinaryXML(bytes) {
            throw Unreadable(
                description:
                    "binary XML (AXML, as packed in an APK): pass the plain-XML manifest (app/src/main/AndroidManifest.xml, "
                    + "or the merged one under app/build/intermediates/merged_manifests/), or decode the APK with apktool"
            )
        }
        let root: XMLElementNode
        do { root = try XMLTree.parse(bytes, sourceName: source) } catch {
            throw Unreadable(description: "not well-formed XML at line \(error.line): \(error.message)")
        }
        guard root.name == "manifest" else {
            throw Unreadable(description: "the root element is <\(root.name)>, not <manifest>")
        }
        package = root.attributes["package"]
        targetSdk = root.child("uses-sdk")?.attributes[Self.android + "targetSdkVersion"].flatMap { Int($0) }
        let uses = root.children("uses-permission")
        let removed: (XMLElementNode) -> Bool = { $0.attributes["tools:node"] == "remove" }
        permissions = uses.filter { !removed($0) }.compactMap { $0.attributes[Self.android + "name"] }
        removedPermissions = uses.filter(removed).compactMap { $0.attributes[Self.android + "name"] }
        let application = root.child("application")
        var meta: [String: String] = [:]
        for m in application?.children("meta-data") ?? [] {
            guard let name = m.attributes[Self.android + "name"] else { continue }
            meta[name] = m.attributes[Self.android + "value"] ?? m.attributes[Self.android + "resource"] ?? ""
        }
        metaData = meta
        // An <activity-alias> can hold the intent filter a click_action resolves to, as an activity can.
        activities = Self.components(
            (application?.children("activity") ?? []) + (application?.children("activity-alias") ?? []))
        services = Self.components(application?.children("service") ?? [])
    }

    private static func components(_ nodes: [XMLElementNode]) -> [Component] {
        nodes.filter { $0.attributes["tools:node"] != "remove" }.map { node in
            let a = node.attributes
            return Component(
                name: a[android + "name"] ?? "", line: node.line,
                exported: a[android + "exported"].map { $0 == "true" },
                directBootAware: a[android + "directBootAware"] == "true", launchMode: a[android + "launchMode"],
                filters: node.children("intent-filter").map { f in
                    IntentFilter(
                        actions: f.children("action").compactMap { $0.attributes[android + "name"] },
                        categories: f.children("category").compactMap { $0.attributes[android + "name"] },
                        data: f.children("data").map {
                            (
                                $0.attributes[android + "scheme"], $0.attributes[android + "host"],
                                $0.attributes[android + "pathPrefix"]
                            )
                        })
                })
        }
    }
}
