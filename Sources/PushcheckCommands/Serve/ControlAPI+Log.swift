import APNsGateway
import HTTPServer
import PushModel

/// `GET /apns/log`: the delivery log, a page at a time.
extension ControlAPI {
    /// Entries per answer when `limit` is not given, and the most `limit` may ask for.
    static let logPageLimit = 1000
    /// An answer stops adding entries past this many bytes of JSON (always at least one entry); `has_more`
    /// then says to continue from `next_after`.
    static let logAnswerMaxBytes = 8 << 20

    /// `?after=<sequence>` walks forward, oldest first; without it, the newest `limit` entries.
    /// Filters: `token`, `topic`, `apns_id`, `apns_unique_id`, `endpoint`, `status`.
    func logEntries(_ query: [String: String]) -> HTTPResponse {
        var q = APNsLogQuery()
        if let t = query["token"] {
            guard let token = DeviceToken(hex: t) else { return Self.problem(400, "'\(t)' is not a hex device token") }
            q.token = token
        }
        q.topic = query["topic"]
        q.apnsID = query["apns_id"]
        q.apnsUniqueID = query["apns_unique_id"]
        if let e = query["endpoint"] {
            guard let env = APNsEnvironment(rawValue: e) else { return Self.problem(400, "endpoint must be sandbox or production") }
            q.endpoint = env
        }
        if let s = query["status"] {
            guard let status = Int(s) else { return Self.problem(400, "status must be a number") }
            q.status = status
        }
        var limit = Self.logPageLimit
        if let l = query["limit"] {
            guard let n = Int(l), (1...Self.logPageLimit).contains(n) else {
                return Self.problem(
                    400, "limit must be a number from 1 to \(Self.logPageLimit)",
                    extra: ["help": "read more with ?after=<next_after of the previous answer>"])
            }
            limit = n
        }
        var after: UInt64?
        if let a = query["after"] {
            guard let n = UInt64(a) else { return Self.problem(400, "after must be a sequence number (0 for the oldest)") }
            after = n
        }
        let page = gateway.logPage(matching: q, after: after, limit: limit)
        // Serialized entry by entry so the answer stops at its byte bound.
        var body: [UInt8] = Array(#"{"entries":["#.utf8)
        var hasMore = page.hasMore
        var last: UInt64?
        for (i, entry) in page.entries.enumerated() {
            let bytes = entry.json.serializedBytes()
            if i > 0 && body.count + bytes.count > Self.logAnswerMaxBytes {
                hasMore = true
                break
            }
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: bytes)
            last = entry.sequence
        }
        let nextAfter = last ?? after ?? page.latestSequence
        let tail: JSONValue = [
            "has_more": .bool(hasMore), "next_after": .number(Double(nextAfter)),
            "evicted": .number(Double(page.evicted)),
        ]
        // `tail` serialized as an object: drop its braces and splice its members after the array.
        var members = tail.serializedBytes()
        members.removeFirst()
        body.append(contentsOf: "],".utf8)
        body.append(contentsOf: members)
        body.append(0x0A)
        return HTTPResponse(status: 200, headers: [HTTPField("content-type", "application/json")], body: body)
    }
}
