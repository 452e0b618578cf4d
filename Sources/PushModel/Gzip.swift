import CZlib

/// gzip (RFC 1952) through zlib: the HTML report's embedded data (the browser inflates it with
/// `DecompressionStream('gzip')`, `merge-reports` with `decompress`), and a deferred suite's text
/// (YAMLSource's `DeflatedText`).
package enum Gzip {
    /// Why inflating failed (zlib's message).
    package struct Failure: Error, Equatable {
        package var message: String
    }

    /// `bytes` as one gzip member.
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return [] }
        defer { deflateEnd(&stream) }
        var input = bytes
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let written = input.withUnsafeMutableBufferPointer { inBuffer in
            out.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                // The output buffer is deflateBound's size: one call finishes the stream.
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return -1 }
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return written < 0 ? [] : Array(out.prefix(written))
    }

    /// One gzip member made from input handed over piece by piece (`compress` takes it whole). Not thread-safe.
    package final class Stream {
        private let stream: UnsafeMutablePointer<z_stream>
        private var started: Bool
        private var output: [UInt8] = []
        /// Input bytes taken so far.
        package private(set) var inputCount = 0

        package init(level: Int32 = 6) {
            stream = .allocate(capacity: 1)  // zlib keeps a pointer back to it: it must not move
            stream.initialize(to: z_stream())
            started = czlib_deflate_init_gzip(stream, level) == Z_OK
        }

        deinit {
            if started { deflateEnd(stream) }
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// Deflates `bytes` after what came before.
        package func append(_ bytes: [UInt8]) {
            inputCount += bytes.count
            run(bytes, flush: Z_NO_FLUSH)
        }

        /// The deflated bytes not taken yet.
        package var outputCount: Int { output.count }

        /// Takes the deflated bytes so far (`finish` then returns what comes after them).
        package func takeOutput() -> [UInt8] {
            defer { output = [] }
            return output
        }

        /// Deflates `bytes` and ends the member: the whole gzip stream (after what `takeOutput` took), or empty when
        /// zlib failed. Call once.
        package func finish(_ bytes: [UInt8]) -> [UInt8] {
            inputCount += bytes.count
            run(bytes, flush: Z_FINISH)
            guard started else { return [] }
            started = false
            deflateEnd(stream)
            defer { output = [] }
            return output
        }

        private func run(_ bytes: [UInt8], flush: Int32) {
            guard started else { return }
            var input = bytes
            var chunk = [UInt8](repeating: 0, count: 1 << 15)
            let ok = input.withUnsafeMutableBufferPointer { inBuffer -> Bool in
                stream.pointee.next_in = inBuffer.baseAddress
                stream.pointee.avail_in = uInt(inBuffer.count)
                while true {
                    let code = chunk.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                        stream.pointee.next_out = outBuffer.baseAddress
                        stream.pointee.avail_out = uInt(outBuffer.count)
                        return deflate(stream, flush)
                    }
                    output += chunk.prefix(chunk.count - Int(stream.pointee.avail_out))
                    if code == Z_STREAM_END { return true }
                    guard code == Z_OK || code == Z_BUF_ERROR else { return false }
                    // Done when zlib took all the input and had room left (with Z_FINISH: until Z_STREAM_END).
                    if flush != Z_FINISH, stream.pointee.avail_in == 0, stream.pointee.avail_out != 0 { return true }
                }
            }
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
            if !ok {
                deflateEnd(stream)
                started = false
                output = []
            }
        }
    }

    /// The bytes of a gzip stream; a cut-off or corrupt stream is a `Failure`.
    package static func decompress(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflate_init_gzip(&stream) == Z_OK else { throw Failure(message: "zlib could not start") }
        defer { inflateEnd(&stream) }
        var input = bytes
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let status = input.withUnsafeMutableBufferPointer { inBuffer -> Int32 in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let code = chunk.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(outBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                result += chunk.prefix(chunk.count - Int(stream.avail_out))
                if code == Z_STREAM_END { return code }
                if code != Z_OK || (stream.avail_in == 0 && stream.avail_out != 0) {
                    return code == Z_OK ? Z_BUF_ERROR : code
                }
            }
        }
        guard status == Z_STREAM_END else {
            let message = stream.msg.map { String(cString: $0) } ?? "the data is cut off (zlib status \(status))"
            throw Failure(message: message)
        }
        return result
    }
}
