import Foundation
import Synchronization

/// Where a run keeps what it made of its finished cases — each `<testcase>` element and each case's HTML report data —
/// until the reports are written: an unlinked temporary file beside the report, so that the run's memory does not grow
/// with the suite (a case's transcript and trace were ~20 KB of a run's memory each until the end of the run; on the
/// spool they are in the page cache, which the kernel may drop). Appends and reads are safe from any thread. When the
/// file cannot be made or written (a read-only directory, a full disk), the bytes are kept in memory instead: nothing
/// is lost, the run only keeps them the old way.
package final class ReportSpool: Sendable {
    private struct State {
        /// The file's descriptor, or -1 when there is none.
        var descriptor: Int32
        /// Where the next append goes.
        var end = 0
    }

    private let state: Mutex<State>

    /// A spool in `directory` (the report's); none — every append kept in memory — when no file can be made there.
    package init(directory: String) {
        var template = Array((directory.isEmpty ? "." : directory).utf8CString.dropLast())
        template += Array("/.pushcheck-spool-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            // Unlinked at once: the file goes when the process does, however it ends.
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        state = Mutex(State(descriptor: descriptor))
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// True when appends go to a file.
    var isFileBacked: Bool { state.withLock { $0.descriptor >= 0 } }

    /// Keeps `bytes`: on the spool, or in memory if the write fails.
    func keep(_ bytes: [UInt8]) -> SpooledBytes {
        bytes.withUnsafeBytes { append($0) } ?? .memory(bytes)
    }

    /// Keeps `text`'s UTF-8 bytes: on the spool, or in memory if the write fails.
    func keep(_ text: String) -> SpooledBytes {
        var text = text
        return text.withUTF8 { append(UnsafeRawBufferPointer($0)) ?? .memory(Array($0)) }
    }

    /// Where `buffer` went on the file; nil when there is no file or the write failed.
    private func append(_ buffer: UnsafeRawBufferPointer) -> SpooledBytes? {
        guard !buffer.isEmpty else { return .memory([]) }
        let (descriptor, offset) = state.withLock { state -> (Int32, Int) in
            defer { if state.descriptor >= 0 { state.end += buffer.count } }
            return (state.descriptor, state.end)
        }
        guard descriptor >= 0 else { return nil }
        var written = 0
        while written < buffer.count {
            let n = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            written += n
        }
        return .file(self, offset: offset, count: buffer.count)
    }

    /// The `count` bytes at `offset`, or why they could not be read back.
    fileprivate func read(offset: Int, count: Int) -> Result<[UInt8], ReadFailure> {
        let descriptor = state.withLock { $0.descriptor }
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let n = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    failure =
                        n == 0
                        ? "the spool file is shorter than what was written to it" : String(cString: strerror(errno))
                    return
                }
                initialized += n
            }
        }
        if let failure { return .failure(ReadFailure(reason: failure)) }
        return .success(bytes)
    }

    /// Why spooled bytes could not be read back (reported as a failed report write).
    struct ReadFailure: Error {
        let reason: String
    }
}

/// Bytes a `ReportSpool` keeps: where they are on its file, or the bytes themselves when the file could not take them.
enum SpooledBytes: Sendable {
    case file(ReportSpool, offset: Int, count: Int)
    case memory([UInt8])

    /// The bytes, read back from the spool if they are there; a failed read becomes a failed write of `path`.
    func bytes(writing path: String) throws(ReportsError) -> [UInt8] {
        switch self {
        case let .memory(bytes):
            return bytes
        case let .file(spool, offset, count):
            switch spool.read(offset: offset, count: count) {
            case let .success(bytes): return bytes
            case let .failure(failure):
                throw .writeFailed(
                    path: path, reason: "a finished scenario's part could not be read back: \(failure.reason)")
            }
        }
    }

    /// How many bytes.
    var count: Int {
        switch self {
        case let .memory(bytes): return bytes.count
        case let .file(_, _, count): return count
        }
    }
}
