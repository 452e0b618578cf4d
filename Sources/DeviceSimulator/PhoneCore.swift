import Foundation
import PushModel
import Synchronization

/// What a phone's state value (`DeviceState`, `AndroidDeviceState`) offers the lock around it (`PhoneCore`).
protocol PhoneState: Sendable {
    associatedtype Event: Sendable
    /// A registration the state queued for the token service, taken out by the core and answered outside the lock.
    associatedtype TokenRequest: Sendable
    /// Firebase's registration server as the phone's apps see it.
    associatedtype TokenService: Sendable
    /// A token the phone holds (what an online change reports to the sinks).
    associatedtype Token: Sendable

    /// The ordered event log.
    var events: [Event] { get }
    /// True when a token service is attached: registrations wait for it instead of the state issuing seeded tokens.
    var tokenServiceAttached: Bool { get set }
    /// Brings the state up to `now` before an operation (what the clock's advance made due).
    mutating func catchUp(now: Date)
    mutating func takeTokenRequests() -> [TokenRequest]
    /// Every token the phone holds now.
    var currentTokens: [Token] { get }
    /// True for an event whose listeners are handed `currentTokens` (the phone going online or offline): on any
    /// other operation (a push) the tokens are not gathered.
    static func reportsTokens(_ event: Event) -> Bool
    /// Drops the oldest entries of the logs that grow with every push, past their limits (`PhoneLogLimit`).
    mutating func trimLogs()
    /// Asks `service` for `request`'s token (outside the lock: the service has its own).
    static func ask(_ service: TokenService, for request: TokenRequest) -> Result<String, FirebaseTokenRefusal>
    /// Applies the service's answer (an answer for an install since gone is dropped).
    mutating func receiveTokenAnswer(
        _ request: TokenRequest, _ answer: Result<String, FirebaseTokenRefusal>, now: Date)
}

extension PhoneState {
    /// Nothing comes due on the clock alone.
    mutating func catchUp(now: Date) {}
}

/// A phone's state behind a `Mutex`, stamped with the injected clock, and its token service: the one place both
/// phones run an operation (and answer the token registrations it queued, each answer a step of its own).
struct PhoneCore<State: PhoneState>: ~Copyable, Sendable {
    private let state: Mutex<State>
    private let tokenService = Mutex<State.TokenService?>(nil)
    /// The clock events are stamped with.
    let clock: any PushClock

    init(_ state: State, clock: any PushClock) {
        self.state = Mutex(state)
        self.clock = clock
    }

    /// Tokens come from `service` from now on.
    func useTokenService(_ service: State.TokenService) {
        tokenService.withLock { $0 = service }
        state.withLock { $0.tokenServiceAttached = true }
    }

    /// A copy of the whole state.
    var snapshot: State { state.withLock { $0 } }
    func restore(_ saved: State) { state.withLock { $0 = saved } }
    /// Reads the state under the lock.
    func read<R>(_ body: (State) -> R) -> R { state.withLock { body($0) } }

    /// Runs `body` on the state at the current time (after `catchUp`), then, outside the lock, hands the events it
    /// added and the current tokens to `notify` and asks the token service for what it queued, each answer applied
    /// as a step of its own (`answered` follows each). Returns `body`'s result and every event added.
    func perform<T, E: Error>(
        _ body: (inout State, Date) throws(E) -> T,
        notify: ([State.Event], [State.Token]) -> Void,
        answered: (State.TokenRequest, Result<String, FirebaseTokenRefusal>) -> Void
    ) throws(E) -> (result: T, events: [State.Event]) {
        let now = clock.now()
        let (result, events, requests, tokens) = try state.withLock {
            (s: inout State) throws(E) -> (T, [State.Event], [State.TokenRequest], [State.Token]) in
            let before = s.events.count
            s.catchUp(now: now)
            let r = try body(&s, now)
            let added = Array(s.events[before...])
            s.trimLogs()  // after the new events are taken: `before` is an index into the log as it was
            // Gathering every token copied each app's record under the lock, on every push (3.6 % of a device push).
            let tokens = added.contains(where: State.reportsTokens) ? s.currentTokens : []
            return (r, added, s.takeTokenRequests(), tokens)
        }
        notify(events, tokens)
        guard !requests.isEmpty, let service = tokenService.withLock({ $0 }) else { return (result, events) }
        var all = events
        for request in requests {
            let answer = State.ask(service, for: request)
            all +=
                perform(
                    { $0.receiveTokenAnswer(request, answer, now: $1) }, notify: notify, answered: answered
                ).events
            answered(request, answer)
        }
        return (result, all)
    }
}
