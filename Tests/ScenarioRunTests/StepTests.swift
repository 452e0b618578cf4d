import Foundation
import PushcheckTestSupport
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing

/// Each step kind; harness faults as errors; determinism; cancellation.
@Suite struct StepTests {
    @Test func lifecycleStepsMoveTheApp() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - foreground
            - expect: { state: foreground, callbacks: [didFinishLaunching] }
            - background
            - expect: { state: background }
            - suspend
            - expect: { state: suspended }
            - terminate
            - expect: { state: not-running }
            - launch
            - force_quit
            - expect: { state: force-quit }
            - reboot
            - expect: { state: not-running }
            - state: background
            - expect: { state: background }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func installUninstallRegisterAndAuthorization() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - run: echo ${device.iphone.token}
              capture: { first: stdout }
            - uninstall
            - expect: { install: not-installed, token: none }
            - send: { token: "${first}", payload: { aps: { alert: gone } } }
              expect: { status: 410, reason: Unregistered }
            - install
            - expect: { install: installed, registration: registered, token: { not: { equals: "${first}" } } }
            - authorization: { status: provisional }
            - send: { payload: { aps: { alert: quiet } } }
              expect: { notification: { quiet: true, banner: false } }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func notificationInteractions() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: one } } }
            - send: { payload: { aps: { alert: two } } }
            - expect: { notification: { count: 2 } }
            - dismiss
            - expect: { notification: { count: 1 } }
            - tap: n1
            - expect: { notification: { count: 0 }, callbacks: [didFinishLaunching, didReceiveResponse], user_info: { aps.alert: one } }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
        let (_, none) = try await Support.runSteps("- tap")
        let f = try #require(Support.onlyFailure(none))
        #expect(f.message == "no notification to tap in Notification Center")
        let (_, action) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: one } } }
            - action: reply
            """)
        #expect(Support.onlyFailure(action)?.message.contains("has no action 'reply'") == true)
    }

    /// A suite step and a `serve` control action are one decoder: the control spellings work in a suite.
    @Test func controlEndpointSpellingsAreSteps() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: First } } } }
            - send: { payload: { aps: { alert: { title: Second } } } }
            - dismiss: { title: First }
            - expect: { notification: { count: 1 } }
            - authorize: denied
            - send: { payload: { aps: { alert: { title: Third } } } }
              expect: { notification: { count: 1 } }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
        let (_, noSuch) = try await Support.runSteps("- dismiss: { title: Nothing }")
        #expect(
            Support.onlyFailure(noSuch)?.message.hasPrefix("dismiss failed:") == true, "\(Support.describe(noSuch))")
        let misplaced = try Support.loadError("scenarios:\n  - name: x\n    steps: [{ tap: latest, on: n1 }]\n")
        #expect(misplaced?.expected == "on: only with action:")
    }

    @Test func navigationSteps() async throws {
        let world = """
            world:
              apps:
                - bundle_id: com.example.nav
                  team_id: T1
                  aps_environment: development
                  profile: { all_devices: true }
                  navigation:
                    tabs: [Main]
                    logged_in: false
                    login_screen: login
                    screens: [{ id: login }, { id: home }, { id: edit, confirm_back: { title: Sure?, buttons: [Yes, No], confirm: Yes } }]
                    routes:
                      - { name: shortcut, on: [quick-action], quick_action: edit, requires_login: true, push: [home, edit] }
            """
        let (_, r) = try await Support.runSteps(
            """
            - quick_action: edit
            - expect: { navigation: { top: login, logged_in: false } }
            - log_in
            - expect: { navigation: { stack: [home, edit] } }
            - back
            - expect: { navigation: { alert: Sure? } }
            - answer_alert: No
            - back
            - answer_alert: Yes
            - expect: { navigation: { stack: [home], alert: none } }
            - log_out
            - expect: { navigation: { logged_in: false } }
            """, world: world)
        #expect(Support.passed(r), "\(Support.describe(r))")
        let (_, noAlert) = try await Support.runSteps("- answer_alert: OK", world: world)
        #expect(Support.onlyFailure(noAlert)?.message == "no alert on screen to answer")
        let (_, wrongButton) = try await Support.runSteps(
            """
            - quick_action: edit
            - log_in
            - back
            - answer_alert: Maybe
            """, world: world)
        #expect(Support.onlyFailure(wrongButton)?.message == "the alert has no 'Maybe' button")
    }

    /// Device steps go through `DeviceSimulator.DeviceAction` (what `serve`'s control endpoint applies),
    /// so a step on an app the device does not have fails instead of silently doing nothing.
    @Test func stepOnAnAppThatIsNotInstalledFails() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - uninstall
            - launch
            """)
        let message = Support.onlyFailure(r)?.message ?? ""
        #expect(message.hasPrefix("launch failed:"), "\(Support.describe(r))")
    }

    @Test func waitMovesTheSimulatedClock() async throws {
        let world = """
            world:
              clock: 2026-03-01T00:00:00Z
              apps:
                - bundle_id: com.example.expiring
                  team_id: T1
                  aps_environment: development
                  profile: { all_devices: true, expires: 2026-03-01T12:00:00Z }
            """
        let (_, r) = try await Support.runSteps(
            """
            - launch
            - expect: { state: foreground }
            - terminate
            - wait: 13h
            - launch
            - expect: { state: not-running, findings: profile-expired }
            """, world: world)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func runStepsSeeTheGatewaysAndAreBounded() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - run:
                command: |
                  test -n "$PUSHCHECK_APNS_SANDBOX_URL" && test -n "$PUSHCHECK_APNS_PRODUCTION_URL"
                  test -s "$PUSHCHECK_CA_FILE" && test -s "$PUSHCHECK_APNS_KEY_FILE"
                  echo "$PUSHCHECK_DEVICE_TOKEN_IPHONE $PUSHCHECK_APNS_TOPIC $GREETING ${env.GREETING} $STEP_VAR"
                env: { STEP_VAR: "${device.iphone.udid}" }
              capture: { line: stdout }
              expect: { exit: 0, stdout: { matches: "^[0-9a-f]{64} com.example.pushdemo hello hello 00008110-000A1C2E0E12801E" } }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
        let (_, slow) = try await Support.runSteps("- run: { command: sleep 20, timeout: 300ms }")
        guard case .error(let type, let message, _) = slow.status else {
            Issue.record("expected a timeout error: \(Support.describe(slow))")
            return
        }
        #expect(type == .timeout && message.contains("sleep 20"))
        // The transcript says the step's timeout killed it, not "exit 9" as if the command had exited with 9.
        #expect(slow.transcript.contains("  killed by signal 9 after the timeout (0.3 seconds)"), "\(slow.transcript)")
        #expect(!slow.transcript.contains("exit 9"))
        let (_, crash) = try await Support.runSteps("- run: kill -SEGV $$")
        guard case .error(let ctype, _, _) = crash.status else {
            Issue.record("expected a command error: \(Support.describe(crash))")
            return
        }
        #expect(ctype == .command)
        #expect(crash.transcript.contains("  killed by signal 11"), "\(crash.transcript)")
    }

    /// A backend script starts as it would from a shell: no signal blocked, none ignored (SIGPIPE included),
    /// whatever pushcheck's own threads block or ignore.
    @Test func runStepsStartWithAnEmptySignalMaskAndDefaultDispositions() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - run: grep -E '^Sig(Blk|Ign)' /proc/self/status
              expect: { exit: 0, stdout: "SigBlk:\\t0000000000000000\\nSigIgn:\\t0000000000000000\\n" }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
        let (_, term) = try await Support.runSteps("- run: kill -TERM $$; echo survived $?")
        guard case .error(let type, let message, _) = term.status else {
            Issue.record("expected the command to be ended by SIGTERM: \(Support.describe(term))")
            return
        }
        #expect(type == .command)
        // Said as what happened: a signal it was sent, not a crash.
        #expect(message.hasPrefix("command was killed by signal 15 (Terminated): "), "\(message)")
        #expect(term.transcript.contains("  killed by signal 15"), "\(term.transcript)")
        #expect(!term.transcript.contains("| survived"), "\(term.transcript)")
    }

    @Test func undefinedEnvironmentVariableIsAnErrorAtItsPosition() async throws {
        let (scenario, r) = try await Support.runSteps("- run: echo ${env.PUSHCHECK_TEST_SURELY_UNSET}")
        guard case .error(let type, let message, let detail) = r.status else {
            Issue.record("expected an error: \(Support.describe(r))")
            return
        }
        #expect(type == .variable)
        #expect(message == "\(scenario.file):6:19: undefined variable '${env.PUSHCHECK_TEST_SURELY_UNSET}'")
        #expect(detail.contains("^"))
    }

    @Test func cancellationIsReportedAsInterrupted() async throws {
        let path = try Support.write("scenarios:\n  - name: slow\n    steps:\n      - run: sleep 25\n")
        let suite = try Support.load(path)
        let task = Task {
            await ScenarioExecutor.run(suite.scenarios[0], in: suite, environment: FixturePages.environment)
        }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let result = await task.value
        guard case .error(let type, _, _) = result.status else {
            Issue.record("expected interrupted: \(Support.describe(result))")
            return
        }
        #expect(type == .interrupted)
    }

    @Test func sameSeedSameTokensAndTranscript() async throws {
        let steps = """
            - send: { payload: { aps: { alert: { title: Hello } }, url: "https://example.com/x" } }
            - tap
            - run: echo ${device.iphone.token}
            """
        let (scenario, a) = try await Support.runSteps(steps)
        let suite = try Support.load(scenario.file)
        let b = await ScenarioExecutor.run(suite.scenarios[0], in: suite, environment: FixturePages.environment)
        var env = FixturePages.environment
        env.seed = 8
        let c = await ScenarioExecutor.run(suite.scenarios[0], in: suite, environment: env)
        func normalized(_ t: String) -> String {
            t.replacingOccurrences(
                of: #"127\.0\.0\.1:\d+(/w/\d+)?"#, with: "127.0.0.1:PORT", options: .regularExpression
            )
            .replacingOccurrences(
                of: #"apns-unique-id: [0-9a-f-]+"#, with: "apns-unique-id: X", options: .regularExpression
            )
            .replacingOccurrences(of: #"scenario: t \([^)]*\)"#, with: "scenario: t", options: .regularExpression)
        }
        #expect(Support.passed(a) && Support.passed(c), "\(Support.describe(a))")
        #expect(normalized(a.transcript) == normalized(b.transcript))
        #expect(a.transcript.contains("apns-id: "))
        let token = #/token ([0-9a-f]{64})/#
        let ta = try #require(a.transcript.firstMatch(of: token)).1
        let tc = try #require(c.transcript.firstMatch(of: token)).1
        #expect(ta != tc)
    }

    @Test func skippedScenariosDoNotRun() async throws {
        let path = try Support.write("scenarios:\n  - name: later\n    skip: waiting for FCM\n    steps: [reboot]\n")
        let suite = try Support.load(path)
        let r = await ScenarioExecutor.run(suite.scenarios[0], in: suite, environment: RunEnvironment())
        guard case .skipped(let reason) = r.status else {
            Issue.record("expected skipped")
            return
        }
        #expect(reason == "waiting for FCM")
    }
}

