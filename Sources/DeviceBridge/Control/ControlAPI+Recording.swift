import APNsGateway
import Foundation
import HTTPServer
import PushModel
import Synchronization
import YAMLSource

/// Recording that can be switched on and off while `serve` runs: `--record DIR` starts it, and the
/// control endpoint's `POST /apns/recording {"directory": …}` / `DELETE /apns/recording` start and stop it.
/// The fleet hands it every push it hands on (`DeviceFleet.deliver`); it writes them to the current
/// `PushRecorder`, if any.
package final class RecordingSwitch: Sendable {
    private let current = Mutex<PushRecorder?>(nil)
    /// Whether a recorder is set, readable without the lock (checked for every push).
    private let isOn = Atomic<Bool>(false)
    private let started = Mutex<(@Sendable () -> Void)?>(nil)

    package init() {}

    /// `action` runs each time recording starts (the fleet attaches itself to the gateway then).
    func onStart(_ action: @escaping @Sendable () -> Void) { started.withLock { $0 = action } }

    /// Writes `push` when recording.
    func record(_ push: DeliveredPush) {
        guard isOn.load(ordering: .acquiring) else { return }
        current.withLock { $0 }?.record(push)
    }

    /// Starts recording into `directory` (replacing a recording in progress).
    package func start(_ directory: String) throws {
        let recorder = try PushRecorder(directory: directory)
        current.withLock {
            $0 = recorder
            isOn.store(true, ordering: .releasing)
        }
        started.withLock { $0 }?()
    }

    /// Stops; returns the directory that was being recorded into.
    package func stop() -> String? {
        current.withLock { r in
            defer {
                r = nil
                isOn.store(false, ordering: .releasing)
            }
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
