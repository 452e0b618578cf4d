import Foundation
import Provisioning
import PushModel
import YAMLSource

/// One entry of `apps:` (suite world or `serve` config). Signing comes from the team's real files or
/// from declared values; behaviour is declared.
///
/// ```yaml
/// apps:
///   - bundle_id: com.example.app          # or taken from info_plist_file
///     team_id: ABCDE12345
///     entitlements_file: App/App.entitlements        # or aps_environment: development
///     info_plist_file: App/Info.plist                # or background_modes / firebase_app_delegate_proxy_enabled
///     provisioning_profile_file: App.mobileprovision # or profile: { devices: [UDID], aps_environment: development, expires: 2027-01-01T00:00:00Z }
///     authorization: authorized           # not-determined, denied, provisional, or { status:, alert:, sound:, badge:, notification_center: }
///     delegate:
///       will_present: [banner, sound]     # or none (no willPresent)
///       fetch_handler: { result: new-data, duration: 2s }   # or false; duration: never = does not call completion
///       legacy_did_receive: false
///       did_receive_response: true
///       delegate_set_before_launch: true
///     categories: [{ id: Kanmoba, actions: [{ id: open, title: Open, foreground: false }] }]
///     service_extension: { duration: 1s, title: New title, body:, subtitle:, category:, thread_id:, user_info: { k: v } }
///     content_extensions:
///       - { name: KanmobaContent, categories: [Kanmoba], handles_actions: true,
///           actions: { open: { open_url_from: url, response: dismiss } } }
///     firebase: { sender_id: "123456789", project_id: demo, forwards_apns_token: false }
///     navigation: { … }                  # see NavigationDeclaration.decode
///     web_view: { external_hosts: [apps.apple.com], schemes: [http, https], open_other_schemes_externally: false,
///                 response_policy: allow-all }   # or cancel-non-2xx (decidePolicyFor navigationResponse)
/// ```
/// The keys of each mapping are the tables in AppDeclaration+Keys.swift.
extension AppDeclaration {
    /// The keys of an app mapping (`keyTable`).
    package static var yamlKeys: [String] { keyTable.names }

    /// Decodes one app mapping. Relative file paths resolve against the directory of `file`.
    package static func decode(_ m: YAMLMapping, file: String) throws(SourceError) -> AppDeclaration {
        try m.checkKeys(keyTable)
        let signing = try decodeSigning(m, file: file)
        let profile: ProvisioningProfile
        if let pathNode = m["provisioning_profile_file"], !pathNode.isNull {
            if m.contains("profile"), let n = m.keyNode("profile") {
                throw n.invalidValue(expected: "either profile or provisioning_profile_file, not both")
            }
            let path = YAMLLoader.resolve(include: try String.decode(from: pathNode), from: file)
            do { profile = try ProvisioningProfile(contentsOf: path) } catch {
                throw pathNode.invalidValue(expected: "a readable .mobileprovision: \(error)")
            }
        } else {
            profile = try decodeProfile(try m.requiredMapping("profile"), signing: signing)
        }
        var app = AppDeclaration(signing: signing, profile: profile)
        if let a = m["authorization"], !a.isNull { app.authorization = try decodeAuthorization(a) }
        if let d = try m.optionalMapping("delegate") { app.delegate = try decodeDelegate(d) }
        for node in try m.optionalSequence("categories") ?? [] {
            let c = try YAMLMapping(node)
            try c.checkKeys(categoryTable)
            var actions: [NotificationAction] = []
            for a in try c.optionalSequence("actions") ?? [] {
                let am = try YAMLMapping(a)
                try am.checkKeys(categoryActionTable)
                let id: String = try am.required("id")
                actions.append(
                    NotificationAction(
                        id: id, title: try am.optional("title", default: id),
                        foreground: try am.optional("foreground", default: false)))
            }
            app.categories.append(NotificationCategory(id: try c.required("id"), actions: actions))
        }
        if let s = try m.optionalMapping("service_extension") { app.serviceExtension = try decodeServiceExtension(s) }
        for node in try m.optionalSequence("content_extensions") ?? [] {
            app.contentExtensions.append(try decodeContentExtension(try YAMLMapping(node), file: file))
        }
        for name in try m.optional("push_types", as: [String].self) ?? [] {
            guard let kind = PushTokenKind(rawValue: name), declarableTokenKinds.contains(kind) else {
                throw m.keyNode("push_types")!.invalidValue(
                    expected: "push_types from: " + declarableTokenKinds.map(\.rawValue).joined(separator: ", "))
            }
            if !app.pushTypes.contains(kind) { app.pushTypes.append(kind) }
        }
        if let v = try m.optionalMapping("voip", keys: voipTable) {
            app.voip = VoIPBehaviour(reportsCall: try v.optional("reports_call", default: true))
        }
        if let f = try m.optionalMapping("firebase", keys: firebaseTable) {
            app.firebase = FirebaseDeclaration(
                senderID: try f.required("sender_id"), projectID: try f.required("project_id"),
                forwardsAPNsToken: try f.optional("forwards_apns_token", default: false))
        }
        if let n = try m.optionalMapping("navigation") { app.navigation = try NavigationDeclaration.decode(n) }
        if let w = try m.optionalMapping("web_view", keys: webViewTable) {
            app.webViewPolicy = try decodeWebViewPolicy(w, default: WebViewPolicy())
        }
        try decodeLiveActivities(m, file: file, into: &app)
        return app
    }

