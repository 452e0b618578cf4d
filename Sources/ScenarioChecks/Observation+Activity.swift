import DeviceSimulator
import Foundation
import PushModel
import SuiteFormat

/// `activity:` checks: the app's Live Activities as ActivityKit keeps them, at the simulated clock's time.
extension Observation {
    func activity(_ field: LiveActivityField, path: String) -> JSONValue? {
        let now = self.now ?? snapshot.events.last?.at ?? Date(timeIntervalSince1970: 0)
        let all = snapshot.liveActivities.activities(of: bundleID)
        if field == .count { return .number(Double(all.filter { $0.onLockScreen(at: now) }.count)) }
        if field == .error {
            for e in appEvents.reversed() {
                if case .activity(.requestFailed(_, let reason)) = e.kind { return .string(reason) }
                if case .activity(.started) = e.kind { return nil }
            }
            return nil
        }
        guard let a = all.last else { return nil }
        switch field {
        case .state: return .string(a.state(at: now).rawValue)
        case .contentState: return lookup(path, in: a.contentState)
        case .relevance: return a.relevanceScore.map(JSONValue.number)
        case .alerted: return .bool(a.alerted)
        case .alerts: return .number(Double(a.alertCount))
        case .updates: return .number(Double(a.updates))
        case .lockScreen: return .bool(a.onLockScreen(at: now))
        case .token: return a.pushToken.map { .string($0.hex) }
        case .id: return .string(a.id)
        case .type: return .string(a.attributesType)
        case .origin: return .string(a.origin.rawValue)
        case .channel: return a.channelID.map(JSONValue.string)
        case .count, .error: return nil
        }
    }
}
