import Foundation

/// pushcheck(1) in roff (man(7) macros), printed by `pushcheck help --man` from the command tables `--help`
/// prints, so the page cannot drift from the options.
enum ManPage {
    /// `date` goes in the `.TH` line (the commit date of a `make dist` build; empty when unknown).
    static func render(_ model: CommandLineModel, version: String, date: String?) -> String {
        var page = [
            ".TH PUSHCHECK 1 \(quotedArgument(date ?? "")) \(quotedArgument("pushcheck \(version)")) "
                + "\"User Commands\"",
            ".SH NAME",
            "pushcheck \\- end\\-to\\-end push\\-notification testing: mock APNs and FCM gateways over real "
                + "HTTP/2 + TLS, a simulated iPhone and a YAML scenario runner",
            ".SH SYNOPSIS",
            ".B pushcheck", ".I command", ".RI [ options ]", ".br",
            ".B pushcheck", ".I command", ".B \\-\\-help", ".br",
            ".B pushcheck help", ".RI [ command \" | \" \\-\\-man ]", ".br",
            ".B pushcheck \\-\\-version",
            ".SH DESCRIPTION",
            text(
                "pushcheck tests a backend's push notifications end to end: its gateways answer as Apple's APNs and "
                    + "Google's FCM do, simulated devices receive what they accept, and suites of YAML scenarios "
                    + "assert on it with JUnit XML reports for CI."),
            ".SH COMMANDS",
        ]
        for command in model.commands {
            page += [".TP", ".B \(text(command.name))", text(command.abstract)]
        }
        page += [".TP", ".B help", "Show the help of a command; \\fB\\-\\-man\\fR prints this page (roff)."]
        page += [".SH OPTIONS"] + model.globalOptions.flatMap(optionItem)
        for command in model.commands { page += commandSection(command) }
        page += [
            ".SH EXIT STATUS",
            ".TP", ".B 0", "Success (every selected scenario passed).",
            ".TP", ".B 1", "A check failed (an assertion, an error\\-level finding).",
            ".TP", ".B 2", "Usage error, or a suite or config file that does not load.",
            ".TP", ".B 3", "Harness error: a timeout, a crashed command, a report that cannot be written.",
            ".TP", ".B 5", "\\fBrun\\fR selected no scenario (\\fB\\-\\-allow\\-empty\\fR makes it 0).",
            ".TP", ".B 130",
            "Interrupted by SIGINT (Ctrl\\-C): \\fBrun\\fR keeps the finished scenarios in its report.",
            ".TP", ".B 143", "Stopped by SIGTERM, as 130.",
            ".PP", "Each command's section above gives its own codes.",
            ".SH ENVIRONMENT",
            ".TP", ".B NO_COLOR", "When set and not empty, no colour in the output.",
            ".TP", ".B CI", "When true: no colour, and \\fBrun\\fR fails a missing snapshot instead of writing it.",
            ".SH FILES",
            ".TP", ".I /usr/share/doc/pushcheck/suite-format.md.gz",
            "The suite format: worlds, steps, checks, variables (Suites/README.md of the source).",
            ".TP", ".I /usr/share/doc/pushcheck/examples/example-suite.yaml",
            "An example suite, with \\fIsuite.schema.json\\fR beside it; run it from a copy with "
                + "\\fBpushcheck run example\\-suite.yaml\\fR.",
            ".SH SEE ALSO",
            "\\fBpushcheck schema\\fR (the suite format as a JSON Schema, for editors),",
            ".BR curl (1),",
            ".BR openssl (1)",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    private static func commandSection(_ command: CommandLineModel.Command) -> [String] {
        var lines = [".SH \(quotedArgument("PUSHCHECK " + command.name.uppercased()))", text(command.abstract)]
        lines += [".PP", ".nf", ".RS"] + command.synopsis.split(separator: "\n").map { text(String($0)) }
        lines += [".RE", ".fi"]
        lines += command.options.flatMap(optionItem)
        if !command.discussion.isEmpty { lines += [".PP"] + discussion(command.discussion) }
        return lines
    }

    /// `.TP` then `\fB-j\fR, \fB--jobs\fR \fIN\fR` then the help line.
    private static func optionItem(_ option: CommandLineModel.Option) -> [String] {
        var tag = [option.short, option.long].compactMap { $0 }.map { "\\fB\(text($0))\\fR" }
            .joined(separator: ", ")
        if option.takesValue { tag += " \\fI\(text(option.spec.valueName))\\fR" }
        let help = option.spec.help + (option.repeatable ? " (repeatable)" : "")
        return [".TP", tag, text(help)]
    }

    /// A discussion: lines indented by spaces are examples (kept as typed), the rest are filled text, a blank
    /// line starts a paragraph.
    private static func discussion(_ text: String) -> [String] {
        var lines: [String] = []
        var inExample = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let example = raw.hasPrefix(" ")
            if example != inExample {
                lines += example ? [".RS", ".nf"] : [".fi", ".RE"]
                inExample = example
            }
            if raw.trimmingCharacters(in: .whitespaces).isEmpty {
                if !inExample { lines.append(".PP") }
                continue
            }
            lines.append(Self.text(example ? String(raw.drop(while: { $0 == " " })) : raw))
        }
        if inExample { lines += [".fi", ".RE"] }
        return lines
    }

    /// Body text: `\` as `\e`, `-` as `\-` (an ASCII minus, so options copy and paste), and `\&` before a leading
    /// `.` or `'` so roff does not read the line as a request.
    static func text(_ raw: String) -> String {
        var escaped = raw.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    /// A macro argument in double quotes (roff writes a quote inside as `""`).
    private static func quotedArgument(_ raw: String) -> String {
        "\"" + text(raw).replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
