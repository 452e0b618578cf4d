import Testing
@testable import YAMLSource

@Suite struct PositionTests {
    @Test func nestedNodesKeepTheirLineAndColumn() throws {
        let text = """
            name: push basics
            steps:
              - send:
                  token: abc
                  payload: {aps: {alert: "hi"}}
              - expect: 200
            """
        let root = try load(text, file: "Suites/x.yaml")
        #expect(root.range.file == "Suites/x.yaml")
        #expect(at(root) == "1:1")
        let steps = try #require(root["steps"]?.items)
        #expect(at(steps[0]) == "3:5")
        let send = try #require(steps[0]["send"])
        #expect(at(send["token"]) == "4:14")
        #expect(at(send["payload"]) == "5:16")
        let alert = try #require(send["payload"]?["aps"]?["alert"])
        #expect(at(alert) == "5:30")
        #expect(alert.range.end == SourcePosition(line: 5, column: 34))  // end is exclusive, after the quote
        #expect(alert.scalar == YAMLScalar("hi", style: .doubleQuoted))
        let keys = try #require(root.pairs).map { "\($0.keyString)@\($0.key.range.start)" }
        #expect(keys == ["name@1:1", "steps@2:1"])
        #expect(at(steps[1]["expect"]) == "6:13")
    }

    @Test func columnsCountCharactersNotBytes() throws {
        // 名前 is 6 UTF-8 bytes but 2 characters: the value starts at column 5.
        let root = try load("名前: 日本語テキスト\nタイトル: \"通知\"\n")
        let pairs = try #require(root.pairs)
        #expect(pairs[0].keyString == "名前")
        #expect(at(pairs[0].value) == "1:5")
        #expect(pairs[0].value.range.end.column == 12)
        #expect(at(pairs[1].value) == "2:7")
        #expect(pairs[1].value.scalar?.value == "通知")
    }

    @Test func crlfLineEndingsCountAsOneLine() throws {
        let root = try load("a: 1\r\nb:\r\n  c: 2\r\n")
        #expect(at(root["b"]?["c"]) == "3:6")
        #expect(root.range.source?.line(3) == "  c: 2")
    }

    @Test func byteOrderMarkIsNotAColumn() throws {
        let root = try load("\u{FEFF}port: abc\n")
        let error = expectError { try root.mapping().required("port", as: Int.self) }
        #expect(error?.column == 7)
        #expect(error?.rendered().contains("\n 1 | port: abc\n   |       ^^^ expected") == true)
    }

    @Test func unicodeLineSeparatorsCountAsLinesLikeLibyaml() throws {
        let root = try load("a: 1\u{2028}b: x\n")
        #expect(at(root["b"]) == "2:4")
        #expect(root.range.source?.line(2) == "b: x")
    }

    @Test func blockScalarsKeepStyleAndStart() throws {
        let root = try load("body: |\n  line one\n  line two\nfolded: >\n  a\n  b\n")
        #expect(root["body"]?.scalar == YAMLScalar("line one\nline two\n", style: .literal))
        #expect(at(root["body"]) == "1:7")
        #expect(root["folded"]?.scalar == YAMLScalar("a b\n", style: .folded))
    }

    @Test func tagsAreReported() throws {
        let root = try load("a: !!str 42\nb: !custom x\n")
        #expect(root["a"]?.tag == "tag:yaml.org,2002:str")
        #expect(root["a"]?.value == .string("42"))
        #expect(root["b"]?.tag == "!custom")
    }

    @Test func emptyInputIsANullScalar() throws {
        let root = try load("")
        #expect(root.isNull)
        #expect(at(root) == "1:1")
        #expect(try YAMLLoader.loadAll(string: "", file: "e.yaml").isEmpty)
        #expect(try load("# only a comment\n").isNull)
    }
}