extension StepTests {
    @Test func sendWithTheTeamsOwnKeyFileAndEnvironments() async throws {
        let key = try TempKey.make()
        let world = """
            world:
              include: \(Support.suites)/apps/news-app.yaml
              gateway:
                apns:
                  keys:
                    - { key_id: TEAMKEY001, team_id: ABCDE12345, private_key: \(key) }
            """
        let (_, r) = try await Support.runSteps(
            """
            - send:
                auth: { key_file: \(key), key_id: TEAMKEY001, team_id: ABCDE12345 }
                payload: { aps: { alert: signed with the team's key } }
              expect: { status: 200, delivered: true }
            - send:
                auth: { key_file: \(key), key_id: WRONGKEY01, team_id: ABCDE12345 }
                payload: { aps: { alert: x } }
              expect: { status: 403, reason: InvalidProviderToken }
            - send:
                environment: production
                payload: { aps: { alert: x } }
              expect: { status: 400, reason: BadDeviceToken }
            - send:
                auth: { bearer: "bearer not-a-jwt" }
                payload: { aps: { alert: x } }
              expect: { status: 403, reason: InvalidProviderToken }
            """, world: world)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }
}

/// A .p8-style key written to a temp file.
enum TempKey {
    static func make() throws -> String {
        let path = try Support.scratch("key-\(UUID().uuidString).p8")
        try runTool("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path])
            .requireSuccess()
        return path
    }
}

extension StepTests {
    @Test func providerTokensAreRefreshedLikeAWellBehavedProvider() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: one } } }
              expect: { status: 200 }
            - wait: 30m
            - send: { payload: { aps: { alert: same token, 30 minutes later } } }
              expect: { status: 200 }
            - wait: 25m
            - send: { payload: { aps: { alert: refreshed at 55 minutes } } }
              expect: { status: 200 }
            - wait: 2h
            - send: { payload: { aps: { alert: refreshed again } } }
              expect: { status: 200 }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }
}

