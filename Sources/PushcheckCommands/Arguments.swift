import Foundation

/// A small, strict command-line parser: every option is declared, unknown ones are usage errors
/// with a suggestion, and values are checked where they are read.
package struct OptionSpec: Sendable {
    package enum Kind: Sendable { case flag, value, repeatedValue }
    package let name: String
    package let kind: Kind
    let valueName: String
    package let help: String
    /// A one-letter alias (`-u` for `--update-snapshots`), if any.
    var short: Character? = nil

    /// The same option, also spelled `-<letter>`.
    func short(_ letter: Character) -> OptionSpec {
        var copy = self
        copy.short = letter
        return copy
    }

    package static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, valueName: "", help: help)
    }
    package static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .value, valueName: valueName, help: help)
    }
    package static func repeated(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .repeatedValue, valueName: valueName, help: help)
    }
}

/// A usage mistake: printed as one line plus the command's usage, exit code 2.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// The parsed arguments of one command.
package struct ParsedArguments: Sendable {
    package private(set) var flags: Set<String> = []
    package private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    package func has(_ flag: String) -> Bool { flags.contains(flag) }
    package func value(_ name: String) -> String? { values[name]?.last }
    package func all(_ name: String) -> [String] { values[name] ?? [] }

    /// An integer option, with a usage error naming the option when it is not one.
    package func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int? {
        guard let raw = value(name) else { return nil }
        guard let n = Int(raw), range.contains(n) else {
            throw UsageError(
                "option '--\(name)' expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(raw)'")
        }
        return n
    }

    /// Parses `arguments` against `options`; `--` ends option parsing.
    package static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            // `-j 4` / `-j4` / `-x`: rewritten to the long spelling before the checks below.
            if !onlyPositionals, argument.count >= 2, argument.hasPrefix("-"), !argument.hasPrefix("--"),
                let letter = argument.dropFirst().first, let spec = options.first(where: { $0.short == letter })
            {
                let rest = String(argument.dropFirst(2))
                if rest.isEmpty {
                    argument = "--" + spec.name
                } else if spec.kind != .flag {
                    argument = "--\(spec.name)=\(rest)"
                }
            }
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if !onlyPositionals, argument.hasPrefix("-"), argument != "-", argument.count > 1 {
                    throw UsageError("unknown option '\(argument)'" + suggestion(for: argument, among: options))
                }
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = byName[name] else {
                throw UsageError("unknown option '--\(name)'" + suggestion(for: name, among: options))
            }
            switch spec.kind {
            case .flag:
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value") }
                result.flags.insert(name)
            case .value, .repeatedValue:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option '--\(name)' needs a value (\(spec.valueName))")
                }
                if spec.kind == .value, result.values[name] != nil {
                    throw UsageError("option '--\(name)' given twice")
                }
                result.values[name, default: []].append(value)
            }
        }
        return result
    }

    private static func suggestion(for name: String, among options: [OptionSpec]) -> String {
        let bare = name.drop(while: { $0 == "-" })
        let names = options.map(\.name) + ["help"]  // every command takes --help
        let best = names.map { ($0, editDistance(String(bare), $0)) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= max(2, bare.count / 3) else { return "" }
        return " (did you mean '--\(best.0)'?)"
    }
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// Renders the options block of a command's help.
func renderOptions(_ options: [OptionSpec]) -> String {
    let rows = options.map { spec -> (String, String) in
        var left = spec.kind == .flag ? "--\(spec.name)" : "--\(spec.name) \(spec.valueName)"
        if let short = spec.short { left = "-\(short), " + left }
        return (left, spec.help + (spec.kind == .repeatedValue ? " (repeatable)" : ""))
    }
    let width = (rows.map(\.0.count).max() ?? 0) + 2
    return rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }
        .joined(separator: "\n")
}
