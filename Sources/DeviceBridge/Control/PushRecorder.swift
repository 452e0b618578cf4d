import APNsGateway
import Foundation
import PushModel
import Synchronization

/// `serve --record DIR`: every push the gateway hands on to a device is written to DIR as one
/// readable JSON file (`0001.json`, `0002.json`, …), for `pushcheck record-suite DIR` to replay.
package final class PushRecorder: Sendable {
    package let directory: String
    private let next: Mutex<Int>
    /// Write failures, for the serve diagnostics (a full disk must not take the gateway down).
    package let failures = Mutex<[String]>([])

    package init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Continue numbering after an earlier recording in the same directory.
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        next = Mutex((existing.compactMap { Int($0.split(separator: ".").first ?? "") }.max() ?? 0) + 1)
    }

    /// Writes `push` as the next file.
    package func record(_ push: DeliveredPush) {
        let n = next.withLock { n in
            defer { n += 1 }
            return n
        }
        let path = directory + "/" + String(format: "%04d", n) + ".json"
        do {
            try Data((Self.record(push).prettySerialized() + "\n").utf8).write(
                to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            failures.withLock { $0.append("\(path): \(error.localizedDescription)") }
        }
    }

    /// The recording of one push: what a replay needs (headers that change behaviour, the payload as sent). Not
    /// recorded: `apns-expiration` (a replay delivers to an online device either way), `apns-id`, the token.
    package static func record(_ push: DeliveredPush) -> JSONValue {
        var o: [String: JSONValue] = [
            "environment": .string(push.environment.rawValue), "topic": .string(push.topic),
            "push_type": .string(push.pushType.rawValue), "priority": .number(Double(push.priority.rawValue)),
            "received_at": .string(ISO8601.string(push.receivedAt)),
            "payload": (try? JSONValue.parse(push.payload)) ?? .string(String(decoding: push.payload, as: UTF8.self)),
        ]
        if let c = push.collapseID { o["collapse_id"] = .string(c) }
        // `payload` is readable JSON (keys sorted, numbers rewritten: `1.0` is `1`); the bytes as sent, when they
        // differ, so a replay sends them unchanged.
        if let parsed = o["payload"], parsed.serializedBytes() != push.payload {
            o["payload_text"] = .string(String(decoding: push.payload, as: UTF8.self))
        }
        return .object(o)
    }
}
