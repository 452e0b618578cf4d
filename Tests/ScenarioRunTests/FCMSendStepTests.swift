import Foundation
@testable import PushModel
import Testing
@testable import YAMLSource

@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat

/// `send: { via: fcm, … }` in suite files: what decodes, and every mistake at its line and column with what to do.
@Suite struct FCMSendStepTests {
    static func steps(_ body: String) -> String { "scenarios:\n  - name: a\n    steps:\n" + body }

    static func firstSend(_ text: String) throws -> SendStep {
        let url = URL(fileURLWithPath: NSTemporaryDirectory() + "fcm-step-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let suite = try Support.load(url.path)
        guard case .send(let s)? = suite.scenarios.first?.steps.first?.action else {
            Issue.record("no send step")
            throw CancellationError()
        }
        return s
    }

    @Test func decodesTheV1MessageAndItsOptions() throws {
        let s = try Self.firstSend(
            FCMSendRunTests.world + "\n"
                + Self.steps(
                    """
                          - send:
                              via: fcm
                              to: iphone
                              validate_only: true
                              project: fcm-demo
                              message: { notification: { title: Hi }, data: { order: "${order}" }, apns: { headers: { apns-priority: "5" } } }
                    """) + "\nvariables: { order: A1 }\n")
        #expect(s.via == "fcm" && s.to == "iphone" && s.validateOnly && !s.messageHasTarget)
        #expect(s.project != nil)
        let json = try JSONValue.parse(try s.payload.render { $0 == "order" ? "A1" : nil })
        #expect(json["notification"]?["title"] == "Hi")
        #expect(json["data"]?["order"] == "A1")
        // The message's string scalars are checked when the suite loads, then dropped (the loaded suite is kept for
        // the whole run): a reference nothing defines is refused at its line.
        #expect(s.payloadScalars.isEmpty)
        let unknown = try Support.loadError(
            FCMSendRunTests.world + "\n"
                + Self.steps("      - send: { via: fcm, to: iphone, message: { data: { order: \"${nope}\" } } }\n"))
        #expect(unknown?.rendered(color: false).contains("nope") == true)

        let targeted = try Self.firstSend(
            FCMSendRunTests.world + "\n"
                + Self.steps("      - send: { via: fcm, message: { topic: news, data: { a: b } } }\n"))
        #expect(targeted.messageHasTarget && !targeted.validateOnly)
        let raw = try Self.firstSend(
            FCMSendRunTests.world + "\n"
                + Self.steps("      - send: { via: fcm, message: '{\"token\": \"x:y\", \"data\": {\"n\": 1}}' }\n"))
        #expect(raw.messageHasTarget)
    }

    @Test func mistakesAreReportedWhereTheyAreWithWhatToDo() throws {
        let via = try #require(try Support.loadError(Self.steps("      - send: { via: fmc, message: {} }\n")))
        #expect(via.line == 4 && via.column == 22)
        #expect(via.suggestion == "did you mean 'fcm'?")

        let key = try #require(
            try Support.loadError(Self.steps("      - send: { via: fcm, message: { notifcation: { title: Hi } } }\n")))
        #expect(key.kind == .unknownKey && key.line == 4 && key.column == 38)
        #expect(key.suggestion == "did you mean 'notification'?")

        let option = try #require(
            try Support.loadError(Self.steps("      - send: { via: fcm, validateonly: true, message: {} }\n")))
        #expect(option.kind == .unknownKey && option.line == 4)
        #expect(option.suggestion == "did you mean 'validate_only'?")

        let payload = try #require(
            try Support.loadError(Self.steps("      - send: { via: fcm, payload: { aps: {} } }\n")))
        #expect(payload.line == 4 && payload.expected?.contains("message:") == true)

        let missing = try #require(try Support.loadError(Self.steps("      - send: { via: fcm, to: iphone }\n")))
        #expect(missing.kind == .missingKey && missing.message.contains("message"))

        let notJSON = try #require(
            try Support.loadError(Self.steps("      - send: { via: fcm, message: 'token: x' }\n")))
        #expect(notJSON.line == 4 && notJSON.expected?.contains("JSON object") == true)

        let capture = try #require(
            try Support.loadError(
                Self.steps("      - send: { via: fcm, message: {} }\n        capture: { x: reason }\n")))
        #expect(capture.message.contains("cannot capture 'reason'") && capture.expected?.contains("error_code") == true)

        let validate = try #require(
            try Support.loadError(Self.steps("      - send: { via: fcm, validate_only: maybe, message: {} }\n")))
        #expect(validate.line == 4)
    }

    @Test func checksOnTheFCMAnswerDecodeFromTheTable() throws {
        let e = try ExpectationDecoder.decode(
            try YAMLLoader.load(string: "status: 404\nerror_code: UNREGISTERED\nname: none\n", file: "x.yaml"))
        #expect(e.checks.map(\.subject) == [.status, .fcmErrorCode, .fcmName])
        do {
            _ = try ExpectationDecoder.decode(try YAMLLoader.load(string: "error_cod: UNREGISTERED\n", file: "x.yaml"))
            Issue.record("accepted error_cod")
        } catch {
            #expect(error.suggestion == "did you mean 'error_code'?")
        }
    }
}

