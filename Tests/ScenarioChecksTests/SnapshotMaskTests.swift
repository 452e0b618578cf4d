import Foundation
@testable import PushModel
import Testing

@testable import ScenarioChecks

/// What a snapshot masks, and where its file goes.
@Suite struct SnapshotMaskTests {
    @Test func maskRules() {
        let mask = SnapshotMask(ignore: ["user_info.sent_at", "callbacks[*].action", "badge"])
        let value: JSONValue = [
            "apns-id": "x", "token": "y", "timestamp": 5, "user_info": ["sent_at": "t", "keep": "k"],
            "url": "https://127.0.0.1:43117/a", "path": .string("/3/device/" + String(repeating: "ab", count: 32)),
            "callbacks": [["action": "a", "name": "n"]], "aps": ["badge": 3], "gcm.message_id": "1",
        ]
        let masked = mask.apply(value)
        #expect(masked["apns-id"] == SnapshotMask.masked)
        #expect(masked["token"] == SnapshotMask.masked)
        #expect(masked["timestamp"] == "<masked number>", "a masked number stays a number")
        #expect(masked["gcm.message_id"] == SnapshotMask.masked)
        #expect(masked[path: "user_info.sent_at"] == SnapshotMask.ignored)
        #expect(masked[path: "user_info.keep"] == "k")
        #expect(masked["url"] == "https://127.0.0.1:<port>/a")
        #expect(masked["path"] == "/3/device/<token>")
        #expect(masked[path: "callbacks.0.action"] == SnapshotMask.ignored)
        #expect(masked[path: "callbacks.0.name"] == "n")
        #expect(masked[path: "aps.badge"] == SnapshotMask.ignored)
    }

    /// A masked value keeps its JSON type, so a value that changes type under a masked key is a difference:
    /// `"timestamp":1700000000` → `"2023-11-14"` and `"token":"reset-abc"` → `{"v":1}` no longer both read `<masked>`.
    @Test func maskKeepsTheJSONType() {
        let mask = SnapshotMask()
        let before = mask.apply(["timestamp": 1_700_000_000, "token": "reset-abc"])
        let after = mask.apply(["timestamp": "2023-11-14", "token": ["v": 1]])
        #expect(before == ["timestamp": "<masked number>", "token": "<masked>"])
        #expect(after == ["timestamp": "<masked>", "token": "<masked object>"])
        #expect(before != after)
        #expect(
            mask.apply(["token": [1], "sent_at": true]) == ["token": "<masked array>", "sent_at": "<masked bool>"])
        #expect(mask.apply(["token": nil]) == ["token": nil], "null is not masked")
        #expect(mask.apply(before) == before, "a stored snapshot, masked again before the comparison, keeps its types")
        #expect(SnapshotMask.isUntypedMaskOfNonString(stored: "<masked>", now: "<masked number>"))
        #expect(!SnapshotMask.isUntypedMaskOfNonString(stored: "<masked>", now: "x"))
    }

    @Test func snapshotFileBesideTheSuite() {
        #expect(SnapshotStore.file(forSuite: "Suites/a.yaml") == "Suites/__snapshots__/a.yaml.snap.json")
        #expect(SnapshotStore.file(forSuite: "a.yaml") == "__snapshots__/a.yaml.snap.json")
        #expect(SnapshotStore.file(forSuite: "/x/y/a.yml") == "/x/y/__snapshots__/a.yml.snap.json")
    }
}
