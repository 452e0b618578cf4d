import DeviceSimulator

/// What a check compares its written value with, which decides what the value may be: for one value or a list, a
/// mapping is always a matcher (`{ equals: … }`), so a key that is not one (`{ equal: 200 }`) is a misspelt matcher
/// and refused; for an object it may be the expected object itself.
enum CheckedValue: Sendable {
    /// One scalar (a status, a title, a state).
    case one
    /// A list (the callbacks, the stack); where the key says so a scalar means "contains".
    case list
    /// An object, or a value of any shape (a key path in the userInfo).
    case any
}

/// What an `expect:` key takes, for the decoder (`checked`) and the schema.
enum ExpectValue {
    /// One check: a value or a matcher.
    case check(CheckedValue)
    /// A mapping of names the suite chooses (header names, key paths) to checks.
    case keyPaths(CheckedValue, of: String)
    /// A mapping of the named fields of a table to checks.
    case fields([(name: String, summary: String, checked: CheckedValue)])
    /// `callback:`, a mapping of callback names to their fields (`CallbackField`).
    case callbacks
    /// `exactly:` / `at_least:`, a mapping of `WholeObject` names to whole objects.
    case wholeObjects
    /// `snapshot:` (`SnapshotCheck`).
    case snapshot
    /// `request:` (`RequestSelector`): a 1-based number or a device token.
    case request
}

extension ExpectKey {
    /// What the key takes. A new key is a case here too (the switch is exhaustive).
    var value: ExpectValue {
        switch self {
        case .status, .reason, .timestamp, .errorCode, .name, .delivered, .dropped, .stored, .reached, .callkit,
            .install, .registration, .token, .state, .badge, .exit, .stdout, .stderr, .symptoms, .channel:
            return .check(.one)
        case .tray: return .check(.list)
        case .extras: return .keyPaths(.one, of: "extra key (the data keys, google.message_id, …)")
        case .permission: return .keyPaths(.one, of: "permission (POST_NOTIFICATIONS)")
        case .callbacks, .openedURL, .findings: return .check(.list)
        case .headers: return .keyPaths(.one, of: "header name")
        case .userInfo: return .keyPaths(.any, of: "key path (gcm.message_id, order.id)")
        case .notification: return .fields(NotificationField.checkEntries)
        case .extensions: return .fields(ExtensionField.checkEntries)
        case .navigation: return .fields(NavigationField.checkEntries)
        case .page:
            var entries = PageField.checkEntries
            let text = entries.firstIndex { $0.name == PageField.text.rawValue }.map { $0 + 1 } ?? entries.count
            entries.insert(
                (PageField.containsKey, "A substring of the loaded page's text (text: { contains: … }).", .one),
                at: text)
            return .fields(entries)
        case .callback: return .callbacks
        case .activity: return .fields(LiveActivityField.checkEntries)
        case .exactly, .atLeast: return .wholeObjects
        case .snapshot: return .snapshot
        case .request: return .request
        }
    }

    /// What a check written directly under the key compares with.
    var checked: CheckedValue {
        switch value {
        case .check(let c), .keyPaths(let c, _): return c
        case .fields, .callbacks, .wholeObjects, .snapshot, .request: return .any
        }
    }
}

/// A table of the fields one `expect:` key takes whose values are checks.
protocol CheckFieldTable: ExpectFieldTable, SuiteTable {
    var checked: CheckedValue { get }
}

extension CheckFieldTable {
    static var checkEntries: [(name: String, summary: String, checked: CheckedValue)] {
        allCases.map { ($0.rawValue, $0.summary, $0.checked) }
    }
}

extension NotificationField: CheckFieldTable {
    var checked: CheckedValue {
        switch self {
        case .actions, .actionTitles: return .list
        case .presented, .count, .title, .subtitle, .body, .badge, .sound, .category, .threadID, .banner, .list, .quiet,
            .interruptionLevel, .id, .channel, .tag, .color, .icon, .number:
            return .one
        }
    }
}

extension NavigationField: CheckFieldTable {
    var checked: CheckedValue {
        switch self {
        case .stack, .activities: return .list
        case .tab, .tabTitle, .top, .title, .alert, .alertMessage, .routed, .routingFailed, .loggedIn, .url, .activity:
            return .one
        }
    }
}

extension PageField: CheckFieldTable {
    var checked: CheckedValue {
        switch self {
        case .redirects: return .list
        case .status, .url, .title, .text, .httpVersion, .openedExternally, .failed, .cancelled: return .one
        }
    }
}

extension ExtensionField: CheckFieldTable {
    var checked: CheckedValue {
        switch self {
        case .service, .content, .response, .contentSizeRatio, .defaultContentHidden, .userInteraction,
            .overridesTitle:
            return .one
        }
    }
}

extension CallbackField {
    /// What the field's check compares with (for `takesKeyPaths` fields: each key path's).
    var checked: CheckedValue {
        switch self {
        case .options: return .list
        case .launchOptions, .userInfo: return .any
        case .calls, .action, .token, .error, .state, .type: return .one
        }
    }
}

extension ExpectationDecoder.MatcherKey: SuiteTable {
    static var place: String { "a check's value: { <matcher>: … }" }
    var summary: String {
        switch self {
        case .equals: "Equal to this value (what a plain value means)."
        case .exists: "true: the value is there; false: it is absent."
        case .absent: "true: the value is absent (as `none`); false: it is there."
        case .matches: "A regular expression (ICU syntax) that matches somewhere in the value's text."
        case .contains: "A substring of a string, or an element of a list."
        case .not: "The matcher under it does not hold."
        }
    }
}
