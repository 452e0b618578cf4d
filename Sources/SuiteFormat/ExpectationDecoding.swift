import Foundation
import YAMLSource

/// Decodes `expect:` blocks.
///
/// ```yaml
/// expect:
///   status: 200                      # the last send's response: status, reason, headers, timestamp
///   reason: BadDeviceToken
///   headers: { apns-id: { exists: true } }
///   error_code: UNREGISTERED           # after send: { via: fcm }: the FcmError errorCode; name: the message name
///   delivered: true                  # the last sent push reached the app; dropped: <why>; stored: true
///   callbacks: [willPresent]         # callbacks fired since the previous expect, in order
///   callback: { didReceiveResponse: { action: open, user_info: { url: … } } }   # one callback's arguments
///   user_info: { test: aaa, gcm.message_id: { exists: true }, url: { matches: "^https://" } }
///   notification: { title: Hello, banner: true, presented: true }
///   extensions: { service: ran, content: KanmobaContent }
///   navigation: { tab: 1, tab_title: Home, stack: [detail], top: detail, title: Hello, alert: none }
///   page: { status: 200, title: Welcome, contains: "text", url: { matches: "/welcome" } }
///   opened_url: https://apps.apple.com/…
///   install: installed               # registration: registered | failed; findings: [codes]
///   exit: 0                          # the last run: exit, stdout, stderr
///   stdout: { contains: "sent" }
///   exactly: { user_info: { order_id: A1001, aps: { alert: Hi } } }   # whole objects: user_info,
///   at_least: { notification: { title: Hi } }                        # notification, payload (ObjectCheck)
///   snapshot: true                                                    # SnapshotCheck
/// ```
/// The keys (and their fields) are the table in `CheckSubject.swift`.
/// A value is compared for equality; a mapping of `equals`/`exists`/`absent`/`matches`/`contains`/`not`
/// picks another comparison.
enum ExpectationDecoder {
    /// The keys of a matcher mapping (`{ exists: true }`, `{ not: { contains: x } }`), in the order messages list them.
    enum MatcherKey: String, CaseIterable, Sendable {
        case equals, exists, absent, matches, contains, not

        static let names = allCases.map(\.rawValue)
    }

