import Testing
@testable import YAMLSource

/// Exact rendered output for every error kind (golden strings).
@Suite struct RenderingTests {
    @Test func unknownKeyMatchesTheHurlLayout() throws {
        let filler = (1...11).map { "# line \($0)" }.joined(separator: "\n")
        let text = filler + "\nstep:\n      send: x\n      expcet: 200\n"
        let root = try load(text, file: "Suites/x.yaml")
        let error = expectError { try root["step"]!.mapping(allowedKeys: ["expect", "send", "run"]) }
        #expect(error?.kind == .unknownKey)
        #expect(error?.line == 14)
        #expect(error?.column == 7)
        #expect(
            error?.rendered() == """
                error: unknown key 'expcet'
                  --> Suites/x.yaml:14:7
                   |
                14 |       expcet: 200
                   |       ^^^^^^ expected one of: expect, send, run
                   |
                   = help: did you mean 'expect'?
                """)
    }

    @Test func colorWrapsPartsInANSI() throws {
        let root = try load("expcet: 1\n", file: "c.yaml")
        let error = expectError { try root.mapping(allowedKeys: ["expect"]) }
        let esc = "\u{1B}"
        #expect(
            error?.rendered(color: true) == """
                \(esc)[1;31merror\(esc)[0m\(esc)[1m: unknown key 'expcet'\(esc)[0m
                  \(esc)[1;34m-->\(esc)[0m c.yaml:1:1
                   \(esc)[1;34m|\(esc)[0m
                \(esc)[1;34m 1 |\(esc)[0m expcet: 1
                   \(esc)[1;34m|\(esc)[0m \(esc)[1;31m^^^^^^\(esc)[0m \(esc)[1;31mexpected one of: expect\(esc)[0m
                   \(esc)[1;34m|\(esc)[0m
                   \(esc)[1;34m= help:\(esc)[0m did you mean 'expect'?
                """)
        #expect(error?.rendered(color: false).contains(esc) == false)
    }

    @Test func wrongTypeNamesTheKeyAndWhatWasFound() throws {
        let m = try load("port: abc\n").mapping()
        let error = expectError { try m.required("port", as: Int.self) }
        #expect(error?.kind == .typeMismatch)
        #expect(
            error?.rendered() == """
                error: wrong type for 'port'
                  --> t.yaml:1:7
                   |
                 1 | port: abc
                   |       ^^^ expected an integer, found the string 'abc'
                   |
                """)
    }

    @Test func quotedNumberGetsAHint() throws {
        let m = try load("port: \"8080\"\n").mapping()
        let error = expectError { try m.required("port", as: Int.self) }
        #expect(
            error?.rendered() == """
                error: wrong type for 'port'
                  --> t.yaml:1:7
                   |
                 1 | port: "8080"
                   |       ^^^^^^ expected an integer, found the string '8080'
                   |
                   = help: remove the quotes
                """)
    }

    @Test func enumValueSuggestsTheClosest() throws {
        let m = try load("team: T1\nenvironment: prod\n").mapping()
        let error = expectError { try m.required("environment", oneOf: ["sandbox", "production"]) }
        #expect(error?.kind == .invalidValue)
        #expect(
            error?.rendered() == """
                error: invalid value 'prod' for 'environment'
                  --> t.yaml:2:14
                   |
                 2 | environment: prod
                   |              ^^^^ expected one of: sandbox, production
                   |
                   = help: did you mean 'production'?
                """)
    }

    @Test func missingKeyPointsAtTheParentKey() throws {
        let root = try load("name: x\napns:\n  key_id: ABC\n")
        let error = expectError { try root.mapping().requiredMapping("apns").required("team_id", as: String.self) }
        #expect(error?.kind == .missingKey)
        #expect(
            error?.rendered() == """
                error: missing required key 'team_id'
                  --> t.yaml:2:1
                   |
                 2 | apns:
                   | ^^^^ expected key 'team_id' under 'apns'
                   |
                """)
    }

    @Test func missingKeyInASequenceItemPointsAtTheItem() throws {
        let items = try load("steps:\n  - key_id: ABC\n").mapping().requiredSequence("steps")
        let error = expectError { try items[0].mapping().required("team_id", as: String.self) }
        #expect(
            error?.rendered() == """
                error: missing required key 'team_id'
                  --> t.yaml:2:5
                   |
                 2 |   - key_id: ABC
                   |     ^ expected key 'team_id' in this mapping
                   |
                """)
    }

    @Test func keyWithoutValuePointsAtTheKey() throws {
        let m = try load("team_id:\nport: 1\n").mapping()
        let error = expectError { try m.required("team_id", as: String.self) }
        #expect(
            error?.rendered() == """
                error: key 'team_id' has no value
                  --> t.yaml:1:1
                   |
                 1 | team_id:
                   | ^^^^^^^ expected a value for 'team_id'
                   |
                """)
    }

    @Test func duplicateKey() {
        let error = expectError { try load("team_id: A\nport: 1\nteam_id: B\n", file: "Suites/s.yaml") }
        #expect(error?.kind == .duplicateKey)
        #expect(
            error?.rendered() == """
                error: duplicate key 'team_id'
                  --> Suites/s.yaml:3:1
                   |
                 3 | team_id: B
                   | ^^^^^^^ already defined at line 1
                   |
                   = help: remove one of the two 'team_id' entries
                """)
    }

    @Test func unknownAnchor() {
        let error = expectError { try load("a: &base 1\nb: *bsae\n") }
        #expect(error?.kind == .badAlias)
        #expect(
            error?.rendered() == """
                error: unknown anchor 'bsae'
                  --> t.yaml:2:4
                   |
                 2 | b: *bsae
                   |    ^^^^^ no '&bsae' anchor is defined before this alias
                   |
                   = help: did you mean '*base'?
                """)
    }

    @Test func badMerge() {
        let error = expectError { try load("base: &b [1]\nx:\n  <<: *b\n") }
        #expect(error?.kind == .badMerge)
        #expect(
            error?.rendered() == """
                error: cannot merge a sequence
                  --> t.yaml:3:7
                   |
                 3 |   <<: *b
                   |       ^^ expected a mapping or a list of mappings (e.g. '<<: *defaults')
                   |
                """)
    }

    @Test func secondDocument() {
        let error = expectError { try load("a: 1\n---\nb: 2\n") }
        #expect(error?.kind == .multipleDocuments)
        #expect(
            error?.rendered() == """
                error: more than one document
                  --> t.yaml:2:1
                   |
                 2 | ---
                   | ^^^ expected a single document
                   |
                   = help: remove the '---' separator, or split the file
                """)
    }

    @Test func invalidDuration() throws {
        let m = try load("timeout: 2 secs\n").mapping()
        let error = expectError { try m.required("timeout", as: Duration.self) }
        #expect(
            error?.rendered() == """
                error: invalid duration '2 secs' for 'timeout'
                  --> t.yaml:1:10
                   |
                 1 | timeout: 2 secs
                   |          ^^^^^^ expected a duration: number + ns, us, ms, s, m or h
                   |
                   = help: write a number with a unit, e.g. '250ms', '2s', '5m'
                """)
    }

    @Test func exactlyOneRejectsTwo() throws {
        let m = try load("- send: 1\n  expect: 2\n").sequence()[0].mapping()
        let error = expectError { try m.exactlyOne(of: ["send", "expect"]) }
        #expect(
            error?.rendered() == """
                error: 'send' and 'expect' cannot be combined
                  --> t.yaml:2:3
                   |
                 2 |   expect: 2
                   |   ^^^^^^ expected exactly one of: send, expect
                   |
                   = help: split them into separate entries
                """)
    }

    @Test func ioErrorHasNoSnippet() {
        let error = expectError { try YAMLLoader.load(path: "/nonexistent/pushcheck/x.yaml") }
        #expect(error?.kind == .io)
        #expect(error?.line == 0)
        #expect(
            error?.rendered().hasPrefix(
                "error: no such file\n  --> /nonexistent/pushcheck/x.yaml\n   = help: check the path") == true)
    }

    @Test func caretLinesUpUnderJapaneseText() throws {
        // Each of タイトル/通知/本番 is drawn two cells wide: the caret prefix must be
        // 6 cells for "環境: " and the carets 4 cells for "本番".
        let m = try load("タイトル: 通知テスト\n環境: 本番\n", file: "Suites/jp.yaml").mapping()
        let error = expectError { try m.required("環境", oneOf: ["sandbox", "production"]) }
        #expect(error?.column == 5)
        #expect(
            error?.rendered() == """
                error: invalid value '本番' for '環境'
                  --> Suites/jp.yaml:2:5
                   |
                 2 | 環境: 本番
                   |       ^^^^ expected one of: sandbox, production
                   |
                """)
    }

    @Test func caretLinesUpAfterFullWidthPunctuation() throws {
        // The seed app's confirmation alert: 25 wide characters (incl. 。 and ？) before the bad key.
        let line = "expect_alert: {title: 確認, message: 入力内容が保存されていません。編集を終了しますか？, buttns: [OK, キャンセル]}"
        let root = try load(line + "\n", file: "Suites/back.yaml")
        let error = expectError {
            try root.mapping().requiredMapping("expect_alert", allowedKeys: ["title", "message", "buttons"])
        }
        #expect(error?.column == 63)  // characters, not bytes and not cells
        let indent = String(repeating: " ", count: 22 + 4 + 11 + 50 + 2)
        #expect(
            error?.rendered() == """
                error: unknown key 'buttns'
                  --> Suites/back.yaml:1:63
                   |
                 1 | \(line)
                   | \(indent)^^^^^^ expected one of: title, message, buttons
                   |
                   = help: did you mean 'buttons'?
                """)
    }

    @Test func caretCopiesTabsBeforeTheSpot() {
        let error = expectError { try load("{\n\t\"a\": 1,\n\t\"b\" 2\n}\n", file: "x.json") }
        #expect(
            error?.rendered() == """
                error: syntax error: did not find expected ',' or '}'
                  --> x.json:3:6
                   |
                 3 | \t"b" 2
                   | \t    ^ while parsing a flow mapping (started at 1:1)
                   |
                   = help: add the missing ',' or close the '{' opened at 1:1
                """)
    }

    @Test func descriptionIsOneLine() throws {
        let m = try load("port: abc\n").mapping()
        let error = expectError { try m.required("port", as: Int.self) }
        #expect(error?.description == "t.yaml:1:7: wrong type for 'port' (expected an integer, found the string 'abc')")
    }
}
