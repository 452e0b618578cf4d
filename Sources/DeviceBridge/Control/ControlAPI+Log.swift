import APNsGateway
import HTTPServer
import HTTPTypes
import PushModel

/// `GET /apns/log` and `GET /apns/deliveries`: the delivery log and the store-and-forward history, a page at a time.
extension ControlAPI {
    /// Entries per answer when `limit` is not given, and the most `limit` may ask for.
    static let logPageLimit = 1000
    /// An answer stops adding entries past this many bytes of JSON (always at least one entry); `has_more`
    /// then says to continue from `next_after`.
    static let logAnswerMaxBytes = 8 << 20

    /// `?after=<sequence>` walks forward, oldest first; without it, the newest `limit` entries.
    /// Filters: `token`, `topic`, `apns_id`, `apns_unique_id`, `endpoint`, `status`, `channel_id`.
    func logEntries(_ query: [String: String]) -> HTTPResponse {
        if let refusal = Self.unknownParameter(query, known: Self.logParameters) { return refusal.response }
        var q = APNsLogQuery()
        switch Self.tokenFilter(query) {
        case let .success(token): q.token = token
        case let .failure(refusal): return refusal.response
        }
        q.topic = query["topic"]
        q.apnsID = query["apns_id"]
        q.apnsUniqueID = query["apns_unique_id"]
        q.channelID = query["channel_id"]
        if let e = query["endpoint"] {
            guard let env = APNsEnvironment(rawValue: e) else {
                return Self.problem(400, "endpoint must be sandbox or production")
            }
            q.endpoint = env
        }
        if let s = query["status"] {
            guard let status = Int(s) else { return Self.problem(400, "status must be a number") }
            q.status = status
        }
        return Self.paged("entries", query) { after, limit in
            let page = host.gatewayLogPage(matching: q, after: after, limit: limit)
            return (page.entries.map { ($0.sequence, $0.json) }, page.hasMore, page.latestSequence, page.evicted)
        }
    }

    /// `GET /apns/deliveries`: the store-and-forward history, paged exactly like the log (`after`, `limit`,
    /// `has_more`, `next_after`, `evicted`); `token` filters.
    func deliveryEvents(_ query: [String: String]) -> HTTPResponse {
        if let refusal = Self.unknownParameter(query, known: ["after", "limit", "token"]) { return refusal.response }
        let token: DeviceToken?
        switch Self.tokenFilter(query) {
        case let .success(t): token = t
        case let .failure(refusal): return refusal.response
        }
        return Self.paged("deliveries", query) { after, limit in
            let page = host.deliveries(token: token, after: after, limit: limit)
            let items = page.events.map { event in
                var json = Self.pushJSON(event.push)
                json["sequence"] = .number(Double(event.sequence))
                json["disposition"] = .string(event.disposition.rawValue)
                json["at"] = Self.time(event.at)
                return (event.sequence, JSONValue.object(json))
            }
            return (items, page.hasMore, page.latestSequence, page.evicted)
        }
    }

    /// One page of a sequenced history, as `fetch` reads it from the host.
    typealias FetchedPage = (
        items: [(sequence: UInt64, json: JSONValue)], hasMore: Bool, latest: UInt64, evicted: UInt64
    )

    /// The one paged read behind both routes: checks `after` and `limit` (400 when wrong), reads that page with
    /// `fetch` and answers it under `key`.
    static func paged(
        _ key: String, _ query: [String: String], fetch: (_ after: UInt64?, _ limit: Int) -> FetchedPage
    ) -> HTTPResponse {
        let cursor: (after: UInt64?, limit: Int)
        switch pageCursor(query) {
        case let .success(c): cursor = c
        case let .failure(refusal): return refusal.response
        }
        let page = fetch(cursor.after, cursor.limit)
        return pagedAnswer(
            key, page.items, hasMore: page.hasMore, after: cursor.after, latest: page.latest, evicted: page.evicted)
    }

    /// The `token` filter both routes take, checked (nil when not given).
    static func tokenFilter(_ query: [String: String]) -> Result<DeviceToken?, PageRefusal> {
        guard let t = query["token"] else { return .success(nil) }
        guard let token = DeviceToken(hex: t) else {
            return .failure(PageRefusal(response: problem(400, "'\(t)' is not a hex device token")))
        }
        return .success(token)
    }

    /// What `GET /apns/log` reads of its query.
    static let logParameters = [
        "after", "limit", "token", "topic", "apns_id", "apns_unique_id", "endpoint", "status", "channel_id",
    ]

    /// `QueryError.unknownParameter` as the 400 of a paged read.
    static func unknownParameter(_ query: [String: String], known: [String]) -> PageRefusal? {
        QueryError.unknownParameter(in: query, known: known).map { PageRefusal(response: problem(400, $0.message)) }
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
                return .failure(
                    PageRefusal(
                        response: Self.problem(
                            400, "limit must be a number from 1 to \(Self.logPageLimit)",
                            extra: ["help": "read more with ?after=<next_after of the previous answer>"])))
            }
            limit = n
        }
        var after: UInt64?
        if let a = query["after"] {
            guard let n = UInt64(a) else {
                return .failure(
                    PageRefusal(response: Self.problem(400, "after must be a sequence number (0 for the oldest)")))
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
