import APNsGateway
import Foundation
import HTTPServer
import PushModel
import Synchronization
import YAMLSource

/// Recording that can be switched on and off while `serve` runs: `--record DIR` starts it, and the
/// control endpoint's `POST /apns/recording {"directory": …}` / `DELETE /apns/recording` start and stop it.
/// Attached to the gateway when recording first starts (a gateway with no consumer skips handing pushes
/// on, which the benchmarks rely on); hands pushes to the current `PushRecorder`, if any.
package final class RecordingSwitch: PushDeliveryConsumer {
    private let current = Mutex<PushRecorder?>(nil)
    private let attached = Mutex(false)
    package let gateway: APNsGateway

    package init(gateway: APNsGateway) { self.gateway = gateway }

    package func deliver(_ push: DeliveredPush) {
        current.withLock { $0 }?.deliver(push)
    }

    /// Starts recording into `directory` (replacing a recording in progress).
    package func start(_ directory: String) throws {
        let recorder = try PushRecorder(directory: directory)
        current.withLock { $0 = recorder }
        let attach = attached.withLock { a in
            defer { a = true }
            return !a
        }
        if attach { gateway.addConsumer(self) }
    }

    /// Stops; returns the directory that was being recorded into.
    package func stop() -> String? {
        current.withLock { r in
            defer { r = nil }
            return r?.directory
        }
    }

    package var directory: String? { current.withLock { $0?.directory } }
    package var failures: [String] { current.withLock { $0 }?.failures.withLock { $0 } ?? [] }
}

extension ControlAPI {
    /// `GET|POST|DELETE /apns/recording`.
    func recordingRoute(_ request: HTTPRequest) -> HTTPResponse {
        guard let recording else { return Self.problem(404, "recording is not available on this endpoint") }
        func state() -> HTTPResponse {
            Self.json(
                200,
                [
                    "recording": .bool(recording.directory != nil),
                    "directory": recording.directory.map(JSONValue.string) ?? .null,
                ])
        }
        switch request.method {
        case "GET": return state()
        case "DELETE":
            _ = recording.stop()
            return state()
        case "POST":
            return decodeBody(request) { (node: YAMLNode) throws(SourceError) -> HTTPResponse in
                let m = try YAMLMapping(node)
                try m.checkKeys(allowed: ["directory"])
                let dir: String = try m.required("directory")
                do { try recording.start(dir) } catch {
                    return Self.problem(422, "cannot record to \(dir): \(error.localizedDescription)")
                }
                return state()
            }
        default: return Self.problem(405, "use GET, POST or DELETE on /apns/recording")
        }
    }
}