    static func decode(_ node: YAMLNode) throws(SourceError) -> Expectation {
        let m = try YAMLMapping(node)
        try m.checkKeys(allowed: ExpectKey.names)
        var checks: [Check] = []
        var objects: [ObjectCheck] = []
        var snapshot: SnapshotCheck?
        for pair in m.pairs {
            // `checkKeys` above refused every key the table does not hold.
            guard let key = ExpectKey(rawValue: pair.keyString) else { continue }
            let v = pair.value
            func add(_ label: String, _ subject: Subject, _ value: YAMLNode, _ checked: CheckedValue)
                throws(SourceError)
            {
                checks.append(
                    Check(label: label, subject: subject, matcher: try matcher(value, checked), range: value.range))
            }
            func add(_ subject: Subject, _ value: YAMLNode) throws(SourceError) {
                try add(key.rawValue, subject, value, key.checked)
            }
            /// `key: { <field>: … }`, the fields from table `F`, a check each in the order written; `alias`
            /// takes the keys the table lists that are not fields (page's `contains`) and says it did.
            func addFields<F: CheckFieldTable>(
                _ subject: (F) -> Subject, alias: (YAMLPair) throws(SourceError) -> Bool = { _ in false }
            ) throws(SourceError) {
                let fields = try YAMLMapping(v)
                try fields.checkKeys(allowed: F.names)
                for f in fields.pairs {
                    if try alias(f) { continue }
                    guard let field = F(rawValue: f.keyString) else { continue }
                    try add("\(key.rawValue).\(f.keyString)", subject(field), f.value, field.checked)
                }
            }
            switch key {
            case .status, .exit, .delivered, .stored: try Self.requirePlainValue(v, of: key)
            default: break
            }
            let (checksBefore, objectsBefore) = (checks.count, objects.count)
            switch key {
            case .status: try add(.status, v)
            case .reason: try add(.reason, v)
            case .timestamp: try add(.timestamp, v)
            case .errorCode: try add(.fcmErrorCode, v)
            case .name: try add(.fcmName, v)
            case .delivered: try add(.delivered, v)
            case .dropped: try add(.dropped, v)
            case .stored: try add(.stored, v)
            case .reached: try add(.reached, v)
            case .callkit: try add(.callkit, v)
            case .callbacks: try add(.callbacks, v)
            case .callback: checks += try CallbackDetail.decode(v)
            case .openedURL: try add(.openedURLs, containsForScalar(v))
            case .install: try add(.install, v)
            case .registration: try add(.registration, v)
            case .findings: try add(.findings, containsForScalar(v))
            case .symptoms: try add(.symptoms, containsForScalar(v))
            case .token: try add(.token, v)
            case .state: try add(.state, v)
            case .badge: try add(.badge, v)
            case .exit: try add(.exitCode, v)
            case .stdout: try add(.stdout, v)
            case .stderr: try add(.stderr, v)
            case .channel: try add(.channel, v)
            case .tray: try add(.tray, v)
            case .extras:
                for e in try YAMLMapping(v).pairs {
                    try add("extras.\(e.keyString)", .extras(e.keyString), e.value, .one)
                }
            case .permission:
                for e in try YAMLMapping(v).pairs {
                    try add("permission.\(e.keyString)", .permission(e.keyString), e.value, .one)
                }
            case .headers:
                for h in try YAMLMapping(v).pairs {
                    try add("headers.\(h.keyString)", .header(h.keyString.lowercased()), h.value, key.checked)
                }
            case .userInfo:
                try ObjectCheck.refuseAmbiguousWholeObject(v, subject: "user_info")
                for u in try YAMLMapping(v).pairs {
                    try add("user_info.\(u.keyString)", .userInfo(u.keyString), u.value, key.checked)
                }
            case .notification: try addFields(Subject.notification)
            case .extensions: try addFields(Subject.extensions)
            case .navigation: try addFields(Subject.navigation)
            case .page:
                try addFields(Subject.page) { (f: YAMLPair) throws(SourceError) in
                    guard f.keyString == PageField.containsKey else { return false }
                    try add("page.contains", .page(.text), containsForScalar(f.value), .one)
                    return true
                }
            case .exactly: objects += try ObjectCheck.decode(v, mode: .exact)
            case .atLeast: objects += try ObjectCheck.decode(v, mode: .subset)
            case .snapshot: snapshot = try SnapshotCheck.decode(v)
            case .request: break  // read below: it picks the send, it is not a check
            case .activity: checks += try LiveActivityField.decodeChecks(v)
            }
            // `notification: {}`, `user_info: {}`, `exactly: {}` checked nothing and passed: a silent green.
            if key != .request, key != .snapshot, checks.count == checksBefore, objects.count == objectsBefore {
                throw v.invalidValue(
                    expected: "expected what '\(key.rawValue)' must hold: '\(key.rawValue): {}' checks nothing",
                    suggestion: "name the fields to check (Suites/README.md, Checks), or remove '\(key.rawValue):'")
            }
        }
        // `expect: {}` (or only `request:`, which picks a request and checks nothing) passed, checking nothing.
        if checks.isEmpty, objects.isEmpty, snapshot == nil {
            throw node.invalidValue(
                expected: "expected at least one check: this expect: checks nothing",
                suggestion: "write what must hold, e.g. expect: { status: 200, delivered: true }, or remove it")
        }
        return Expectation(
            checks: checks, range: node.range, objects: objects, snapshot: snapshot,
            request: try requestSelector(m[ExpectKey.request.rawValue]))
    }

    /// A plain value of `status` or `exit` that is no number, or of `delivered` or `stored` that is not true or false
    /// (`status: ok`), can never equal what the run observes: it failed at run time with `expected: "ok" actual: 200`.
    /// Refused here, at its place. Matchers (`{ one_of: … }`), templates (`${…}`) and null pass as before; a quoted
    /// number (`status: "200"`) too.
    static func requirePlainValue(_ v: YAMLNode, of key: ExpectKey) throws(SourceError) {
        guard let scalar = v.scalar, !scalar.value.contains("${"), let value = v.value else { return }
        switch (key, value) {
        case (_, .null), (.status, .int), (.exit, .int), (.delivered, .bool), (.stored, .bool): return
        case (.status, .string(let s)), (.exit, .string(let s)): if Int(s) != nil { return }
        default: break
        }
        switch key {
        case .status:
            throw v.invalidValue(
                expected: "expected the answer's HTTP status, a number such as 200 or 410",
                suggestion: "the reason is checked by 'reason:' (reason: BadDeviceToken)")
        case .exit: throw v.invalidValue(expected: "expected an exit status, a number such as 0")
        default: throw v.invalidValue(expected: "expected true or false")
        }
    }

