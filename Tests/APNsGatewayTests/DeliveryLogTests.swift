import Foundation
@testable import HTTPServer
import HTTPTypes
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import APNsGateway

@Suite struct DeliveryLogTests {
    @Test func recordsEverythingAndQueries() throws {
        let f = Fixture()
        let c = Fixture.connection()
        let ok = f.send(f.request(headers: [("apns-id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301")]), on: c)
        _ = f.send(f.request(token: Fixture.productionToken.hex), on: c, endpoint: .production)
        _ = f.send(f.request(body: ""), on: c)
        let all = f.gateway.log()
        #expect(all.map(\.sequence) == [1, 2, 3])
        #expect(all.map(\.status) == [200, 200, 400])
        #expect(all[0].connectionID == c.id)
        #expect(all[0].endpoint == .sandbox)
        #expect(all[0].topic == Fixture.topic)
        #expect(all[0].pushType == .alert)
        #expect(all[0].headers.contains(HTTPField("apns-topic", Fixture.topic)))
        #expect(String(decoding: all[0].payload, as: UTF8.self) == #"{"aps":{"alert":"hi"}}"#)
        #expect(all[0].auth == .token(teamID: Fixture.team, keyID: Fixture.kid))
        #expect(all[2].reason == "PayloadEmpty")
        #expect(f.gateway.log(matching: APNsLogQuery(apnsID: "3f2504e0-4f89-11d3-9a0c-0305e82c3301")).count == 1)
        #expect(f.gateway.log(matching: APNsLogQuery(apnsUniqueID: ok.apnsUniqueID)).map(\.sequence) == [1])
        #expect(f.gateway.log(matching: APNsLogQuery(token: Fixture.productionToken)).map(\.sequence) == [2])
        #expect(f.gateway.log(matching: APNsLogQuery(token: Fixture.sandboxToken, topic: Fixture.topic)).count == 2)
        #expect(f.gateway.log(matching: APNsLogQuery(endpoint: .production)).count == 1)
        f.gateway.clearLog()
        #expect(f.gateway.log().isEmpty)
    }

    @Test func ringBufferKeepsTheNewest() {
        let f = Fixture { $0.logCapacity = 3 }
        for _ in 0..<7 { _ = f.send(f.request()) }
        #expect(f.gateway.log().map(\.sequence) == [5, 6, 7])
        var log = APNsDeliveryLog(capacity: 2)
        let e = f.gateway.log()[0]
        for _ in 0..<5 { log.append(e) }
        #expect(log.entries.map(\.sequence) == [4, 5])
        #expect(log.evicted == 3)
    }

    @Test func jsonLinesFile() throws {
        let dir = try TempDirectory("apns-log")
        defer { dir.remove() }
        let path = dir.file("log.jsonl")
        do {
            let f = Fixture { $0.logFilePath = path }
            _ = f.send(f.request())
            _ = f.send(f.request(headers: [("apns-priority", "2")]))
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSONValue.parse(String(lines[0]))
        #expect(first["status"] == 200)
        #expect(first["token"] == .string(Fixture.sandboxToken.hex))
        #expect(first[path: "auth.kind"] == "token")
        #expect(try JSONValue.parse(String(lines[1]))["reason"] == "BadPriority")
        // The provider token's signature never reaches the file; its header and claims do (for `iat` and `kid`).
        let authorization = try #require(
            first["headers"]?.arrayValue?.first { $0["name"] == "authorization" }?["value"]?.stringValue,
            "no authorization header in \(first.serialized())")
        let parts = authorization.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts[2] == "…", "\(authorization)")
        #expect(authorization.hasPrefix("bearer eyJ"))
    }

    @Test func unwritableLogFileIsAConfigurationError() {
        var c = APNsGatewayConfiguration()
        c.logFilePath = "/nonexistent-dir/x.jsonl"
        #expect(throws: APNsConfigurationError.self) { try APNsGateway(configuration: c) }
    }
}
