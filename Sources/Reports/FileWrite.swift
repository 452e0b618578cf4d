import Foundation

/// `write(2)` or `pwrite(2)` until every byte of a buffer is written, retrying `EINTR`: the one loop the report files,
/// the spool and the console share.
enum FileWrite {
    /// Nil when every byte of `buffer` went to `descriptor` (at `offset` with `pwrite`, else at its position); why not
    /// otherwise.
    static func all(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int? = nil) -> String? {
        var done = 0
        while done < buffer.count {
            let start = buffer.baseAddress! + done
            let rest = buffer.count - done
            let n = offset.map { pwrite(descriptor, start, rest, off_t($0 + done)) } ?? write(descriptor, start, rest)
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            guard n > 0 else { return "no byte was written" }
            done += n
        }
        return nil
    }
}