    /// A `web_view:` mapping (iOS apps' WKWebView, Android apps' WebView); absent keys keep `d`'s.
    static func decodeWebViewPolicy(_ w: YAMLMapping, default d: WebViewPolicy) throws(SourceError) -> WebViewPolicy {
        WebViewPolicy(
            externalHosts: try w.optional("external_hosts", as: [String].self) ?? d.externalHosts,
            loadableSchemes: try w.optional("schemes", as: [String].self) ?? d.loadableSchemes,
            openOtherSchemesExternally: try w.optional("open_other_schemes_externally", default: false),
            allowedResponseStatuses: try decodeResponsePolicy(w["response_policy"]))
    }

    static func readPlist(_ node: YAMLNode, file: String) throws(SourceError) -> [String: PlistValue] {
        let path = YAMLLoader.resolve(include: try String.decode(from: node), from: file)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw node.invalidValue(expected: "a readable file at \(path)")
        }
        do {
            let value = try PlistValue.parse(data, source: path)
            guard let dict = value.dictionaryValue else {
                throw node.invalidValue(expected: "\(path): a plist whose root is a dictionary")
            }
            return dict
        } catch let e as ProvisioningError {
            throw node.invalidValue(expected: e.description)
        } catch let e as SourceError {
            throw e
        } catch {
            throw node.invalidValue(expected: "\(error)")
        }
    }

    static func decodeSigning(_ m: YAMLMapping, file: String) throws(SourceError) -> AppSigningConfiguration {
        var entitlements: [String: PlistValue] = [:]
        var info: [String: PlistValue] = [:]
        if let n = m["entitlements_file"], !n.isNull { entitlements = try readPlist(n, file: file) }
        if let n = m["info_plist_file"], !n.isNull { info = try readPlist(n, file: file) }
        if let env = try m.optional("aps_environment", oneOf: APSEnvironment.allCases.map(\.rawValue)) {
            entitlements["aps-environment"] = .string(env)
        }
        let infoBundle = info["CFBundleIdentifier"]?.stringValue.flatMap { $0.contains("$(") ? nil : $0 }
        guard let bundleID = try m.optional("bundle_id", as: String.self) ?? infoBundle else {
            throw SourceError(
                .missingKey, "missing key 'bundle_id'", at: m.range,
                expected: "expected bundle_id (or an info_plist_file with CFBundleIdentifier)")
        }
        let team =
            try m.optional("team_id", as: String.self)
            ?? entitlements["com.apple.developer.team-identifier"]?.stringValue
            ?? entitlements["application-identifier"]?.stringValue.map { AppID(applicationIdentifier: $0).prefix } ?? ""
        let modes =
            try m.optional("background_modes", as: [String].self) ?? info["UIBackgroundModes"]?.stringArray ?? []
        let proxy =
            try m.optional("firebase_app_delegate_proxy_enabled", as: Bool.self)
            ?? info["FirebaseAppDelegateProxyEnabled"]?.boolValue ?? true
        return AppSigningConfiguration(
            bundleID: bundleID, teamID: team, entitlements: entitlements, backgroundModes: modes,
            firebaseAppDelegateProxyEnabled: proxy)
    }

    static func decodeDate(_ m: YAMLMapping, _ key: String) throws(SourceError) -> Date? {
        guard let node = m[key], !node.isNull else { return nil }
        let text = try String.decode(from: node)
        guard let date = ISO8601.date(text) else {
            throw node.invalidValue(expected: "an ISO 8601 date-time such as 2027-01-01T00:00:00Z")
        }
        return date
    }

    static func decodeProfile(_ p: YAMLMapping, signing: AppSigningConfiguration) throws(SourceError)
        -> ProvisioningProfile
    {
        try p.checkKeys(profileTable)
        let env = try p.optional("aps_environment", oneOf: profileTable.choices("aps_environment"))
        let aps: APSEnvironment? = env == nil ? signing.apsEnvironment : APSEnvironment(rawValue: env!)
        let team = try p.optional("team_id") ?? signing.teamID
        let created = try decodeDate(p, "created") ?? Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01
        return ProvisioningProfile(
            name: try p.optional("name", default: "\(signing.bundleID) profile"),
            uuid: try p.optional("uuid", default: ""),
            teamID: team,
            appID: AppID(applicationIdentifier: try p.optional("app_id") ?? "\(team).\(signing.bundleID)"),
            apsEnvironment: aps, getTaskAllow: try p.optional("get_task_allow", default: aps == .development),
            provisionedDevices: try p.optional("devices", as: [String].self),
            provisionsAllDevices: try p.optional("all_devices", default: false), creationDate: created,
            expirationDate: try decodeDate(p, "expires") ?? created.addingTimeInterval(365 * 86_400 * 100))
    }

    /// Decodes an authorization: a status (`authorized`, `denied`, …) or a mapping with `status`
    /// and the per-setting switches (`alert`, `sound`, `badge`, `notification_center`, `critical_alert`).
    static func decodeAuthorization(_ node: YAMLNode) throws(SourceError) -> NotificationSettings {
        let statuses = AuthorizationStatus.allCases.map(\.rawValue)
        if node.scalar != nil {
            return NotificationSettings(status: AuthorizationStatus(rawValue: try node.oneOf(statuses))!)
        }
        let a = try YAMLMapping(node)
        try a.checkKeys(authorizationTable)
        return NotificationSettings(
            status: AuthorizationStatus(rawValue: try a.required("status", oneOf: statuses))!,
            alert: try a.optional("alert", default: true), sound: try a.optional("sound", default: true),
            badge: try a.optional("badge", default: true),
            notificationCenter: try a.optional("notification_center", default: true),
            criticalAlert: try a.optional("critical_alert", default: false))
    }

    static func decodeDelegate(_ d: YAMLMapping) throws(SourceError) -> DelegateBehaviour {
        try d.checkKeys(delegateTable)
        var b = DelegateBehaviour()
        if let wp = d["will_present"] {
            if wp.scalar?.value == "none" || wp.isNull {
                b.willPresentOptions = nil
            } else {
                let names = try [String].decode(from: wp)
                guard let options = PresentationOptions(names: names) else {
                    throw wp.invalidValue(
                        expected: "presentation options from: banner, list, sound, badge, alert (or none)")
                }
                b.willPresentOptions = options
            }
        }
        if let fh = d["fetch_handler"], !fh.isNull {
            if fh.scalar != nil {
                b.implementsFetchHandler = try Bool.decode(from: fh)
            } else {
                let f = try YAMLMapping(fh)
                try f.checkKeys(fetchHandlerTable)
                b.implementsFetchHandler = true
                if let r = try f.optional("result", oneOf: fetchHandlerTable.choices("result")) {
                    b.fetchResult = FetchResult(rawValue: r)!
                }
                if let dur = f["duration"], !dur.isNull {
                    b.fetchDuration = dur.scalar?.value == "never" ? nil : seconds(try Duration.decode(from: dur))
                }
            }
        }
        b.implementsLegacyDidReceive = try d.optional("legacy_did_receive", default: false)
        b.implementsDidReceiveResponse = try d.optional("did_receive_response", default: true)
        b.delegateSetBeforeLaunchFinishes = try d.optional("delegate_set_before_launch", default: true)
        b.usesScenes = try d.optional("uses_scenes", default: false)
        return b
    }

    static func seconds(_ d: Duration) -> TimeInterval {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func decodeServiceExtension(_ s: YAMLMapping) throws(SourceError) -> ServiceExtensionBehaviour {
        try s.checkKeys(serviceExtensionTable)
        var additions: [String: JSONValue] = [:]
        if let ui = try s.optionalMapping("user_info") {
            for pair in ui.pairs {
                let text = try pair.value.jsonText()
                do { additions[pair.keyString] = try JSONValue.parse(text) } catch {
                    throw pair.value.invalidValue(expected: "a JSON-compatible value")
                }
            }
        }
        return ServiceExtensionBehaviour(
            duration: try s.optional("duration", as: Duration.self).map(seconds) ?? 1,
            newTitle: try s.optional("title"),
            newSubtitle: try s.optional("subtitle"), newBody: try s.optional("body"),
            newCategoryID: try s.optional("category"),
            newThreadID: try s.optional("thread_id"), userInfoAdditions: additions)
    }

    static func decodeContentExtension(_ c: YAMLMapping, file: String) throws(SourceError)
        -> ContentExtensionDeclaration
    {
        try c.checkKeys(contentExtensionTable)
        var actions: [String: ContentExtensionActionHandling] = [:]
        if let a = try c.optionalMapping("actions") {
            for pair in a.pairs {
                let h = try YAMLMapping(pair.value)
                try h.checkKeys(contentActionTable)
                let response = try h.optional("response", oneOf: contentActionTable.choices("response")) ?? "dismiss"
                let option: ContentExtensionResponse =
                    response == "do-not-dismiss"
                    ? .doNotDismiss
                    : response == "dismiss" ? .dismiss : .dismissAndForwardAction
                actions[pair.keyString] = ContentExtensionActionHandling(
                    openURLFromKey: try h.optional("open_url_from"), response: option)
            }
        }
        var categories: [String]
        var hidden = try c.optional("default_content_hidden", default: false)
        var ratio: Double? = try c.optional("initial_content_size_ratio")
        var overridesTitle = try c.optional("overrides_default_title", default: false)
        var interaction = try c.optional("user_interaction_enabled", default: false)
        var missingCategory: String?
        if let infoNode = c["info_plist_file"], !infoNode.isNull {
            let path = YAMLLoader.resolve(include: try String.decode(from: infoNode), from: file)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw infoNode.invalidValue(expected: "a readable extension Info.plist at \(path)")
            }
            do {
                let info = try NotificationExtensionInfo(infoPlist: data, source: path)
                guard info.kind == .content else {
                    throw infoNode.invalidValue(
                        expected: "a content extension's Info.plist (found a service extension)")
                }
                categories = info.categories
                hidden = hidden || info.defaultContentHidden
                ratio = ratio ?? info.initialContentSizeRatio
                overridesTitle = overridesTitle || info.overridesDefaultTitle
                interaction = interaction || info.userInteractionEnabled
            } catch let e as ProvisioningError {
                // The extension builds and installs without UNNotificationExtensionCategory, but iOS
                // never picks it (device.md §2.2 [A-CUST]): a finding on the app, not a suite error.
                guard case .missingKey(_, let key) = e, key.hasSuffix("UNNotificationExtensionCategory") else {
                    throw infoNode.invalidValue(expected: e.description)
                }
                categories = []
                missingCategory = path
            } catch let e as SourceError {
                throw e
            } catch {
                throw infoNode.invalidValue(expected: "\(error)")
            }
        } else {
            let categoriesNode = try c.required("categories", as: YAMLNode.self)
            categories =
                categoriesNode.scalar != nil
                ? [try String.decode(from: categoriesNode)] : try [String].decode(from: categoriesNode)
        }
        return ContentExtensionDeclaration(
            name: try c.required("name"), categories: categories,
            implementsDidReceiveResponse: try c.optional("handles_actions", default: true), actions: actions,
            defaultContentHidden: hidden, initialContentSizeRatio: ratio, overridesDefaultTitle: overridesTitle,
            userInteractionEnabled: interaction, infoPlistMissingCategory: missingCategory)
    }
}

extension AppDeclaration {
    /// `response_policy:` — what the app's `decidePolicyFor navigationResponse` does: `allow-all` (no
    /// handler, the default: error pages show as pages) or `cancel-non-2xx`.
    static func decodeResponsePolicy(_ node: YAMLNode?) throws(SourceError) -> ClosedRange<Int>? {
        guard let node, !node.isNull else { return nil }
        return try node.oneOf(webViewTable.choices("response_policy")) == "cancel-non-2xx" ? 200...299 : nil
    }
}
