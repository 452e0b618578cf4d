import Foundation
import HTTPServer
import PushModel

/// Something the gateway does instead of (or on top of) answering normally.
package enum APNsFaultAction: Sendable, Equatable {
    /// Answer `seconds` later (evaluated normally; the loop is never blocked).
    case delay(seconds: TimeInterval)
    /// Answer with this status and reason instead of evaluating (e.g. 503 Shutdown, 500, 429).
    case respond(status: Int, reason: String)
    /// Evaluate normally; the response to the `afterRequests`-th matching request carries
    /// GOAWAY with `{"reason":…}` debug data, then the connection closes.
    case goAway(reason: String, afterRequests: Int)
    /// Close the connection without answering and without GOAWAY.
    case dropConnection

    /// `.respond` with an Apple reason and its status.
    package static func reject(_ reason: APNsReason) -> APNsFaultAction {
        .respond(status: reason.status, reason: reason.rawValue)
    }
}

/// The three request routes of APNs a fault can be scoped to.
package enum APNsFaultRoute: String, Sendable, Equatable, CaseIterable {
    /// `POST /3/device/<token>`.
    case device
    /// `POST /4/broadcasts/apps/<bundle id>`.
    case broadcast
    /// The channel-management API (`/1/apps/<bundle id>/channels`, `…/all-channels`) on its own listener.
    case channels
}

/// Which requests a fault applies to.
package struct APNsFaultScope: Sendable, Equatable {
    /// `nil`: both endpoints.
    package var endpoint: APNsEnvironment?
    /// `nil`: every device token. A fault scoped to a token never applies to broadcasts or channel requests.
    package var token: DeviceToken?
    /// `nil`: device-token pushes, broadcasts and channel requests alike.
    package var route: APNsFaultRoute?
    package init(endpoint: APNsEnvironment? = nil, token: DeviceToken? = nil, route: APNsFaultRoute? = nil) {
        self.endpoint = endpoint
        self.token = token
        self.route = route
    }
}

/// A fault with a scope and a count ("next N requests"); `remaining == nil` lasts until cleared.
package struct APNsFault: Sendable, Equatable {
    package var id: Int = 0
    package var scope: APNsFaultScope
    package var action: APNsFaultAction
    package var remaining: Int?
    /// Matching requests seen so far (drives `.goAway(afterRequests:)`).
    package var seen: Int = 0

    package init(_ action: APNsFaultAction, scope: APNsFaultScope = APNsFaultScope(), count: Int? = nil) {
        self.action = action
        self.scope = scope
        self.remaining = count
    }
}

/// The faults that apply to one request, after counts were consumed.
package struct APNsFaultEffect: Sendable, Equatable {
    package var delay: TimeInterval = 0
    package var forced: (status: Int, reason: String)?
    package var goAwayReason: String?
    package var drop = false

    /// The answer the faults give instead of the rules: a dropped connection (500, no answer sent) or a forced
    /// status and reason; `nil` when the request is evaluated.
    package var preemptingAnswer: (status: Int, reason: String?, actions: [ConnectionAction])? {
        if drop { return (500, nil, [.drop]) }
        if let forced { return (forced.status, forced.reason, []) }
        return nil
    }

    /// The GOAWAY a `goaway` fault adds to the answer, its debug data `{"reason": …}`.
    package var goAwayAction: ConnectionAction? {
        goAwayReason.map {
            .goAway(errorCode: 0, debugData: JSONValue.object(["reason": .string($0)]).serializedBytes())
        }
    }

    /// Whether a fault changed the answer (the log entry's `fault`).
    package var applied: Bool { drop || forced != nil || goAwayReason != nil || delay > 0 }

    /// The reason the log records for an answer whose reason is `reason`.
    package func loggedReason(_ reason: String?) -> String? { drop ? "connection dropped (fault)" : reason }

    package static func == (a: APNsFaultEffect, b: APNsFaultEffect) -> Bool {
        a.delay == b.delay && a.forced?.status == b.forced?.status && a.forced?.reason == b.forced?.reason
            && a.goAwayReason == b.goAwayReason && a.drop == b.drop
    }
}

/// The active faults. Pure value; per-token faults are listed before endpoint-wide ones when matching.
package struct APNsFaultTable: Sendable, Equatable {
    package private(set) var faults: [APNsFault] = []
    private var nextID = 1

    package init(_ faults: [APNsFault] = []) {
        for f in faults { add(f) }
    }

    /// Adds a fault and returns its id (for `remove`).
    @discardableResult
    package mutating func add(_ fault: APNsFault) -> Int {
        var f = fault
        f.id = nextID
        nextID += 1
        faults.append(f)
        return f.id
    }

    package mutating func remove(id: Int) { faults.removeAll { $0.id == id } }
    package mutating func removeAll() { faults.removeAll() }

    /// Combines every matching fault into one effect and consumes their counts. A forced answer or
    /// drop from a token-scoped fault wins over an endpoint-wide one; delays add up.
    package mutating func apply(
        endpoint: APNsEnvironment, token: DeviceToken?, route: APNsFaultRoute = .device
    ) -> APNsFaultEffect {
        var effect = APNsFaultEffect()
        if faults.isEmpty { return effect }  // the usual case: no ordering, no clean-up pass per push
        let order = faults.indices.sorted {
            (faults[$0].scope.token == nil ? 1 : 0) < (faults[$1].scope.token == nil ? 1 : 0)
        }
        for i in order {
            let f = faults[i]
            if let e = f.scope.endpoint, e != endpoint { continue }
            if let t = f.scope.token, t != token { continue }
            if let r = f.scope.route, r != route { continue }
            if let r = f.remaining, r <= 0 { continue }
            var consumed = true
            switch f.action {
            case .delay(let s): effect.delay += s
            case .respond(let status, let reason):
                if effect.forced == nil && !effect.drop { effect.forced = (status, reason) } else { consumed = false }
            case .dropConnection:
                if effect.forced == nil && !effect.drop { effect.drop = true } else { consumed = false }
            case .goAway(let reason, let after):
                faults[i].seen += 1
                if faults[i].seen >= max(1, after) {
                    effect.goAwayReason = reason
                    faults[i].seen = 0
                } else {
                    consumed = false
                }
            }
            if consumed, let r = faults[i].remaining { faults[i].remaining = r - 1 }
        }
        faults.removeAll { ($0.remaining ?? 1) <= 0 }
        return effect
    }
}