    /// `request: 2` or `request: <token>` (see `RequestSelector`).
    static func requestSelector(_ node: YAMLNode?) throws(SourceError) -> RequestSelector? {
        guard let node, !node.isNull else { return nil }
        if let n = Int(node.scalar?.value ?? ""), node.scalar?.style == .plain {
            guard n >= 1 else { throw node.invalidValue(expected: "a 1-based request number (1 is the first)") }
            return .index(n)
        }
        guard node.scalar != nil else {
            throw node.invalidValue(
                expected: "a request number (request: 2) or a device token (${device.iphone.token})")
        }
        return .token(try Template.decode(node))
    }

    /// `opened_url: x` / `page.contains: x` / `findings: x` mean "contains"; a list or a matcher mapping is used as written.
    static func containsForScalar(_ node: YAMLNode) -> YAMLNode {
        guard node.scalar != nil else { return node }
        let key = YAMLNode(.scalar(YAMLScalar("contains")), range: node.range)
        return YAMLNode(.mapping([YAMLPair(key: key, value: node)]), range: node.range)
    }

    /// A check's value: a matcher mapping, `none` (absent), or a value to equal. For one value or a list
    /// (`checked`), every mapping is a matcher, so a key that is not one is refused with did-you-mean.
    static func matcher(_ node: YAMLNode, _ checked: CheckedValue = .any) throws(SourceError) -> Matcher {
        if let pairs = node.pairs, !pairs.isEmpty, pairs.allSatisfy({ MatcherKey(rawValue: $0.keyString) != nil }) {
            let m = try YAMLMapping(node)
            let which = try m.exactlyOne(of: MatcherKey.names)
            let v = m[which]!
            // `exactlyOne` returned one of the names.
            switch MatcherKey(rawValue: which)! {
            case .equals: return .equals(try expected(v))
            case .exists: return try Bool.decode(from: v) ? .exists : .absent
            case .absent: return try Bool.decode(from: v) ? .absent : .exists
            case .matches:
                let pattern = try String.decode(from: v)
                guard (try? NSRegularExpression(pattern: pattern)) != nil else {
                    throw v.invalidValue(expected: "a valid regular expression (ICU syntax)")
                }
                return .matches(pattern)
            case .contains: return .contains(try expected(v))
            case .not: return .not(try matcher(v, checked))
            }
        }
        if checked != .any, let pairs = node.pairs { throw notAMatcher(node, pairs) }
        if node.scalar?.value == "none", node.scalar?.style == .plain { return .absent }
        return .equals(try expected(node))
    }

    static func expected(_ node: YAMLNode) throws(SourceError) -> ExpectedValue {
        ExpectedValue(
            json: try Template(try node.jsonText(), range: node.range), scalars: try StepDecoder.templates(in: node))
    }

    /// A mapping written for one value or a list that is not a matcher: the first key that is not a matcher
    /// name, with did-you-mean (`{ equal: 200 }`), or the empty mapping.
    static func notAMatcher(_ node: YAMLNode, _ pairs: [YAMLPair]) -> SourceError {
        let names = MatcherKey.names.joined(separator: ", ")
        guard let wrong = pairs.first(where: { MatcherKey(rawValue: $0.keyString) == nil }) else {
            return node.invalidValue(expected: "a value, or a matcher with one of: \(names)")
        }
        return SourceError(
            .unknownKey, "unknown matcher '\(wrong.keyString)'", at: wrong.key.range,
            expected: "expected a value, or a matcher: one of \(names)",
            suggestion: Spelling.closest(to: wrong.keyString, in: MatcherKey.names).map { "did you mean '\($0)'?" })
    }
}
