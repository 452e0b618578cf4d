/// What the first scenarios of a run would otherwise make on their way (the shared key material, the web engine with
/// its trust store and transfer thread), made ahead: the runner calls it while it discovers and parses the suites,
/// so the first worlds find them ready instead of waiting on each other's locks. Each piece is made exactly as a
/// world makes it on first use; a piece that fails here is left to that world, which meets and reports the same
/// error. Not the shared gateway server: its loop threads set up TLS after it returns, and a run that then ends at
/// once (a suite file with errors) exited under them while OpenSSL cleaned up (a crash in its locks).
package enum RunWarmUp {
    /// Makes the pieces every scenario world shares (`fixtureCAPath` and `stepTimeout` as `RunEnvironment` has them).
    package static func prepareSharedWorld(fixtureCAPath: String, stepTimeout: Duration) {
        guard let credentials = try? SharedCredentials.shared() else { return }
        _ = try? credentials.webView(fixtureCAPath: fixtureCAPath, timeout: min(stepTimeout, .seconds(15)))
    }
}
