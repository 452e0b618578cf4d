import APNsGateway
import FCMGateway
import Foundation
import HTTPServer
import Provisioning
import PushCrypto
import PushModel
import YAMLSource

/// The inputs pushcheck parses from outside, one function each, for libFuzzer (`make fuzz`, the
/// `pushcheck-fuzz` executable) and for the regression tests that replay the checked-in corpus and every crasher
/// found (`Tests/Fuzz/`). A target returns normally for any input, accepted or refused; a crash, a trap or a
/// broken invariant (`precondition`) is a finding.
package enum FuzzTargets {
    /// Selector → target.
    package static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "json": json, "jwt": jwt, "yaml": yaml, "plist": plist, "http1": http1, "fcm": fcm,
    ]

    /// The payload parser: `parse` and the allocation-free `isValidObject` (what the gateway runs per push) must
    /// agree, and what we serialize must parse back to the same text. (Not to the same value: a number past
    /// Double's range parses as infinity, which JSON cannot write, and is serialized as `null`.)
    package static func json(_ bytes: [UInt8]) {
        let parsed = try? JSONValue.parse(bytes)
        let isObject: Bool = if case .object? = parsed { true } else { false }
        precondition(JSONValue.isValidObject(bytes) == isObject, "isValidObject disagrees with parse")
        if let parsed {
            let text = parsed.serializedBytes()
            guard let again = try? JSONValue.parse(text) else { preconditionFailure("our own JSON does not parse") }
            precondition(again.serializedBytes() == text, "serialize/parse/serialize changed the text")
        }
    }

    /// FCM `messages:send` bodies: the byte-level reader of the send path may only accept what the full
    /// proto-JSON rules accept, and must then read the same request (it never writes an error itself).
    package static func fcm(_ bytes: [UInt8]) {
        guard let fast = FCMSendFastReader.read(bytes) else { return }
        let full = try? FCMMessageRules.parseSendBodyByRules(bytes)
        precondition(full != nil, "the fast reader accepted a body the full rules refuse")
        precondition(full == fast, "the fast reader read a different request than the full rules")
        // The translation the send path writes byte-wise is canonical JSON (what JSONValue writes for it).
        let payload = FCMTranslation.translatedBytes(
            fast.message, messageID: "1", senderID: "2", fid: "f", bundleID: "b"
        ).payload
        guard let value = try? JSONValue.parse(payload) else { preconditionFailure("the translation is not JSON") }
        precondition(value.serializedBytes() == payload, "the translation is not what JSONValue writes")
    }

    /// Provider tokens as the gateway decodes them, and JWTs as PushCrypto reads them.
    package static func jwt(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = DecodedProviderToken.decode(text)
        _ = try? JWT(compact: text)
    }

    /// Suite and config files: one document and every document, with the standard limits.
    package static func yaml(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? YAMLLoader.load(string: text, file: "fuzz.yaml")
        _ = try? YAMLLoader.loadAll(string: text, file: "fuzz.yaml")
    }

    /// Provisioning profiles: CMS envelope, then the plist inside (or a bare plist).
    package static func plist(_ bytes: [UInt8]) {
        let data = Data(bytes)
        _ = try? CMSEnvelope.content(of: data, source: "fuzz")
        _ = try? PlistValue.parse(data, source: "fuzz")
        _ = try? ProvisioningProfile(mobileprovision: data, source: "fuzz")
    }

    /// The HTTP/1.1 engine behind the control endpoint; the first byte picks where the input is split in two reads.
    static func http1(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        _ = HTTP1Fuzzing.feed(Array(bytes.dropFirst()), split: Int(first) * 4)
    }
}
