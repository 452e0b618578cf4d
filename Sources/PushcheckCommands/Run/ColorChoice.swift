/// `--color auto|always|never` (as git, ls and pytest spell it). `auto` keeps the detected behaviour:
/// colours on a terminal unless `NO_COLOR` or `CI` is set (see `ConsoleMode.detect`).
enum ColorChoice: String, CaseIterable {
    case auto, always, never

    static func parse(_ raw: String?) throws(UsageError) -> ColorChoice {
        guard let raw else { return .auto }
        guard let choice = ColorChoice(rawValue: raw.lowercased()) else {
            throw UsageError("option '--color' expects auto, always or never, got '\(raw)'")
        }
        return choice
    }

    /// Whether to colour, given what `auto` would do.
    func resolve(auto detected: Bool) -> Bool {
        switch self {
        case .auto: return detected
        case .always: return true
        case .never: return false
        }
    }
}
