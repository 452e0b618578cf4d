import Testing
@testable import Reports

@Suite struct XMLTextTests {
    @Test func stripsAnsiColourSequences() {
        #expect(XMLText.sanitize("\u{1B}[31mred\u{1B}[0m and \u{1B}[1;32mbold\u{1B}[m") == "red and bold")
    }

    @Test func stripsOtherEscapeForms() {
        #expect(XMLText.sanitize("a\u{1B}]8;;https://x.test\u{1B}\\link\u{1B}]8;;\u{1B}\\b") == "alinkb")  // OSC 8 hyperlink
        #expect(XMLText.sanitize("\u{1B}]0;title\u{7}x") == "x")  // OSC ended by BEL
        #expect(XMLText.sanitize("\u{9B}31mx") == "x")  // 8-bit CSI
        #expect(XMLText.sanitize("a\u{1B}(Bb\u{1B}7c") == "abc")  // charset select, save cursor
        #expect(XMLText.sanitize("\u{1B}[2K\rprogress") == "\rprogress")
        #expect(XMLText.sanitize("ends with escape \u{1B}") == "ends with escape ")
        #expect(XMLText.sanitize("cut CSI \u{1B}[31") == "cut CSI ")
    }

    @Test func replacesIllegalCharactersAndKeepsLegalOnes() {
        #expect(
            XMLText.sanitize("\u{0}\u{8}\u{B}\u{C}\u{1F}\u{7F}") == "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{7F}")
        #expect(XMLText.sanitize("\u{FFFE}\u{FFFF}\u{FFFD}") == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(
            XMLText.sanitize("tab\tlf\ncr\r😀 ü \u{D7FF}\u{E000}\u{10FFFF}")
                == "tab\tlf\ncr\r😀 ü \u{D7FF}\u{E000}\u{10FFFF}")
    }

    @Test func escaping() {
        #expect(
            XMLText.escapeText("a < b && c > d ]]> \"q\" 'a'\n\t\r")
                == "a &lt; b &amp;&amp; c &gt; d ]]&gt; \"q\" 'a'\n\t&#13;")
        #expect(XMLText.escapeAttribute("a<\"b\">&\n\t\r") == "a&lt;&quot;b&quot;&gt;&amp;&#10;&#9;&#13;")
    }
}

@Suite struct HostnameTests {
    @Test func currentHostnameIsAUsableToken() {
        let name = TestReport.currentHostname()
        #expect(!name.isEmpty)
        #expect(!name.contains { $0.isWhitespace })
        #expect(name.unicodeScalars.allSatisfy(XMLText.isLegal))
    }
}
