import APNsGateway
import DeviceBridge
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import ScenarioChecks

/// The HTML report's hops of one scenario (`TraceEvent`s, through `WorldTrace`), read from what the world
/// recorded — each device event, each APNs gateway log entry (the runner's own sends included), each FCM log
/// entry — as the transcript reads them, plus the arrows of the runner's own steps (a tap, a `run:`, a page load)
/// where the step writes its transcript line. Only built for a run that writes an HTML report (`enabled`).
///
/// The world's records come in per source; `collect` draws them in causal order: a push's FCM request, then its
/// APNs request and answer, then what the device did with it (its `apns-id` ties them), then FCM's answer.
struct TraceRecorder {
    let enabled: Bool
    /// The scenario's start on the world's clock (arrows carry milliseconds after it).
    let start: Date
    private(set) var events: [TraceEvent] = []
    /// What `collect` has read: per device, the last event number; the gateway and FCM logs, sequences.
    private var deviceRead: [String: Int] = [:]
    private var gatewayRead: UInt64 = 0
    private var fcmRead: UInt64 = 0

    init(enabled: Bool, start: Date) {
        self.enabled = enabled
        self.start = start
    }

    /// An arrow of a step of the runner's own (a device action, a `run:` command and its exit).
    mutating func add(_ event: @autoclosure () -> TraceEvent) {
        if enabled { events.append(event()) }
    }

    /// Draws what the world recorded since the last call. `sentByRunner` are the gateway sequences of the
    /// runner's own APNs sends, `fcmSentByRunner` the FCM sequences of its FCM sends, with how long each took on
    /// the wall clock (`roundTrips`, `fcmRoundTrips`: the world's clock stands still between waits); `stepLine` the
    /// step that caused them (nil during setup).
    mutating func collect(
        _ world: ScenarioWorld, sentByRunner: Set<UInt64>, fcmSentByRunner: Set<UInt64>,
        roundTrips: [UInt64: Duration] = [:], fcmRoundTrips: [UInt64: Duration] = [:], stepLine: Int?
    ) {
        guard enabled else { return }
        let gateway = world.host.gatewayEntries(after: gatewayRead)
        let fcm = world.host.fcmLog(after: fcmRead)
        gatewayRead = gateway.last?.sequence ?? gatewayRead
        fcmRead = fcm.last?.sequence ?? fcmRead
        var order = CausalOrder(gateway: gateway, fcm: fcm)
        let start = start
        order.draw = { entry, fcmAPNsIDs in
            let sender = WorldTrace.sender(of: entry, sentByRunner: sentByRunner, fcmAPNsIDs: fcmAPNsIDs)
            return Self.timed(
                WorldTrace.events(for: entry, from: sender, start: start, stepLine: stepLine),
                sender == .runner ? roundTrips[entry.sequence] : nil)
        }
        order.drawFCM = { entry in
            let byRunner = fcmSentByRunner.contains(entry.sequence)
            return Self.timed(
                WorldTrace.events(for: entry, from: byRunner ? .runner : .backend, start: start, stepLine: stepLine),
                byRunner ? fcmRoundTrips[entry.sequence] : nil)
        }
        for d in world.devices {
            if let android = d.android {
                let new = android.events.entries(after: deviceRead[d.name] ?? 0)
                guard let last = new.last else { continue }
                deviceRead[d.name] = last.sequence
                let name = world.devices.count > 1 ? d.name : nil
                for e in new {
                    guard let (kind, src, dst) = Self.androidArrow(e.kind) else { continue }
                    events.append(
                        TraceEvent(
                            kind, from: src, to: dst, label: e.kind.description, device: name, stepLine: stepLine))
                }
                continue
            }
            guard let device = d.iphone else { continue }
            let new = device.events.entries(after: deviceRead[d.name] ?? 0)
            guard let lastRead = new.last else { continue }
            deviceRead[d.name] = lastRead.sequence
            // The device after the step, read once and only when an event draws it.
            var state: DeviceState?
            func now() -> DeviceState {
                if state == nil { state = device.snapshot }
                return state!
            }
            let name = world.devices.count > 1 ? d.name : nil
            let first = events.count
            for e in new {
                switch e.kind {
                case .pushReceived(let id, _), .pushDropped(let id, _), .backgroundPushHeld(let id):
                    order.drawRequests(through: id, into: &events)
                default: break
                }
                events += WorldTrace.events(for: e, device: name, state: now(), start: start, stepLine: stepLine)
            }
            // The screens are the ones after the step: drawn once, on its last navigation.
            if let last = events[first...].lastIndex(where: { $0.navigation != nil }) {
                for i in first..<last { events[i].navigation = nil }
            }
        }
        order.drawRequests(through: nil, into: &events)
    }

