import Foundation
import HTTPServer
import PushModel
import Synchronization

/// The mock APNs provider API: validation, token and certificate auth, device-token registry,
/// rate limits, faults, store-and-forward, broadcast channels and a delivery log. Use it in-process through `evaluate(_:)` (an
/// `APNsPushRequest`) or on sockets through `handler(for:)`, which adapts each HTTP request to one.
package final class APNsGateway: Sendable {
    struct State: Sendable {
        var tokenRules: ProviderTokenRules
        var teamTopics: [String: Set<String>]
        var registry: DeviceTokenRegistry
        var limiter: PerTokenRateLimiter
        var faults: APNsFaultTable
        var store: StoreAndForward
        var log: APNsDeliveryLog
        var maxConcurrentStreams: UInt32
        var oneStreamUntilValidToken: Bool
        /// Broadcast channels of both environments and their stored messages.
        var channels: BroadcastChannelStore
    }

    /// The time source for every rule (JWT age, token expiry, rate limits, storage).
    package let clock: any PushClock
    /// The configuration the gateway started with (what `reset()` returns to).
    package let configuration: APNsGatewayConfiguration
    let state: Mutex<State>
    /// Where accepted pushes go: one consumer (a world's device fleet), or none.
    let consumer = Mutex<(any PushDeliveryConsumer)?>(nil)
    /// Whether `consumer` is set, readable without the lock the two loops would otherwise take for every push.
    let hasConsumer = Atomic<Bool>(false)
    let appender: Mutex<JSONLinesAppender?>
    /// Seeds the generated channel ids (`broadcast.seed`, or drawn once per gateway), so `reset()` brings the
    /// configured channels back with the same ids.
    let channelSeed: UInt64

    /// Builds a gateway; fails only when the log file cannot be opened.
    package init(
        configuration: APNsGatewayConfiguration = APNsGatewayConfiguration(), clock: any PushClock = SystemClock()
    )
        throws(APNsConfigurationError)
    {
        self.clock = clock
        self.configuration = configuration
        let channelSeed = configuration.broadcast.seed ?? UInt64.random(in: 0...UInt64.max)
        self.channelSeed = channelSeed
        self.state = Mutex(Self.initialState(configuration, channelSeed: channelSeed, now: clock.now()))
        if let path = configuration.logFilePath {
            appender = Mutex(try JSONLinesAppender(path: path))
        } else {
            appender = Mutex(nil)
        }
    }

    static func initialState(_ c: APNsGatewayConfiguration, channelSeed: UInt64, now: Date) -> State {
        var channels = BroadcastChannelStore(
            limit: c.broadcast.channelLimit, seed: channelSeed, rateLimit: c.broadcast.rateLimit)
        for d in c.broadcast.channels {
            if let id = d.channelID {
                _ = channels.add(
                    id: id, bundleID: d.bundleID, in: d.environment, policy: d.storagePolicy, now: now)
            } else {
                _ = channels.create(bundleID: d.bundleID, in: d.environment, policy: d.storagePolicy, now: now)
            }
        }
        return State(
            tokenRules: ProviderTokenRules(keys: c.providerKeys), teamTopics: c.teamTopics,
            registry: DeviceTokenRegistry(c.deviceTokens, acceptUnknownTokens: c.acceptUnknownTokens),
            limiter: PerTokenRateLimiter(limit: c.rateLimit), faults: APNsFaultTable(c.faults),
            store: StoreAndForward(
                onlineByDefault: c.devicesOnlineByDefault, historyCapacity: c.deliveryHistoryCapacity),
            log: APNsDeliveryLog(limits: c.logLimits), maxConcurrentStreams: c.maxConcurrentStreams,
            oneStreamUntilValidToken: c.oneStreamUntilValidToken, channels: channels)
    }

    /// The `HTTPHandler` to mount on the listener for `endpoint`.
    package func handler(for endpoint: APNsEnvironment) -> APNsHTTPHandler {
        APNsHTTPHandler(apns: self, endpoint: endpoint)
    }

    /// Initial SETTINGS_MAX_CONCURRENT_STREAMS for a new connection: 1 for connections without a
    /// client certificate (until a valid provider token), otherwise the configured maximum.
    func initialMaxConcurrentStreams(for connection: ConnectionContext) -> UInt32 {
        let (maxStreams, oneStream) = state.withLock { ($0.maxConcurrentStreams, $0.oneStreamUntilValidToken) }
        if case .tls(_, let cert?) = connection.security, !cert.isEmpty { return maxStreams }
        return oneStream ? 1 : maxStreams
    }

    // MARK: Runtime control

    /// Adds or replaces a device token.
    package func registerToken(_ entry: RegisteredDeviceToken) { state.withLock { $0.registry.register(entry) } }

    /// Marks a token unregistered (410 Unregistered with `at`, default now). False if unknown.
    @discardableResult
    package func unregisterToken(_ token: DeviceToken, at date: Date? = nil) -> Bool {
        let when = date ?? clock.now()
        return state.withLock { $0.registry.unregister(token, at: when) }
    }

    /// Forgets a token (BadDeviceToken afterwards).
    package func removeToken(_ token: DeviceToken) { state.withLock { $0.registry.remove(token) } }

    /// The registry's current content.
    package var registeredTokens: [RegisteredDeviceToken] {
        state.withLock { Array($0.registry.entries.values) }.sorted { $0.token.hex < $1.token.hex }
    }

    /// Load-test mode on/off.
    func setAcceptUnknownTokens(_ on: Bool) { state.withLock { $0.registry.acceptUnknownTokens = on } }

    /// Adds or replaces a provider key.
    package func addProviderKey(_ key: APNsProviderKey) { state.withLock { $0.tokenRules.keys[key.keyID] = key } }

    /// Sets the bundle IDs a team may push to (`nil`: any).
    func setTeamTopics(_ teamID: String, _ topics: Set<String>?) {
        state.withLock { $0.teamTopics[teamID] = topics }
    }

    /// Sets or clears (`nil`) the per-token rate limit.
    func setRateLimit(_ limit: APNsRateLimit?) {
        state.withLock {
            $0.limiter.limit = limit
            $0.limiter.reset()
        }
    }

    /// Adds a fault; returns its id for `removeFault`.
    @discardableResult
    package func addFault(_ fault: APNsFault) -> Int { state.withLock { $0.faults.add(fault) } }
    package func removeFault(id: Int) { state.withLock { $0.faults.remove(id: id) } }
    package func clearFaults() { state.withLock { $0.faults.removeAll() } }
    /// The active faults with their remaining counts.
    package var activeFaults: [APNsFault] { state.withLock { $0.faults.faults } }

    /// Sets (or, with `nil`, removes) the one receiver of accepted pushes.
    package func setConsumer(_ consumer: (any PushDeliveryConsumer)?) {
        self.consumer.withLock {
            $0 = consumer
            hasConsumer.store(consumer != nil, ordering: .releasing)
        }
    }

    /// Brings the device of a token whose reachability the gateway keeps online (stored pushes are handed over,
    /// expired ones dropped) or offline. For a token `followRecipientReachability` marks, the device decides.
    package func setDeviceOnline(_ token: DeviceToken, _ online: Bool) {
        let now = clock.now()
        let due = state.withLock { $0.store.setOnline(token, online, now: now) }
        for push in due { hand(push, packed: nil, now: now) }
    }

    /// Whether pushes for `token` are handed on now (for a token its device follows, the device may still answer
    /// offline: ask it).
    package func isDeviceOnline(_ token: DeviceToken) -> Bool { state.withLock { $0.store.isOnline(token) } }

    /// From now on `token`'s reachability is its device's: pushes are handed to the consumer, which answers
    /// `recipientOffline` for an offline device (the push is then kept). No copy of the device's state is kept here.
    package func followRecipientReachability(of token: DeviceToken) {
        state.withLock { $0.store.followRecipient(token) }
    }

    /// The device holding `token` came online: the pushes kept for it are handed on, oldest first (expired ones
    /// dropped), until it answers offline again.
    package func recipientCameOnline(_ token: DeviceToken) {
        let now = clock.now()
        while let push = state.withLock({ $0.store.takeOldestValid(for: token, now: now) }),
            handOff(push, packed: PackedDeliveryEvent(push, .delivered, at: now), now: now) == .delivered
        {}
    }

    /// Pushes stored for an offline device, oldest first.
    package func storedPushes(for token: DeviceToken) -> [DeliveredPush] {
        state.withLock { $0.store.storedPushes(for: token) }
    }

    /// What happened to accepted pushes (delivered, stored, dropped, superseded), oldest first.
    var deliveryHistory: [DeliveryEvent] { state.withLock { $0.store.history } }

    /// Log entries matching `query`, oldest first.
    package func log(matching query: APNsLogQuery = APNsLogQuery()) -> [APNsLogEntry] {
        // Copied out packed (a retain per entry) and unpacked outside the lock, which every push takes.
        state.withLock { $0.log.packedEntries }.lazy.map(\.entry).filter(query.matches)
    }

    package func clearLog() { state.withLock { $0.log.removeAll() } }

    /// Back to the configuration: tokens, keys, faults, limits; log, storage and history emptied.
    /// The consumer stays attached.
    package func reset() {
        let fresh = Self.initialState(configuration, channelSeed: channelSeed, now: clock.now())
        state.withLock { $0 = fresh }
    }

    /// Hands a push recorded as delivered to the consumer (none: nothing to do). Should the consumer's device
    /// answer offline after all (its token's reachability not followed yet), the push is kept.
    func hand(_ push: DeliveredPush, packed: PackedDeliveryEvent?, now: Date) {
        guard hasConsumer.load(ordering: .acquiring),
            consumer.withLock({ $0 })?.deliver(push) == .recipientOffline
        else { return }
        let packed = packed ?? PackedDeliveryEvent(push, .stored, at: now)
        let dropped = state.withLock { $0.store.keep(push, packed: packed, now: now) }
        withExtendedLifetime(dropped) {}
    }

    /// Hands `push` to the consumer and records what its device did with it (delivered, or kept while offline).
    @discardableResult
    func handOff(_ push: DeliveredPush, packed: PackedDeliveryEvent, now: Date) -> PushHandOff {
        let result = consumer.withLock({ $0 })?.deliver(push) ?? .delivered
        let dropped = state.withLock { $0.store.handedOff(push, result, packed: packed, now: now) }
        withExtendedLifetime(dropped) {}
        return result
    }

    /// Appends to the JSON-lines file, when one is configured. The provider token's signature stays out of the file
    /// (`TraceEvent.redactedAuthorization`: header and claims kept, for `iat` and `kid`): a staging backend signs
    /// with its real Apple key, and a token on disk would work against APNs for up to an hour.
    func writeToLogFile(_ packed: PackedLogEntry, sequence: UInt64) {
        guard configuration.logFilePath != nil else { return }
        var stored = packed
        stored.sequence = sequence
        var entry = stored.entry
        for i in entry.headers.indices where entry.headers[i].name == "authorization" {
            entry.headers[i].value = TraceEvent.redactedAuthorization(entry.headers[i].value)
        }
        appender.withLock { $0?.append(entry) }
    }
}
