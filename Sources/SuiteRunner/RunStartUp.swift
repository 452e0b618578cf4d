import ScenarioRun

/// The start of a run that does not depend on the suites — the fixture web server, then the key material and web
/// engine every scenario world shares (`RunWarmUp`) — begun before discovery and parsing, so both cores work while the main thread parses
/// (the first scenarios used to make these on their way, one waiting on the other). `SuiteRun.execute` takes the
/// fixture server from it; a run that ends before that (a load error) calls `discard()`.
package struct RunStartUp: Sendable {
    private let fixture: Task<Result<FixtureServer, FixtureServerError>, Never>

    /// Starts the fixture server for `configuration.pagesDirectory`, then warms the shared world.
    package static func begin(_ configuration: RunConfiguration) -> RunStartUp {
        let pages = configuration.pagesDirectory
        let stepTimeout = configuration.stepTimeout
        return RunStartUp(
            fixture: Task.detached {
                let fixture: FixtureServer
                do throws(FixtureServerError) {
                    fixture = try FixtureServer(pagesDirectory: pages)
                } catch {
                    return .failure(error)
                }
                RunWarmUp.prepareSharedWorld(fixtureCAPath: fixture.caPath, stepTimeout: stepTimeout)
                return .success(fixture)
            })
    }

    /// The fixture server (or why it did not start), once the warm-up is done.
    func fixtureServer() async -> Result<FixtureServer, FixtureServerError> { await fixture.value }

    /// Stops the fixture server of a run that will not execute (its CA file is removed).
    package func discard() async {
        if case .success(let server) = await fixture.value { server.stop() }
    }
}
