import Foundation

/// Whole-file replacement that never leaves a partial file at the destination:
/// the bytes go to a temporary file in the same directory, are flushed with `fsync`, and the
/// temporary file is renamed over the destination (atomic within one file system).
///
/// What may be replaced: a regular file, or nothing yet. A symbolic link is written through: its final
/// target is replaced (atomically, in the target's directory) and the link stays a link. Anything else —
/// a device node such as `/dev/full`, a FIFO, a socket, a directory — is refused with `.writeFailed`
/// before anything is written, so a report path can never turn a special file into a regular one.
package enum AtomicFile {
    /// Writes `data` to `url` atomically. A reader sees either the old file or the complete new one.
    package static func write(_ data: Data, to url: URL) throws(ReportsError) {
        try write(to: url) { (writer: inout Writer) in writer.append(bytes: data) }
    }

    /// Writes what `produce` appends to its writer to `url` atomically, in chunks: a large document goes to the disk
    /// as it is made instead of being held whole first. `produce` may throw; nothing is replaced then. `example`: a
    /// path of the right kind, suggested when `url` names a special file.
    package static func write(
        to url: URL, example: String = "Reports/junit.xml", _ produce: (inout Writer) throws(ReportsError) -> Void
    ) throws(ReportsError) {
        let path = try destination(of: url.path, example: example)
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let tempPath =
            (directory.isEmpty ? "" : directory) + "/." + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

        let fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .writeFailed(path: url.path, reason: errnoText()) }
        var writer = Writer(descriptor: fd)
        var failure: ReportsError?
        do throws(ReportsError) {
            try produce(&writer)
            writer.flush()
        } catch {
            failure = error
        }
        var reason = writer.failure
        if failure == nil, reason == nil, fsync(fd) != 0 { reason = errnoText() }
        if close(fd) != 0, failure == nil, reason == nil { reason = errnoText() }
        if failure == nil, reason == nil, rename(tempPath, path) != 0 { reason = errnoText() }
        if let reason { failure = .writeFailed(path: url.path, reason: reason) }
        if let failure {
            unlink(tempPath)
            throw failure
        }
    }

    /// Appends to the temporary file through a buffer; the first failed `write(2)` is kept and later appends dropped
    /// (`write(to:_:)` reports it).
    package struct Writer: ReportOutput {
        private let descriptor: Int32
        private var buffer: [UInt8] = []
        fileprivate private(set) var failure: String?
        private static let chunk = 1 << 16

        fileprivate init(descriptor: Int32) {
            self.descriptor = descriptor
            buffer.reserveCapacity(Self.chunk)
        }

        package mutating func append(_ text: String) {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= Self.chunk { flush() }
        }

        package mutating func append(bytes: some Collection<UInt8>) {
            guard bytes.count < Self.chunk else {
                flush()
                writeAll(bytes)
                return
            }
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.chunk { flush() }
        }

        fileprivate mutating func flush() {
            writeAll(buffer)
            buffer.removeAll(keepingCapacity: true)
        }

        private mutating func writeAll(_ bytes: some Collection<UInt8>) {
            guard failure == nil, !bytes.isEmpty else { return }
            let descriptor = descriptor
            let written = bytes.withContiguousStorageIfAvailable {
                FileWrite.all(UnsafeRawBufferPointer($0), to: descriptor)
            }
            // Outer nil: the bytes have no contiguous storage (copied once); inner nil: all written.
            failure = written ?? Array(bytes).withUnsafeBytes { FileWrite.all($0, to: descriptor) }
        }
    }

    /// The path that is actually replaced: `path` itself, or the final target of a chain of symbolic
    /// links (relative links resolved against the link's directory). Throws for a target that exists and
    /// is not a regular file (suggesting `example` instead), and for a link chain longer than 40.
    static func destination(of path: String, example: String = "Reports/junit.xml") throws(ReportsError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return current }
                throw .writeFailed(path: path, reason: errnoText())
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                return current
            case S_IFLNK:
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(current, &buffer, buffer.count - 1)
                guard n >= 0 else { throw .writeFailed(path: path, reason: errnoText()) }
                let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if target.hasPrefix("/") {
                    current = target
                } else {
                    let directory = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
                    current = directory + target
                }
            default:
                let kind = kindName(info.st_mode & S_IFMT)
                let via = current == path ? "" : " (the symbolic link \(path) points to \(current))"
                throw .writeFailed(
                    path: path,
                    reason: "it is \(kind)\(via), not a regular file; pushcheck replaces only regular files (or "
                        + "writes through a symbolic link to one). Pass a file path, e.g. \(example)")
            }
        }
        throw .writeFailed(path: path, reason: "more than 40 symbolic links to follow (a link loop?)")
    }

    private static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        default: return "not a regular file"
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
