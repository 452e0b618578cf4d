import CLinux
import Dispatch
import Foundation
import Synchronization

/// The thread-safe face of one event loop: an epoll fd, an eventfd to wake it, and a task queue.
/// Everything else about the loop lives in `LoopState`, which only its thread touches.
final class EventLoop: Sendable {
    typealias Task = @Sendable (LoopState) -> Void

    let index: Int
    let epollFD: Int32
    let wakeFD: Int32
    private let tasks = Mutex<[Task]>([])
    /// Left when the loop thread exits.
    let stopped = DispatchGroup()

    init(index: Int) throws(HTTPServerError) {
        self.index = index
        epollFD = pc_epoll_create()
        if epollFD < 0 { throw .system(call: "epoll_create1", errno: pc_errno()) }
        wakeFD = pc_eventfd_nonblock()
        if wakeFD < 0 {
            let e = pc_errno()
            Glibc.close(epollFD)
            throw .system(call: "eventfd", errno: e)
        }
        _ = pc_epoll_add(epollFD, wakeFD, pc_EPOLLIN(), LoopState.wakeToken)
    }

    /// Runs `task` on the loop thread soon. Safe from any thread, including the loop's own.
    func execute(_ task: @escaping Task) {
        tasks.withLock { $0.append(task) }
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    func takeTasks() -> [Task] {
        var drained: UInt64 = 0
        _ = Glibc.read(wakeFD, &drained, 8)
        return tasks.withLock { t in
            defer { t = [] }
            return t
        }
    }

    /// Starts the loop thread with these listening sockets.
    func start(listeners: [ListenerRuntime.Spec], stats: StatsBox) {
        stopped.enter()
        let thread = Thread { [self] in
            pc_block_termination_signals()
            let state = LoopState(loop: self, listeners: listeners, stats: stats)
            state.run()
            Glibc.close(self.wakeFD)
            Glibc.close(self.epollFD)
            self.stopped.leave()
        }
        thread.name = "pushcheck-loop-\(index)"
        thread.start()
    }
}

/// A listening socket on one loop, with the loop's own TLS context.
final class ListenerRuntime {
    /// What the server hands a loop (all Sendable); the loop builds its runtime from it.
    struct Spec: Sendable {
        var fd: Int32
        var port: Int
        var config: ListenerConfiguration
    }

    let fd: Int32
    let port: Int
    let config: ListenerConfiguration
    let tls: TLSContext?

    init(_ spec: Spec) {
        fd = spec.fd
        port = spec.port
        config = spec.config
        // Validated in `HTTPServer.start()`, so this does not fail in practice; if it does, the listener
        // serves nothing rather than cleartext.
        tls = spec.config.tls.flatMap { try? TLSContext($0, listener: spec.config.name) }
    }
}

/// Global connection ids: unique within the process.
let connectionIDs = Atomic<UInt64>(1)

/// Loop-confined state: listeners, connections, timers, shutdown. Created and used on the loop thread only.
final class LoopState {
    static let wakeToken: UInt64 = 0
    static let connectionBit: UInt64 = 1 << 63

    let loop: EventLoop
    let stats: StatsBox
    private(set) var listeners: [UInt64: ListenerRuntime] = [:]
    private(set) var connections: [UInt64: Connection] = [:]
    /// Reused by every connection on this loop for socket reads and for TLS plaintext.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
    let tlsBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384, alignment: 16)
    /// Decrypted bytes of one read, kept between reads so that each read does not allocate a new array.
    private var plaintextBuffer: [UInt8] = []
    private var shutdownDeadline: Int64?
    private var parkedListeners: Set<UInt64> = []
    private var lastSweep: Int64 = 0
    private var running = true

    init(loop: EventLoop, listeners specs: [ListenerRuntime.Spec], stats: StatsBox) {
        self.loop = loop
        self.stats = stats
        for (i, spec) in specs.enumerated() {
            let token = UInt64(i + 1)
            let runtime = ListenerRuntime(spec)
            if spec.config.tls != nil && runtime.tls == nil {
                Glibc.close(spec.fd)
                continue
            }
            listeners[token] = runtime
            _ = pc_epoll_add(loop.epollFD, spec.fd, pc_EPOLLIN(), token)
        }
    }

