import CCurl
import Foundation
import Synchronization

/// Initialises libcurl once per process, before the first handle exists.
private let curlGlobalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

/// Owns one curl multi handle and the one thread that drives it with `curl_multi_poll`.
///
/// Callers on any thread hand requests over through `state` and wake the loop with
/// `curl_multi_wakeup`; all easy handles are created, driven and destroyed on the loop thread.
///
/// `@unchecked Sendable` (the only one in this module): `multi` is a raw C pointer. It is used by the
/// loop thread, except for `curl_multi_wakeup`, which libcurl documents as safe from any thread; that
/// call happens under `cleanedUp`'s lock and only while it is false, and the loop calls `curl_multi_cleanup`
/// and sets it under the same lock. Everything else shared lives in `state`.
final class CurlMultiLoop: @unchecked Sendable {
    private struct Submission {
        var id: UInt64
        var request: ClientRequest
        var continuation: CheckedContinuation<TransferResult, Never>
    }

    private struct State {
        var nextID: UInt64 = 1
        var submitted: [Submission] = []
        var cancelled: [UInt64] = []
        var stopping = false
    }

    private let multi: UnsafeMutableRawPointer
    private let configuration: HTTPClientConfiguration
    private let state = Mutex(State())
    /// Whether `multi` has been cleaned up: `curl_multi_wakeup` is called under this lock, not `state`'s, so the loop
    /// thread (woken by it) never waits for a submitter still inside the wakeup's system call.
    private let cleanedUp = Mutex(false)
    /// Who waits for the loop thread to have cleaned up (`shutdownAndWait`), and whether it has.
    private let ended = Mutex(LoopEnd())

    private struct LoopEnd {
        var done = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    init(configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        guard curlGlobalInit == CURLE_OK else {
            throw .configuration("curl_global_init failed with code \(curlGlobalInit.rawValue)")
        }
        guard let multi = curl_multi_init() else {
            throw .configuration("curl_multi_init failed (out of memory?)")
        }
        self.multi = multi
        self.configuration = configuration
        _ = pc_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = pc_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.maxConnectionsPerHost))
        let thread = Thread { [self] in self.run() }
        thread.name = "pushcheck-curl"
        thread.start()
    }

    /// Runs `request` on the loop thread and waits for it without blocking a concurrency thread.
    func execute(_ request: ClientRequest) async -> TransferResult {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TransferResult, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: .failure(.cancelled))
                    return
                }
                let accepted = state.withLock { s in
                    guard !s.stopping else { return false }
                    s.submitted.append(Submission(id: id, request: request, continuation: continuation))
                    return true
                }
                if accepted { wake() } else { continuation.resume(returning: .failure(.shutDown)) }
            }
        } onCancel: {
            state.withLock { $0.cancelled.append(id) }
            wake()
        }
    }

    /// Fails whatever is in flight with `.shutDown` and ends the thread. Returns at once; safe to call twice.
    func shutdown() {
        state.withLock { $0.stopping = true }
        wake()
    }

    /// Stops the loop and returns once its thread has released every connection and the multi handle: a process
    /// that exits right after (a one-shot command) must not run OpenSSL's exit-time clean-up while this thread is
    /// still freeing TLS state on it (a crash in libcrypto at exit).
    func shutdownAndWait() async {
        shutdown()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = ended.withLock { end in
                if end.done { return true }
                end.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Makes the loop look at `state` (its `curl_multi_poll` returns, or the next one does at once).
    private func wake() {
        cleanedUp.withLock { if !$0 { _ = curl_multi_wakeup(multi) } }
    }

    // MARK: - loop thread

    private func run() {
        let blobs = PinnedBlobs(configuration)
        var transfers: [UInt: CurlTransfer] = [:]  // by easy-handle address
        var keysByID: [UInt64: UInt] = [:]
        var cancelledEarly: Set<UInt64> = []
        while true {
            let (submitted, cancelled, stopping) = state.withLock { s in
                defer {
                    s.submitted = []
                    s.cancelled = []
                }
                return (s.submitted, s.cancelled, s.stopping)
            }
            for submission in submitted {
                if cancelledEarly.remove(submission.id) != nil {
                    submission.continuation.resume(returning: .failure(.cancelled))
                    continue
                }
                guard
                    let transfer = CurlTransfer.make(
                        id: submission.id, request: submission.request, configuration: configuration,
                        blobs: blobs, continuation: submission.continuation)
                else { continue }
                let code = curl_multi_add_handle(multi, transfer.easy)
                guard code == CURLM_OK else {
                    let text = String(cString: curl_multi_strerror(code))
                    transfer.finish(.failure(.configuration("curl_multi_add_handle failed: \(text)")))
                    continue
                }
                transfers[transfer.key] = transfer
                keysByID[transfer.id] = transfer.key
            }
            for id in cancelled {
                guard let key = keysByID.removeValue(forKey: id), let transfer = transfers.removeValue(forKey: key)
                else {
                    cancelledEarly.insert(id)
                    continue
                }
                curl_multi_remove_handle(multi, transfer.easy)
                transfer.finish(.failure(.cancelled))
            }
            if stopping { break }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                guard let transfer = transfers.removeValue(forKey: UInt(bitPattern: easy)) else { continue }
                keysByID[transfer.id] = nil
                transfer.complete(code)
                curl_multi_remove_handle(multi, easy)
            }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }

        for transfer in transfers.values {
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.finish(.failure(.shutDown))
        }
        transfers = [:]
        let late = state.withLock { s in
            defer { s.submitted = [] }
            return s.submitted
        }
        for submission in late { submission.continuation.resume(returning: .failure(.shutDown)) }
        cleanedUp.withLock { cleanedUp in
            curl_multi_cleanup(multi)
            cleanedUp = true
        }
        let waiters = ended.withLock { end in
            end.done = true
            defer { end.waiters = [] }
            return end.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
