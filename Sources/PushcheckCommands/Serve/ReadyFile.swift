import Foundation
import PushModel

/// `serve --ready-file PATH`: the ready line written so that a CI script polling for the file never reads
/// half of it (a temporary file in the same directory, then `rename`, which replaces atomically).
enum ReadyFile {
    static func write(_ line: String, to path: String) throws {
        let dir = PathText.directory(of: path)
        let temp = (dir.isEmpty ? "." : dir) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: temp))
        guard rename(temp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temp)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(path): \(reason)"])
        }
    }
}
