/// Where a report writer puts a document: a `String` (`render`), or the file being written (`AtomicFile.Writer`),
/// which takes it in chunks instead of whole.
package protocol ReportOutput {
    /// Appends text.
    mutating func append(_ text: String)
    /// Appends UTF-8 bytes.
    mutating func append(bytes: some Collection<UInt8>)
}

extension String: ReportOutput {
    package mutating func append(bytes: some Collection<UInt8>) {
        self += String(decoding: bytes, as: UTF8.self)
    }
}
