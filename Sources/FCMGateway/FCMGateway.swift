import APNsGateway
import Foundation
import HTTPServer
import HTTPTypes
import PushCrypto
import PushModel
import Synchronization

/// The mock FCM HTTP v1 service: OAuth token endpoint, `messages:send`, topic management (Instance ID and the v1
/// registrations API) and the shut-down legacy API. Sends to iOS instances are translated and pushed through an
/// `APNsGateway` (the world's), with the project's APNs credentials, so APNs' answer becomes the FCM error a real
/// sender sees; sends to Android instances go, as typed `AndroidMessage`s, to an `FCMAndroidDeliveryConsumer`. Use it in-process through `evaluate(_:)` or on sockets through `handler`.
package final class FCMGateway: Sendable {
    /// A registered token with its project. One shared, immutable object (unregistering replaces it): a send's
    /// look-up under the lock copies one reference, not the entry's strings, and a send's recipients are these.
    final class TokenRecord: Sendable {
        let project: String
        let entry: FCMRegisteredToken
        /// The APNs path of a push to `entry.apnsToken` (made once here, not once per send).
        let apnsPath: String?
        var token: String { entry.token }
        init(project: String, entry: FCMRegisteredToken) {
            self.project = project
            self.entry = entry
            apnsPath = entry.apnsToken.map(APNsPushRequest.path(to:))
        }
    }

    /// Tokens, topics, quota windows and faults. The access tokens, the log and the provider tokens have locks of
    /// their own: each send takes each of them once, and with one lock for everything the two event loops would
    /// wait on each other for it.
    struct State: Sendable {
        var tokens: [String: TokenRecord] = [:]
        var subscriptions: [String: Set<String>] = [:]
        var deviceSends: [String: [Date]] = [:]
        var projectSends: [String: [Date]] = [:]
        var faults: [FCMFault] = []
        var nextFaultID = 1
        /// The last token a send looked up and its record (a token from Google is ~150 bytes). Forgotten whenever
        /// `tokens` changes.
        var lastRecord = LastLookup<TokenRecord>()

        /// `tokens[token]`, through the last look-up.
        mutating func record(_ token: String) -> TokenRecord? { lastRecord.find(token, in: tokens) }

        /// Sets `tokens[token]` (and forgets the last look-up).
        mutating func setRecord(_ record: TokenRecord, for token: String) {
            tokens[token] = record
            lastRecord.forget()
        }
    }

    /// The log is a ring of `logCapacity` entries: each send drops at most one old entry (freed outside the lock),
    /// where trimming a plain array in batches freed a whole capacity's entries inside one send.
    struct LogState: Sendable {
        var entries: FCMLogRing
        var sequence: UInt64 = 0
        init(capacity: Int) { entries = FCMLogRing(capacity: capacity) }
    }

    package let configuration: FCMGatewayConfiguration
    package let clock: any PushClock
    /// Where translated pushes go.
    package let apns: APNsGateway
    let state: Mutex<State>
    /// Issued access tokens by their text; each one a shared object so a send's look-up under the lock copies one
    /// reference (not three strings and a set), with its scope check done once at issue.
    let accessTokens = Mutex(AccessTokenTable())

    /// Issued tokens, and the `authorization` header values already read to one of them (a sender repeats the same
    /// header on every send: the verdict's look-up then neither trims nor copies the token out of it). Tokens are
    /// never withdrawn, so a remembered header stays right; the memo is emptied when it reaches `maxMemo`.
    struct AccessTokenTable {
        var issued: [String: IssuedAccessToken] = [:]
        var byHeader: [String: IssuedAccessToken] = [:]
        /// The last header value read and its token: a sender's next send usually repeats it.
        var lastIssued = LastLookup<IssuedAccessToken>()
        static let maxMemo = 256

        /// The remembered token for `header`, if any (the last one, else the memo).
        mutating func known(_ header: String) -> IssuedAccessToken? { lastIssued.find(header, in: byHeader) }
    }

    final class IssuedAccessToken: Sendable {
        let value: FCMAccessToken
        let allowsMessaging: Bool
        /// The projects (ids or numbers) of the first service account with the token's email, empty for all of
        /// them; `nil` when no account has that email (the configuration does not change, so this is read once).
        let accountProjects: Set<String>?
        init(_ value: FCMAccessToken, accounts: [FCMServiceAccount]) {
            self.value = value
            allowsMessaging = FCMOAuth.allowsMessaging(value.scopes)
            accountProjects = accounts.first(where: { $0.clientEmail == value.clientEmail })?.projects
        }

        /// Whether the token's service account may use `project`.
        func allows(_ project: FCMProject) -> Bool { allows(id: project.id, number: project.number) }

        /// `allows(_:)` by the project's id and number. An account names a project or two: comparing each (short
        /// strings compare by their bits) costs less than hashing `id` and `number` on every send.
        func allows(id: String, number: String) -> Bool {
            guard let p = accountProjects else { return false }
            if p.count <= 4 { return p.isEmpty || p.contains { $0 == id || $0 == number } }
            return p.contains(id) || p.contains(number)
        }
    }

    /// What a send needs of a configured project besides its configuration, made once: its in-process APNs
    /// connection and the fixed part of its message names. One shared object, so a send does not copy the
    /// project's fields (strings, token list, credentials) to use them.
    final class ProjectRuntime: Sendable {
        let project: FCMProject
        /// What a send reads of `project`, each on its own (reading `project` as a whole copies all its fields).
        let id: String
        let number: String
        let quota: FCMQuota
        let apnsEnvironment: APNsEnvironment?
        /// One in-process APNs connection per project id (the provider-token binding lives on it).
        let connection: APNsInProcessConnection
        let connectionFacts: APNsConnectionFacts
        /// A message name's fixed parts: `projects/<id>/messages/` before a topic or condition send's id,
        /// `projects/<id>/messages/0:` and `%<16 hex digits>` around a token send's.
        let fanOutNamePrefix: [UInt8]
        let tokenNamePrefix: [UInt8]
        let tokenNameSuffix: [UInt8]
        /// The prefixes as they appear inside the answer's JSON string (`FCMMessageName.writeJSONString`).
        let fanOutNamePrefixEscaped: [UInt8]
        let tokenNamePrefixEscaped: [UInt8]
        /// The project's provider token as an `authorization` value, and when it was signed (re-signed every 30
        /// minutes; APNs refuses more than one change per 20). Here rather than in a table by project id: a send
        /// neither hashes the id nor takes a lock shared with the other projects.
        let providerToken = Mutex<(authorization: String, issuedAt: Date)?>(nil)
        init(project: FCMProject, connection: APNsInProcessConnection) {
            self.project = project
            id = project.id
            number = project.number
            quota = project.quota
            apnsEnvironment = project.apns?.environment
            self.connection = connection
            connectionFacts = connection.facts
            fanOutNamePrefix = Array("projects/\(project.id)/messages/".utf8)
            tokenNamePrefix = Array("projects/\(project.id)/messages/0:".utf8)
            tokenNameSuffix = Array("%\(FCMGateway.messageSuffix(project: project))".utf8)
            fanOutNamePrefixEscaped = FCMMessageName.escaped(fanOutNamePrefix)
            tokenNamePrefixEscaped = FCMMessageName.escaped(tokenNamePrefix)
        }
    }
    /// `configuration.projects`, in order.
    let runtimes: [ProjectRuntime]
    let logState: Mutex<LogState>
    /// Outside the lock, which both event loops take several times per send: the last message id issued
    /// (microseconds, `nextMessageName`), and how many faults are set (0 nearly always, so a send need not lock to
    /// find none; written under the lock).
    let lastMessageMicros = Atomic<UInt64>(0)
    let faultCount = Atomic<Int>(0)
    /// Where sends to Android instances go (`setAndroidConsumer`).
    let androidConsumer = Mutex<(any FCMAndroidDeliveryConsumer)?>(nil)

    package init(configuration: FCMGatewayConfiguration, apns: APNsGateway, clock: any PushClock = SystemClock()) {
        self.configuration = configuration
        self.apns = apns
        self.clock = clock
        let initial = Self.initialState(configuration)
        self.state = Mutex(initial)
        self.logState = Mutex(LogState(capacity: configuration.logCapacity))
        faultCount.store(initial.faults.count, ordering: .releasing)
        var connections: [String: APNsInProcessConnection] = [:]
        for (i, p) in configuration.projects.enumerated() {
            connections[p.id] = APNsInProcessConnection(
                id: UInt64(0xFC30_0000) + UInt64(i), clientCertificateDER: p.apns?.certificateDER)
        }
        runtimes = configuration.projects.map { ProjectRuntime(project: $0, connection: connections[$0.id]!) }
    }

    static func initialState(_ c: FCMGatewayConfiguration) -> State {
        var s = State()
        for p in c.projects {
            for t in p.tokens { s.tokens[t.token] = TokenRecord(project: p.id, entry: t) }
        }
        for f in c.faults { Self.add(f, to: &s) }
        return s
    }

    @discardableResult
    static func add(_ fault: FCMFault, to s: inout State) -> Int {
        var f = fault
        f.id = s.nextFaultID
        s.nextFaultID += 1
        s.faults.append(f)
        return f.id
    }

    /// The `HTTPHandler` to mount on the FCM listener.
    package var handler: FCMHTTPHandler { FCMHTTPHandler(fcm: self) }

    /// The project by id or number.
    package func project(_ idOrNumber: String) -> FCMProject? {
        configuration.projects.first { $0.id == idOrNumber || $0.number == idOrNumber }
    }

    /// `project(_:)`'s project with what a send needs of it.
    func runtime(_ idOrNumber: String) -> ProjectRuntime? {
        runtimes.first { $0.project.id == idOrNumber || $0.project.number == idOrNumber }
    }

    // MARK: Runtime control

    /// Adds or replaces a registration token in `project` (by id). False when the project is unknown.
    @discardableResult
    package func registerToken(_ entry: FCMRegisteredToken, project: String) -> Bool {
        guard let p = self.project(project) else { return false }
        state.withLock { $0.setRecord(TokenRecord(project: p.id, entry: entry), for: entry.token) }
        return true
    }

    /// Marks a token unregistered (UNREGISTERED from now on). False if unknown.
    @discardableResult
    package func unregisterToken(_ token: String) -> Bool {
        state.withLock { s in
            guard let record = s.tokens[token] else { return false }
            var entry = record.entry
            entry.unregistered = true
            s.setRecord(TokenRecord(project: record.project, entry: entry), for: token)
            return true
        }
    }

    /// Every known token with its project, sorted by token.
    package var registeredTokens: [(project: String, token: FCMRegisteredToken)] {
        state.withLock { s in s.tokens.values.map { ($0.project, $0.entry) } }.sorted {
            $0.token.token < $1.token.token
        }
    }

    /// Topic → subscribed tokens.
    package var topics: [String: [String]] {
        state.withLock { s in
            var out: [String: [String]] = [:]
            for (token, topics) in s.subscriptions {
                for t in topics { out[t, default: []].append(token) }
            }
            return out.mapValues { $0.sorted() }
        }
    }

    @discardableResult
    package func addFault(_ fault: FCMFault) -> Int {
        state.withLock { s in
            defer { faultCount.store(s.faults.count, ordering: .releasing) }
            return Self.add(fault, to: &s)
        }
    }
    package func clearFaults() {
        state.withLock { s in
            s.faults.removeAll()
            faultCount.store(0, ordering: .releasing)
        }
    }
    package var activeFaults: [FCMFault] { state.withLock { $0.faults } }

    /// Log entries, oldest first (the last `limit` when given).
    package func log(limit: Int? = nil) -> [FCMLogEntry] {
        logState.withLock { s in
            Array(s.entries.elements.suffix(min(limit ?? configuration.logCapacity, configuration.logCapacity)))
        }
    }
    package func clearLog() { logState.withLock { $0.entries.removeAll() } }

    /// Back to the configuration (tokens, subscriptions, faults; the log and provider tokens start again); issued
    /// access tokens stay valid, and message names stay unique across it.
    package func reset() {
        state.withLock { s in
            s = Self.initialState(configuration)
            faultCount.store(s.faults.count, ordering: .releasing)
        }
        logState.withLock { $0 = LogState(capacity: configuration.logCapacity) }
        for r in runtimes { r.providerToken.withLock { $0 = nil } }
    }

    /// Issues an access token directly (tests and benchmarks that skip the `/token` round trip).
    package func issueAccessToken(clientEmail: String, scopes: Set<String> = [FCMOAuth.messagingScope])
        -> FCMAccessToken
    {
        let t = FCMAccessToken(
            token: FCMOAuth.newAccessToken(), clientEmail: clientEmail, scopes: scopes,
            expiresAt: clock.now().addingTimeInterval(TimeInterval(configuration.accessTokenLifetime)))
        let issued = IssuedAccessToken(t, accounts: configuration.serviceAccounts)
        accessTokens.withLock { $0.issued[t.token] = issued }
        return t
    }

    func appendLog(_ entry: consuming FCMLogEntry) {
        var pending = Optional(entry)
        appendLog(swapping: &pending)
    }

    /// Moves the entry in `entry` into the ring (swapped in under the lock, not copied) and leaves there the entry
    /// the ring dropped, to be freed by the caller after the lock is released.
    func appendLog(swapping entry: inout FCMLogEntry?) {
        logState.withLock { s in
            s.sequence += 1
            entry?.sequence = s.sequence
            s.entries.append(swapping: &entry)
        }
    }

    // MARK: Routing

    /// Answers one request as Google's services would.
    package func evaluate(_ request: HTTPRequest) -> HTTPResponse {
        let (path, query) = Self.splitQuery(request.path)
        // The send path first, without splitting the whole path (the hot route).
        if let project = Self.sendProject(path) {
            guard request.method == "POST" else { return Self.methodNotAllowed }
            return send(request, projectPath: project)
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if path == "/token" {
            guard request.method == "POST" else { return Self.methodNotAllowed }
            return token(request)
        }
        if path == "/fcm/send" { return Self.legacyShutDown }
        // /v1/projects/{p}/registrations/{token}/topicSubscriptions[/{topic}]
        if parts.count >= 7, parts[1] == "v1", parts[2] == "projects", parts[4] == "registrations",
            parts[6] == "topicSubscriptions"
        {
            let token = parts[5].removingPercentEncoding ?? parts[5]
            if parts.count == 7, request.method == "POST" {
                return registrationSubscribe(request, projectPath: parts[3], token: token, topic: query["topic_name"])
            }
            if parts.count == 8, request.method == "DELETE" {
                let topic = parts[7].removingPercentEncoding ?? parts[7]
                return registrationUnsubscribe(
                    request, projectPath: parts[3], token: token, topic: topic,
                    allowMissing: query["allow_missing"] == "true")
            }
            return Self.methodNotAllowed
        }
        if path == "/iid/v1:batchAdd" || path == "/iid/v1:batchRemove" {
            guard request.method == "POST" else { return Self.methodNotAllowed }
            return iidBatch(request, add: path.hasSuffix("batchAdd"))
        }
        // /iid/v1/{token}/rel/topics/{topic}
        if parts.count == 7, parts[1] == "iid", parts[2] == "v1", parts[4] == "rel", parts[5] == "topics" {
            guard request.method == "POST" else { return Self.methodNotAllowed }
            return iidRelate(
                request, token: parts[3].removingPercentEncoding ?? parts[3],
                topic: parts[6].removingPercentEncoding ?? parts[6])
        }
        return FCMErrorResponse.notFound(path).response
    }

    static var methodNotAllowed: HTTPResponse {
        FCMErrorResponse(status: 405, canonical: "UNIMPLEMENTED", message: "Method not allowed.").response
    }

    /// The legacy HTTP API was shut down in July 2024: Google answers `/fcm/send` with 404 and an HTML page.
    static var legacyShutDown: HTTPResponse {
        let html = """
            <!DOCTYPE html>
            <html lang=en><meta charset=utf-8><title>Error 404 (Not Found)!!1</title>
            <p><b>404.</b> <ins>That’s an error.</ins>
            <p>The requested URL <code>/fcm/send</code> was not found on this server.  <ins>That’s all we know.</ins>
            """
        return HTTPResponse(
            status: 404, headers: [HTTPField("content-type", "text/html; charset=UTF-8")], body: Array(html.utf8))
    }

    static func splitQuery(_ full: String) -> (String, [String: String]) {
        var bytes = full  // native and contiguous: scanned in place (the UTF-8 view's `firstIndex` went byte by byte)
        guard bytes.withUTF8({ $0.contains(UInt8(ascii: "?")) }),
            let q = full.utf8.firstIndex(of: UInt8(ascii: "?"))
        else { return (full, [:]) }
        let form = FCMOAuth.parseForm(Array(full.utf8[full.utf8.index(after: q)...]))
        return (String(full[..<q]), form)
    }

    /// `{p}` of `/v1/projects/{p}/messages:send`, byte-wise.
    static func sendProject(_ path: String) -> String? {
        var path = path  // native and contiguous (a no-op for the path a request carries)
        return path.withUTF8 { u -> String? in
            let prefix: StaticString = "/v1/projects/", suffix: StaticString = "/messages:send"
            let p = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            let s = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
            guard u.count > p.count + s.count, u.prefix(p.count).elementsEqual(p),
                u.suffix(s.count).elementsEqual(s)
            else { return nil }
            let middle = UnsafeBufferPointer(rebasing: u[p.count..<(u.count - s.count)])
            guard !middle.contains(UInt8(ascii: "/")) else { return nil }
            return String(decoding: middle, as: UTF8.self)
        }
    }

    /// `{"name":"…"}`, a send's success answer, written directly (the hot path's only response).
    static func nameResponse(_ name: FCMMessageName) -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(name.runtime.tokenNamePrefixEscaped.count + name.runtime.tokenNameSuffix.count + 34)
        body.append(contentsOf: #"{"name":"#.utf8)
        name.writeJSONString(into: &body)
        body.append(UInt8(ascii: "}"))
        return HTTPResponse(status: 200, headers: jsonHeaders, body: body)
    }

    /// Shared by every JSON answer (one array, not one per send).
    static let jsonHeaders = [HTTPField("content-type", "application/json; charset=UTF-8")]

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: value.serializedBytes())
    }

    // MARK: OAuth

    func token(_ request: HTTPRequest) -> HTTPResponse {
        let form = FCMOAuth.parseForm(request.body)
        do {
            let (account, scopes) = try FCMOAuth.verify(
                form: form, accounts: configuration.serviceAccounts, now: clock.now())
            let t = issueAccessToken(clientEmail: account.clientEmail, scopes: scopes)
            return Self.json(
                200,
                [
                    "access_token": .string(t.token), "expires_in": .number(Double(configuration.accessTokenLifetime)),
                    "token_type": "Bearer",
                ])
        } catch {
            return Self.json(error.status, error.json)
        }
    }

    /// The token of an `Authorization: Bearer …` header (scheme case-insensitive, blanks around the token ignored).
    /// Byte-wise: Foundation's trimming bridges to NSString, which costs the send path on every request.
    static func bearerToken(_ request: HTTPRequest) -> String? {
        request.value("authorization").flatMap(bearerToken(header:))
    }

    /// The token of one `authorization` header value (`bearerToken(_:)`).
    static func bearerToken(header: String) -> String? {
        var header = header
        return header.withUTF8 { u -> String? in
            let scheme = "bearer ".utf8
            guard u.count > scheme.count, zip(u, scheme).allSatisfy({ $0 | 0x20 == $1 || ($1 == 0x20 && $0 == 0x20) })
            else { return nil }
            var start = scheme.count, end = u.count
            while start < end, u[start] == 0x20 || u[start] == 0x09 { start += 1 }
            while end > start, u[end - 1] == 0x20 || u[end - 1] == 0x09 { end -= 1 }
            guard start < end else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: u[start..<end]), as: UTF8.self)
        }
    }

    /// The service account behind a bearer, allowed to use `project`.
    func authorize(_ request: HTTPRequest, project: FCMProject?, projectPath: String, now: Date? = nil)
        throws(FCMErrorResponse) -> FCMAccessToken
    {
        let issued = try issuedToken(request)
        let now = now ?? clock.now()
        guard issued.value.expiresAt > now else { throw .invalidCredentials(expired: true) }
        guard issued.allowsMessaging else { throw .insufficientScopes }
        guard let project, issued.allows(project) else { throw .permissionDenied(project: projectPath) }
        return issued.value
    }

    /// The issued token a request's `Authorization: Bearer …` names (CREDENTIALS_MISSING without one, an invalid
    /// token for one never issued).
    func issuedToken(_ request: HTTPRequest) throws(FCMErrorResponse) -> IssuedAccessToken {
        guard let header = request.value("authorization") else { throw .missingCredentials }
        if let known = accessTokens.withLock({ $0.known(header) }) { return known }
        guard let bearer = FCMGateway.bearerToken(header: header) else { throw .missingCredentials }
        let found = accessTokens.withLock { t -> IssuedAccessToken? in
            guard let issued = t.issued[bearer] else { return nil }
            if t.byHeader.count >= AccessTokenTable.maxMemo { t.byHeader.removeAll() }
            t.byHeader[header] = issued
            return issued
        }
        guard let found else { throw .invalidCredentials(expired: false) }
        return found
    }
}
