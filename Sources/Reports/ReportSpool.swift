import Foundation
import Synchronization

/// Where a run keeps what it made of its finished cases — each `<testcase>` element and each case's HTML report data —
/// until the reports are written: an unlinked temporary file beside the report, so that the run's memory does not grow
/// with the suite (a case's transcript and trace were ~20 KB of a run's memory each until the end of the run; on the
/// spool they are in the page cache, which the kernel may drop). Appends gather in a buffer that goes to the file 64 KiB
/// at a time (one `pwrite` a case cost ~1 % of a run's CPU in ext4). Appends and reads are safe from any thread. When the
/// file cannot be made or written (a read-only directory, a full disk), the buffer keeps everything from then on:
/// nothing is lost, the run only keeps it in memory the old way.
package final class ReportSpool: Sendable {
    private struct State {
        /// The file's descriptor, or -1 when there is none.
        var descriptor: Int32
        /// False once a write failed (the file is still read for what it holds).
        var writable: Bool
        /// How many bytes are on the file; the buffer holds what comes after.
        var flushed = 0
        var buffer: [UInt8] = []
    }

    private let state: Mutex<State>
    private static let chunk = 1 << 16

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
        var state = State(descriptor: descriptor, writable: descriptor >= 0)
        state.buffer.reserveCapacity(Self.chunk)
        self.state = Mutex(state)
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// True while appends go to a file.
    var isFileBacked: Bool { state.withLock { $0.writable } }

    /// Keeps `bytes`.
    func keep(_ bytes: [UInt8]) -> SpooledBytes {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Keeps `text`'s UTF-8 bytes and then `bytes`, one after the other: what is returned is both.
    func keep(_ text: String, then bytes: [UInt8]) -> SpooledBytes {
        var text = text
        return text.withUTF8 { text in bytes.withUnsafeBytes { append(UnsafeRawBufferPointer(text), $0) } }
    }

    /// Appends `bytes` then `more` (either both on the file or both in the buffer: a read never spans the two).
    private func append(_ bytes: UnsafeRawBufferPointer, _ more: UnsafeRawBufferPointer = .init(start: nil, count: 0))
        -> SpooledBytes
    {
        state.withLock { state in
            let offset = state.flushed + state.buffer.count
            state.buffer.append(contentsOf: bytes)
            state.buffer.append(contentsOf: more)
            if state.writable, state.buffer.count >= Self.chunk {
                let failure = state.buffer.withUnsafeBytes {
                    FileWrite.all($0, to: state.descriptor, at: state.flushed)
                }
                if failure == nil {
                    state.flushed += state.buffer.count
                    state.buffer.removeAll(keepingCapacity: true)
                } else {
                    state.writable = false  // the buffer keeps this and everything after it
                }
            }
            return SpooledBytes(spool: self, offset: offset, count: bytes.count + more.count)
        }
    }

    /// The `count` bytes at `offset`; a failed read is a failed write of `path`.
    fileprivate func read(offset: Int, count: Int, writing path: String) throws(ReportsError) -> [UInt8] {
        func failure(_ reason: String) -> ReportsError {
            .writeFailed(path: path, reason: "a finished scenario's part could not be read back: \(reason)")
        }
        let descriptor = state.withLock { state -> Int32? in
            guard offset < state.flushed else { return nil }
            return state.descriptor
        }
        guard let descriptor else {
            // Still in the buffer.
            let bytes = state.withLock { state -> [UInt8]? in
                let start = offset - state.flushed
                guard start >= 0, count >= 0, start + count <= state.buffer.count else { return nil }
                return Array(state.buffer[start..<(start + count)])
            }
            guard let bytes else { throw failure("bytes \(offset)..<\(offset + count) were never on the spool") }
            return bytes
        }
        var reason: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let n = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    reason =
                        n == 0
                        ? "the spool file is shorter than what was written to it" : String(cString: strerror(errno))
                    return
                }
                initialized += n
            }
        }
        if let reason { throw failure(reason) }
        return bytes
    }
}

/// Bytes a `ReportSpool` keeps: where they are on it.
struct SpooledBytes: Sendable {
    let spool: ReportSpool
    let offset: Int
    let count: Int

    /// The bytes, read back from the spool; a failed read becomes a failed write of `path`.
    func bytes(writing path: String) throws(ReportsError) -> [UInt8] {
        try spool.read(offset: offset, count: count, writing: path)
    }
}
