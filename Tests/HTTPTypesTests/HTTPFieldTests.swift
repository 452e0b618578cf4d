import HTTPTypes
import Testing

@Suite struct HTTPFieldTests {
    @Test func namesAreLowercasedAndLookupsIgnoreTheirSpelling() {
        let fields = [HTTPField("Apns-Topic", "a"), HTTPField("apns-topic", "b"), HTTPField("X-Ünï", "c")]
        #expect(fields.map(\.name) == ["apns-topic", "apns-topic", "x-ünï"])
        #expect(fields.values("APNS-TOPIC") == ["a", "b"])
        #expect(fields.value("apns-topic") == "a")
        #expect(fields.value("X-ÜNÏ") == "c")
        #expect(fields.value("absent") == nil && fields.values("absent").isEmpty)
        #expect(HTTPField(lowercased: "apns-id", "1").description == "apns-id: 1")
    }

    @Test func namesBeyondASCIIAreLowercasedToo() {
        #expect(HTTPField("content-type", "x").name == "content-type")
        #expect(HTTPField("Content-Type", "x").name == "content-type")
        #expect(HTTPField("ÄPNS-X", "x").name == "äpns-x")
    }
}
