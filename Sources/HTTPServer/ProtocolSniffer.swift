/// Which protocol a connection speaks when ALPN did not say (cleartext listeners, which serve h2c with prior
/// knowledge and HTTP/1.1 on one port, and TLS clients that offer no ALPN, as APNs clients relying on prior
/// knowledge do), decided from its first bytes. Pure logic.
enum ProtocolSniffer {
    enum Verdict: Equatable {
        case needMore
        case http2
        case http1_1
    }

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// A first line not ended within this many bytes goes to the HTTP/1.1 engine, whose limits answer it.
    static let maxFirstLine = 8192

    /// - The HTTP/2 client connection preface (or a prefix of it, until it is complete): HTTP/2.
    /// - A first line that is an HTTP/1.x request line (RFC 9112 §3: it ends with SP `HTTP/` DIGIT `.` DIGIT;
    ///   empty lines before it are skipped, §2.2): HTTP/1.1.
    /// - Any other complete first line: HTTP/2, whose engine refuses it as an invalid connection preface with
    ///   GOAWAY(PROTOCOL_ERROR) (RFC 9113 §3.4: "Clients and servers MUST treat an invalid connection preface
    ///   as a connection error of type PROTOCOL_ERROR"; h2spec http2/3.5 #2). Answering such bytes with an
    ///   HTTP/1.1 400 would send an HTTP/2 client text it cannot parse as frames.
    static func sniff(_ bytes: [UInt8]) -> Verdict {
        let n = min(bytes.count, preface.count)
        if bytes[0..<n].elementsEqual(preface[0..<n]) { return n < preface.count ? .needMore : .http2 }
        var start = 0
        while start < bytes.count, bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        guard let lf = bytes[start...].firstIndex(of: 0x0A) else {
            return bytes.count - start > maxFirstLine ? .http1_1 : .needMore
        }
        var end = lf
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return isRequestLine(bytes[start..<end]) ? .http1_1 : .http2
    }

    /// Ends with ` HTTP/d.d`.
    private static func isRequestLine(_ line: ArraySlice<UInt8>) -> Bool {
        let suffix = Array(" HTTP/".utf8)
        guard line.count >= suffix.count + 3 else { return false }
        let tail = line.suffix(suffix.count + 3)
        let digits = tail.suffix(3)
        return tail.prefix(suffix.count).elementsEqual(suffix) && isDigit(digits[digits.startIndex])
            && digits[digits.startIndex + 1] == UInt8(ascii: ".") && isDigit(digits[digits.startIndex + 2])
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
