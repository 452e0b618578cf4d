@testable import DeviceSimulator
import Foundation
@testable import PushModel
import Testing

@testable import ScenarioChecks
@testable import SuiteFormat

/// `expect: callback:` reads the fields SuiteFormat's `CallbackField` table lists, from the calls that carry them.
@Suite struct CallbackArgumentsTests {
    /// A call carries exactly the fields the table lists for its callback. Exhaustive: a new callback fails to
    /// compile here until it has a sample.
    @Test func callbackFieldsAreTheOnesEachCallCarries() throws {
        func sample(_ kind: AppCallback.Kind) throws -> AppCallback {
            switch kind {
            case .didFinishLaunching: return .didFinishLaunching(remoteNotification: .object(["a": 1]))
            case .didRegisterForRemoteNotifications:
                return .didRegisterForRemoteNotifications(
                    token: try #require(DeviceToken(hex: String(repeating: "ab", count: 32))))
            case .didFailToRegisterForRemoteNotifications: return .didFailToRegisterForRemoteNotifications(error: "e")
            case .willPresent: return .willPresent(userInfo: .object([:]), options: [])
            case .didReceiveRemoteNotification:
                return .didReceiveRemoteNotification(userInfo: .object([:]), state: .background)
            case .legacyDidReceiveRemoteNotification: return .legacyDidReceiveRemoteNotification(userInfo: .object([:]))
            case .didReceiveResponse: return .didReceiveResponse(actionID: "open", userInfo: .object([:]))
            case .performQuickAction: return .performQuickAction(type: "compose")
            case .sceneWillConnect: return .sceneWillConnect(notificationResponse: .object([:]))
            case .pushRegistryDidUpdate:
                return .pushRegistryDidUpdate(token: try #require(DeviceToken(hex: String(repeating: "cd", count: 32))))
            case .didReceiveIncomingPush: return .didReceiveIncomingPush(payload: .object([:]), state: .background)
            case .incomingPushResult: return .incomingPushResult(payload: .object([:]))
            }
        }
        for kind in AppCallback.Kind.allCases {
            let call = try sample(kind)
            #expect(call.kind == kind && call.name == kind.rawValue)
            for field in CallbackField.allCases where field != .calls {
                #expect((field.argument(of: call) != nil) == field.callbacks.contains(kind), "\(kind).\(field)")
            }
        }
    }
}
