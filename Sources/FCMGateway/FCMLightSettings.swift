import PushModel

extension FCMMessageRules {
    static let lightSettingsFields = ["color", "light_on_duration", "light_off_duration"]
    /// `google.type.Color`'s fields: `red`, `green`, `blue` floats, `alpha` a `google.protobuf.FloatValue` (in proto3
    /// JSON a wrapper is its bare value: `"alpha": 0.5`).
    static let colorFields = ["red", "green", "blue", "alpha"]

    /// `AndroidNotification.light_settings` (`Tests/reference/fcm.md` §10): `color` a `google.type.Color` and both
    /// durations `google.protobuf.Duration`s, each "Required" [G-API]. Types first, as the proto3 JSON parser reads
    /// the message before FCM looks at it, then the required fields and the color's [0, 1] interval.
    static func checkLightSettings(_ n: ProtoObject) throws(FCMErrorResponse) {
        guard
            let l = try n.object(
                "light_settings", type: "google.firebase.fcm.v1.LightSettings", known: lightSettingsFields)
        else { return }
        let color = try l.object("color", type: "google.type.Color", known: colorFields)
        var components: [(field: String, value: Double)] = []
        if let color {
            for name in colorFields {
                guard let v = color[name] else { continue }
                let type = name == "alpha" ? "type.googleapis.com/google.protobuf.FloatValue" : "TYPE_FLOAT"
                guard let x = protoFloat(v) else { throw ProtoObject.invalidValue(color.child(name), type, v) }
                components.append((name, x))
            }
        }
        for name in ["light_on_duration", "light_off_duration"] {
            guard let v = l[name] else { continue }
            guard case .string(let s) = v, durationSeconds(s) != nil else {
                throw ProtoObject.invalidValue(l.child(name), "type.googleapis.com/google.protobuf.Duration", v)
            }
        }
        // FCM's own checks; the wording is firebase-admin's for the same rules (`encode_light_settings`).
        for (name, sdkName) in [
            ("color", "color"), ("light_on_duration", "light_on_duration_millis"),
            ("light_off_duration", "light_off_duration_millis"),
        ] where l[name] == nil {
            throw FCMErrorResponse.invalid(l.child(name), "LightSettings.\(sdkName) is required.")
        }
        for (name, x) in components where !(0...1).contains(x) {
            throw FCMErrorResponse.invalid(
                l.child("color.\(name)"), "LightSettings.color.\(name) must be in the interval [0, 1]; got \(x).")
        }
    }

    /// A proto3 JSON `float`: a number, or a string holding one (`"0.5"`, `"NaN"`, `"Infinity"`, `"-Infinity"`).
    static func protoFloat(_ v: JSONValue) -> Double? {
        switch v {
        case .number(let d): return d
        case .string(let s):
            switch s {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default:
                guard let first = s.utf8.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first),
                    let d = Double(s), d.isFinite
                else { return nil }
                return d
            }
        default: return nil
        }
    }
}