/// `send: { via: fcm }` run for real: the runner's sender gets a bearer from the world's mock `/token`, sends over
/// HTTP/2 + TLS, and the checks see FCM's answer and the push FCM made.
@Suite(.serialized) struct FCMSendRunTests {
    static let world = """
        world:
          apps:
            - bundle_id: com.example.fcmdemo
              team_id: ABCDE12345
              aps_environment: development
              background_modes: [remote-notification]
              profile: { devices: [00008110-000A1C2E0E12801E] }
              firebase: { sender_id: "123456789012", project_id: fcm-demo }
              delegate: { will_present: [banner, list] }
          gateway:
            fcm:
              projects:
                - { id: fcm-demo, number: "123456789012", apns: { team_id: ABCDE12345, key_id: PCKEY00001, environment: sandbox } }
        """

    @Test func aSendPassesItsChecksAndTheTranscriptShowsTheFCMRequestAndItsAPNsHop() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - send: { via: fcm, message: { notification: { title: Hi }, data: { k: v } } }
              capture: { n: name, id: apns-id }
              expect:
                status: 200
                error_code: none
                name: { matches: "^projects/fcm-demo/messages/0:" }
                delivered: true
                user_info: { k: v, gcm.message_id: { exists: true } }
            - run: echo "$PUSHCHECK_FCM_URL $PUSHCHECK_FCM_PROJECT $GOOGLE_APPLICATION_CREDENTIALS ${gateway.fcm}"
              capture: { env: stdout }
            - run: >-
                grep -q "\\"token_uri\\":\\"$PUSHCHECK_FCM_URL/token\\"" "$GOOGLE_APPLICATION_CREDENTIALS" &&
                grep -q '"type":"service_account"' "$GOOGLE_APPLICATION_CREDENTIALS" &&
                stat -c %a "$GOOGLE_APPLICATION_CREDENTIALS"
              expect: { exit: 0, stdout: "600\\n" }
            """, world: Self.world)
        #expect(Support.passed(r), "\(Support.describe(r))")
        #expect(r.transcript.contains("/v1/projects/fcm-demo/messages:send (FCM v1, OAuth bearer for"))
        #expect(r.transcript.contains("↳ APNs sandbox POST /3/device/"))
        // The run step's environment: the root FCM listener (no /w/ prefix), the project, a credentials file.
        let line = try #require(r.transcript.split(separator: "\n").first { $0.contains("captured env = ") })
        let parts = line.replacingOccurrences(of: "    captured env = ", with: "").split(separator: " ").map(
            String.init)
        #expect(parts.count == 4)
        #expect(parts[0].hasPrefix("https://127.0.0.1:") && !parts[0].contains("/w/"))
        #expect(parts[1] == "fcm-demo")
        // The file (read in the run: step above: token_uri at the mock, owner-only) holds a private key: it goes
        // with the world.
        #expect(parts[2].hasSuffix(".json"))
        #expect(!FileManager.default.fileExists(atPath: parts[2]), "\(parts[2]) outlived its world")
        #expect(parts[3] == parts[0])
    }

    @Test func wrongExpectationsFailWithWhatFCMAnswered() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - uninstall
            - send: { via: fcm, message: { token: "${device.iphone.previous_fcm_token}", data: { k: v } } }
              expect: { error_code: INVALID_ARGUMENT, name: { exists: true } }
            """, world: Self.world)
        let failures = Support.failures(r)
        #expect(failures.count == 2, "\(Support.describe(r))")
        let code = try #require(failures.first { $0.message == "expect error_code" })
        #expect(code.expected == "\"INVALID_ARGUMENT\"")
        #expect(code.actual.hasPrefix("\"UNREGISTERED\" (FCM answered 404 NOT_FOUND: Requested entity was not found.)"))
        #expect(code.events.contains("fcm POST /v1/projects/fcm-demo/messages:send → 404 UNREGISTERED"))
        #expect(failures.contains { $0.message == "expect name" && $0.actual.hasPrefix("absent (FCM answered 404") })
    }

    @Test func aWorldWithoutFCMOrAnUnknownProjectIsALoadError() throws {
        let none = try #require(
            try Support.loadError(
                "scenarios:\n  - name: a\n    steps:\n      - send: { via: fcm, message: { data: { k: v } } }\n"))
        #expect(none.line == 4 && none.column == 22 && none.message.contains("no FCM service"))
        #expect(none.suggestion?.contains("gateway: { fcm:") == true)
        let project = try #require(
            try Support.loadError(
                Self.world
                    + "\nscenarios:\n  - name: a\n    steps:\n      - send: { via: fcm, project: fcm-dmeo, message: {} }\n"
            ))
        #expect(project.message == "no FCM project 'fcm-dmeo' in the world")
        #expect(project.suggestion == "did you mean 'fcm-demo'?")
    }
}

