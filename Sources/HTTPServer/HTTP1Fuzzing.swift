/// A way into the HTTP/1.1 engine for the fuzzer and its regression tests (`FuzzTargets`): bytes in, every
/// request answered at once, as a connection would, without a socket.
package enum HTTP1Fuzzing {
    /// Feeds `bytes` in two reads split at `split` (clamped), answering each request with 200 and the next
    /// pipelined one after it. Returns the number of requests parsed.
    package static func feed(_ bytes: [UInt8], split: Int, maxBodySize: Int = 1 << 16) -> Int {
        var parsed: [HTTPRequest] = []
        let session = HTTP1Session(
            limits: RequestLimits(maxBodySize: maxBodySize, maxHeaderListSize: 8 * 1024, dispatchOversized: true)
        ) { parsed.append($0) }
        let cut = max(0, min(split, bytes.count))
        var answered = 0
        var output: [UInt8] = []
        for chunk in [bytes[..<cut], bytes[cut...]] {
            _ = chunk.withUnsafeBytes { session.receive($0) }
            // Answer outside `receive`, as `Connection` does; answering lets the next pipelined request parse.
            while answered < parsed.count {
                let request = parsed[answered]
                answered += 1
                precondition(request.bodyOverLimit != nil || request.body.count <= maxBodySize)
                _ = session.respond(stream: nil, HTTPResponse(status: 200, body: Array(request.path.utf8.prefix(64))))
            }
            session.produceOutput(into: &output, limit: .max)
        }
        return parsed.count
    }
}
