/// Path arithmetic on strings, for the places that split a path the user typed. Foundation's
/// `NSString.deletingLastPathComponent` traps (SIGILL in `String._startOfLastPathComponent`) on a one-character
/// path such as `q`, `.` or `q/`, so `pushcheck run q/suite.yaml`, `--ready-file r` or a config named `c` crashed.
package enum PathText {
    /// The directory part of `path`, as `deletingLastPathComponent` gives it: `a/b` → `a`, `a//b` → `a`,
    /// `a/b/` → `a`, `/a` → `/`, `/` → `/`, and `""` for a path with no `/` (`a`, `.`, `..`).
    package static func directory(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        var end = slash
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        if end == 0 { return "/" }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