extension StepTests {
    @Test func backendScriptsGetARootURLLikeAPNs() async throws {
        // Provider libraries often take only a host and port: a `run` step's gateway URL has no path,
        // and the world's own gateway answers there.
        let (_, r) = try await Support.runSteps(
            """
            - run: echo "$PUSHCHECK_APNS_SANDBOX_URL"
              expect:
                stdout: { matches: "^https://127\\\\.0\\\\.0\\\\.1:[0-9]+\\\\s*$" }
            - run: curl -sS --http2 --cacert "$PUSHCHECK_CA_FILE" -d '{}' "$PUSHCHECK_APNS_SANDBOX_URL/3/device/00"
              expect:
                stdout: { contains: MissingProviderToken }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func aWorldWithItsOwnClientCertificateCAsGetsItsOwnListener() async throws {
        let dir = try TempDirectory("scenarios-team-ca")
        defer { dir.remove() }
        let ca = try OpenSSLCertificateMaker(in: dir, days: 1).selfSigned("ca", commonName: "team CA", isCA: true)
        let world = """
            world:
              include: \(Support.suites)/apps/news-app.yaml
              gateway: { apns: { client_certificate_cas: [\(ca.cert)] } }
            """
        let (_, r) = try await Support.runSteps(
            """
            - send: { auth: certificate, payload: { aps: { alert: x } } }
              expect: { status: 403, reason: BadCertificate }
            - send: { payload: { aps: { alert: x } } }
              expect: { status: 200 }
            - run: echo "$PUSHCHECK_APNS_SANDBOX_URL"
              expect: { stdout: { matches: "^https://127\\\\.0\\\\.0\\\\.1:[0-9]+\\n$" } }
            """, world: world)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }
}
