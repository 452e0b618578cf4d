import Testing
@testable import YAMLSource

@Suite struct JSONInputTests {
    @Test func jsonWithTabsAndEscapesLoads() throws {
        let json = """
            {
            \t"aps": {
            \t\t"alert": {"title": "caf\\u00e9 \\/ \\"q\\"", "body": "\\u901a\\u77e5"},
            \t\t"badge": 3,
            \t\t"sound": null
            \t},
            \t"ratio":2.5e3,"ok":true,"list":[1,"two"]
            }
            """
        let root = try load(json, file: "payload.json")
        let alert = try #require(root["aps"]?["alert"])
        #expect(alert["title"]?.scalar?.value == "café / \"q\"")
        #expect(alert["body"]?.scalar?.value == "通知")
        #expect(root["aps"]?["badge"]?.value == .int(3))
        #expect(root["aps"]?["sound"]?.isNull == true)
        #expect(root["ratio"]?.value == .float(2500))
        #expect(root["ok"]?.value == .bool(true))
        #expect(root["list"]?.items?.map(\.value) == [.int(1), .string("two")])
        #expect(at(root["aps"]?["badge"]) == "4:12")  // a tab counts as one column
        #expect(at(alert["title"]) == "3:22")
    }

    @Test func surrogatePairEscapesBecomeOneCharacter() throws {
        let root = try load("{\"e\": \"smile \\ud83d\\ude00!\", \"n\": 1}", file: "e.json")
        #expect(root["e"]?.scalar?.value == "smile 😀!")
        #expect(root["n"]?.value == .int(1))
    }

    @Test func escapedBackslashBeforeUIsLeftAlone() throws {
        let root = try load("[\"\\\\ud83d\\\\ude00\", \"\\ud83d\\ude00\"]", file: "e.json")
        #expect(root.items?.map { $0.scalar?.value } == ["\\ud83d\\ude00", "😀"])
    }

    @Test func yamlTextIsNotRewritten() throws {
        // Only JSON-looking input is rewritten; YAML single quotes keep backslashes literally.
        let root = try load("e: '\\ud83d\\ude00'\n")
        #expect(root["e"]?.scalar?.value == "\\ud83d\\ude00")
    }

    @Test func loneSurrogateIsASyntaxError() {
        let error = expectError { try load("{\"e\": \"\\ud83d\"}", file: "e.json") }
        #expect(error?.kind == .syntax)
        #expect(error?.message == "syntax error: found invalid Unicode character escape code")
    }

    @Test func duplicateJSONKeysAreRejected() {
        let error = expectError { try load("{\"a\": 1,\n \"a\": 2}", file: "d.json") }
        #expect(error?.kind == .duplicateKey)
        #expect(error?.line == 2)
        #expect(error?.column == 2)
    }
}
