import DeviceSimulator
import Foundation
import PushModel
import YAMLSource

/// Decodes `steps:` entries. Every mistake is a `SourceError` at its spot.
enum StepDecoder {
    /// What a step does (`SuiteKeys.stepKeywords`): `send`, `run`, `expect` and the device steps.
    static let keywords = SuiteKeys.stepKeywords.names
    /// Step keywords that need no value and may be written as a bare list item (`- reboot`).
    static let bareKeywords = SuiteKeys.stepKeywords.keys.filter {
        $0.acceptsNull && !["send", "run", "expect"].contains($0.name)
    }.map(\.name)
    /// Keywords whose value may name the app (`- terminate: com.example.app`).
    static let appKeywords = [
        "launch", "foreground", "background", "suspend", "terminate", "force_quit", "install", "uninstall", "register",
        "log_in", "log_out", "back", "swipe_back", "load_page", "force_stop", "clear_data",
    ]
    /// The keys beside the keyword (`SuiteKeys.stepModifiers`; `expect` is a keyword too).
    static let modifiers = SuiteKeys.stepModifiers.names
    /// The keys a step mapping may have (made once: per step, the two lists were joined again, a retain per name).
    static let stepKeys = keywords + modifiers.filter { $0 != "expect" }
    /// The keywords but `expect`, which may stand beside another one.
    static let keywordsButExpect = keywords.filter { $0 != "expect" }

    static func decode(_ node: YAMLNode, file: String) throws(SourceError) -> Step {
        if node.scalar != nil {
            let word = try node.oneOf(bareKeywords)
            let action = try deviceAction(word, value: nil, node: node)
            return Step(action: .device(action), keyword: word, captures: [], range: node.range)
        }
        let m = try YAMLMapping(node)
        try m.checkKeys(allowed: stepKeys)
        let present = m.keys.filter { keywords.contains($0) && $0 != "expect" }
        let keyword: String
        if present.isEmpty {
            guard m.contains("expect") else {
                _ = try m.exactlyOne(of: keywords)  // throws: names the step keywords
                throw node.invalidValue(expected: "a step")
            }
            keyword = "expect"
        } else {
            keyword = try m.exactlyOne(of: keywordsButExpect)
        }
        let value = m[keyword]!
        try refuseStepKeysInside(value, of: keyword, at: m.keyNode(keyword)!.range.start.column)
        var step = Step(
            action: .expect, keyword: keyword, device: try m.optional("device"), app: try m.optional("app"),
            captures: [], range: node.range)
        switch keyword {
        case "send": step.action = .send(try send(value))
        case "run": step.action = .run(try run(value, file: file))
        case "expect": break
        default:
            // `on:` names the notification of an `action:` step, as in the control endpoint's actions.
            if let on = m["on"], keyword != "action" { throw on.invalidValue(expected: "on: only with action:") }
            step.action = .device(
                try deviceAction(keyword, value: value.isNull ? nil : value, app: step.app, on: m["on"], node: value))
            // `- background: com.example.app` names the app the lifecycle step applies to.
            if appKeywords.contains(keyword), case .string(let bundle)? = value.value {
                if step.app != nil { throw value.invalidValue(expected: "the app either here or in app:, not both") }
                step.app = bundle
            }
        }
        if let e = m["expect"] {
            // `expect:` with nothing after it checked nothing and passed.
            guard !e.isNull else {
                throw e.invalidValue(
                    expected: "expected the checks: an empty expect: checks nothing",
                    suggestion: "write what must hold, e.g. expect: { status: 200 }, or remove 'expect:'")
            }
            step.expectation = try ExpectationDecoder.decode(e)
        }
        step.name = try m.optional("name")
        if let c = try m.optionalMapping("capture") {
            guard keyword != "expect" else {
                throw m.keyNode("capture")!.invalidValue(expected: "capture after a send, run or device step")
            }
            let isFCM = if case .send(let s) = step.action { s.via == "fcm" } else { false }
            let sources =
                isFCM
                ? FCMSendCapture.allCases.map(\.rawValue)
                : keyword == "send"
                    ? SendCapture.allCases.map(\.rawValue)
                    : keyword == "run" ? RunCapture.allCases.map(\.rawValue) : DeviceVariable.allCases.map(\.rawValue)
            for pair in c.pairs {
                let source = try String.decode(from: pair.value)
                let prefixed =
                    (keyword == "send" && !isFCM && source.hasPrefix(SendCapture.headerPrefix))
                    || (keyword == "run" && source.hasPrefix(RunCapture.jsonPrefix))
                let patterns =
                    isFCM ? [] : keyword == "send" ? ["header.<name>"] : keyword == "run" ? ["json.<path>"] : []
                guard sources.contains(source) || prefixed else {
                    throw SourceError(
                        .invalidValue, "cannot capture '\(source)' from a \(keyword) step", at: pair.value.range,
                        expected: "expected one of: \((sources + patterns).joined(separator: ", "))",
                        suggestion: Spelling.closest(to: source, in: sources).map { "did you mean '\($0)'?" })
                }
                step.captures.append(Capture(name: pair.keyString, source: source, range: pair.key.range))
            }
        }
        return step
    }

