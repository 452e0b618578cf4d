import YAMLSource

/// The files that may sit among suites without being one, and what is wrong with a file that is neither.
///
/// `pushcheck run DIR` reads every `.yaml`/`.yml`/`.json` file under DIR. A file with `scenarios:` at its top is a
/// suite; without it, a file may be a world file suites include (its keys among `include`, `gateway`, `apps`,
/// `devices`, `$schema`, whether or not a suite includes it), a `serve` config (one of `ServeKeys.distinctive` at its
/// top, every key one of `ServeKeys.config`'s) or a JSON Schema (`$schema` naming json-schema.org, as
/// `Suites/suite.schema.json`). Anything else is a suite gone wrong — `scenarois:`, `Scenarios:`, a forgotten
/// `scenarios:`, an unknown key in a world file, an empty file — and is an error at its `file:line:col`: skipping it
/// would leave its scenarios out of the run and still pass.
enum SuiteNeighbours {
    /// Nil when `root`, a document without `scenarios:`, may sit among suites; else the error to report for it.
    static func problem(_ root: YAMLNode) -> SourceError? {
        guard let pairs = root.pairs else {
            let what = root.isNull ? "no suite here: the file is empty" : "not a suite: the file is not a mapping"
            return SourceError(
                .typeMismatch, what, at: root.range,
                expected: "expected a suite (a mapping with scenarios:) or \(world)",
                suggestion: explanation)
        }
        let m = try? YAMLMapping(root)
        if let schema = m?["$schema"]?.scalar?.value,
            schema.hasPrefix("https://json-schema.org/") || schema.hasPrefix("http://json-schema.org/")
        {
            return nil
        }
        let keys = pairs.map(\.keyString)
        if keys.contains(where: ServeKeys.distinctive.contains) {
            return unknownKey(in: pairs, table: ServeKeys.config, kind: "a serve config")
        }
        let worldKeys = SuiteLoader.includeKeys
        if keys.allSatisfy(worldKeys.contains) { return nil }
        let suiteKeys = SuiteKeys.suite.names
        let meantAsWorld =
            !keys.contains { suiteKeys.contains($0) && !worldKeys.contains($0) }
            && keys.contains { worldKeys.contains($0) && !suiteKeys.contains($0) }
        if meantAsWorld { return unknownKey(in: pairs, table: SuiteKeys.includedWorld, kind: "a world file") }
        if let unknown = unknownKey(in: pairs, table: SuiteKeys.suite, kind: "a suite") { return unknown }
        return SourceError(
            .missingKey, "missing required key 'scenarios'", at: root.range,
            expected: "expected key 'scenarios' (the suite's scenarios) in this mapping",
            suggestion:
                "a file with \(keys.filter { !worldKeys.contains($0) }.map { "'\($0)'" }.joined(separator: ", ")) "
                + "is read as a suite: list its scenarios under scenarios:, or " + explanation)
    }

    /// What a world file holds, for messages.
    static let world = "a world file (only include, gateway, apps, devices)"

    static let explanation =
        "every .yaml/.yml/.json file pushcheck run finds is a suite (scenarios:), \(world), a serve config or a "
        + "JSON Schema; move other files out of the suite directory"

    /// `.unknownKey` at the first key not in `table`, with a did-you-mean among its keys.
    private static func unknownKey(in pairs: [YAMLPair], table: KeyTable, kind: String) -> SourceError? {
        let allowed = table.names
        guard let pair = pairs.first(where: { !allowed.contains($0.keyString) }) else { return nil }
        let present = Set(pairs.map(\.keyString))
        let closest = Spelling.closest(to: pair.keyString, in: allowed.filter { !present.contains($0) })
        return SourceError(
            .unknownKey, "unknown key '\(pair.keyString)'", at: pair.key.range,
            expected: "expected one of: \(allowed.joined(separator: ", ")) (\(kind))",
            suggestion: closest.map { "did you mean '\($0)'?" } ?? explanation)
    }
}
