import Testing

@testable import WebUI

/// What the pages' scripts may not do, checked on the compiled-in text (the browser tests in Tests/python show
/// the result in Chromium; these catch a regression without a browser).
@Suite struct WebUIScriptTests {
    static let scripts: [(String, String)] = [
        ("drawing", WebUI.drawingScript), ("sequence", WebUI.sequenceScript), ("report", WebUI.reportScript),
        ("console", WebUI.consoleScript),
    ]

    /// Untrusted strings reach the DOM as text only: no HTML parsing sink, no code from strings.
    @Test func scriptsUseNoHTMLOrCodeSinks() {
        let sinks = [
            "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
            "setTimeout('", "setTimeout(\"", "createContextualFragment", "DOMParser",
        ]
        for (name, script) in Self.scripts {
            for sink in sinks { #expect(!script.contains(sink), "\(name) script uses \(sink)") }
        }
    }

    /// Nothing is fetched from elsewhere: no URL but the SVG namespace appears in a script or the style sheet.
    @Test func pagesReferenceNoOutsideURL() {
        for (name, text) in Self.scripts + [("styles", WebUI.styles)] {
            let urls = text.components(separatedBy: "://").dropFirst().map { "://" + $0.prefix(40) }
            for url in urls {
                #expect(url.hasPrefix("://www.w3.org/2000/svg"), "\(name) mentions \(url)")
            }
            // `url(#id)` names an element of the same document (the diagram's arrowhead); anything else is a fetch.
            let fetches = text.components(separatedBy: "url(").dropFirst().filter {
                !$0.hasPrefix("#") && !$0.hasPrefix("'#")
            }
            #expect(!text.contains("@import") && fetches.isEmpty, "\(name) loads a resource")
        }
    }

    /// Pages are shown with every sandbox restriction: `sandbox` is set empty, never with `allow-scripts`.
    @Test func pageFrameIsSandboxedWithoutScripts() {
        #expect(WebUI.drawingScript.contains("h('iframe', { sandbox: ''"))
        for (name, script) in Self.scripts { #expect(!script.contains("allow-"), "\(name) relaxes the sandbox") }
    }

    @Test func policyForbidsEveryOutsideSource() {
        let report = WebUI.contentSecurityPolicy(.report)
        #expect(report.hasPrefix("default-src 'none';"))
        #expect(report.contains("connect-src 'none'"))
        #expect(WebUI.contentSecurityPolicy(.console).contains("connect-src 'self'"))
        #expect(WebUI.document(.report, title: "t").contains(report))
    }
}

@Suite struct WebUIEmbeddingTests {
    /// Data can never close its script block or open a comment, and means the same after `JSON.parse`.
    @Test func embeddedJSONCannotEndTheScriptBlock() {
        let hostile = #"{"a":"</script><script>alert(1)</script><!-- & >","b":"\u2028"}"#
        let safe = WebUI.embeddable(hostile)
        #expect(!safe.contains("<") && !safe.contains(">") && !safe.contains("&"))
        #expect(safe.contains(#"\u003c/script\u003e\u003cscript\u003e"#))
        #expect(safe.contains(#"\u003c!-- \u0026 \u003e"#))
        let document = WebUI.document(.report, title: "</title><script>x", dataJSON: safe)
        let blockStart = document.range(of: WebUI.dataOpeningTag)!.upperBound
        let blockEnd = document.range(of: "</script>", range: blockStart..<document.endIndex)!.lowerBound
        #expect(String(document[blockStart..<blockEnd]) == safe)
        #expect(document.contains("<title>&lt;/title&gt;&lt;script&gt;x</title>"))
    }
}