    /// The loop's plaintext array, emptied (capacity kept); hand it back with `returnPlaintextBuffer`.
    func takePlaintextBuffer() -> [UInt8] {
        var b: [UInt8] = []
        swap(&b, &plaintextBuffer)
        b.removeAll(keepingCapacity: true)
        return b
    }

    func returnPlaintextBuffer(_ b: [UInt8]) {
        if b.capacity <= 256 * 1024 { plaintextBuffer = b }  // a huge read's array is not kept
    }

    deinit {
        readBuffer.deallocate()
        tlsBuffer.deallocate()
    }

    func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while running {
            let n = pc_epoll_wait(loop.epollFD, &events, Int32(events.count), timeoutMilliseconds())
            for i in 0..<max(0, Int(n)) {
                let token = pc_epoll_event_token(&events, Int32(i))
                let mask = pc_epoll_event_events(&events, Int32(i))
                if token == Self.wakeToken {
                    for task in loop.takeTasks() { task(self) }
                } else if token & Self.connectionBit != 0 {
                    connections[token]?.handle(events: mask)
                } else if let listener = listeners[token] {
                    acceptAll(listener, token: token)
                }
            }
            sweep()
        }
        for connection in Array(connections.values) { connection.close() }
        closeListeners()
    }

    private func timeoutMilliseconds() -> Int32 {
        var ms: Int64 = 250
        for listener in listeners.values where !connections.isEmpty {
            ms = min(ms, listener.config.idleTimeout.nanoseconds / 4_000_000)
            ms = min(ms, listener.config.openingTimeout.nanoseconds / 4_000_000)
        }
        if !connections.isEmpty, let deadline = shutdownDeadline {
            ms = min(ms, (deadline - monotonicNow()) / 1_000_000)
        }
        return Int32(max(5, ms))
    }

    private func acceptAll(_ listener: ListenerRuntime, token: UInt64) {
        for _ in 0..<64 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = pc_accept_nonblock(listener.fd, &address, &length)
            if fd < 0 {
                let e = pc_errno()
                if e == EAGAIN || e == EWOULDBLOCK || e == EINTR || e == ECONNABORTED { return }
                // Out of descriptors (EMFILE/ENFILE) or memory: a level-triggered listener would spin, so park it
                // until the next sweep.
                _ = pc_epoll_del(loop.epollFD, listener.fd)
                parkedListeners.insert(token)
                return
            }
            _ = pc_setsockopt_int(fd, pc_IPPROTO_TCP(), pc_TCP_NODELAY(), 1)
            let id = connectionIDs.wrappingAdd(1, ordering: .relaxed).oldValue | Self.connectionBit
            let remote = describe(address)
            let connection = Connection(
                id: id, fd: fd, listener: listener, state: self, remoteAddress: "\(remote.host):\(remote.port)")
            connections[id] = connection
            stats.accepted()
        }
    }

    func connectionClosed(_ connection: Connection) {
        if connections.removeValue(forKey: connection.id) != nil { stats.closed() }
    }

    /// Idle timeouts, and the end of a graceful shutdown.
    private func sweep() {
        let now = monotonicNow()
        guard now - lastSweep >= 5_000_000 || shutdownDeadline != nil else { return }
        lastSweep = now
        for token in parkedListeners {
            if let listener = listeners[token] { _ = pc_epoll_add(loop.epollFD, listener.fd, pc_EPOLLIN(), token) }
        }
        parkedListeners = []
        for connection in Array(connections.values) {
            if connection.isIdle(now: now) || connection.missedOpeningDeadline(now: now) {
                connection.closeIdle()
            }
        }
        guard let deadline = shutdownDeadline else { return }
        if connections.isEmpty || now >= deadline { running = false }
    }

    /// Stops accepting, asks every connection to finish, and stops the loop when all are gone or at `deadline`.
    func beginShutdown(deadline: Int64) {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = deadline
        closeListeners()
        for connection in Array(connections.values) { connection.beginShutdown() }
    }

    private func closeListeners() {
        for (token, listener) in listeners {
            if !parkedListeners.contains(token) { _ = pc_epoll_del(loop.epollFD, listener.fd) }
            Glibc.close(listener.fd)
        }
        listeners = [:]
    }
}
