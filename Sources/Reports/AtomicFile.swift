import Foundation

/// Whole-file replacement that never leaves a partial file at the destination:
/// the bytes go to a temporary file in the same directory, are flushed with `fsync`, and the
/// temporary file is renamed over the destination (atomic within one file system).
public enum AtomicFile {
    /// Writes `data` to `url` atomically. A reader sees either the old file or the complete new one.
    public static func write(_ data: Data, to url: URL) throws(ReportsError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        let tempPath = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

        let fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: errnoText()) }
        var failure: String?
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errnoText()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = errnoText() }
        if close(fd) != 0, failure == nil { failure = errnoText() }
        if failure == nil, rename(tempPath, path) != 0 { failure = errnoText() }
        if let failure {
            unlink(tempPath)
            throw .writeFailed(path: path, reason: failure)
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
