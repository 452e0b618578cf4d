/// The lines of a JSON-lines text (payloads on `check-payload`'s stdin, `serve`'s delivery log), numbered as an editor
/// numbers them: by physical line from 1, a line ending in LF or CRLF (the last one may end in neither). Blank lines
/// (spaces, tabs, a CR) are skipped without renumbering the lines after them, so `stdin:4` is the fourth line.
package enum JSONLines {
    /// One non-blank line: its 1-based number and its bytes without the line break and surrounding spaces and tabs.
    package struct Line: Sendable, Equatable {
        package var number: Int
        package var bytes: [UInt8]

        package init(number: Int, bytes: [UInt8]) {
            self.number = number
            self.bytes = bytes
        }
    }

    /// The non-blank lines of `bytes`.
    package static func lines(_ bytes: [UInt8]) -> [Line] {
        var out: [Line] = []
        var number = 0
        for physical in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            guard let first = physical.firstIndex(where: { !isBlank($0) }),
                let last = physical.lastIndex(where: { !isBlank($0) })
            else { continue }
            out.append(Line(number: number, bytes: Array(physical[first...last])))
        }
        return out
    }
}