    /// `- send:` with `expect:` (or `capture:`, `name:`) indented under it, among the send's own keys: the key
    /// belongs to the step, beside the keyword. Said so, with the column to move it to; the send's table listed its
    /// keys and stopped there.
    static func refuseStepKeysInside(_ value: YAMLNode, of keyword: String, at column: Int) throws(SourceError) {
        guard let misplaced = stepKeysNotInside[keyword], let pairs = value.pairs else { return }
        for pair in pairs where misplaced.contains(pair.keyString) {
            throw SourceError(
                .unknownKey, "'\(pair.keyString):' is inside '\(keyword):'", at: pair.key.range,
                expected: "expected '\(pair.keyString):' beside '\(keyword):', as a key of the step",
                suggestion:
                    "move '\(pair.keyString):' left to column \(column), under '\(keyword):' (and its keys with it)")
        }
    }

    /// Per keyword whose value is a table of its own (`send`, `run`), the step's keys that table does not have. Only
    /// these two: an `expect:` value has a `name:` of its own (the FCM message name), device steps take no such keys.
    static let stepKeysNotInside: [String: [String]] = {
        let stepKeys = ["expect", "capture", "name"]
        let send = Set(SuiteKeys.send.names + SuiteKeys.fcmSend.names)
        let run = Set(SuiteKeys.run.names)
        return ["send": stepKeys.filter { !send.contains($0) }, "run": stepKeys.filter { !run.contains($0) }]
    }()

    // MARK: send

    // The keys: `SuiteKeys.send`, `.fcmSend` (`via: fcm`) and `.fcmMessage` (a mapping `message:`; a JSON string
    // `message:` is sent as written, to test what the service refuses).

    static func send(_ node: YAMLNode) throws(SourceError) -> SendStep {
        let m = try YAMLMapping(node)
        let via = try m.optional("via", oneOf: SuiteKeys.send.choices("via")) ?? "apns"
        if via == "fcm" { return try fcmSend(m) }
        try m.checkKeys(SuiteKeys.send)
        var headers: [HeaderTemplate] = []
        if let h = try m.optionalMapping("headers") {
            for pair in h.pairs {
                headers.append(
                    HeaderTemplate(name: pair.keyString.lowercased(), value: try Template.decode(pair.value)))
            }
        }
        let payloadNode = try m.required("payload", as: YAMLNode.self)
        let payload: Template
        var scalars: [Template]
        if let scalar = payloadNode.scalar, payloadNode.value != .null {
            payload = try Template(scalar.value, range: payloadNode.range)
            scalars = [try Template.decode(payloadNode)]
            let probe = (try? payload.render({ _ in "x" })) ?? ""
            do { _ = try JSONValue.parse(probe) } catch {
                throw payloadNode.invalidValue(
                    expected: "a JSON object (\(error))", suggestion: "or write the payload as YAML under payload:")
            }
        } else {
            _ = try YAMLMapping(payloadNode)
            payload = try Template(try payloadNode.jsonText(), range: payloadNode.range)
            scalars = try templates(in: payloadNode)
        }
        var token: Template?
        if let n = m["token"], !n.isNull { token = try Template.decode(n) }
        var topic: Template?
        if let n = m["topic"], !n.isNull { topic = try Template.decode(n) }
        return SendStep(
            via: via, to: try m.optional("to"), app: try m.optional("app"), token: token, topic: topic,
            environment: try m.optional("environment", as: APNsEnvironment.self), headers: headers, payload: payload,
            auth: try auth(m["auth"]), payloadScalars: scalars)
    }

