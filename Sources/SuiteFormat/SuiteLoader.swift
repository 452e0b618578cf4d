import DeviceBridge
import DeviceSimulator
import Foundation
import PushCrypto
import PushModel
import YAMLSource

/// Reads suite files (YAML or JSON) into `Suite`s; every mistake is a `SourceError` with `file:line:col`.
///
/// ```yaml
/// name: Seed 000
/// world:
///   include: apps/demo-app.yaml          # apps:/devices: (and gateway:) shared by several suites
///   gateway: { apns: { … }, fcm: { … } } # serve's apns: and fcm: sections
///   devices: [{ name: iphone, udid: 00008110-000A1C2E0E12801E, apps: [com.example.demo] }]
/// variables: { greeting: Hello }
/// scenarios:
///   - name: tap opens the custom screen
///     tags: [seed-000]
///     parameters: { state: [background, not-running] }   # one scenario per value
///     steps:
///       - state: ${scenario.state}
///       - send: { to: iphone, payload: { aps: { alert: { title: "${greeting}" } }, test: aaa } }
///         expect: { status: 200 }
///       - tap
///       - expect: { navigation: { top: custom } }
/// ```
package enum SuiteLoader {
    /// The keys of each mapping are the tables in `SuiteKeys`.
    static let includeKeys = SuiteKeys.includedWorld.names

    /// True when the file is read as a suite: it has `scenarios:` at its top, or it is none of the files that may sit
    /// among suites (`SuiteNeighbours`: world files, serve configs, JSON Schemas). A file that cannot be read as YAML
    /// (a syntax error, invalid UTF-8, NUL bytes, unreadable) counts as a suite too: loading it then reports the error
    /// with `file:line:col`, so a damaged or misspelt suite is never silently skipped when its directory is run.
    package static func isSuiteFile(path: String) -> Bool {
        examine(path: path).isSuite
    }

    /// The size from which a suite file's scenarios are deferred items (`examine`), 1 MiB: about 2,000 scenarios of
    /// the runner bench's five steps. A smaller file is read whole, which costs one parse of its text where deferring
    /// costs two, and its document (about ten times the text) is let go of as its scenarios are decoded.
    package static let deferAbove = 1 << 20

    /// `isSuiteFile`, and the file's document when it is a suite that parsed (for `load(path:root:)`, so that
    /// discovery and loading read it once). In a file of `deferAbove` bytes or more, the scenarios are deferred items
    /// (`YAMLNode.isDeferred`) where they can be: the loader reads each one when it decodes it.
    package static func examine(path: String, deferAbove: Int = deferAbove) -> (isSuite: Bool, root: YAMLNode?) {
        guard let root = try? YAMLLoader.load(path: path, deferringItemsOf: "scenarios", minimumBytes: deferAbove)
        else { return (true, nil) }
        let isSuite = root["scenarios"] != nil || SuiteNeighbours.problem(root) != nil
        return (isSuite, isSuite ? root : nil)
    }

    /// Loads and checks a suite: structure, types, unknown keys, includes, and every `${…}` reference. `root`:
    /// the file's document if it was already parsed (`examine`), handed over: the scenarios' nodes are let go of as
    /// they are decoded, so a large suite never holds its whole document and all its decoded scenarios at once.
    package static func load(path: String, root parsed: consuming YAMLNode? = nil) throws(SourceError) -> Suite {
        let (suite, loaded) = try load(path: path, root: parsed, keepingDecoded: .max)
        return Suite(
            path: suite.path, name: suite.name, scenarios: loaded.compactMap(\.decoded), world: suite.world,
            variables: suite.variables)
    }

    /// `load(path:root:)`, with the scenarios apart from the suite (whose `scenarios` is empty). Every scenario is
    /// decoded and checked; the first `keepingDecoded` stay decoded, and the others that were read from a deferred
    /// item (`examine`) keep only what a run plans with and where they are written, to be decoded again when they
    /// run (`decode(_:in:)`): a decoded scenario is kilobytes, its file's text a few hundred bytes.
    package static func load(
        path: String, root parsed: consuming YAMLNode?, keepingDecoded: Int, deferAbove: Int = deferAbove
    ) throws(SourceError) -> (suite: Suite, scenarios: [LoadedScenario]) {
        let root: YAMLNode
        if let document = parsed.take() {
            root = document
        } else {
            root = try YAMLLoader.load(path: path, deferringItemsOf: "scenarios", minimumBytes: deferAbove)
        }
        if root["scenarios"] == nil {
            // Named on its own: a file that may sit among suites (a world file, a serve config, a schema) is no suite
            // to run; it read "unknown key 'apps'".
            throw SuiteNeighbours.problem(root)
                ?? SourceError(
                    .missingKey, "not a suite: \((path as NSString).lastPathComponent) has no scenarios:",
                    at: root.pairs?.first?.key.range ?? root.range,
                    expected: "expected a suite (a mapping with scenarios:), not a world file, serve config or schema",
                    suggestion:
                        "run the suites that include it (pushcheck run Suites runs every suite in the directory)")
        }
        let deferredItems = (root["scenarios"]?.items ?? []).filter(\.isDeferred)
        let text = root.range.source
        do {
            let loaded = try decodeAll(path: path, root: root, keepingDecoded: keepingDecoded)
            // The scenarios left deferred are read again from the text, one at a time, for the rest of the run.
            if loaded.scenarios.contains(where: { $0.decoded == nil }) { text?.compact() }
            return loaded
        } catch {
            // Read whole, the document would have failed first at the first item that cannot be built (a key that is
            // not a scalar, a duplicate key, a bad merge), before any check of what it holds: the same error comes
            // first here. Only on this path are the items read again for it.
            for item in deferredItems { _ = try item.deferredItem() }
            throw error
        }
    }

    private static func decodeAll(
        path: String, root: consuming YAMLNode, keepingDecoded: Int
    ) throws(SourceError) -> (suite: Suite, scenarios: [LoadedScenario]) {
        let (world, variables, name, scenarioNodes) = try header(of: root, path: path)
        _ = consume root
        var nodes = scenarioNodes
        _ = consume scenarioNodes
        var scenarios: [LoadedScenario] = []
        var decodedKept = 0
        var seen: [String: SourceRange] = [:]
        // Scenarios decode independently: on every core, a batch at a time, then taken in order (the first error in
        // the file wins). Each batch's nodes are then replaced by a placeholder, which frees their subtrees: the
        // document holds more per scenario (4–6 KB of nodes for the runner bench's) than the decoded scenario.
        let batchSize = 512
        var batchStart = nodes.startIndex
        while batchStart < nodes.endIndex {
            let batchEnd = min(batchStart + batchSize, nodes.endIndex)
            do {
                let batch = Array(nodes[batchStart..<batchEnd])
                let decoded = ParallelMap.map(batch) {
                    (node: YAMLNode) -> Result<(scenarios: [Scenario], name: SourceRange), SourceError> in
                    Result { () throws(SourceError) in
                        let item = try node.deferredItem()
                        return (
                            try decodeScenario(item, file: path, world: world, variables: variables),
                            item["name"]?.range ?? item.range
                        )
                    }
                }
                for (node, result) in zip(batch, decoded) {
                    let (expansions, nameRange) = try result.get()
                    for (expansion, scenario) in expansions.enumerated() {
                        if let first = seen[scenario.name] {
                            throw SourceError(
                                .invalidValue, "two scenarios are named '\(scenario.name)'", at: nameRange,
                                expected: "expected unique names (the first is at line \(first.line))",
                                suggestion: "rename one; reports identify scenarios by file and name")
                        }
                        seen[scenario.name] = nameRange
                        if decodedKept < keepingDecoded || !node.isDeferred {
                            decodedKept += 1
                            scenarios.append(.decoded(scenario))
                        } else {
                            scenarios.append(LoadedScenario(scenario, deferredAt: node, expansion: expansion))
                        }
                    }
                }
            }
            for i in batchStart..<batchEnd { nodes[i] = YAMLNode(.sequence([]), range: nodes[i].range) }
            batchStart = batchEnd
        }
        let suite = Suite(path: path, name: try name.get(), scenarios: [], world: world, variables: variables)
        return (suite, scenarios)
    }

    /// Decodes a scenario that `load(path:root:keepingDecoded:)` deferred, from its file's text kept by the run (the
    /// same scenario as loading decoded and checked then): `name` and `skip` are its `DeferredScenario`'s, `suite` the
    /// suite it was loaded with.
    package static func decode(
        _ source: ScenarioSource, named name: String, skip: String?, in suite: Suite
    ) throws(SourceError) -> Scenario {
        let item = try source.item.deferredItem()
        // Checked when the suite loaded: the names and `${…}` references are not checked again, and the scenario keeps
        // what loading found of its `requires:` file (a scenario before it may have made it since).
        let expansions = try decodeScenario(
            item, file: suite.path, world: suite.world, variables: suite.variables, checking: false)
        guard source.expansion < expansions.count, expansions[source.expansion].name == name else {
            throw SourceError(
                .invalidValue, "scenario '\(name)' is no longer where loading found it", at: source.item.range,
                suggestion: "this is a bug of pushcheck's: please report it with the file")
        }
        let scenario = expansions[source.expansion]
        return Scenario(
            name: scenario.name, tags: scenario.tags, file: scenario.file, line: scenario.line,
            parameters: scenario.parameters, skipReason: skip, steps: scenario.steps)
    }

    /// What a suite's scenarios are decoded with: its world and variables, its name (an error in it is thrown after
    /// the scenarios', as when it was read last), and the scenario nodes.
    private static func header(of root: YAMLNode, path: String) throws(SourceError) -> (
        world: WorldDeclaration, variables: [String: String], name: Result<String, SourceError>, scenarios: [YAMLNode]
    ) {
        let m = try YAMLMapping(root)
        try m.checkKeys(SuiteKeys.suite)
        let world =
            try m.optionalMapping("world", keys: SuiteKeys.world).map { (w: YAMLMapping) throws(SourceError) in
                try decodeWorld(w, file: path)
            } ?? WorldDeclaration(devices: [defaultDevice(apps: [])])
        var variables: [String: String] = [:]
        if let v = try m.optionalMapping("variables") {
            for pair in v.pairs { variables[pair.keyString] = try String.decode(from: pair.value) }
        }
        let nodes = try m.requiredSequence("scenarios")
        let defaultName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = Result { () throws(SourceError) in try m.optional("name") ?? defaultName }
        return (world, variables, name, nodes)
    }

    // MARK: world

    /// What a world's mapping and the world files it includes declare, in reading order: the included files' first
    /// (depth-first, at most 4 deep), then its own. `gateway` is the last `gateway:` read, with its file.
    package struct WorldParts {
        package var apps: [(YAMLNode, String)] = []
        package var devices: [YAMLNode] = []
        package var gateway: (YAMLMapping, String)?
    }

    /// Reads `m`'s `include:` (world files: `apps:`, `devices:`, `gateway:`, `include:`, relative to `file`), then its
    /// own `apps:`, `devices:` and `gateway:`: a suite's `world:` and `serve`'s config alike.
    package static func worldParts(of m: YAMLMapping, file: String) throws(SourceError) -> WorldParts {
        var parts = WorldParts()
        func collect(_ m: YAMLMapping, file: String, chain: [String]) throws(SourceError) {
            if let inc = m["include"], !inc.isNull {
                for pathNode in inc.items ?? [inc] {
                    let included = YAMLLoader.resolve(include: try String.decode(from: pathNode), from: file)
                    let name = (included as NSString).standardizingPath
                    if let first = chain.firstIndex(of: name) {
                        let cycle = (chain[first...] + [name]).map { ($0 as NSString).lastPathComponent }
                        throw pathNode.invalidValue(
                            expected: "expected includes without a cycle: \(cycle.joined(separator: " → "))",
                            suggestion: "remove one of these includes")
                    }
                    guard chain.count <= 4 else {
                        throw pathNode.invalidValue(expected: "includes nested at most 4 deep")
                    }
                    var isDirectory: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: included, isDirectory: &isDirectory) else {
                        throw SourceError(
                            .io, "cannot include '\(included)': no such file", at: pathNode.range,
                            expected: "expected a YAML file with apps:/devices:",
                            suggestion: "include paths are relative to the including file's directory")
                    }
                    guard !isDirectory.boolValue else {
                        throw SourceError(
                            .io, "cannot include '\(included)': it is a directory", at: pathNode.range,
                            expected: "expected a YAML file with apps:/devices:",
                            suggestion: "name a .yaml file inside it")
                    }
                    let root = try YAMLLoader.load(path: included)
                    let im = try YAMLMapping(root)
                    if im.contains("scenarios") {
                        throw pathNode.invalidValue(
                            expected: "expected a world file (include:, apps:, devices:, gateway:); this is a suite",
                            suggestion: "move the apps and devices both suites need into a file of their own and "
                                + "include that")
                    }
                    try im.checkKeys(allowed: includeKeys)
                    try collect(im, file: included, chain: chain + [name])
                }
            }
            for n in try m.optionalSequence("apps") ?? [] { parts.apps.append((n, file)) }
            parts.devices += try m.optionalSequence("devices") ?? []
            if let g = try m.optionalMapping("gateway", keys: WorldDeclaration.gatewayTable) {
                parts.gateway = (g, file)
            }
        }
        try collect(m, file: file, chain: [(file as NSString).standardizingPath])
        return parts
    }

    static func decodeWorld(_ w: YAMLMapping, file: String) throws(SourceError) -> WorldDeclaration {
        var world = WorldDeclaration()
        let parts = try worldParts(of: w, file: file)
        let (appNodes, deviceNodes, gatewayNode) = (parts.apps, parts.devices, parts.gateway)
        try world.decodeDevices(apps: appNodes, devices: deviceNodes)
        for (device, node) in zip(world.devices, deviceNodes) where device.name.contains(".") {
            throw (node["name"] ?? node).invalidValue(
                expected: "a device name without dots (it is used in ${device.<name>.token})")
        }
        if world.devices.isEmpty {
            // No app at all: an iPhone still, for the scenarios' device steps.
            world.devices =
                world.apps.isEmpty && world.androidApps.isEmpty ? [defaultDevice(apps: [])] : defaultDevices(world)
        }
        if let clock = w["clock"], !clock.isNull {
            let text = try String.decode(from: clock)
            if text != "now" {
                guard let date = ISO8601.date(text) else {
                    throw clock.invalidValue(
                        expected: "`now` (the wall clock, the default) or an ISO 8601 time such as 2026-01-01T00:00:00Z"
                    )
                }
                world.clockStart = date
            }
        }
        if let team = world.apps.first?.signing.teamID, !team.isEmpty { world.defaultTeamID = team }
        if let p = try w.optionalMapping("provider", keys: SuiteKeys.provider) {
            world.defaultTeamID = try p.optional("team_id") ?? world.defaultTeamID
            world.defaultKeyID = try p.optional("key_id") ?? world.defaultKeyID
        }
        // After the provider defaults: an FCM project's `apns: { key_id: <the world's provider key> }` is the
        // runner's own .p8 (the key the world's APNs gateway trusts), as a Firebase project holds the team's key.
        if let (g, gfile) = gatewayNode {
            var runnerKey: [String: (teamID: String, key: P256PrivateKey)] = [:]
            if g.contains("fcm"), let key = try? RunnerProviderKey.shared() {
                runnerKey[world.defaultKeyID] = (world.defaultTeamID, key)
            }
            try world.decodeGateways(g, file: gfile, extraAPNsKeys: runnerKey)
        }
        return world
    }

    /// The devices a world with apps gets when it declares none (a suite's world and `serve`'s config alike): `iphone`
    /// with every iOS app, when it has iOS apps, and `pixel` with every Android app, when it has Android apps.
    package static func defaultDevices(_ world: WorldDeclaration) -> [DeviceDeclaration] {
        var devices: [DeviceDeclaration] = []
        if !world.apps.isEmpty { devices.append(defaultDevice(apps: world.apps.map(\.bundleID))) }
        if !world.androidApps.isEmpty {
            devices.append(defaultAndroidDevice(apps: world.androidApps.map(\.packageName)))
        }
        return devices
    }

    /// The device a world gets when it declares none: `iphone`, with every app set up.
    static func defaultDevice(apps: [String]) -> DeviceDeclaration {
        DeviceDeclaration(name: "iphone", udid: "00008110-000A1C2E0E12801E", apps: apps)
    }

    /// With Android apps and no devices declared: `pixel` (API 34), with every Android app set up.
    static func defaultAndroidDevice(apps: [String]) -> DeviceDeclaration {
        var d = DeviceDeclaration(name: "pixel", udid: AndroidDeviceDefaults.serial(name: "pixel"), apps: apps)
        d.platform = .android
        return d
    }

    // MARK: scenarios

    /// The scenarios of one item (one per `parameters:` set). `checking`: also check device and app names, `${…}`
    /// references and the `requires:` file (false: the item was checked before, and gets no skip reason from its
    /// `requires:`).
    static func decodeScenario(
        _ node: YAMLNode, file: String, world: WorldDeclaration, variables: [String: String], checking: Bool = true
    ) throws(SourceError) -> [Scenario] {
        let s = try YAMLMapping(node)
        try s.checkKeys(SuiteKeys.scenario)
        let name: String = try s.required("name")
        let line = s.keyNode("name")?.range.line ?? node.range.line
        let tags = try s.optional("tags", as: [String].self) ?? []
        let missing = checking ? try requirementMissing(s, file: file) : nil
        let skip: String? = try skipReason(s["skip"]) ?? missing
        let stepsNode = try s.required("steps", as: YAMLNode.self)
        // No step checks nothing and passed: a silent green. A placeholder says so with `skip:`.
        if try stepsNode.sequence().isEmpty, skip == nil {
            throw stepsNode.invalidValue(
                expected: "expected at least one step",
                suggestion: "a scenario without steps checks nothing; add its steps, or 'skip: \"to be written\"'")
        }
        var out: [Scenario] = []
        for set in try parameterSets(s["parameters"]) {
            let suffix = set.isEmpty ? "" : " [" + set.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + "]"
            let values = Dictionary(set.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            let expanded = substitute(stepsNode, parameters: values)
            let items = try expanded.sequence()
            var steps: [Step] = []
            steps.reserveCapacity(items.count + 1)  // kept for the whole run: no room to spare
            for item in items {
                let step = try StepDecoder.decode(item, file: file)
                if checking { try checkNames(item, world: world) }
                steps.append(step)
            }
            if checking {
                try VariableCheck.check(steps, world: world, variables: variables, parameters: Array(values.keys))
            }
            steps = steps.map { $0.droppingCheckedScalars() }
            if let node = s["snapshot"], let step = try SnapshotCheck.scenarioStep(node) { steps.append(step) }
            out.append(
                Scenario(
                    name: name + suffix, tags: tags, file: file, line: line, parameters: values, skipReason: skip,
                    steps: steps))
        }
        return out
    }

    /// `skip:`: `true` skips (the reason says `skip: true`), `false` or null runs, a non-empty text skips with it as
    /// the reason. Anything else is refused, so a scenario meant to run is never reported skipped: `""`, a number,
    /// YAML 1.1's `yes`/`no`/`on`/`off`, and `${…}`, which `skip:` does not expand (it is read when the suite
    /// loads, before variables and the environment are known).
    static func skipReason(_ node: YAMLNode?) throws(SourceError) -> String? {
        guard let node, !node.isNull else { return nil }
        let what = "write 'skip: true', 'skip: false', or 'skip: \"why it is skipped\"'"
        if case .bool(let value)? = node.value { return value ? "skip: true" : nil }
        guard case .string(let text)? = node.value else {
            throw SourceError(
                .typeMismatch, "wrong type", at: node.range,
                expected:
                    "expected true, false or a reason (text), found \(node.scalar.map { "'\($0.value)'" } ?? "a mapping or list")",
                suggestion: what)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
            throw node.invalidValue(expected: "expected true, false or a non-empty reason", suggestion: what)
        }
        // A word meant as a boolean is not a reason: quoted (`"false"`), or YAML 1.1's `yes`/`no`/`on`/`off`, which
        // YAML 1.2 reads as text. Taken as a reason, `skip: "false"` skipped the scenario.
        if ["true", "false", "yes", "no", "on", "off", "y", "n"].contains(trimmed.lowercased()) {
            throw node.invalidValue(
                expected:
                    "expected true, false or a reason, found the text '\(text)' (quoted, or a YAML 1.1 word that YAML "
                    + "1.2 does not read as a boolean), not a reason",
                suggestion: what + ", without quotes for true and false")
        }
        if text.contains("${") {
            throw node.invalidValue(
                expected: "expected a literal reason: skip: does not expand ${…}",
                suggestion: "write the reason as text; to skip by environment, select with --tags/--exclude-tags")
        }
        return text
    }

    /// `requires: { file: ../.build/venv/bin/python3, install: make venv }`: a scenario needing a tool outside
    /// pushcheck (a client library's venv) is skipped, with the reason and how to get it, when the file is not
    /// there (relative to the suite file). Nil when it is there or nothing is required.
    static func requirementMissing(_ s: YAMLMapping, file: String) throws(SourceError) -> String? {
        guard let r = try s.optionalMapping("requires", keys: SuiteKeys.requires) else { return nil }
        let written: String = try r.required("file")
        let path = YAMLLoader.resolve(include: written, from: file)
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        let install: String? = try r.optional("install")
        return "requires \(written), which is not there" + (install.map { " (`\($0)` makes it)" } ?? "")
    }

    /// `send: { via: fcm }` needs a world with FCM, and a literal `project:` must be one of its projects (by id or
    /// number), so the mistake is reported at its line before anything runs.
    static func checkFCM(_ send: YAMLNode, via: YAMLNode, world: WorldDeclaration) throws(SourceError) {
        guard let fcm = world.fcm, !fcm.projects.isEmpty else {
            throw SourceError(
                .invalidValue, "send via fcm, but this world has no FCM service", at: via.range,
                expected: "expected a world with gateway: { fcm: { projects: [ … ] } }",
                suggestion:
                    "declare the Firebase project under world: { gateway: { fcm: … } } (Suites/README.md, Sending through FCM)"
            )
        }
        guard let node = send["project"], let name = node.scalar?.value, !name.contains("${") else { return }
        let known = fcm.projects.map(\.id)
        guard fcm.projects.contains(where: { $0.id == name || $0.number == name }) else {
            throw SourceError(
                .invalidValue, "no FCM project '\(name)' in the world", at: node.range,
                expected: "expected one of: \(known.joined(separator: ", ")) (or a project number)",
                suggestion: Spelling.closest(to: name, in: known).map { "did you mean '\($0)'?" })
        }
    }

    /// `device:`/`to:` must name a declared device and `app:` a declared app, so a typo fails at load time.
    static func checkNames(_ item: YAMLNode, world: WorldDeclaration) throws(SourceError) {
        let devices = world.devices.map(\.name)
        let ios = world.apps.map(\.bundleID)
        let apps = ios + world.androidApps.map(\.packageName).filter { !ios.contains($0) }
        func check(_ node: YAMLNode?, _ known: [String], _ what: String) throws(SourceError) {
            guard let node, let name = node.scalar?.value, node.value != .null else { return }
            guard known.contains(name) else {
                throw SourceError(
                    .invalidValue, "no \(what) '\(name)' in the world", at: node.range,
                    expected: "expected one of: \(known.joined(separator: ", "))",
                    suggestion: Spelling.closest(to: name, in: known).map { "did you mean '\($0)'?" })
            }
        }
        try check(item["device"], devices, "device")
        try check(item["app"], apps, "app")
        if let send = item["send"] {
            try check(send["to"], devices, "device")
            try check(send["app"], apps, "app")
            if let via = send["via"], via.scalar?.value == "fcm" { try checkFCM(send, via: via, world: world) }
        }
        for key in StepDecoder.appKeywords {
            if let v = item[key], case .string? = v.value { try check(v, apps, "app") }
        }
    }

    /// `parameters: { state: [a, b] }` (every combination) or `parameters: [{ state: a }, { state: b }]`.
    static func parameterSets(_ node: YAMLNode?) throws(SourceError) -> [[(key: String, value: String)]] {
        guard let node, !node.isNull else { return [[]] }
        if let items = node.items {
            var sets: [[(key: String, value: String)]] = []
            for item in items {
                let m = try YAMLMapping(item)
                var set: [(key: String, value: String)] = []
                for p in m.pairs { set.append((p.keyString, try String.decode(from: p.value))) }
                sets.append(set)
            }
            guard !sets.isEmpty else { throw node.invalidValue(expected: "at least one parameter set") }
            return sets
        }
        let m = try YAMLMapping(node)
        var sets: [[(key: String, value: String)]] = [[]]
        for pair in m.pairs {
            let values = try [String].decode(from: pair.value)
            guard !values.isEmpty else { throw pair.value.invalidValue(expected: "at least one value") }
            // A value twice makes two scenarios of one name: said here, not as a duplicate name at the scenario.
            for (index, value) in values.enumerated() where values[..<index].contains(value) {
                let node = pair.value.items?[index] ?? pair.value
                throw node.invalidValue(
                    expected: "expected each value of '\(pair.keyString)' once ('\(value)' is listed twice)",
                    suggestion: "remove the second '\(value)'")
            }
            sets = sets.flatMap { set in values.map { set + [(pair.keyString, $0)] } }
        }
        return sets
    }

    /// Replaces `${scenario.<key>}` in every string scalar, keeping positions.
    static func substitute(_ node: YAMLNode, parameters: [String: String]) -> YAMLNode {
        guard !parameters.isEmpty else { return node }
        var copy = node
        switch node.kind {
        case .scalar(var scalar):
            for (key, value) in parameters {
                scalar.value = scalar.value.replacingOccurrences(of: "${scenario.\(key)}", with: value)
            }
            copy.kind = .scalar(scalar)
        case .sequence(let items): copy.kind = .sequence(items.map { substitute($0, parameters: parameters) })
        case .mapping(let pairs):
            copy.kind = .mapping(
                pairs.map { YAMLPair(key: $0.key, value: substitute($0.value, parameters: parameters)) })
        }
        return copy
    }
}

extension SuiteLoader {
    /// The apps of an app file (`apps:`, `devices:`, `include:`, as a suite's world or an included file).
    package static func loadApps(path: String) throws(SourceError) -> [AppDeclaration] {
        let root = try YAMLLoader.load(path: path)
        let m = try YAMLMapping(root)
        if let world = try m.optionalMapping("world") { return try decodeWorld(world, file: path).apps }
        try m.checkKeys(allowed: includeKeys + ["scenarios", "name", "variables"])
        return try decodeWorld(m, file: path).apps
    }
}
