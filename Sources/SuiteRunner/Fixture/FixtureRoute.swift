import Foundation
import HTTPServer

/// What the fixture web server does with one request, decided without touching the disk or the clock.
///
/// Routes:
/// - `GET`/`HEAD /some/page.html` → the file under the pages directory (`/dir/` → `dir/index.html`);
/// - `?status=NNN` on any page → that status with the page's body (error pages that still render);
/// - `?delay=MS` on any route → answer after MS milliseconds (slow pages, at most `maxDelayMilliseconds`);
/// - `/__status/NNN` → a generated HTML page with status NNN and title `NNN <reason>`;
/// - `/__redirect?to=URL&n=K` → a chain of K `302`s ending at `to` (default `/`);
/// - a path with `..`, a NUL or a backslash → `403`; other methods → `405`.
package enum FixtureRoute: Sendable, Equatable {
    /// Serve the file at `relativePath` (below the pages directory) with `status`.
    case file(relativePath: String, status: Int)
    /// A generated page.
    case generated(status: Int, title: String, headers: [String: String])
    /// A `302` to `location`.
    case redirect(location: String)

    /// The longest `?delay=` honoured, in milliseconds.
    static let maxDelayMilliseconds = 30_000

    /// The route for `method` and `target` (path plus query), and the delay to apply before answering.
    package static func decide(method: String, target: String) -> (route: FixtureRoute, delayMilliseconds: Int) {
        let (rawPath, query) = split(target)
        let parameters = parseQuery(query)
        let delay = parameters["delay"].flatMap(Int.init).map { min(max($0, 0), maxDelayMilliseconds) } ?? 0
        guard method == "GET" || method == "HEAD" else {
            return (.generated(status: 405, title: "405 Method Not Allowed", headers: ["allow": "GET, HEAD"]), delay)
        }
        guard let path = percentDecode(rawPath), isSafe(path) else {
            return (.generated(status: 403, title: "403 Forbidden", headers: [:]), delay)
        }
        let statusOverride = parameters["status"].flatMap(Int.init).flatMap { (100...599).contains($0) ? $0 : nil }
        if path.hasPrefix("/__status/") {
            let code = Int(path.dropFirst("/__status/".count)).flatMap { (200...599).contains($0) ? $0 : nil }
            guard let code else { return (notFound, delay) }
            return (
                .generated(status: code, title: "\(code) \(HTTPResponse.reasonPhrase(code) ?? "Status")", headers: [:]),
                delay
            )
        }
        if path == "/__redirect" {
            let destination = parameters["to"] ?? "/"
            let hops = parameters["n"].flatMap(Int.init).map { min(max($0, 1), 20) } ?? 1
            if hops > 1 {
                let next = "/__redirect?to=" + percentEncode(destination) + "&n=\(hops - 1)"
                return (.redirect(location: next), delay)
            }
            return (.redirect(location: destination), delay)
        }
        var relative = String(path.drop { $0 == "/" })
        if relative.isEmpty || relative.hasSuffix("/") { relative += "index.html" }
        return (.file(relativePath: relative, status: statusOverride ?? 200), delay)
    }

    /// The page for a missing file.
    package static let notFound = FixtureRoute.generated(status: 404, title: "404 Not Found", headers: [:])

    /// `Content-Type` for a file name, by extension (`application/octet-stream` when unknown).
    package static func contentType(forPath path: String) -> String {
        let ext =
            path.split(separator: "/").last.flatMap { name -> Substring? in
                guard let dot = name.lastIndex(of: ".") else { return nil }
                return name[name.index(after: dot)...]
            }.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "xml": return "application/xml"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "pdf": return "application/pdf"
        case "woff2": return "font/woff2"
        case "wasm": return "application/wasm"
        case "webmanifest": return "application/manifest+json"
        case "apple-app-site-association": return "application/json"
        default: return "application/octet-stream"
        }
    }

    /// A small HTML page with `title` as both `<title>` and `<h1>`.
    package static func page(title: String, body: String = "") -> [UInt8] {
        let escaped = escapeHTML(title)
        let text =
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>\(escaped)</title></head>"
            + "<body><h1>\(escaped)</h1>\(body.isEmpty ? "" : "<p>" + escapeHTML(body) + "</p>")</body></html>\n"
        return Array(text.utf8)
    }

    // MARK: - helpers

    /// No `..` segment, no NUL, no backslash (after percent-decoding).
    static func isSafe(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\") else { return false }
        return !path.split(separator: "/").contains("..")
    }

    static func split(_ target: String) -> (path: String, query: String) {
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? "/"
        return (path.isEmpty ? "/" : path, parts.count > 1 ? String(parts[1]) : "")
    }

    static func parseQuery(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = percentDecode(String(kv[0]).replacingPlus()) ?? ""
            let value = kv.count > 1 ? percentDecode(String(kv[1]).replacingPlus()) ?? "" : ""
            if result[key] == nil { result[key] = value }
        }
        return result
    }

    /// `%XX` decoding; nil for malformed escapes or invalid UTF-8.
    static func percentDecode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "-._~/:".contains(c) {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func escapeHTML(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}

extension String {
    /// Without a `+` there is nothing to replace: Foundation's search is skipped (it showed once per page load).
    fileprivate func replacingPlus() -> String {
        utf8.contains(UInt8(ascii: "+")) ? replacingOccurrences(of: "+", with: " ") : self
    }
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
