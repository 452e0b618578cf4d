import Foundation

/// The web drawing shared by the HTML report (`Reports`) and `serve`'s console (`DeviceBridge`): one style sheet,
/// one script of drawing functions (notifications as iOS shows them, screens, pages, the sequence diagram, hop
/// details) and a script per page. Everything is compiled in as strings: a page never fetches a script, a style
/// or a font.
///
/// Every string shown comes from outside (payloads, headers, pages, suite text): the scripts build the DOM with
/// `textContent` and attributes only, never `innerHTML`, and pages are shown in `<iframe sandbox srcdoc>`
/// without `allow-scripts` (`Tests/WebUITests` checks the scripts for the dangerous calls).
package enum WebUI {
    /// Which page a document is.
    package enum Page: Sendable {
        /// The self-contained HTML report: opens from `file://`, may not contact anything.
        case report
        /// `serve`'s console at `/ui`: talks to its own origin (the control endpoint) only.
        case console
    }

    /// The Content-Security-Policy of `page`: nothing from elsewhere, inline styles and scripts only (they are
    /// ours), images only as `data:`; the console may also call its own origin.
    package static func contentSecurityPolicy(_ page: Page) -> String {
        let connect = page == .console ? "'self'" : "'none'"
        return "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
            + "connect-src \(connect); frame-src 'self'; form-action 'none'; base-uri 'none'"
    }

    /// The whole document for `page` with `title`; `dataJSON` (already made safe by `embeddable(_:)`) goes into a
    /// `<script type="application/json" id="pushcheck-data">` block the page script reads.
    package static func document(_ page: Page, title: String, dataJSON: String = "null") -> String {
        let script = page == .report ? reportScript : consoleScript
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy(page))">
            <meta name="referrer" content="no-referrer">
            <title>\(escapeText(title))</title>
            <style>
            \(styles)
            </style>
            </head>
            <body>
            <noscript>This page is drawn by its inline script: allow JavaScript for this file.</noscript>
            <div id="app"></div>
            <script type="application/json" id="\(dataElementID)">\(dataJSON)</script>
            <script>
            "use strict";
            \(drawingScript)
            \(sequenceScript)
            \(script)
            </script>
            </body>
            </html>

            """
    }

    /// The id of the data block (what `merge-reports` looks for when it reads a report back).
    static let dataElementID = "pushcheck-data"
    /// The exact opening tag of the data block.
    package static let dataOpeningTag = "<script type=\"application/json\" id=\"\(dataElementID)\">"

    /// JSON text made safe inside a `<script>` element: every `<`, `>` and `&` becomes its `\u00XX` escape. They can
    /// only occur inside JSON strings, where the escape means the same character, so `JSON.parse` gives the same
    /// value back, and no `</script`, `<!--` or `<script` can end or confuse the block.
    package static func embeddable(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text for an HTML text node (the title).
    package static func escapeText(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
