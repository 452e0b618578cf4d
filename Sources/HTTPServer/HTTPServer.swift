import CLinux
import Foundation
import Synchronization

/// A multi-loop HTTP/2 + HTTP/1.1 server (TLS or cleartext) that hands complete requests to `HTTPHandler`s.
///
/// Each loop is one thread with its own epoll set and its own SO_REUSEPORT socket per listener, so the kernel
/// spreads connections across loops. Typical use:
/// ```swift
/// let server = HTTPServer(listeners: [ListenerConfiguration(name: "sandbox", tls: tls, handler: gateway)])
/// let bound = try server.start()          // bound[0].url == "https://127.0.0.1:43123"
/// server.shutdown(grace: .seconds(5))     // GOAWAY, finish in-flight streams, close
/// ```
package final class HTTPServer: Sendable {
    private enum Phase { case idle, running([EventLoop]), stopping([EventLoop]) }

    package let listeners: [ListenerConfiguration]
    let loopCount: Int
    private let phase = Mutex<Phase>(.idle)
    private let statsBox = StatsBox()

    /// - Parameters:
    ///   - listeners: one entry per port to serve.
    ///   - loops: event-loop threads (default: one per core).
    package init(listeners: [ListenerConfiguration], loops: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.listeners = listeners
        loopCount = max(1, loops)
    }

    /// Binds every listener on every loop and starts the loop threads.
    /// - Returns: where each listener actually listens (port 0 resolved), in `listeners` order.
    package func start() throws(HTTPServerError) -> [BoundListener] {
        try phase.withLock { (phase: inout Phase) throws(HTTPServerError) -> [BoundListener] in
            guard case .idle = phase else { throw .alreadyStarted }
            for listener in listeners {
                if let tls = listener.tls { try TLSContext.validate(tls, listener: listener.name) }
            }
            var perLoop = [[ListenerRuntime.Spec]](repeating: [], count: loopCount)
            var bound: [BoundListener] = []
            var opened: [Int32] = []
            do throws(HTTPServerError) {
                for listener in listeners {
                    let first = try makeListeningSocket(host: listener.host, port: listener.port, exclusiveProbe: true)
                    opened.append(first.fd)
                    perLoop[0].append(.init(fd: first.fd, port: first.port, config: listener))
                    for i in 1..<loopCount {
                        let more = try makeListeningSocket(host: listener.host, port: first.port)
                        opened.append(more.fd)
                        perLoop[i].append(.init(fd: more.fd, port: first.port, config: listener))
                    }
                    let scheme = listener.tls == nil ? "http" : "https"
                    let host = listener.host.contains(":") ? "[\(listener.host)]" : listener.host
                    bound.append(
                        BoundListener(
                            name: listener.name, host: listener.host, port: first.port, scheme: scheme,
                            url: "\(scheme)://\(host):\(first.port)"))
                }
                var loops: [EventLoop] = []
                for i in 0..<loopCount { loops.append(try EventLoop(index: i)) }
                for (loop, specs) in zip(loops, perLoop) { loop.start(listeners: specs, stats: statsBox) }
                phase = .running(loops)
            } catch {
                opened.forEach { Glibc.close($0) }
                throw error
            }
            return bound
        }
    }

    /// Starts a graceful shutdown without waiting: listeners close, HTTP/2 connections get GOAWAY(NO_ERROR),
    /// in-flight requests may finish within `grace`; whatever is left then is closed.
    package func beginShutdown(grace: Duration) {
        let loops: [EventLoop] = phase.withLock { phase in
            guard case .running(let loops) = phase else { return [] }
            phase = .stopping(loops)
            return loops
        }
        let deadline = monotonicNow() + grace.nanoseconds
        for loop in loops { loop.execute { $0.beginShutdown(deadline: deadline) } }
    }

    /// Graceful shutdown (see `beginShutdown(grace:)`), returning once every loop thread has exited.
    package func shutdown(grace: Duration) {
        beginShutdown(grace: grace)
        waitUntilStopped()
    }

    /// Blocks until every loop thread has exited (after a shutdown). Returns at once if never started.
    package func waitUntilStopped() {
        let loops: [EventLoop] = phase.withLock { phase in
            switch phase {
            case .idle: []
            case .running(let loops), .stopping(let loops): loops
            }
        }
        loops.forEach { $0.stopped.wait() }
    }

    /// Counters across all loops.
    var stats: HTTPServerStats { statsBox.snapshot }

    /// A server dropped while running stops its loops at once.
    deinit { beginShutdown(grace: .zero) }
}