    /// `send: { via: fcm, to:, app:, message: {…} | "<json>", validate_only:, project: }`.
    static func fcmSend(_ m: YAMLMapping) throws(SourceError) -> SendStep {
        if let payload = m.keyNode("payload") {
            throw payload.invalidValue(
                expected: "message: (an FCM v1 message) with via: fcm",
                suggestion:
                    "write the FCM message under message:, e.g. message: { notification: { title: Hi }, data: { k: v } }"
            )
        }
        try m.checkKeys(SuiteKeys.fcmSend)
        let node = try m.required("message", as: YAMLNode.self)
        let message: Template
        let scalars: [Template]
        var hasTarget = false
        if let scalar = node.scalar, node.value != .null {
            message = try Template(scalar.value, range: node.range)
            scalars = [try Template.decode(node)]
            let probe = (try? message.render({ _ in "x" })) ?? ""
            guard case .object(let o)? = try? JSONValue.parse(probe) else {
                throw node.invalidValue(
                    expected: "a JSON object (the FCM v1 message)",
                    suggestion: "or write the message as YAML under message:")
            }
            hasTarget = ["token", "topic", "condition", "fid"].contains { o[$0] != nil }
        } else {
            let mm = try YAMLMapping(node)
            try mm.checkKeys(SuiteKeys.fcmMessage)
            hasTarget = ["token", "topic", "condition", "fid"].contains { mm.contains($0) }
            message = try Template(try node.jsonText(), range: node.range)
            scalars = try templates(in: node)
        }
        var project: Template?
        if let n = m["project"], !n.isNull { project = try Template.decode(n) }
        var step = SendStep(
            via: "fcm", to: try m.optional("to"), app: try m.optional("app"), token: nil, topic: nil, environment: nil,
            headers: [], payload: message, auth: .none, payloadScalars: scalars)
        step.validateOnly = try m.optional("validate_only", as: Bool.self) ?? false
        step.project = project
        step.messageHasTarget = hasTarget
        return step
    }

    static func auth(_ node: YAMLNode?) throws(SourceError) -> SendAuth {
        guard let node, !node.isNull else { return .token(keyID: nil, teamID: nil, keyFile: nil, age: nil) }
        if node.scalar != nil {
            switch try node.oneOf(SuiteKeys.send.choices("auth")) {
            case "certificate": return .certificate
            case "none": return .none
            default: return .token(keyID: nil, teamID: nil, keyFile: nil, age: nil)
            }
        }
        let a = try YAMLMapping(node)
        try a.checkKeys(SuiteKeys.auth)
        if let bearer = a["bearer"], !bearer.isNull { return .bearer(try Template.decode(bearer)) }
        let file: String? = try a.optional("key_file")
        return .token(
            keyID: try a.optional("key_id"), teamID: try a.optional("team_id"),
            keyFile: file.map { YAMLLoader.resolve(include: $0, from: node.range.file) },
            age: try a.optional("age", as: Duration.self))
    }

    /// Every string scalar under `node`, as templates (for checking references at load time).
    static func templates(in node: YAMLNode) throws(SourceError) -> [Template] {
        switch node.kind {
        case .scalar:
            return node.value.map { if case .string = $0 { true } else { false } } == true
                ? [try Template.decode(node)] : []
        case .sequence(let items):
            var out: [Template] = []
            for i in items { out += try templates(in: i) }
            return out
        case .mapping(let pairs):
            var out: [Template] = []
            for p in pairs { out += try templates(in: p.value) }
            return out
        }
    }

    // MARK: run

    static func run(_ node: YAMLNode, file: String) throws(SourceError) -> RunStep {
        let directory = YAMLLoader.baseDirectory(of: file)
        if node.scalar != nil {
            return RunStep(command: try Template.decode(node), timeout: nil, environment: [], directory: directory)
        }
        let m = try YAMLMapping(node)
        try m.checkKeys(SuiteKeys.run)
        var env: [(String, Template)] = []
        if let e = try m.optionalMapping("env") {
            for pair in e.pairs { env.append((pair.keyString, try Template.decode(pair.value))) }
        }
        let dir: String? = try m.optional("directory")
        return RunStep(
            command: try Template.decode(try m.required("command", as: YAMLNode.self)),
            timeout: try m.optional("timeout", as: Duration.self), environment: env,
            directory: dir.map { YAMLLoader.resolve(include: $0, from: file) } ?? directory)
    }

    // MARK: device actions

    /// A device step: the suite-only ones here, every other through `DeviceAction.decode` (the
    /// control endpoint's decoder). `app` is the step's `app:`, `on` its `on:`.
    static func deviceAction(
        _ keyword: String, value: YAMLNode?, app: String? = nil, on: YAMLNode? = nil, node: YAMLNode
    )
        throws(SourceError) -> DeviceStep
    {
        switch keyword {
        case "install": return .install
        case "load_page": return .loadPage
        case "wait", "advance_clock":
            guard let value else { throw node.invalidValue(expected: "a duration such as 5s or 1h") }
            return .wait(try Duration.decode(from: value))
        case "open_link":
            guard let value else { throw node.invalidValue(expected: "a URI such as https://shop.example/p/1") }
            return .openLink(try Template.decode(value))
        case "follow_link":
            guard let value else { throw node.invalidValue(expected: "a link's text or href") }
            return .followLink(try Template.decode(value))
        default:
            return .action(try DeviceAction.decode(keyword, value: value, app: app, on: on, at: node))
        }
    }
}
