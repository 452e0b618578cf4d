import DeviceSimulator
import Foundation
import HTTPServer
import PushModel
import YAMLSource

/// `GET /devices/{name}/events?since=SEQ&wait=5s&type=a,b`: the device's events after `since`, only the
/// given `type`s; with `wait`, the answer is held until at least one such event exists or the wait runs out
/// (a long poll, so a CI script needs no sleep loop). Unknown parameters are a 400, not ignored: a typo
/// (`?snce=`) would otherwise silently return every event.
struct DeviceEventsQuery: Equatable {
    static let keys = ["since", "wait", "type"]
    /// Longest hold a request may ask for.
    static let maxWait: Duration = .seconds(60)

    var since = 0
    var wait: Duration = .zero
    /// Event types (`"type"` of the event JSON); empty = every type.
    var types: Set<String> = []

    /// Parses the query; the error is the message of a 400.
    static func parse(_ query: [String: String]) -> Result<DeviceEventsQuery, QueryError> {
        var q = DeviceEventsQuery()
        if let unknown = QueryError.unknownParameter(in: query, known: keys) { return .failure(unknown) }
        if let s = query["since"] {
            guard let n = Int(s), n >= 0 else {
                return .failure(QueryError("since must be a sequence number (0 or more)"))
            }
            q.since = n
        }
        if let w = query["wait"] {
            let text = Double(w) != nil ? w + "s" : w  // a bare number means seconds
            guard let node = try? YAMLLoader.load(string: text, file: "wait"), let d = try? Duration.decode(from: node)
            else { return .failure(QueryError("wait must be a duration such as 5s or 500ms (got '\(w)')")) }
            guard d <= maxWait else { return .failure(QueryError("wait is at most 60s (got '\(w)')")) }
            q.wait = d
        }
        if let t = query["type"] {
            q.types = Set(t.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
            guard !q.types.isEmpty else { return .failure(QueryError("type must name at least one event type")) }
        }
        return .success(q)
    }

    /// The events JSON (`{"device","events","last_seq"}`), filtered by type.
    func answer(_ device: HostedDevice) -> JSONValue {
        let all = device.eventsJSON(since: since)
        guard !types.isEmpty, case .array(let events)? = all["events"] else { return all }
        let kept = events.filter { types.contains($0["type"]?.stringValue ?? "") }
        var object = all.objectValue ?? [:]
        object["events"] = .array(kept)
        return .object(object)
    }

    /// True when the answer holds at least one event.
    func hasEvents(_ device: HostedDevice) -> Bool {
        if case .array(let e)? = answer(device)["events"] { return !e.isEmpty }
        return false
    }
}

/// A bad query string (answered with 400).
struct QueryError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }

    /// The first query parameter not in `known`, with a did-you-mean: every control route that reads a query refuses
    /// the others, since a typo (`?stauts=403`, `?snce=`) would otherwise answer everything and a check on it pass on
    /// the wrong data. Nil when all are known.
    static func unknownParameter(in query: [String: String], known: [String]) -> QueryError? {
        guard let key = query.keys.sorted().first(where: { !known.contains($0) }) else { return nil }
        let hint = Spelling.closest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? ""
        return QueryError("unknown query parameter '\(key)' (known: \(known.joined(separator: ", ")))\(hint)")
    }
}

extension ControlAPI {
    /// A long poll of `/devices/{name}/events` (nil for every other request, and for a poll with no wait):
    /// answered from a task that checks the device every 20 ms until an event matches or the wait is over.
    func pendingEventsPoll(_ request: HTTPRequest) -> (@Sendable () async -> HTTPResponse)? {
        guard request.method == "GET" else { return nil }
        let (path, query) = Self.split(request.path)
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 3, parts[0] == "devices", parts[2] == "events",
            case .success(let q) = DeviceEventsQuery.parse(query), q.wait > .zero,
            let device = fleet?.device(named: parts[1].removingPercentEncoding ?? parts[1])
        else { return nil }
        return {
            let deadline = ContinuousClock.now + q.wait
            while !q.hasEvents(device), ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(20))
            }
            return Self.json(200, q.answer(device).objectValue ?? [:])
        }
    }
}
