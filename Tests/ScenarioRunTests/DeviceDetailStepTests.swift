import Foundation
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing
@testable import YAMLSource

/// The suite spellings issue 11 added: callback arguments, the buttons a notification offers, token
/// captures, swipe_back, content extension facts; each can fail, and mistakes are load errors.
@Suite struct DeviceDetailStepTests {
    @Test func callbackArgumentsAreChecked() async throws {
        let (_, bad) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: News } }, url: "${fixture.https}/news/swift-evolution.html" } }
            - tap
            - expect:
                callback:
                  didReceiveResponse: { action: open, user_info: { url: { contains: swift-evolution } }, calls: 1 }
                  didFinishLaunching: { launch_options: { remoteNotification.aps.alert.title: News } }
            """)
        let f = try #require(Support.onlyFailure(bad))
        #expect(f.message == "expect callback.didReceiveResponse.action")
        #expect(f.actual.contains("com.apple.UNNotificationDefaultActionIdentifier"))
    }

    @Test func theLastCallOfEachCallbackKeepsItsOwnUserInfo() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - foreground
            - send: { payload: { aps: { alert: { title: A } }, n: 1 } }
            - send: { payload: { aps: { content-available: 1 }, n: 2 } }
            - expect:
                callbacks: [didFinishLaunching, willPresent, didReceiveRemoteNotification]
                callback:
                  willPresent: { user_info: { n: 1 }, options: [sound, banner] }
                  didReceiveRemoteNotification: { user_info: { n: 2 }, state: foreground }
                user_info: { n: 2 }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test func offeredActionsComeFromTheCategory() async throws {
        let world = """
            world:
              apps:
                - bundle_id: com.example.x
                  team_id: T1
                  aps_environment: development
                  profile: { all_devices: true }
                  categories: [{ id: C, actions: [{ id: a, title: A }, { id: b, title: B }] }]
            """
        let (_, r) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: x, category: C } } }
              expect: { notification: { actions: [a, c] } }
            """, world: world)
        let f = try #require(Support.onlyFailure(r))
        #expect(f.message == "expect notification.actions" && Support.withoutReadNote(f.actual) == "[\"a\",\"b\"]")
    }

    /// `notification.sound` is the sound the device played (the presentation's), `none` when it played none:
    /// sound authorization off, or a `passive` notification, passes `sound: none` and fails `sound: default`.
    @Test func theSoundCheckReadsWhatThePresentationPlayed() async throws {
        let world = """
            world:
              apps:
                - bundle_id: com.example.x
                  team_id: T1
                  aps_environment: development
                  profile: { all_devices: true }
                  authorization: { status: authorized, sound: false }
            """
        let (_, off) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: Hi }, sound: default } } }
              expect: { notification: { presented: true, sound: default } }
            """, world: world)
        let f = try #require(Support.onlyFailure(off))
        #expect(f.message == "expect notification.sound" && Support.withoutReadNote(f.actual) == "absent")
        let (_, none) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: Hi }, sound: default } } }
              expect: { notification: { presented: true, sound: none } }
            """, world: world)
        #expect(Support.passed(none), "\(Support.describe(none))")
        let (_, passive) = try await Support.runSteps(
            """
            - send: { payload: { aps: { alert: { title: Hi }, sound: chime.caf, interruption-level: passive } } }
              expect: { notification: { sound: none, banner: false } }
            """)
        #expect(Support.passed(passive), "\(Support.describe(passive))")
    }

    @Test func aTokenCapturedBeforeUninstallIs410() async throws {
        let (_, r) = try await Support.runSteps(
            """
            - register:
              capture: { t: token }
            - uninstall
            - expect: { token: none }
            - send: { token: "${t}", payload: { aps: { alert: x } } }
              expect: { status: 410, reason: Unregistered }
            - send: { token: "${device.iphone.previous_token}", payload: { aps: { alert: x } } }
              expect: { status: 410 }
            """)
        #expect(Support.passed(r), "\(Support.describe(r))")
    }

    @Test(
        arguments: [
            ("- expect: { callback: { didRecieveResponse: { action: x } } }", "did you mean 'didReceiveResponse'?"),
            ("- expect: { callback: { didReceiveResponse: { error: x } } }", "calls, action, user_info"),
            ("- expect: { status: 200 }\n  capture: { t: token }", "capture after a send, run or device step"),
            ("- launch:\n  capture: { t: tokn }", "did you mean 'token'?"),
            ("- send: { token: \"${device.iphone.previous_tokn}\", payload: { aps: {} } }", "previous_token"),
            ("- back\n  expect: { navigation: { stack: [] } }", "write '- back:' (with a colon)"),
        ])
    func mistakesAreLoadErrors(steps: String, says: String) throws {
        let body = steps.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(
            separator: "\n")
        let error = try #require(
            try Support.loadError(
                "world:\n  include: \(Support.suites)/apps/news-app.yaml\nscenarios:\n  - name: t\n    steps:\n" + body
                    + "\n"))
        #expect(error.rendered(color: false).contains(says), "\\(error.rendered(color: false))")
    }
}
