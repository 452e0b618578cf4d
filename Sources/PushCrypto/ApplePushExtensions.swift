/// Apple's APNs certificate extensions (Apple WWDR CPS; OIDs under 1.2.840.113635.100.6.3).
///
/// Encodings, as found in Pushy (jchambers/pushy `ApnsTestCertificates.java`, `TopicUtil.java`) and in
/// xipki's "Apple WWDR" certificate profile (`certprofileAppleWwdr`):
/// - `…6.3.1` (development/sandbox) and `…6.3.2` (production) are non-critical marker extensions whose
///   value is a constant DER NULL (`05 00`); clients only test for their presence.
/// - `…6.3.6` (topics) is, in OpenSSL config terms, `ASN1:SEQUENCE:apns_topics` with items
///   `UTF8String:<bundle id>`, `SEQWRAP,UTF8String:app`, `UTF8String:<bundle id>.voip`,
///   `SEQWRAP,UTF8String:voip`, … i.e. `SEQUENCE { UTF8String topic, SEQUENCE { UTF8String kind }, … }`.
///   Readers (Pushy) collect the top-level strings and skip the nested sequences.
package enum ApplePushExtensions {
    /// 1.2.840.113635.100.6.3.1: the certificate may connect to the development (sandbox) gateway.
    static let developmentOID = "1.2.840.113635.100.6.3.1"
    /// 1.2.840.113635.100.6.3.2: the certificate may connect to the production gateway.
    static let productionOID = "1.2.840.113635.100.6.3.2"
    /// 1.2.840.113635.100.6.3.6: the list of topics the certificate may push to.
    static let topicsOID = "1.2.840.113635.100.6.3.6"

    /// DER NULL, the value written for the environment marker extensions.
    static let markerValue: [UInt8] = [0x05, 0x00]

    /// The kind label Apple pairs with a topic: "app" for the bundle ID itself, otherwise the suffix
    /// after `bundleID.` (e.g. "voip", "complication"), or the whole topic if it is unrelated.
    package static func kind(ofTopic topic: String, bundleID: String) -> String {
        if topic == bundleID { return "app" }
        if topic.hasPrefix(bundleID + ".") { return String(topic.dropFirst(bundleID.count + 1)) }
        return topic
    }

    /// Encodes the 6.3.6 extension value for `topics` (the bundle ID is used to label each topic's kind).
    static func encodeTopics(_ topics: [String], bundleID: String) -> [UInt8] {
        var body: [UInt8] = []
        for topic in topics {
            body += DER.tlv(0x0C, Array(topic.utf8))
            body += DER.tlv(0x30, DER.tlv(0x0C, Array(kind(ofTopic: topic, bundleID: bundleID).utf8)))
        }
        return DER.tlv(0x30, body)
    }

    /// Decodes a 6.3.6 extension value into its topics (top-level strings, in order). Accepts a value
    /// wrapped once more in an OCTET STRING, as some test generators produce. Returns nil if not DER.
    static func decodeTopics(_ value: [UInt8]) -> [String]? {
        guard var reader = DER.Reader(value), let outer = reader.next(), reader.isAtEnd else { return nil }
        if outer.tag == 0x04 { return decodeTopics(outer.content) }
        guard outer.tag == 0x30 else { return nil }
        var items = DER.Reader(outer.content)
        var topics: [String] = []
        while let item = items?.next() {
            // UTF8String, PrintableString, IA5String: the topic; constructed items are kind labels.
            if [0x0C, 0x13, 0x16].contains(item.tag) {
                topics.append(String(decoding: item.content, as: UTF8.self))
            }
        }
        guard items?.isAtEnd == true else { return nil }
        return topics
    }
}

/// A tiny DER TLV writer/reader, enough for Apple's topic extension.
enum DER {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }

    static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        var bytes: [UInt8] = []
        var value = n
        while value > 0 { bytes.insert(UInt8(value & 0xff), at: 0); value >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    struct Element { var tag: UInt8; var content: [UInt8] }

    struct Reader {
        private let bytes: [UInt8]
        private var offset = 0
        private var failed = false

        init?(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { !failed && offset == bytes.count }

        /// The next element, or nil at the end or on malformed input (then `isAtEnd` is false).
        mutating func next() -> Element? {
            guard !failed, offset < bytes.count else { return nil }
            guard offset + 2 <= bytes.count else { failed = true; return nil }
            let tag = bytes[offset]
            var length = Int(bytes[offset + 1])
            var cursor = offset + 2
            if length & 0x80 != 0 {
                let count = length & 0x7f
                guard count > 0, count <= 4, cursor + count <= bytes.count else { failed = true; return nil }
                length = bytes[cursor..<cursor + count].reduce(0) { $0 << 8 | Int($1) }
                cursor += count
            }
            guard length >= 0, cursor + length <= bytes.count else { failed = true; return nil }
            offset = cursor + length
            return Element(tag: tag, content: Array(bytes[cursor..<cursor + length]))
        }
    }
}
