import Dispatch
import Foundation
import HTTPServer
import HTTPTypes

/// Serves a directory of pages (`Suites/pages/`) for web-view scenarios, following `FixtureRoute`.
///
/// Files are read on the loop thread (pages are small); `?delay=` answers later from a Dispatch timer so the
/// loop never sleeps. A path that resolves (through symlinks) outside the root is refused with `403`.
/// `HEAD` over HTTP/2 gets the headers with an empty body (HTTP/1.1 strips the body in the transport).
package struct StaticFileHandler: HTTPHandler {
    /// The directory served, as given.
    package let root: String
    private let resolvedRoot: String

    /// Serves `root`. The directory need not exist yet; missing files are `404`s.
    package init(root: String) {
        self.root = root
        resolvedRoot = Self.realPath(root) ?? (root as NSString).standardizingPath
    }

    package func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        let (route, delay) = FixtureRoute.decide(method: request.method, target: request.path)
        var response = respond(to: route)
        if request.method == "HEAD", request.version == .http2 { response.body = [] }
        if delay > 0 {
            let delayed = response
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) { responder.respond(delayed) }
        } else {
            responder.respond(response)
        }
    }

    /// The response for a route (reads the file for `.file`).
    package func respond(to route: FixtureRoute) -> HTTPResponse {
        switch route {
        case let .generated(status, title, headers):
            var fields = [
                HTTPField("content-type", "text/html; charset=utf-8"), HTTPField("cache-control", "no-store"),
            ]
            fields += headers.sorted { $0.key < $1.key }.map { HTTPField($0.key, $0.value) }
            return HTTPResponse(status: status, headers: fields, body: FixtureRoute.page(title: title))
        case let .redirect(location):
            return HTTPResponse(
                status: 302,
                headers: [HTTPField("location", location), HTTPField("content-type", "text/html; charset=utf-8")],
                body: FixtureRoute.page(title: "302 Found", body: location))
        case let .file(relativePath, status):
            guard let (path, bytes) = read(relativePath) else {
                // Say which file was looked for, so a 404 points at the pages directory, not at the push.
                let looked = (root as NSString).appendingPathComponent(relativePath)
                return HTTPResponse(
                    status: 404,
                    headers: [
                        HTTPField("content-type", "text/html; charset=utf-8"), HTTPField("cache-control", "no-store"),
                    ],
                    body: FixtureRoute.page(
                        title: "404 Not Found",
                        body: "pushcheck fixture server: no file \(looked) (pages directory \(root))"))
            }
            return HTTPResponse(
                status: status,
                headers: [
                    HTTPField("content-type", FixtureRoute.contentType(forPath: path)),
                    HTTPField("cache-control", "no-store"),
                ],
                body: bytes)
        }
    }

    /// The file's resolved path and bytes, or nil when it is missing, unreadable or outside the root.
    /// With `stat`, `open` and `read` (FileManager's `fileExists` and `contents`, and the copy out of `Data`, showed
    /// in the runner's profile: one page per scenario).
    private func read(_ relativePath: String) -> (String, [UInt8])? {
        var candidate = resolvedRoot + "/" + relativePath
        var status = stat()
        guard stat(candidate, &status) == 0 else { return nil }
        if status.st_mode & S_IFMT == S_IFDIR { candidate += "/index.html" }
        guard let resolved = Self.realPath(candidate), resolved.hasPrefix(resolvedRoot + "/") else { return nil }
        return Self.contents(resolved).map { (resolved, $0) }
    }

    /// The file's bytes, or nil when it cannot be opened or read.
    private static func contents(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        var bytes = [UInt8](repeating: 0, count: fstat(fd, &status) == 0 ? max(Int(status.st_size), 0) + 1 : 4096)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let n = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    static func realPath(_ path: String) -> String? {
        guard let pointer = Foundation.realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