    /// How an Android event is drawn: the FCM hop hands a message to the device, the SDK calls the app, the tray
    /// shows a notification, the app's activities change (nil: not drawn).
    static func androidArrow(_ k: AndroidEventKind) -> (TraceEvent.Kind, TraceHop, TraceHop)? {
        switch k {
        case .messageReceived, .messageDeferred: (.delivery, .fcm, .device)
        case .messageDropped: (.dropped, .device, .device)
        case .callback: (.callback, .device, .app)
        case .notificationPosted, .notificationReplaced: (.presented, .device, .device)
        case .activityStarted: (.navigation, .device, .app)
        case .navigation: (.navigation, .app, .router)
        case .webView: (.page, .router, .webView)
        default: nil
        }
    }

    /// A request and its answer with the answer's `took` set to the round trip the runner's client measured.
    static func timed(_ pair: [TraceEvent], _ roundTrip: Duration?) -> [TraceEvent] {
        guard let roundTrip, pair.count == 2 else { return pair }
        var timed = pair
        let (s, atto) = roundTrip.components
        timed[1].durationMilliseconds = ((Double(s) * 1000 + Double(atto) / 1e15) * 100).rounded() / 100
        timed[1].notes.append("took: the round trip the runner's HTTP client measured (wall clock)")
        return timed
    }

    /// Where `failure` is on the diagram: its focus (a status after an FCM send is FCM's answer, not the
    /// gateway's) and the last arrow of that kind on that hop, in `window` (the arrows since the previous
    /// `expect`) if there is one there, else anywhere before.
    func mark(_ failure: AssertionFailure, viaFCM: Bool, window: Int) -> AssertionFailure {
        guard enabled, var focus = failure.focus else { return failure }
        if viaFCM, focus.hop == .apns, focus.kind == .response { focus = TraceFocus(.fcm, .response) }
        var marked = failure
        marked.focus = focus
        marked.traceIndex = focus.index(in: events, from: window) ?? focus.index(in: events)
        return marked
    }
}

/// The gateway and FCM log entries of one `collect`, handed out in causal order: every request up to the one a
/// device event names, an FCM request before the first APNs request it became and its answer after the last.
private struct CausalOrder {
    let gateway: [APNsLogEntry]
    let fcm: [FCMLogEntry]
    var draw: (APNsLogEntry, Set<String>) -> [TraceEvent] = { _, _ in [] }
    var drawFCM: (FCMLogEntry) -> [TraceEvent] = { _ in [] }
    private var next = 0
    /// Per FCM entry: its answer, held until its last APNs request is drawn; nil once drawn or not started.
    private var openFCM: [Int: (answer: [TraceEvent], left: Int)] = [:]
    private var fcmDrawn: Set<Int> = []
    private var fcmByAPNsID: [String: Int] = [:]
    private let fcmAPNsIDs: Set<String>

    init(gateway: [APNsLogEntry], fcm: [FCMLogEntry]) {
        self.gateway = gateway
        self.fcm = fcm
        var ids: Set<String> = []
        for (i, entry) in fcm.enumerated() {
            for hop in entry.apns {
                ids.insert(hop.apnsID)
                fcmByAPNsID[hop.apnsID] = i
            }
        }
        fcmAPNsIDs = ids
    }

    /// Draws the gateway entries up to the one with `apnsID` (all of them for nil; none when no entry left has
    /// it), each FCM request before its first APNs request; an FCM message name (a push FCM accepted but never
    /// sent to APNs) draws that FCM entry. For nil, also every FCM entry not drawn yet.
    mutating func drawRequests(through apnsID: String?, into events: inout [TraceEvent]) {
        if let apnsID, let f = fcm.firstIndex(where: { $0.name == apnsID }), !fcmDrawn.contains(f) {
            fcmDrawn.insert(f)
            events += drawFCM(fcm[f])
        }
        let last: Int
        if let apnsID {
            guard let i = gateway[next...].firstIndex(where: { $0.apnsID == apnsID }) else { return }
            last = i
        } else {
            last = gateway.count - 1
        }
        while next <= last {
            let entry = gateway[next]
            next += 1
            guard let f = fcmByAPNsID[entry.apnsID], !fcmDrawn.contains(f) || openFCM[f] != nil else {
                events += draw(entry, fcmAPNsIDs)
                continue
            }
            if openFCM[f] == nil {
                let pair = drawFCM(fcm[f])
                fcmDrawn.insert(f)
                events += pair.prefix(1)
                openFCM[f] = (Array(pair.dropFirst()), fcm[f].apns.count)
            }
            events += draw(entry, fcmAPNsIDs)
            openFCM[f]!.left -= 1
            if openFCM[f]!.left == 0 {
                events += openFCM[f]!.answer
                openFCM[f] = nil
            }
        }
        guard apnsID == nil else { return }
        // FCM answers whose APNs requests were not all in this batch, then FCM requests that reached no APNs.
        for (f, open) in openFCM.sorted(by: { $0.key < $1.key }) {
            events += open.answer
            openFCM[f] = nil
        }
        for f in fcm.indices where !fcmDrawn.contains(f) {
            fcmDrawn.insert(f)
            events += drawFCM(fcm[f])
        }
    }
}