@Suite struct RequiresTests {
    @Test func aMissingRequiredFileSkipsTheScenarioSayingHowToGetIt() throws {
        let text = """
            scenarios:
              - name: needs a venv
                requires: { file: no/such/python3, install: make venv }
                steps: [{ run: "true" }]
              - name: needs nothing missing
                requires: { file: . }
                steps: [{ run: "true" }]
            """
        let path = try Support.write(text)
        let suite = try Support.load(path)
        #expect(suite.scenarios[0].skipReason == "requires no/such/python3, which is not there (`make venv` makes it)")
        #expect(suite.scenarios[1].skipReason == nil)
        let typo = try #require(
            try Support.loadError("scenarios:\n  - name: a\n    requires: { fil: x }\n    steps: []\n"))
        #expect(typo.kind == .unknownKey && typo.line == 3 && typo.suggestion == "did you mean 'file'?")
    }
}

/// A backend in a `run:` step that knows FCM only from the step's environment: Python's standard library and
/// openssl (no Google library), following GOOGLE_APPLICATION_CREDENTIALS' token_uri as google-auth does.
@Suite(.serialized) struct FCMRunStepBackendTests {
    static let backend = #"""
        import base64, json, os, subprocess, sys, time, urllib.request, urllib.parse, ssl
        sa = json.load(open(os.environ["GOOGLE_APPLICATION_CREDENTIALS"]))
        ctx = ssl.create_default_context(cafile=os.environ["PUSHCHECK_CA_FILE"])
        b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=")
        now = int(time.time())
        head = b64(json.dumps({"alg": "RS256", "typ": "JWT"}).encode())
        claims = b64(json.dumps({"iss": sa["client_email"], "aud": "https://oauth2.googleapis.com/token",
            "scope": "https://www.googleapis.com/auth/firebase.messaging", "iat": now, "exp": now + 3600}).encode())
        open("key.pem", "w").write(sa["private_key"])
        sig = subprocess.run(["openssl", "dgst", "-sha256", "-sign", "key.pem"], input=head + b"." + claims,
            capture_output=True, check=True).stdout
        form = urllib.parse.urlencode({"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
            "assertion": (head + b"." + claims + b"." + b64(sig)).decode()}).encode()
        token = json.load(urllib.request.urlopen(sa["token_uri"], form, context=ctx))["access_token"]
        url = os.environ["PUSHCHECK_FCM_URL"] + "/v1/projects/" + os.environ["PUSHCHECK_FCM_PROJECT"] + "/messages:send"
        body = json.dumps({"message": {"token": sys.argv[1], "data": {"origin": "backend"},
            "notification": {"title": "Backend"}}}).encode()
        req = urllib.request.Request(url, body, {"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        try:
            print(json.load(urllib.request.urlopen(req, context=ctx))["name"])
        except urllib.error.HTTPError as e:
            print(e.code, e.read().decode())
        """#

    @Test func aBackendOnTheStepsEnvironmentSendsAndTheChecksSeeFCMsAnswer() async throws {
        let script = try Support.write(Self.backend, name: "backend.py")
        let (_, r) = try await Support.runSteps(
            """
            - run:
                command: cd "$(mktemp -d)" && python3 \(script) "$PUSHCHECK_FCM_TOKEN_IPHONE"
              expect:
                exit: 0
                stdout: { matches: "^projects/fcm-demo/messages/0:" }
                status: 200
                name: { matches: "^projects/fcm-demo/messages/0:" }
                delivered: true
                notification: { title: Backend }
                user_info: { origin: backend }
            - uninstall
            - run: cd "$(mktemp -d)" && python3 \(script) "${device.iphone.previous_fcm_token}"
              expect: { exit: 0, stdout: { contains: UNREGISTERED }, status: 404, error_code: UNREGISTERED, delivered: false }
            """, world: FCMSendRunTests.world)
        #expect(Support.passed(r), "\(Support.describe(r))")
        #expect(r.transcript.contains("→ backend via fcm POST /v1/projects/fcm-demo/messages:send → 200"))
    }
}
