import APNsGateway
import HTTPServer
import PushModel

/// `GET /apns/log` and `GET /apns/deliveries`: the delivery log and the store-and-forward history, a page at a time.
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
        let cursor: (after: UInt64?, limit: Int)
        switch Self.pageCursor(query) {
        case let .success(c): cursor = c
        case let .failure(refusal): return refusal.response
        }
        let page = host.gatewayLogPage(matching: q, after: cursor.after, limit: cursor.limit)
        return Self.pagedAnswer(
            "entries", page.entries.map { ($0.sequence, $0.json) }, hasMore: page.hasMore, after: cursor.after,
            latest: page.latestSequence, evicted: page.evicted)
    }

    /// `GET /apns/deliveries`: the store-and-forward history, paged exactly like the log (`after`, `limit`,
    /// `has_more`, `next_after`, `evicted`); `token` filters.
    func deliveryEvents(_ query: [String: String]) -> HTTPResponse {
        var token: DeviceToken?
        if let t = query["token"] {
            guard let parsed = DeviceToken(hex: t) else { return Self.problem(400, "'\(t)' is not a hex device token") }
            token = parsed
        }
        let cursor: (after: UInt64?, limit: Int)
        switch Self.pageCursor(query) {
        case let .success(c): cursor = c
        case let .failure(refusal): return refusal.response
        }
        let page = host.deliveries(token: token, after: cursor.after, limit: cursor.limit)
        return Self.pagedAnswer(
            "deliveries", page.events.map { event in
                var json = Self.pushJSON(event.push)
                json["sequence"] = .number(Double(event.sequence))
                json["disposition"] = .string(event.disposition.rawValue)
                json["at"] = Self.time(event.at)
                return (event.sequence, .object(json))
            }, hasMore: page.hasMore, after: cursor.after, latest: page.latestSequence, evicted: page.evicted)
    }

    /// A 400 answer to bad paging parameters.
    struct PageRefusal: Error {
        let response: HTTPResponse
    }

    /// `after` and `limit` of a paged read, checked.
    static func pageCursor(_ query: [String: String]) -> Result<(after: UInt64?, limit: Int), PageRefusal> {
        var limit = Self.logPageLimit
        if let l = query["limit"] {
            guard let n = Int(l), (1...Self.logPageLimit).contains(n) else {
                return .failure(PageRefusal(response: Self.problem(
                    400, "limit must be a number from 1 to \(Self.logPageLimit)",
                    extra: ["help": "read more with ?after=<next_after of the previous answer>"])))
            }
            limit = n
        }
        var after: UInt64?
        if let a = query["after"] {
            guard let n = UInt64(a) else {
                return .failure(PageRefusal(response: Self.problem(400, "after must be a sequence number (0 for the oldest)")))
            }
            after = n
        }
        return .success((after, limit))
    }

    /// `{"<key>":[…],"has_more":…,"next_after":…,"evicted":…}`, serialized item by item so the answer stops at
    /// `logAnswerMaxBytes` (always at least one item; `has_more` then says to continue from `next_after`).
    static func pagedAnswer(
        _ key: String, _ items: [(sequence: UInt64, json: JSONValue)], hasMore: Bool, after: UInt64?, latest: UInt64,
        evicted: UInt64
    ) -> HTTPResponse {
        var body: [UInt8] = Array("{\"\(key)\":[".utf8)
        var hasMore = hasMore
        var last: UInt64?
        for (i, item) in items.enumerated() {
            let bytes = item.json.serializedBytes()
            if i > 0 && body.count + bytes.count > Self.logAnswerMaxBytes {
                hasMore = true
                break
            }
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: bytes)
            last = item.sequence
        }
        let nextAfter = last ?? after ?? latest
        let tail: JSONValue = [
            "has_more": .bool(hasMore), "next_after": .number(Double(nextAfter)),
            "evicted": .number(Double(evicted)),
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
